#!/usr/bin/env bash
# check_bulkload_importtsv.sh WORK_DIR HFILE_BULKLOAD: hfile-bulkload against HBase's own
# ImportTsv job, end to end, in one HBase start:
#   1. one generated TSV (HBASE_TS_KEY, families f and g, short lines, empty fields, values with
#      commas, quotes and UTF-8, duplicate keys only with equal values, as ImportTsv keeps an
#      arbitrary one of unequal ones, and bad lines of the kinds both count alike);
#   2. a local HBase creates four copies of one pre-split table (f GZ/FAST_DIFF/ROWCOL, g
#      defaults); ImportTsv (LocalJobRunner, -Dimporttsv.bulk.output, skip.bad.lines) writes
#      HFiles for the first, hfile-bulkload --skip-bad-lines for the second from the same TSV,
#      and for the third and fourth from the same good records as CSV and as JSON lines;
#   3. completebulkload loads each output into its table; the four raw scans are identical (row,
#      family, qualifier, timestamp, type, value, tags) and equal to what the generator meant,
#      and ImportTsv's "Bad Lines" counter, our bad-line count and the generator's agree.
# Needs the harness and mapreduce/pom.xml's classpath file in HARNESS_BUILD_DIR (CTest fixtures).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
harness="$here/../harness.sh"
work=$1 tool=$2
target="${HARNESS_BUILD_DIR:-$here/../target}"
if [[ ! -f "$target/mapreduce-classpath.txt" ]]; then
  echo "check_bulkload_importtsv: no $target/mapreduce-classpath.txt; run:" \
    "mvn -q -f $here/../mapreduce/pom.xml -Dharness.build.dir=$target package" >&2
  exit 2
fi
HARNESS_EXTRA_CLASSPATH="$(cat "$target/mapreduce-classpath.txt")"
export HARNESS_EXTRA_CLASSPATH
rm -rf "$work" && mkdir -p "$work/tsv" "$work/csv"
python3 - "$work" "$tool" <<'PY'
import csv, hashlib, json, random, sys
work, tool = sys.argv[1:]
cols = ["f:a", "f:b", "g:c", "g:d"]
spec = ",".join(["HBASE_ROW_KEY", "HBASE_TS_KEY"] + cols)
rnd = random.Random(1414)

def value(row, col, ts):
    # One value per (row, column, timestamp): duplicate keys carry equal values.
    h = int(hashlib.sha256(f"{row}/{col}/{ts}".encode()).hexdigest(), 16)
    kind = h % 8
    if kind == 0:
        return ""
    if kind == 1:
        return f'q"{h % 997}",x'   # CSV must quote it; TSV and ImportTsv take it raw
    if kind == 2:
        return f"caf\u00e9 {h % 10007}"
    return f"v{h % 100003}"

