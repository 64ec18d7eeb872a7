#!/usr/bin/env bash
# check_bulkload_tool.sh WORK_DIR HFILE_BULKLOAD [HBASE_MAPREDUCE_JAR]: hfile-bulkload against
# HBase, two HBase starts:
#   1. a local HBase creates table bt pre-split at h and p (family f GZ/FAST_DIFF/ROWCOL, g
#      defaults);
#   2. while it runs, hfile-bulkload reads bt's directory (descriptor, .regioninfo files) and
#      turns a generated TSV (duplicate keys, empty fields, 3 regions x 2 families) into
#      <out>/<family>/ with a small --memory, so the sort spills;
#   3. HBase's completebulkload loads <out>: every file fits its region (moved as it is, no split);
#   4. the raw scan equals what the TSV means: each line parsed by HBase's own ImportTsv.TsvParser
#      and TsvImporterMapper steps (harness tsvparse), the last line winning for equal keys.
# --into, in the same start: two more tables bi and bc like bt get the same puts (some on the
# TSV's keys, at the same timestamps) and a flush, so their regions have sequence ids; bc then
# gets the TSV through --out and completebulkload. HBase stops.
#   5. Offline: hfile-bulkload --into loads the TSV into bi (placed _SeqId_<n>_ files). The same
#      load as a distributed job (--emit-units, hfile-task per unit, commit) on a copy of the
#      root: per region and family the same _SeqId_ and, read by HBase's reader, the same cells.
#   6. HBase started again: bi's raw scan equals bc's, and on the TSV's keys the TSV's value
#      shadows the older put of the same timestamp (the placed files' sequence ids are above the
#      region's); a put after the restart on such a key shadows the loaded cell (the reopened
#      region starts above them); after a flush and a major compaction bi and bc still scan
#      the same, every cell the versions rule keeps.
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
# --into: bi and bc as bt, the same puts and a flush; bc loaded by --out + completebulkload.
families = [{"name": "f", "compression": "gz", "encoding": "FAST_DIFF", "bloom": "ROWCOL"},
            {"name": "g"}]
puts = []
for i, l in enumerate(lines[:150]):
    row, ts = l.split("\t")[:2]
    puts.append({"row": row, "family": "f", "qualifier": "a", "timestamp": int(ts),
                 "value": f"old{i}"})  # the TSV's key when that line has a value for f:a
    puts.append({"row": row, "family": "g", "qualifier": "c", "timestamp": 999,
                 "value": f"older{i}"})
for i in range(20):
    puts.append({"row": f"zz{i:02d}", "family": "g", "qualifier": "c", "timestamp": 5,
                 "value": f"only-put{i}"})
json.dump(puts, open(f"{work}/into-puts.json", "w"))
for t in ("bi", "bc"):
    script.append({"op": "create", "table": t, "splits": ["h", "p"], "families": families})
    script += [dict(op="put", table=t, **p) for p in puts]
    script.append({"op": "flush", "table": t})
script += [
    {"op": "exec", "table": "bc", "stdout": f"{work}/bulkload-bc.json",
     "argv": [tool, "--json", "--no-progress", "--table", f"{root}/hbase/data/default/bc",
              "--out", f"{work}/out-bc", "--temp-dir", work, f"-Dimporttsv.columns={columns}",
              f"{work}/in.tsv"]},
    {"op": "bulkload", "table": "bc", "dir": f"{work}/out-bc"},
]
sep = {"op": "exec", "table": "bi", "stdout": "/dev/null", "argv": ["true"]}
after = [{"op": "scan", "table": "bi"}, sep, {"op": "scan", "table": "bc"}, sep]
# The restarted regions' next put on a loaded key (its line's f:a at its timestamp).
key = next(l.split("\t")[:3] for l in lines if len(l.split("\t")) > 2 and l.split("\t")[2])
json.dump(key, open(f"{work}/into-key.json", "w"))
for t in ("bi", "bc"):
    after.append({"op": "put", "table": t, "row": key[0], "family": "f", "qualifier": "a",
                  "timestamp": int(key[1]), "value": "after-restart"})
for t in ("bi", "bc"):
    after += [{"op": "flush", "table": t}, {"op": "compact", "table": t, "major": True}]
after += [{"op": "scan", "table": "bi"}, sep, {"op": "scan", "table": "bc"}]
with open(f"{work}/script-after.jsonl", "w") as f:
    for op in after:
        f.write(json.dumps(op) + "\n")
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

