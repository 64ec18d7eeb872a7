#!/usr/bin/env bash
# check_bulkload_tool.sh WORK_DIR HFILE_BULKLOAD [HBASE_MAPREDUCE_JAR]: hfile-bulkload against
# HBase, one HBase start:
#   1. a local HBase creates table bt pre-split at h and p (family f GZ/FAST_DIFF/ROWCOL, g
#      defaults);
#   2. while it runs, hfile-bulkload reads bt's directory (descriptor, .regioninfo files) and
#      turns a generated TSV (duplicate keys, empty fields, 3 regions x 2 families) into
#      <out>/<family>/ with a small --memory, so the sort spills;
#   3. HBase's completebulkload loads <out>: every file fits its region (moved as it is, no split);
#   4. the raw scan equals what the TSV means: each line parsed by HBase's own ImportTsv.TsvParser
#      and TsvImporterMapper steps (harness tsvparse), the last line winning for equal keys.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
harness="$here/../harness.sh"
work=$1 tool=$2 jar=${3:-}
rm -rf "$work" && mkdir -p "$work"
if [[ -z "$jar" ]]; then
  version=2.6.4  # as check_tsv_parse.sh: the -hadoop3 twin is not served; TsvParser is the same
  repo=${MAVEN_REPO:-$HOME/.m2/repository}
  jar="$repo/org/apache/hbase/hbase-mapreduce/$version/hbase-mapreduce-$version.jar"
  if [[ ! -f "$jar" ]]; then
    mvn -q -B dependency:get -Dartifact=org.apache.hbase:hbase-mapreduce:$version -Dtransitive=false >&2
  fi
  [[ -f "$jar" ]] || { echo "check_bulkload_tool: $jar did not resolve" >&2; exit 1; }
fi
columns=HBASE_ROW_KEY,HBASE_TS_KEY,f:a,f:b,g:c
python3 - "$work" "$columns" "$tool" <<'PY'
import json, random, sys
work, columns, tool = sys.argv[1:]
rnd = random.Random(14)
lines = []
for i in range(20000):
    row = rnd.choice("abcdefghijklmnopqrstuvwxyz") + "%03d" % rnd.randrange(400)
    ts = str(1000 + rnd.randrange(3))  # equal (row, column, ts) keys are common: last line wins
    vals = [rnd.choice(["", "v%d" % i, "w%d\xe9" % i]) for _ in range(3)]
    lines.append("\t".join([row, ts] + vals[: rnd.randrange(1, 4)]))
data = "\n".join(lines) + "\n"
open(f"{work}/in.tsv", "w", encoding="latin-1").write(data)
with open(f"{work}/cases.txt", "w") as f:
    f.write(f"columns {columns}\nseparator 09\n")
    for l in lines:
        f.write("same " + l.encode("latin-1").hex() + "\n")
root = f"{work}/root"
script = [
    {"op": "create", "table": "bt", "splits": ["h", "p"],
     "families": [{"name": "f", "compression": "gz", "encoding": "FAST_DIFF", "bloom": "ROWCOL"},
                  {"name": "g"}]},
    {"op": "exec", "table": "bt", "stdout": f"{work}/bulkload.json",
     "argv": [tool, "--json", "--no-progress", "--table", f"{root}/hbase/data/default/bt",
              "--out", f"{work}/out", "--temp-dir", work, "--memory", "1M",
              f"-Dimporttsv.columns={columns}", f"{work}/in.tsv"]},
    # completebulkload moves the files: their digests first.
    {"op": "exec", "table": "bt", "stdout": f"{work}/ours.sha256",
     "argv": ["sh", "-c", f"sha256sum {work}/out/*/* | cut -d' ' -f1 | sort"]},
    {"op": "bulkload", "table": "bt", "dir": f"{work}/out"},
    {"op": "scan", "table": "bt"},
]
with open(f"{work}/script.jsonl", "w") as f:
    for op in script:
        f.write(json.dumps(op) + "\n")
PY
"$harness" tsvparse --jar "$jar" "$work/cases.txt" > "$work/hbase-parse.jsonl"
"$harness" cluster --root "$work/root" --script "$work/script.jsonl" > "$work/out.jsonl"
cat "$work/bulkload.json"
python3 - "$work" <<'PY'
import json, sys, hashlib, os
work = sys.argv[1]
rep = json.load(open(f"{work}/bulkload.json"))
assert rep["ok"], rep
assert rep["sort"]["runs"] > 1, f"the sort did not spill: {rep['sort']}"
files = rep["files"]
assert len(files) == 6, f"expected 3 regions x 2 families, got {len(files)} files"
out = [json.loads(l) for l in open(f"{work}/out.jsonl")]
loads = [o for o in out if o.get("kind") == "bulkload"]
assert loads and loads[0]["files"] == 6, loads
# Expected: HBase's parse of each line; equal (row, family, qualifier, ts) keys keep the last.
want = {}
lines = 0
for l in open(f"{work}/hbase-parse.jsonl"):
    p = json.loads(l)
    lines += 1
    assert p["ok"], p
    for fam, qual, val in p["cells"]:
        want[(p["row"], fam, qual, p["ts"])] = val
got = {}
for o in out:
    if o.get("kind") != "cell":
        continue
    k = (o["row"], o["family"], o["qualifier"], o["timestamp"])
    assert k not in got, f"duplicate cell {k}"
    assert o["type"] == "Put" and o["tags"] == [], o
    got[k] = o["value"]
assert lines == 20000, lines
missing = [k for k in want if k not in got]
extra = [k for k in got if k not in want]
wrong = [k for k in want if k in got and got[k] != want[k]]
if missing or extra or wrong:
    print("missing", missing[:5], "extra", extra[:5], "wrong",
          [(k, want[k], got[k]) for k in wrong[:5]], file=sys.stderr)
    sys.exit(1)
assert rep["cells_written"] == len(want), (rep["cells_written"], len(want))
print(f"check_bulkload_tool: {len(want)} cells of {lines} lines scan as ImportTsv parses them "
      f"({rep['duplicates_dropped']} duplicates dropped, {rep['sort']['runs']} sort runs)")
# HBase moved our files in unchanged: their bytes are among the regions' store files.
ours = set(open(f"{work}/ours.sha256").read().split())
assert len(ours) == 6, ours
table = f"{work}/root/hbase/data/default/bt"
loaded = set()
for region in os.listdir(table):
    for fam in ("f", "g"):
        d = os.path.join(table, region, fam)
        if os.path.isdir(d):
            for n in os.listdir(d):
                loaded.add(hashlib.sha256(open(os.path.join(d, n), "rb").read()).hexdigest())
assert ours <= loaded, "our files were not loaded unchanged"
print(f"check_bulkload_tool: {len(loaded)} store files in bt after the load")
PY
echo "check_bulkload_tool: OK"
