#!/usr/bin/env python3
"""Compares two canonical JSON-lines dumps (see tests/hbase/README.md) record by record.

usage: compare_jsonl.py EXPECTED ACTUAL [--kinds cell,fileinfo,...] [--exact] [--ignore path,...]

Only records whose "kind" is listed are compared (default: all kinds), in file order, as
parsed JSON values, or with --exact as raw lines (key order and spacing must match too).
--ignore drops the named string or integer fields (such as hfile-dump's "path", which names the
file a record comes from, and "v", the schema version of hfile-json(7)) from both sides first. Prints the first difference and exits 1; exits 0 when they match.
"""
import argparse
import json
import re
import sys


def load(path, kinds, exact, ignore):
    records = []
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            if not line.strip():
                continue
            rec = json.loads(line)
            for name in ignore:
                rec.pop(name, None)
                line = re.sub(r',"%s":(?:"(?:[^"\\]|\\.)*"|-?\d+)' % re.escape(name), "", line)
            if kinds is None or rec.get("kind") in kinds:
                records.append((lineno, line.rstrip("\n") if exact else rec))
    return records


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("expected")
    ap.add_argument("actual")
    ap.add_argument("--kinds", help="comma-separated record kinds to compare (default: all)")
    ap.add_argument("--exact", action="store_true", help="compare raw lines, not parsed JSON")
    ap.add_argument("--ignore", default="", help="comma-separated string fields to drop")
    args = ap.parse_args()
    ignore = [n for n in args.ignore.split(",") if n]
    kinds = set(args.kinds.split(",")) if args.kinds else None
    exp = load(args.expected, kinds, args.exact, ignore)
    act = load(args.actual, kinds, args.exact, ignore)
    for i, ((eline, e), (aline, a)) in enumerate(zip(exp, act)):
        if e != a:
            print(f"record {i} differs:\n  {args.expected}:{eline}: {e if args.exact else json.dumps(e)}\n"
                  f"  {args.actual}:{aline}: {a if args.exact else json.dumps(a)}")
            return 1
    if len(exp) != len(act):
        print(f"record count differs: {args.expected} has {len(exp)}, {args.actual} has {len(act)}")
        return 1
    print(f"{len(exp)} records match")
    return 0


if __name__ == "__main__":
    sys.exit(main())
