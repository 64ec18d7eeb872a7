#!/usr/bin/env python3
"""gen_compact_script.py SEED OUT_PREFIX: writes the scripts of the compaction comparison
(check_compact.sh): OUT_PREFIX.load.jsonl (create a table, random puts and deletes of every
kind over a few rows/qualifiers/timestamps, several flushes, then raw and client scans) and
OUT_PREFIX.compact.jsonl (raw/client scans, HBase major compaction, raw/client scans)."""
import json
import random
import sys

seed, prefix = int(sys.argv[1]), sys.argv[2]
rng = random.Random(seed)
T = "t1"
rows = [f"r{i:02d}" for i in range(24)]
quals = ["", "a", "b", "c"]


def op(**kw):
    return json.dumps(dict(kw), separators=(",", ":"))


load = [op(op="create", table=T, families=[{"name": "f", "compression": "SNAPPY",
                                            "encoding": "FAST_DIFF", "bloom": "ROW",
                                            "max_versions": 2}])]
for flush in range(5):
    for _ in range(70):
        row, q, ts = rng.choice(rows), rng.choice(quals), 1000 + rng.randrange(12)
        kind = rng.random()
        if kind < 0.72:
            load.append(op(op="put", table=T, row=row, family="f", qualifier=q,
                           value=f"v{rng.randrange(1000)}", timestamp=ts))
        elif kind < 0.80:
            load.append(op(op="delete", table=T, row=row, family="f", qualifier=q,
                           type="Delete", timestamp=ts))
        elif kind < 0.88:
            load.append(op(op="delete", table=T, row=row, family="f", qualifier=q,
                           type="DeleteColumn", timestamp=ts))
        elif kind < 0.93:
            load.append(op(op="delete", table=T, row=row, family="f", type="DeleteFamily",
                           timestamp=ts))
        elif kind < 0.97:
            load.append(op(op="delete", table=T, row=row, family="f",
                           type="DeleteFamilyVersion", timestamp=ts))
        else:
            load.append(op(op="delete", table=T, row=row, timestamp=ts))
    load.append(op(op="flush", table=T))
scans = [op(op="scan", table=T), op(op="scan", table=T, raw=False)]
with open(prefix + ".load.jsonl", "w") as f:
    f.write("\n".join(load + scans) + "\n")
with open(prefix + ".compact.jsonl", "w") as f:
    f.write("\n".join(scans + [op(op="compact", table=T, major=True)] + scans) + "\n")
with open(prefix + ".scan.jsonl", "w") as f:
    f.write("\n".join(scans) + "\n")
