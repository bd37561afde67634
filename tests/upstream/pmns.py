"""The namespace upstream's agent installs, from a compatibility table.

PCP's build writes an agent's root_AGENT with numeric PMIDs (pmcpp run over
its root and pmns files): this writes the same from the names and PMIDs of
tests/upstream/*-compat.tsv, for tests that need upstream's agent's
namespace where PCP's package puts it.

usage: pmns.py COMPAT_TSV
"""
import sys


def upstream_pmns(tsv):
    """The namespace upstream's agent installs (its root_AGENT), with numeric
    PMIDs as PCP's build writes it, from the compatibility table."""
    tree = {}
    with open(tsv) as f:
        for line in f:
            if line.startswith("#") or line.startswith("name\t") or not line.strip():
                continue
            name, pmid = line.split("\t")[:2]
            parts = name.split(".")
            for i in range(1, len(parts)):
                tree.setdefault(".".join(parts[:i]), set()).add(parts[i])
            tree.setdefault("", set()).add(parts[0])
            tree[name] = pmid.replace(".", ":")
    out = []

    def emit(node, label):
        out.append("%s {" % label)
        for child in sorted(tree[node]):
            full = child if not node else node + "." + child
            value = tree[full]
            out.append("\t%s\t%s" % (child, value) if isinstance(value, str) else "\t%s" % child)
        out.append("}")
        for child in sorted(tree[node]):
            full = child if not node else node + "." + child
            if not isinstance(tree[full], str):
                emit(full, full)

    emit("", "root")
    return ("\n".join(out) + "\n").encode()


if __name__ == "__main__":
    sys.stdout.write(upstream_pmns(sys.argv[1]).decode())
