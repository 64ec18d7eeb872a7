#!/usr/bin/env python3
"""sort_cells.py FILE...: prints the canonical "cell" records of the files merged in HBase's
cell order (row, family, qualifier bytes ascending, timestamp and type code descending), with
"seqid" set to 0 and "tags" to [] (what a client scan returns), one per line, exact JSON."""
import json
import re
import sys

TYPES = {"Minimum": 0, "Put": 4, "Delete": 8, "DeleteFamilyVersion": 10, "DeleteColumn": 12,
         "DeleteFamily": 14, "Maximum": 255}


def unbinary(s):
    return re.sub(rb"\\x([0-9A-Fa-f]{2})", lambda m: bytes([int(m.group(1), 16)]), s.encode("latin-1"))


cells = []
for path in sys.argv[1:]:
    with open(path, encoding="utf-8") as f:
        for line in f:
            if '"kind":"cell"' in line:
                c = json.loads(line)
                c["tags"], c["seqid"] = [], 0
                for k in ("path", "table", "region", "v"):  # where hfile-dump read it, schema: not content
                    c.pop(k, None)
                cells.append(c)
cells.sort(key=lambda c: (unbinary(c["row"]), unbinary(c["family"]), unbinary(c["qualifier"]),
                          -int(c["timestamp"]), -TYPES[c["type"]]))
for c in cells:
    print(json.dumps(c, separators=(",", ":"), ensure_ascii=False))
