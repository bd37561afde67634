#!/usr/bin/env python3
"""Every registry key of the synthetic fixtures is one a real Mac gave.

The fixtures written by hand (tests/fixtures/*.snapshot) hold registry
records: each of their keys (query, property path, kind of value) must be
in some dump recorded on a real Mac (the corpus beside the project, imported
as an expectation in tests/real-macs imports it), so that an invented key or
a wrong kind fails here. Without the corpus: skipped (77).
Keys no public real dump has are listed with why in
tests/real-macs/unseen-keys.tsv; a listed key that a real dump now has
fails too, so that the list only shrinks.

usage: synthetic_keys.py DARWIN_SNAPSHOT SOURCE_DIR WORK_DIR
"""
import glob
import os
import re
import sys

RECORD = re.compile(r"^ioreg\[(?P<match>[^#\]]+)#[^\]]*\]\.prop\.(?P<path>\S+) (?P<kind>\w+)")


def keys_of(path):
    """(query, property path with array indexes as N, kind) of a snapshot's registry records."""
    found = set()
    with open(path, errors="replace") as f:
        for line in f:
            m = RECORD.match(line)
            if m:
                parts = ["N" if p.isdigit() else p for p in m.group("path").split(".")]
                found.add((m.group("match"), ".".join(parts), m.group("kind")))
    return found


def main(darwin_snapshot, src, work):
    sys.path.insert(0, os.path.join(src, "tests", "integration"))
    import real_dumps
    real_dumps.corpus_or_skip("fixtures.synthetic_keys_are_real")
    os.makedirs(work, exist_ok=True)
    real = set()
    for expect in sorted(glob.glob(os.path.join(src, "tests", "real-macs", "*", "*.expect"))):
        out = os.path.join(work, os.path.basename(expect) + ".snapshot")
        real_dumps.snapshot(expect, darwin_snapshot, out)
        real |= keys_of(out)
    unseen = {}
    with open(os.path.join(src, "tests", "real-macs", "unseen-keys.tsv")) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                match, path, kind, why = line.rstrip("\n").split("\t")
                unseen[(match, path, kind)] = why
    failed = 0
    for fixture in sorted(glob.glob(os.path.join(src, "tests", "fixtures", "*.snapshot"))):
        name = os.path.relpath(fixture, src)
        for key in sorted(keys_of(fixture)):
            if key in real:
                print(f"ok - {name}: {key[0]} {key[1]} ({key[2]}) is a real Mac's")
            elif key in unseen:
                print(f"ok - {name}: {key[0]} {key[1]} ({key[2]}) has no real dump yet: {unseen[key]}")
            else:
                print(f"not ok - {name}: {key[0]} {key[1]} ({key[2]}) is in no real dump: invented, or of the wrong kind")
                failed += 1
    for key in sorted(unseen):
        if key in real:
            print(f"not ok - unseen-keys.tsv: {key[0]} {key[1]} ({key[2]}) is in a real dump now: take it off the list")
            failed += 1
    print(f"{len(real)} keys in real dumps; {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    sys.exit(main(*sys.argv[1:]))
