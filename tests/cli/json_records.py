#!/usr/bin/env python3
"""Checks JSON lines on stdin: each a JSON object with a string `kind` and `path`, every
nested record (an object with a `kind`) too; at least one line, and the first of kind KIND.

usage: TOOL --json ... | json_records.py KIND
"""
import json
import sys


def check(record, where):
    if not isinstance(record.get("kind"), str) or not isinstance(record.get("path"), str):
        sys.exit(f"{where}: no string kind and path: {json.dumps(record)[:300]}")
    for value in record.values():
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, dict) and "kind" in item:
                check(item, where + " (nested)")


lines = [line for line in sys.stdin.read().splitlines() if line.strip()]
if not lines:
    sys.exit("no JSON lines")
for n, line in enumerate(lines, 1):
    check(json.loads(line), f"line {n}")
if json.loads(lines[0])["kind"] != sys.argv[1]:
    sys.exit(f"first record of kind {json.loads(lines[0])['kind']}, expected {sys.argv[1]}")
