#!/usr/bin/env python3
"""gen_copy_family_script.py SEED OUT_PREFIX BULK_DIR: the scripts of check_copy_family.sh.

OUT_PREFIX.bulk.cells.jsonl: the cells of one HFile for HBase's completebulkload (the harness's
`gen --cells-from` writes it into BULK_DIR/f before the load runs).
OUT_PREFIX.load.jsonl: visibility labels, table t1 (family f, VERSIONS 3), four rounds of random
puts (plain, with a cell TTL that has expired or never will, with a visibility expression) and
deletes of every kind (some with a visibility expression), each round flushed; the bulk load of
BULK_DIR after the second round; HBase's split of the region at r12 after the third (compactions
are off, so the daughters keep Reference files to the parent's files, the bulk-loaded one
included); a snapshot of t1 cloned as t2 (HFileLinks, References to links); raw and client
scans of t1 with every label authorized.
OUT_PREFIX.after.jsonl: per table describe (also a separator) and the two scans; compactions
switched on, HBase's major compaction of both tables; per table describe and scans again.
"""
import json
import random
import sys

seed, prefix, bulk_dir = int(sys.argv[1]), sys.argv[2], sys.argv[3]
rng = random.Random(seed)
T = "t1"
rows = [f"r{i:02d}" for i in range(24)]
quals = ["", "a", "b", "c"]
labels = ["secret", "public"]
expressions = ["secret", "public", "secret|public", "secret&public"]
# Cell TTLs count from the cell's timestamp (1000 ms after the epoch here): 1 ms has expired,
# a century has not.
ttls = [1, 100 * 365 * 24 * 3600 * 1000]


def op(**kw):
    return json.dumps(dict(kw), separators=(",", ":"))


def round_ops(n):
    out = []
    for _ in range(n):
        row, q, ts = rng.choice(rows), rng.choice(quals), 1000 + rng.randrange(12)
        value = f"v{rng.randrange(1000)}"
        kind = rng.random()
        put = dict(op="put", table=T, row=row, family="f", qualifier=q, value=value, timestamp=ts)
        if kind < 0.55:
            out.append(op(**put))
        elif kind < 0.64:
            out.append(op(**put, ttl=rng.choice(ttls)))
        elif kind < 0.73:
            out.append(op(**put, visibility=rng.choice(expressions)))
        else:
            d = dict(op="delete", table=T, row=row, family="f", timestamp=ts)
            if rng.random() < 0.15:
                d["visibility"] = rng.choice(expressions)
            if kind < 0.80:
                out.append(op(**d, qualifier=q, type="Delete"))
            elif kind < 0.87:
                out.append(op(**d, qualifier=q, type="DeleteColumn"))
            elif kind < 0.92:
                out.append(op(**d, type="DeleteFamily"))
            elif kind < 0.97:
                out.append(op(**d, type="DeleteFamilyVersion"))
            else:
                out.append(op(op="delete", table=T, row=row, timestamp=ts))
    return out


# The bulk-loaded file: puts across both future daughters, in HBase's cell order (row,
# qualifier, newest first); no sequence ids (HBase gives the loaded file one).
bulk = {}
for _ in range(60):
    bulk[(rng.choice(rows), rng.choice(quals + ["d"]), 1000 + rng.randrange(12))] = \
        f"b{rng.randrange(1000)}"
with open(prefix + ".bulk.cells.jsonl", "w") as f:
    for (row, q, ts) in sorted(bulk, key=lambda k: (k[0], k[1], -k[2])):
        f.write(json.dumps({"kind": "cell", "row": row, "family": "f", "qualifier": q,
                            "timestamp": ts, "type": "Put", "value": bulk[(row, q, ts)],
                            "tags": [], "seqid": 0}, separators=(",", ":")) + "\n")

load = [op(op="vis_labels", table=T, labels=labels),
        op(op="create", table=T, families=[{"name": "f", "compression": "SNAPPY",
                                            "encoding": "FAST_DIFF", "bloom": "ROW",
                                            "max_versions": 3}])]
for r in range(4):
    load += round_ops(60)
    load.append(op(op="flush", table=T))
    if r == 1:
        load.append(op(op="bulkload", table=T, dir=bulk_dir))
    if r == 2:
        load.append(op(op="split", table=T, row="r12"))
# A clone of t1: its store files are HFileLinks to t1's, and References to links.
load.append(op(op="clone", table=T, snapshot="s1", into="t2"))


def scans(t):
    return [op(op="describe", table=t),
            op(op="scan", table=t, authorizations=labels, timeout_s=120),
            op(op="scan", table=t, raw=False, authorizations=labels, timeout_s=120)]


with open(prefix + ".load.jsonl", "w") as f:
    f.write("\n".join(load + scans(T)[1:]) + "\n")
after = scans(T) + scans("t2") + [
    op(op="compaction_switch", table=T, on=True),
    op(op="compact", table=T, major=True, timeout_s=180),
    op(op="compact", table="t2", major=True, timeout_s=180)] + scans(T) + scans("t2")
with open(prefix + ".after.jsonl", "w") as f:
    f.write("\n".join(after) + "\n")
