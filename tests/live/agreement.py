#!/usr/bin/env python3
"""Prepare what test_agreement compares: for every dump of the corpus of real
Macs that tests/real-macs/*/*.expect imports, what the live layer reads from
it and what the replay reads from it.

  tests/live/agreement.py BUILD_DIR

BUILD_DIR is build.sh's, holding test_agreement. Writes BUILD_DIR/agreement/:
  FAMILY/NAME.snapshot   the snapshot the expect file's imports make, made as
                         tests/integration/real_dumps.py makes it (its
                         snapshot()), with test_agreement standing in for
                         darwin-snapshot -q and -s: the queries and sysctl names
                         are the agent's own tables (plat_queries,
                         plat_sysctl_defs)
  FAMILY/NAME.N.tree     each "import MATCH FILE options" line's dump as a whole
                         registry (tests/live/ioreg-tree), for the IOKit double
  FAMILY/NAME.sysctl     each "sysctl FILE" line's dump for the sysctl double
                         (format below)
  manifest               a line per comparison, tab-separated:
                           registry EXPECT RECORDED MATCH DUMP TREE SNAPSHOT
                           sysctl EXPECT RECORDED DUMP SYSCTLS SNAPSHOT
                         or, without the corpus, one line "skip REASON"
("smc" and "hid" lines are not registry dumps: they are left out.)

The sysctl double's file has a line per sysctl, tab-separated:
  int NAME VALUE         a whole number (width 8 past 32 bits, else 4: a width
                         does not change what the live reader gets)
  string NAME TEXT       any other value, as sysctl printed it
  error NAME ERRNO       a read that fails with this Darwin errno
Where the dump's Mac is Apple Silicon (the expect's "recorded" line), each
perflevel's l3cachesize and cpusperl3 that the dump lacks is an EINVAL (22):
xnu-11417.101.15 bsd/kern/kern_mib.c sysctl_hw_generic answers EINVAL for
both where the level has no L3 (l3_cache_size UINT32_MAX), as on every Apple
Silicon chip, so a dump lists no value for them.
"""
import concurrent.futures
import importlib.machinery
import importlib.util
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(SOURCE, "tests", "integration"))
import real_dumps  # noqa: E402


def ioreg_tree():
    """tests/live/ioreg-tree as a module (a process per dump costs more than the work)."""
    loader = importlib.machinery.SourceFileLoader("ioreg_tree", os.path.join(HERE, "ioreg-tree"))
    module = importlib.util.module_from_spec(importlib.util.spec_from_loader("ioreg_tree", loader))
    loader.exec_module(module)
    return module


TREE = ioreg_tree()
SYSCTL_LINE = re.compile(r"^(?P<name>[A-Za-z_][\w.]*)(?:: | = )(?P<value>.*)$")     # tools/sysctl-import's
DARWIN_EINVAL = 22                  # xnu bsd/sys/errno.h
NO_L3 = ("l3cachesize", "cpusperl3")


def sysctl_lines(dump, apple_silicon):
    """The sysctl double's lines for a dump of `sysctl` output."""
    values = {}
    with open(dump, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = SYSCTL_LINE.match(line.rstrip("\n"))
            if m:
                values[m.group("name")] = m.group("value")
    out = []
    for name, value in values.items():
        if re.fullmatch(r"[0-9]+", value):
            out.append(f"int\t{name}\t{value}")
        else:
            out.append(f"string\t{name}\t{value}")
    levels = int(values.get("hw.nperflevels", "0")) if apple_silicon else 0
    for level in range(levels):
        for field in NO_L3:
            if f"hw.perflevel{level}.{field}" not in values:
                out.append(f"error\thw.perflevel{level}.{field}\t{DARWIN_EINVAL}")
    return out


def prepare(expect_path, out_dir, stand_in):
    """The files of one expect file, and its manifest lines; None when its
    snapshot could not be made as the expect says."""
    e = real_dumps.Expect(expect_path)
    wanted = [(n, imp) for n, imp in enumerate(e.imports) if imp[0] not in ("smc", "hid")]
    manifest = []
    if not wanted:
        return manifest
    family = os.path.basename(os.path.dirname(expect_path))
    name = os.path.splitext(os.path.basename(expect_path))[0]
    base = os.path.join(out_dir, family, name)
    os.makedirs(os.path.dirname(base), exist_ok=True)
    snapshot = base + ".snapshot"
    if real_dumps.snapshot(expect_path, stand_in, snapshot) != 0:
        return None
    expect = os.path.join(family, os.path.basename(expect_path))
    recorded = " | ".join(e.recorded)
    for n, (match, dump, options, _) in wanted:
        shown = os.path.relpath(dump, real_dumps.corpus())
        if match == "sysctl":
            sysctls = base + ".sysctl"
            with open(sysctls, "w") as f:
                f.write("".join(line + "\n" for line in sysctl_lines(dump, e.recorded[2] == "Apple Silicon")))
            manifest.append("\t".join(["sysctl", expect, recorded, shown, sysctls, snapshot]))
            continue
        tree = f"{base}.{n}.tree"
        with open(tree, "w") as f, open(os.devnull, "w") as quiet:    # the snapshot's import counted its problems
            TREE.main([match, dump] + options, out=f, err=quiet)
        manifest.append("\t".join(["registry", expect, recorded, match, shown, tree, snapshot]))
    return manifest


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__)
    out_dir = os.path.join(os.path.abspath(argv[1]), "agreement")
    stand_in = os.path.join(os.path.abspath(argv[1]), "test_agreement")
    os.makedirs(out_dir, exist_ok=True)
    # test_agreement -q and -s are built with coverage: their profiles are not the tests'
    os.environ["LLVM_PROFILE_FILE"] = os.path.join(out_dir, "stand-in.profraw")
    if not os.path.isdir(real_dumps.corpus()):
        parts = [[f"skip\tthe dumps recorded on real Macs are not in {real_dumps.corpus()} "
                  "(PMDA_DARWIN_REAL_MACS names another folder)"]]
    else:
        expects = sorted(os.path.join(d, f) for d, _, files in os.walk(real_dumps.EXPECTS)
                         for f in files if f.endswith(".expect"))
        with concurrent.futures.ThreadPoolExecutor(os.cpu_count()) as pool:   # the importers run as processes
            parts = list(pool.map(lambda expect: prepare(expect, out_dir, stand_in), expects))
    with open(os.path.join(out_dir, "manifest"), "w") as f:
        f.write("".join(line + "\n" for part in parts if part for line in part))
    return 0 if None not in parts else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
