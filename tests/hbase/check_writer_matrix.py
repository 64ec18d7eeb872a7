#!/usr/bin/env python3
"""Compares HBase's reading of hfilekit-written files with what they should hold.

usage: check_writer_matrix.py DIR [HBASE_DIR]

DIR is hfilekit-compat-gen's output (cases.tsv, NAME.expected.jsonl, NAME.ours.jsonl),
HBASE_DIR (default DIR/hbase) holds `harness.sh read --out-dir` output, NAME.hbase.jsonl.
For every case it requires:
  - HBase read the file (no "error" record) and its cells equal NAME.expected.jsonl exactly;
  - HBase's check record (HFilePrettyPrinter -k -m -v) is ok;
  - HBase's trailer and file info equal what our reader reports (NAME.ours.jsonl), and so do
    the cells, every Bloom answer (general and delete-family) and every seek's landing cell.
Prints one line per case and a summary; exits 1 if any case failed.
"""
import json
import os
import sys


def load(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def of(records, kind):
    return [r for r in records if r.get("kind") == kind]


def first_diff(a, b, what):
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return f"{what} {i}: HBase {json.dumps(x)} vs {json.dumps(y)}"
    if len(a) != len(b):
        return f"{what}: HBase has {len(a)}, other side {len(b)}"
    return None


def check_case(name, d, hd):
    hpath = os.path.join(hd, name + ".hbase.jsonl")
    if not os.path.exists(hpath):
        return "HBase produced no output"
    hbase = load(hpath)
    err = of(hbase, "error")
    if err:
        return "HBase could not read it: " + err[0]["message"]
    ours = load(os.path.join(d, name + ".ours.jsonl"))
    expected = load(os.path.join(d, name + ".expected.jsonl"))
    checks = of(hbase, "check")
    if len(checks) != 1 or not checks[0]["ok"]:
        return "HBase check failed: " + (checks[0]["message"] if checks else "no check record")
    for problem in (
        first_diff(of(hbase, "cell"), expected, "cell (vs expected)"),
        first_diff(of(hbase, "trailer"), of(ours, "trailer"), "trailer (vs our reader)"),
        first_diff(of(hbase, "fileinfo"), of(ours, "fileinfo"), "fileinfo (vs our reader)"),
        first_diff(of(hbase, "cell"), of(ours, "cell"), "cell (vs our reader)"),
        first_diff(of(hbase, "bloom"), of(ours, "bloom"), "bloom answer (vs our reader)"),
        first_diff(of(hbase, "seek"), of(ours, "seek"), "seek (vs our reader)"),
    ):
        if problem:
            return problem
    if not of(hbase, "bloom") or not of(hbase, "seek"):
        return "no bloom or seek records: probes/seeks not passed to HBase?"
    return None


def main():
    d = sys.argv[1]
    hd = sys.argv[2] if len(sys.argv) > 2 else os.path.join(d, "hbase")
    cases = []
    with open(os.path.join(d, "cases.tsv"), encoding="utf-8") as f:
        for line in f:
            if line.strip():
                cases.append(line.rstrip("\n").split("\t"))
    failed = 0
    for name, settings in cases:
        problem = check_case(name, d, hd)
        if problem:
            failed += 1
        print(f"{'FAIL' if problem else 'ok  '} {name}  [{settings}]" + (f"\n     {problem}" if problem else ""))
    print(f"check_writer_matrix: {len(cases) - failed} of {len(cases)} hfilekit-written files read "
          f"by HBase exactly as expected")
    return 1 if failed or not cases else 0


if __name__ == "__main__":
    sys.exit(main())
