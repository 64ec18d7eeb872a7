#!/usr/bin/env python3
"""Runs every hfilekit tool in JSON mode over sample inputs and checks every record against the
schema of hfile-json(7) (tests/cli/json_schema.py): an unknown kind, a missing or an extra field,
a value of the wrong type, a schema version other than json_schema.VERSION, or an integer that
breaks the large-integer rule all fail. Also fails when a record kind of the schema was never
seen (the runs below must exercise every kind).

usage: check_json_schema.py BIN_DIR TESTDATA_DIR SHARED_DIR [--discover]

--discover prints, per tool and kind, the fields and types seen (to write the schema from).
Without SHARED_DIR/testdata/real, the table-level runs are skipped loudly and so is the
all-kinds-seen check.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import json_schema  # noqa: E402

bin_dir, testdata, shared = (os.path.abspath(a) for a in sys.argv[1:4])
discover = "--discover" in sys.argv
GOOD = os.path.join(testdata, "hbase", "none-diff-row-crc32c-notags.hfile")
THREE_LEVEL = os.path.join(testdata, "hbase", "none-none-row-crc32c-notags-3level.hfile")
REAL = os.path.join(shared, "testdata", "real")
ROOT22 = os.path.join(REAL, "hbase-2.2.3-rootdir")
ROOT40 = os.path.join(REAL, "hbase-4.0-snapshot-rootdir")
SNAP = os.path.join(REAL, "riverbed", "snapshot", "testdata", "test_snapshot_v1", "data",
                    "test_snapshot")
FLIPPED_SETUP = ("cp {good} flipped.hfile && python3 -c \"import sys; b=bytearray(open("
                 "'flipped.hfile','rb').read()); b[100]^=0xFF; open('flipped.hfile','wb')"
                 ".write(b)\"").format(good=GOOD)

# A planned compact job of one unit (for hfile-task).
JOB = "root/data/hbase/namespace/.hfile-jobs/j"
PLAN_JOB = ("cp -r %s root && rm -rf root/WALs && %s/hfile-compact --emit-units --job-id j "
            "root/data/hbase/namespace >/dev/null" % (ROOT22, bin_dir))
# (tool, setup shell line or "", arguments after the tool, needs the shared corpus)
RUNS = [
    ("hfile-dump", "", ["--json", "-p", "-b", "-h", "-s", "-m", "-k", GOOD], False),
    ("hfile-dump", "", ["--json", "-e", "-b", THREE_LEVEL], False),
    ("hfile-dump", "", ["--json", "-s", "--table", SNAP], True),
    ("hfile-dump", "", ["--json", "--prefix", "gr", "--io-stats", "--table", SNAP], True),
    ("hfile-dump", "", ["--json", "--table", SNAP], True),
    ("hfile-dump", "cp -r %s root && rm -rf root/WALs" % ROOT22,
     ["--locate", "default", "--json", "--root", "root", "--table", "hbase:namespace"], True),
    ("hfile-verify", FLIPPED_SETUP, ["--json", GOOD, "flipped.hfile", GOOD + ".missing"], False),
    ("hfile-verify", "cp -r %s root && rm -rf root/WALs" % ROOT22,
     ["--json", "--root", "root", "--table", "hbase:namespace"], True),
    ("hfile-verify", "", ["--json", "--table", SNAP], True),
    ("hfile-rewrite", "", ["--json", GOOD, "out.hfile"], False),
    ("hfile-rewrite", FLIPPED_SETUP, ["--json", "flipped.hfile", "out.hfile"], False),
    ("hfile-rewrite", "", ["--compare", "--json", "--compression", "GZ,NONE", "--level", "1", GOOD],
     False),
    ("hfile-split", "", ["--json", "--file", GOOD, "--at", "row-00005", "--out-dir", "."], False),
    ("hfile-split", FLIPPED_SETUP, ["--json", "--file", "flipped.hfile", "--at", "row-00005",
                                    "--out-dir", "."], False),
    ("hfile-split", "cp -r %s root && rm -rf root/WALs" % ROOT22,
     ["--json", "--now", "1700000000000", "--at", "e", "root", "hbase:namespace",
      "077a6e561e777ff7d7b235487e686aa9"], True),
    ("hfile-describe", "cp -r %s root && rm -rf root/WALs" % ROOT22,
     ["--json", "root/data/hbase/namespace"], True),
    ("hfile-advise", "cp -r %s root && rm -rf root/WALs" % ROOT22,
     ["--json", "-q", "root/data/hbase/namespace"], True),
    ("hfile-compact", "cp -r %s root && rm -rf root/WALs" % ROOT22,
     ["--json", "root/data/hbase/namespace"], True),
    ("hfile-alter", "cp -r %s root && rm -rf root/WALs" % ROOT22,
     ["--json", "root", "alter 'hbase:namespace', {NAME => 'info', COMPRESSION => 'GZ'}"], True),
    ("hfile-copy-family", "cp -r %s root && rm -rf root/WALs" % ROOT22,
     ["--json", "root", "hbase:namespace", "info", "meta"], True),
    ("hfile-compact", "cp -r %s root && rm -rf root/WALs" % ROOT22,
     ["--json", "--emit-units", "root/data/hbase/namespace"], True),
    ("hfile-alter", "cp -r %s root && rm -rf root/WALs" % ROOT22,
     ["--json", "--emit-units", "root",
      "alter 'hbase:namespace', {NAME => 'info', COMPRESSION => 'GZ'}"], True),
    ("hfile-copy-family", "cp -r %s root && rm -rf root/WALs" % ROOT22,
     ["--json", "--emit-units", "root", "hbase:namespace", "info", "meta"], True),
    ("hfile-split", "cp -r %s root && rm -rf root/WALs" % ROOT22,
     ["--json", "--emit-units", "root/data/hbase/namespace"], True),
    ("hfile-bulkload", "cp -r %s root && printf 'r1\\tv1\\nr2\\tv2\\n' > in.tsv" % ROOT40,
     ["--json", "--now", "1700000000000", "--root", "root", "--table", "my_table", "--into",
      "--emit-units", "--columns", "HBASE_ROW_KEY,cf:q", "in.tsv"], True),
    ("hfile-bulkload", "cp -r %s root && printf 'r1\\tv1\\nbad\\nr2\\tv2\\n' > in.tsv" % ROOT40,
     ["--json", "--root", "root", "--table", "my_table", "--partition-to", "parts",
      "--skip-bad-lines", "--columns", "HBASE_ROW_KEY,cf:q", "in.tsv"], True),
    ("hfile-task", PLAN_JOB, ["--json", JOB + "/units.jsonl", "--attempt", "0-0"], True),
    ("hfile-task", PLAN_JOB, ["--json", "no-such-unit.json", "--attempt", "0-0"], True),
    ("hfile-task", PLAN_JOB + " && %s/hfile-task %s/units.jsonl --attempt 0-0 >/dev/null"
     % (bin_dir, JOB), ["--json", "--commit", JOB], True),
    ("hfile-task", PLAN_JOB, ["--json", "--commit", JOB], True),
    ("hfile-create", "", ["--json", "root", "create 't', 'f'"], False),
    ("hfile-bulkload", "cp -r %s root && printf 'r1\\tv1\\nr2\\tv2\\n' > in.tsv" % ROOT40,
     ["--json", "--now", "1700000000000", "--root", "root", "--table", "my_table", "--out", "out",
      "--columns", "HBASE_ROW_KEY,cf:q", "in.tsv"], True),
]


def check_page():
    """Every kind of the schema has its section in hfile-json(7), listing each of its fields."""
    page = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "man",
                             "hfile-json.7.md"), encoding="utf-8").read()
    out = []
    for (tool, kind), fields in json_schema.SCHEMA.items():
        at = page.find(f"\n## {tool}\n")
        at = page.find(f"\n`{kind}` record:\n", at) if at >= 0 else -1
        if at < 0:
            out.append(f"hfile-json(7) has no section for {tool} {kind}")
            continue
        end = page.find(" record:\n", at + len(kind) + 12)
        section = page[at:end if end > 0 else len(page)]
        for f in fields:
            if f not in ("kind", "v") and f"* `{f.rstrip('?')}`:" not in section:
                out.append(f"hfile-json(7) does not list field {f.rstrip('?')} of {tool} {kind}")
    return out


def main():
    have_shared = os.path.isdir(REAL)
    failures, seen, skipped = [], {}, 0
    for tool, setup, args, needs_shared in RUNS:
        if needs_shared and not have_shared:
            skipped += 1
            continue
        tmp = tempfile.mkdtemp(prefix="json-schema-")
        try:
            if setup:
                subprocess.run(["bash", "-c", setup], cwd=tmp, check=True)
            # stderr is not a terminal: no progress lines.
            p = subprocess.run([os.path.join(bin_dir, tool)] + args, cwd=tmp,
                               capture_output=True, text=True)
            where = f"{tool} {' '.join(args)}"
            lines = [l for l in p.stdout.splitlines() if l.strip()]
            if not lines:
                failures.append(f"{where}: no JSON output (exit {p.returncode}): {p.stderr[:300]}")
            for n, line in enumerate(lines, 1):
                try:
                    rec = json.loads(line)
                except json.JSONDecodeError as e:
                    failures.append(f"{where}: line {n} is not JSON ({e}): {line[:200]}")
                    continue
                for problem in json_schema.check(tool, rec, seen, discover):
                    failures.append(f"{where}: line {n}: {problem}")
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    if discover:
        for (tool, kind), fields in sorted(seen.items()):
            print(tool, kind, json.dumps({f: sorted(t) for f, t in fields.items()}))
        return 0
    if skipped:
        print(f"SKIPPED LOUDLY: {skipped} runs need {REAL}; their record kinds were NOT checked")
    else:
        for key in json_schema.all_kinds():
            if key not in seen:
                failures.append(f"schema kind {key[0]} {key[1]} was never produced by the runs")
    failures += check_page()
    for f in failures:
        print("FAIL:", f)
    print(f"{len(RUNS) - skipped} runs, {len(seen)} record kinds seen, {len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
