#!/usr/bin/env python3
"""Writes the cluster script for check_flushed.sh to stdout: table "flushed" with two families
(a: SNAPPY/FAST_DIFF/ROW, b: GZ/ROW_INDEX_V1/ROWCOL), puts over 60 rows with binary rows,
qualifiers and values, every delete type, three flushes (three store files per family, no
compaction), then a raw scan. Deterministic (fixed seed, explicit timestamps)."""
import json
import random

rnd = random.Random(4)


def b(bs):
    """bytes -> Bytes.toStringBinary"""
    return "".join(chr(c) if 0x20 <= c <= 0x7E and c != 0x5C else "\\x%02X" % c for c in bs)


ops = [{"op": "create", "table": "flushed", "families": [
    {"name": "a", "compression": "SNAPPY", "encoding": "FAST_DIFF", "bloom": "ROW", "max_versions": 1000},
    {"name": "b", "compression": "GZ", "encoding": "ROW_INDEX_V1", "bloom": "ROWCOL", "max_versions": 1000}]}]
rows = [b(b"row-%03d" % i + (b"\x00\xff" if i % 7 == 0 else b"")) for i in range(60)]
quals = ["q1", "q2", "", b(b"\x80\x01\x7f"), "qualifier-long-0123456789"]
for flush in range(3):
    for i in range(150):
        row, fam, q = rnd.choice(rows), rnd.choice("ab"), rnd.choice(quals)
        ts = 1700000000000 + flush * 1000 + i
        k = rnd.random()
        if k < 0.8:
            n = rnd.choice([0, 1, 10, 100, 3000])
            val = b(bytes(rnd.randrange(256) for _ in range(n)))
            ops.append({"op": "put", "table": "flushed", "row": row, "family": fam, "qualifier": q,
                        "value": val, "timestamp": ts})
        else:
            t = rnd.choice(["Delete", "DeleteColumn", "DeleteFamily", "DeleteFamilyVersion"])
            op = {"op": "delete", "table": "flushed", "row": row, "family": fam, "type": t, "timestamp": ts}
            if t in ("Delete", "DeleteColumn"):
                op["qualifier"] = q
            ops.append(op)
    ops.append({"op": "flush", "table": "flushed"})
ops.append({"op": "scan", "table": "flushed"})
for o in ops:
    print(json.dumps(o, separators=(",", ":")))