# 5. HBase stopped: --into (and, for the record, the names completebulkload gave bc's files).
ls "$work"/root/hbase/data/default/bc/*/[fg] | grep _SeqId_ > "$work/bc-names.txt" || true
cp -a "$work/root" "$work/root-job"
"$tool" --json --no-progress --into --table "$work/root/hbase/data/default/bi" --temp-dir "$work" \
  "-Dimporttsv.columns=$columns" "$work/in.tsv" > "$work/into.json"
task="$(dirname "$tool")/hfile-task"
"$tool" --json --into --emit-units --job-id load --table "$work/root-job/hbase/data/default/bi" \
  "-Dimporttsv.columns=$columns" "$work/in.tsv" > "$work/job-plan.json"
job="$work/root-job/hbase/data/default/bi/.hfile-jobs/load"
while IFS= read -r unit; do  # the partition units come first in units.jsonl
  printf '%s\n' "$unit" | "$task" - --attempt 0-0 > /dev/null
done < "$job/units.jsonl"
"$task" --commit "$job"
python3 - "$work" "$harness" <<'PY'
import json, os, re, subprocess, sys
work, harness = sys.argv[1:3]
into = json.load(open(f"{work}/into.json"))
job_table = f"{work}/root-job/hbase/data/default/bi"
checked = 0
for f in into["files"]:
    suffix = re.sub("^[0-9a-f]{32}", "", os.path.basename(f["path"]))
    d = f"{job_table}/{f['region']}/{f['family']}"
    twins = [n for n in os.listdir(d) if n.endswith(suffix) and re.match("^[0-9a-f]{32}_SeqId_", n)]
    assert len(twins) == 1, (d, suffix, os.listdir(d))
    out = []
    for path in (f["path"], f"{d}/{twins[0]}"):
        r = subprocess.run([harness, "read", path], capture_output=True, text=True, check=True)
        lines = r.stdout.splitlines()
        assert lines and '"kind":"check","ok":true' in lines[-1], lines[-1:]
        out.append([l for l in lines if '"kind":"cell"' in l])
    assert out[0] == out[1] and out[0], (f["path"], len(out[0]), len(out[1]))
    checked += 1
print(f"check_bulkload_tool: the load as a distributed job: {checked} files, the same sequence "
      f"ids and, read by HBase, the same cells")
PY
# 6. HBase restarted on the same root.
"$harness" cluster --root "$work/root" --script "$work/script-after.jsonl" > "$work/after.jsonl"
python3 - "$work" <<'PY'
import json, os, re, sys
work = sys.argv[1]
into = json.load(open(f"{work}/into.json"))
assert into["ok"] and into["into"], into
seq = {r["region"]: r["sequence_id"] for r in into["regions"]}
assert len(seq) == 3 and all(n > 1 for n in seq.values()), seq  # the flushed puts' ids below
table = f"{work}/root/hbase/data/default/bi"
for f in into["files"]:
    name = os.path.basename(f["path"])
    assert re.fullmatch(r"[0-9a-f]{32}_SeqId_%d_" % seq[f["region"]], name), f
    assert f["path"].startswith(table + "/" + f["region"] + "/" + f["family"] + "/"), f
assert len(into["files"]) == 6, into["files"]
hbase_names = open(f"{work}/bc-names.txt").read().split()
assert len(hbase_names) == 6, hbase_names  # completebulkload assigned sequence ids too
scans, cur = [], []
for l in open(f"{work}/after.jsonl"):
    o = json.loads(l)
    if o.get("kind") == "exec":
        scans.append(cur)
        cur = []
    elif o.get("kind") == "cell":
        cur.append((o["row"], o["family"], o["qualifier"], o["timestamp"], o["type"], o["value"]))
scans.append(cur)
assert len(scans) == 4, [len(s) for s in scans]
bi1, bc1, bi2, bc2 = scans
assert bi1 == bc1 and bi1, (len(bi1), len(bc1),
                            [c for c in bi1 if c not in bc1][:5], [c for c in bc1 if c not in bi1][:5])
assert bi2 == bc2 and bi2, (len(bi2), len(bc2), set(bi2) ^ set(bc2))
# Expected: the TSV as HBase parses it (last line wins) over the puts of the same key; the put
# after the restart over both. Before the compaction the first cell of each key in scan order.
want = {}
for l in open(f"{work}/hbase-parse.jsonl"):
    p = json.loads(l)
    for fam, qual, val in p["cells"]:
        want[(p["row"], fam, qual, p["ts"])] = val
puts = json.load(open(f"{work}/into-puts.json"))
first = {}
for c in bi1:
    first.setdefault(c[:4], c[5])
for k, v in want.items():
    assert first.get(k) == v, (k, v, first.get(k))
last_put = {}  # a later put of the same key wins
for p in puts:
    last_put[(p["row"], p["family"], p["qualifier"], p["timestamp"])] = p["value"]
for k, v in last_put.items():
    if k not in want:
        assert first.get(k) == v, (k, v, first.get(k))
shadowed = sum(1 for k in last_put if k in want)
assert shadowed > 10, shadowed
# After the put, flush and major compaction: per column the newest timestamp (VERSIONS 1), at
# equal timestamps the later write: the puts in order, the load, the put after the restart.
row, ts, _ = json.load(open(f"{work}/into-key.json"))
best = {}
def offer(k, order, v):
    col = k[:3]
    if col not in best or (k[3], order) > best[col][:2]:
        best[col] = (k[3], order, v)
for i, p in enumerate(puts):
    offer((p["row"], p["family"], p["qualifier"], p["timestamp"]), (1, i), p["value"])
for k, v in want.items():
    offer(k, (2, 0), v)
offer((row, "f", "a", int(ts)), (3, 0), "after-restart")
expect = sorted((c[0], c[1], c[2], t, "Put", v) for c, (t, _, v) in best.items())
assert sorted(bi2) == expect, (len(bi2), len(expect), set(bi2) ^ set(expect))
assert (row, "f", "a", int(ts), "Put", "after-restart") in bi2
print(f"check_bulkload_tool: --into: bi scans as bc (--out + completebulkload): {len(bi1)} raw "
      f"cells after the restart ({shadowed} older puts shadowed), {len(bi2)} after a put and a "
      f"major compaction; placed sequence ids {sorted(seq.values())}, completebulkload's names "
      f"{sorted(set(re.sub('^[0-9a-f]{32}', '', n) for n in hbase_names))}")
PY
echo "check_bulkload_tool: OK"