lines, records, bad = [], [], 0
for i in range(6000):
    if i % 97 == 13:  # a bad line, of a kind ImportTsv's mapper counts as we do
        kind = (i // 97) % 6
        lines.append(["", "no-separator-%d" % i, "r1\t%s\t%s" % (
            1000 + i, "\t".join(["x"] * 6)), "\t1000\tempty-row", "r%d\tabc\tv" % i,
            "r%d\t\tv" % i][kind])
        bad += 1
        continue
    row = rnd.choice("abcdefghijklmnopqrstuvwxyz") + "%03d" % rnd.randrange(300)
    ts = 1700000000000 + rnd.randrange(4)
    n = len(cols) if rnd.random() < 0.8 else rnd.randrange(1, len(cols))  # short: no cells after
    rec = {"HBASE_ROW_KEY": row, "HBASE_TS_KEY": ts}
    for c in cols[:n]:
        rec[c] = value(row, c, ts)
    records.append(rec)
    lines.append("\t".join([row, str(ts)] + [rec[c] for c in cols[:n]]))
open(f"{work}/tsv/in.tsv", "w", encoding="utf-8").write("\n".join(lines) + "\n")
# CSV: each input names its columns in its header, so records of each width get their own file.
by_width = {}
for r in records:
    by_width.setdefault(len(r), []).append(r)
csv_files = []
for w, rs in sorted(by_width.items()):
    name = f"{work}/csv/w{w}.csv"
    keys = list(rs[0].keys())
    with open(name, "w", encoding="utf-8", newline="") as f:
        out = csv.writer(f, lineterminator="\n")
        out.writerow(keys)
        for r in rs:
            out.writerow([str(r[k]) for k in keys])
    csv_files.append(name)
with open(f"{work}/in.jsonl", "w", encoding="utf-8") as f:
    for r in records:
        f.write(json.dumps(r, ensure_ascii=False) + "\n")
# What the generator means: one Put cell per (row, family, qualifier, ts).
want = {}
for r in records:
    for c in cols:
        if c in r:
            fam, qual = c.split(":")
            want[(r["HBASE_ROW_KEY"], fam, qual, r["HBASE_TS_KEY"])] = r[c]
json.dump({"lines": len(lines), "bad": bad, "records": len(records),
           "cells": sorted([list(k) + [v] for k, v in want.items()])},
          open(f"{work}/want.json", "w"))

root = f"{work}/root"
families = [{"name": "f", "compression": "gz", "encoding": "FAST_DIFF", "bloom": "ROWCOL"},
            {"name": "g"}]
tables = {"ti": f"{work}/out-importtsv", "tt": f"{work}/out-tsv", "tc": f"{work}/out-csv",
          "tj": f"{work}/out-json"}
script = [{"op": "create", "table": t, "splits": ["e", "j", "p", "u"], "families": families}
          for t in tables]
script.append({"op": "mapreduce", "table": "ti", "tool": "ImportTsv", "args": [
    f"-Dimporttsv.columns={spec}", f"-Dimporttsv.bulk.output={tables['ti']}",
    "-Dimporttsv.skip.bad.lines=true", f"-Dhbase.fs.tmp.dir={work}/mr-staging",
    "ti", f"{work}/tsv"]})
def ours(table, fmt, inputs, extra):
    return {"op": "exec", "table": table, "stdout": f"{work}/{table}.json",
            "argv": [tool, "--json", "--no-progress", "--table", f"{root}/hbase/data/default/{table}",
                     "--out", tables[table], "--temp-dir", work, "--memory", "1M",
                     "--format", fmt] + extra + inputs}
script.append(ours("tt", "tsv", [f"{work}/tsv/in.tsv"],
                   ["--skip-bad-lines", f"-Dimporttsv.columns={spec}"]))
script.append(ours("tc", "csv", csv_files, []))
script.append(ours("tj", "json", [f"{work}/in.jsonl"], []))
for t, d in tables.items():  # each table's cells follow its bulkload record
    script.append({"op": "bulkload", "table": t, "dir": d})
    script.append({"op": "scan", "table": t})
with open(f"{work}/script.jsonl", "w") as f:
    for op in script:
        f.write(json.dumps(op) + "\n")
PY
"$harness" cluster --root "$work/root" --script "$work/script.jsonl" > "$work/out.jsonl"
python3 - "$work" <<'PY'
import json, sys
work = sys.argv[1]
want = json.load(open(f"{work}/want.json"))
out = [json.loads(l) for l in open(f"{work}/out.jsonl")]
mr = [o for o in out if o.get("kind") == "mapreduce"]
assert len(mr) == 1 and mr[0]["exit"] == 0, mr
mr = mr[0]
scans, current = {}, None
for o in out:
    if o.get("kind") == "bulkload":
        current = o["table"]
        assert o["files"] > 0, o
        scans[current] = []
    elif o.get("kind") == "cell":
        assert current is not None, o
        scans[current].append(tuple(json.dumps(o[k]) for k in
                                    ("row", "family", "qualifier", "timestamp", "type", "value",
                                     "tags")))
assert sorted(scans) == ["tc", "ti", "tj", "tt"], sorted(scans)

def esc(s):  # Bytes.toStringBinary of the UTF-8 bytes, as the harness prints byte strings
    return "".join(chr(b) if 32 <= b < 127 and b != 92 else "\\x%02X" % b for b in s.encode())
expect = [tuple(json.dumps(x) for x in (esc(r), esc(f), esc(q), ts, "Put", esc(v), []))
          for r, f, q, ts, v in want["cells"]]
ti = scans["ti"]
assert len(ti) == len(expect), (len(ti), len(expect))
assert sorted(ti) == sorted(expect), "ImportTsv's load differs from what the generator meant: " + \
    repr(sorted(set(ti) ^ set(expect))[:5])
for t in ("tt", "tc", "tj"):
    if scans[t] != ti:
        diff = sorted(set(scans[t]) ^ set(ti))[:5]
        print(f"{t} differs from ImportTsv's table ti ({len(scans[t])} vs {len(ti)} cells): {diff}",
              file=sys.stderr)
        sys.exit(1)
reps = {t: json.load(open(f"{work}/{t}.json")) for t in ("tt", "tc", "tj")}
for t, rep in reps.items():
    assert rep["ok"], rep
    assert rep["cells_written"] == len(ti), (t, rep["cells_written"], len(ti))
    assert rep["records"] == want["records"], (t, rep["records"], want["records"])
tt = reps["tt"]
assert tt["lines"] == want["lines"], (tt["lines"], want["lines"])
assert tt["bad_lines"] == want["bad"] == mr["bad_lines"], \
    f"bad lines: ours {tt['bad_lines']}, ImportTsv {mr['bad_lines']}, generated {want['bad']}"
assert reps["tc"]["bad_lines"] == 0 and reps["tj"]["bad_lines"] == 0
assert mr["map_input_records"] == want["lines"], mr
assert mr["reduce_output_records"] == len(ti), (mr, len(ti))  # cells in ImportTsv's HFiles
print(f"check_bulkload_importtsv: {len(ti)} cells from {want['lines']} lines: ImportTsv, "
      f"hfile-bulkload TSV, CSV and JSON lines load to identical raw scans; bad lines "
      f"{mr['bad_lines']} (ImportTsv) = {tt['bad_lines']} (ours) "
      f"{json.dumps(tt['bad_by_reason'])}; duplicates dropped {tt['duplicates_dropped']}; "
      f"ImportTsv {mr['seconds']} s, ours {tt['seconds']} s")
PY
echo "check_bulkload_importtsv: OK"
