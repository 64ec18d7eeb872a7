#!/usr/bin/env python3
"""check_tsv_parse.py OURS.jsonl HBASE.jsonl CASES: hfilekit's TSV parse (tsv_parse_cases) against
HBase's ImportTsv.TsvParser (harness `tsvparse`) on the lines of CASES. A `same` line must give the
same record (row, timestamp, TTL, visibility, cells) or a bad line for the same reason (HBase's
message mapped to our reason name); a `diff` line is a documented difference and must differ."""
import json
import sys

# HBase's bad-line messages (BadTsvLineException, Put, Bytes.toLong) -> our reason names.
HBASE_REASONS = [
    ("No delimiter", "no-delimiter"), ("Excessive columns", "excessive-columns"),
    ("No row key", "no-row-key"), ("No timestamp", "no-timestamp"),
    ("No attributes specified", "no-attributes"), ("No cell visibility specified", "no-visibility"),
    ("No cell TTL specified", "no-ttl"), ("Invalid timestamp", "invalid-timestamp"),
    ("Wrong length", "invalid-ttl"), ("Row length is 0", "empty-row-key"),
    ("Row length ", "row-key-too-long"),
]


def canon(rec, ours):
    if rec["ok"]:
        return ("ok", rec["row"], rec["ts"], rec["ttl"], rec["vis"],
                tuple(tuple(c) for c in rec["cells"]))
    if ours:
        return ("bad", rec["reason"])
    for prefix, name in HBASE_REASONS:
        if rec["error"].startswith(prefix):
            return ("bad", name)
    return ("bad", "unmapped: " + rec["error"])


def main():
    ours = {r["n"]: r for r in map(json.loads, open(sys.argv[1]))}
    hbase = {r["n"]: r for r in map(json.loads, open(sys.argv[2]))}
    kinds = {}
    for n, line in enumerate(open(sys.argv[3]), 1):
        w = line.split()
        if w and w[0] in ("same", "diff"):
            kinds[n] = w[0]
    failed = same = diff = 0
    for n, kind in sorted(kinds.items()):
        if n not in ours or n not in hbase:
            print(f"FAIL line {n}: missing from {'ours' if n not in ours else 'HBase'}")
            failed += 1
            continue
        a, b = canon(ours[n], True), canon(hbase[n], False)
        if kind == "same" and a != b:
            print(f"FAIL line {n}: ours {a}\n           HBase {b}  ({hbase[n].get('error', '')})")
            failed += 1
        elif kind == "diff" and a == b:
            print(f"FAIL line {n}: documented difference not seen, both {a}")
            failed += 1
        else:
            if kind == "same":
                same += 1
            else:
                diff += 1
                print(f"ok line {n}: documented difference: ours {a}, HBase {b}")
    print(f"{same} lines parse as ImportTsv parses them, {diff} documented differences, "
          f"{failed} failures")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
