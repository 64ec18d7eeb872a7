#!/usr/bin/env bash
# check_split.sh WORK_DIR HFILE_SPLIT [SEED]: an offline hfile-split that HBase restarted serves
# (hfile-verify is taken from HFILE_SPLIT's directory). Three HBase starts:
#   1. A local HBase loads random puts and deletes of every kind with several flushes (table t1,
#      one region), scans it raw and client-side; and table t4 with two families of different
#      sizes (f large, g small, over other rows), several flushes, scanned, and the row HBase's
#      own split would take for its region (the harness's split_point op: HRegion.checkSplit on
#      the RegionServer, nothing split). Both tables disabled (so that the restarted master does
#      not open the parents); HBase stops.
#   2. Offline: hfile-split splits t1's region at r12, and t4's at its default split row, which
#      must be the row HBase chose; hfile-verify --root --table t4 reports the disagreement
#      with hbase:meta (the parent's row without a dir, the daughters' dirs without rows).
#   3. HBase started: hbase:meta is brought to what the CatalogJanitor leaves after a split,
#      with what HBCK2's extraRegionsInMeta --fix and addFsRegionsMissingInMeta do (the
#      harness's meta_replace op: the parent's row deleted, a CLOSED row per daughter's
#      .regioninfo); HBase stops (man hfile-split: the master reloads hbase:meta). Offline,
#      hfile-verify --root --table t1 --table t4 is clean: meta and the dirs agree, no hole or
#      overlap, every cell inside its region.
#   4. HBase started: t1 and t4 enabled; t1's and t4's raw and client scans equal step 1's, t4
#      has the two daughters' regions; then HBase splits one of t4's daughters itself,
#      major-compacts t4, merges two adjacent regions (Admin.mergeRegionsAsync), and t4's
#      client scan is still step 1's; HBase stopped, hfile-verify --root --table t4 is clean
#      (meta's split and merge parents, not yet cleaned up, are not live regions).
#      File split: one of t1's parent's (archived) store files cut by hfile-split --file at r08
#      and r16 (every cell kept: the outputs' counts add up to the file's); in the same start
#      HBase's completebulkload loads the three outputs into a new table t2, and a copy of the
#      original file into t3: the raw scans of t2 and t3 are the same (sequence ids aside: a
#      bulk load gives every cell of a file one, which can make two cells of the original
#      identical, and HBase then returns one of them, on t2 and t3 alike).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
harness="$here/../harness.sh"
work=$1 split=$2 seed=${3:-1}
verify="$(dirname "$split")/hfile-verify"
rm -rf "$work" && mkdir -p "$work"
# Compacted-away files discharged within a second: a region merge waits for its references'
# removal (HStore.hasReferences counts compacted files).
export HARNESS_HBASE_CONF="hbase.hstore.compactionThreshold=100;hbase.hstore.blockingStoreFiles=200;hbase.hfile.compaction.discharger.interval=1000"
python3 "$here/gen_compact_script.py" "$seed" "$work/s"
# t4: f holds 1 KiB values on r000..r399 over four flushes of different sizes, g 8-byte values
# on r300..r399 only (the smaller store, whose mid key is far from f's); a few overwrites and
# deletes.
python3 - "$seed" "$work/t4" <<'PY'
import json, random, sys
rng = random.Random(int(sys.argv[1]))
out = sys.argv[2]
def op(**kw):
    return json.dumps(kw, separators=(",", ":"))
load = [op(op="create", table="t4", families=[{"name": "f", "max_versions": 3},
                                            {"name": "g", "max_versions": 3}])]
for lo, hi in [(0, 120), (0, 400), (150, 260), (330, 400)]:
    for i in range(lo, hi):
        load.append(op(op="put", table="t4", row=f"r{i:03d}", family="f", qualifier="q",
                       value=f"{rng.randrange(10**6):06d}" * 170))
        if i >= 300:
            load.append(op(op="put", table="t4", row=f"r{i:03d}", family="g",
                           qualifier=rng.choice(["a", "b"]), value=f"g{rng.randrange(10**6):07d}"))
    for _ in range(5):
        load.append(op(op="delete", table="t4", row=f"r{rng.randrange(400):03d}", family="f",
                       qualifier="q"))
    load.append(op(op="flush", table="t4"))
scans = [op(op="regions", table="t4"), op(op="scan", table="t4"),
         op(op="scan", table="t4", raw=False)]
open(out + ".load.jsonl", "w").write("\n".join(load + scans + [op(op="split_point", table="t4")]) + "\n")
open(out + ".scan.jsonl", "w").write("\n".join(scans) + "\n")
after = [op(op="split_region", table="t4", index=0), op(op="compact", table="t4", major=True),
         op(op="merge_regions", table="t4", index=1), op(op="regions", table="t4"),
         op(op="scan", table="t4", raw=False)]
open(out + ".hbase.jsonl", "w").write("\n".join(after) + "\n")
PY
# Splits a cluster run's output into segments: [kind, records] with kind "cells" (a raw scan),
# "client" (a client scan), "regions", "split_point" or "bulkload" (its record, then a "cells").
cat > "$work/segments.py" <<'PY'
import json
def segments(path):
    segs = []
    for line in open(path):
        r = json.loads(line)
        k = r.get("kind")
        if k == "scan" and r.get("raw") is False and "finished" not in r:
            segs.append(["client", []])
            continue
        if k == "cell":
            if not segs or segs[-1][0] not in ("cells", "client"):
                segs.append(["cells", []])
            segs[-1][1].append(line.rstrip("\n"))
        elif k in ("region", "split_point"):
            if not segs or segs[-1][0] != k:
                segs.append([k, []])
            segs[-1][1].append(r)
        elif k == "bulkload":
            segs.append(["bulkload", [r]])
        else:
            raise SystemExit(f"unexpected record in {path}: {line}")
    return segs
PY
{ cat "$work/s.load.jsonl" "$work/t4.load.jsonl"
  echo '{"op":"disable","table":"t1"}'; echo '{"op":"disable","table":"t4"}'; } > "$work/s.load-disable.jsonl"
"$harness" cluster --root "$work/A" --script "$work/s.load-disable.jsonl" > "$work/load.out"
root="$work/A/hbase"
one_region() {  # the single region dir of table $1
  mapfile -t regions < <(find "$root/data/default/$1" -mindepth 1 -maxdepth 1 -type d -regex '.*/[0-9a-f]+$' -printf '%f\n')
  if [[ ${#regions[@]} -ne 1 ]]; then
    echo "check_split: $1: expected 1 region, found ${#regions[@]}: ${regions[*]}" >&2
    exit 1
  fi
  echo "${regions[0]}"
}
table="$root/data/default/t1"
parent=$(one_region t1)
parent4=$(one_region t4)
echo "check_split: $(find "$table/$parent" -path '*/f/*' -type f ! -name '.*' | wc -l) store files in t1's $parent," \
  "$(find "$root/data/default/t4/$parent4" -path '*/[fg]/*' -type f ! -name '.*' | wc -l) in t4's $parent4"
"$split" --json --at r12 "$table/$parent" > "$work/split.json"
cat "$work/split.json"
read -r a b < <(python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(j["daughter_a"], j["daughter_b"])' "$work/split.json")
test ! -e "$table/$parent" && test -d "$table/$a" && test -d "$table/$b"
"$split" --json "$root/data/default/t4/$parent4" > "$work/split4.json"
cat "$work/split4.json"
read -r a4 b4 < <(python3 - "$work" <<'PY'
import json, sys
sys.path.insert(0, sys.argv[1])
from segments import segments
w = sys.argv[1]
j = json.load(open(f"{w}/split4.json"))
points = [s for s in segments(f"{w}/load.out") if s[0] == "split_point"]
assert len(points) == 1 and len(points[0][1]) == 1, points
hbase = points[0][1][0]
assert hbase["region"] == j["region"], (hbase, j["region"])
assert not j["explicit_row"] and j["committed"], j
assert hbase["row"] == j["split_row"], f"HBase would split t4 at {hbase['row']!r}, hfile-split chose {j['split_row']!r}"
print(j["daughter_a"], j["daughter_b"])
print(f"check_split: t4's default split row {j['split_row']!r} is the row HBase's split policy "
      f"chooses for the region", file=sys.stderr)
PY
)
# Before hbase:meta is fixed, verify sees the disagreement (exit 2 = corruption found).
set +e
"$verify" --json -q --root "$root" --table t4 > "$work/verify-before.json"
rc=$?
set -e
python3 - "$work" "$rc" "$parent4" "$a4" "$b4" <<'PY'
import json, sys
w, rc, parent, a, b = sys.argv[1], int(sys.argv[2]), *sys.argv[3:]
j = json.load(open(f"{w}/verify-before.json"))
found = sorted((p["finding"], p["region"]) for p in j["problems"] if p.get("severity") == "error")
want = sorted([("meta_region_without_dir", parent), ("dir_not_in_meta", a), ("dir_not_in_meta", b)])
assert rc == 2 and not j["clean"] and found == want, (rc, found, want, j["problems"])
print(f"check_split: before the hbase:meta fix hfile-verify --table t4 exits 2 with {found}")
PY
echo "{\"op\":\"meta_replace\",\"table\":\"t1\",\"remove\":[\"$parent\"],\"add\":[\"$table/$a\",\"$table/$b\"]}" > "$work/s.meta.jsonl"
echo "{\"op\":\"meta_replace\",\"table\":\"t4\",\"remove\":[\"$parent4\"],\"add\":[\"$root/data/default/t4/$a4\",\"$root/data/default/t4/$b4\"]}" >> "$work/s.meta.jsonl"
"$harness" cluster --root "$work/A" --script "$work/s.meta.jsonl" > "$work/meta.out"
"$verify" --json --root "$root" --table t1 --table t4 > "$work/verify-after.json"
python3 - "$work" <<'PY'
import json, sys
w = sys.argv[1]
for line in open(f"{w}/verify-after.json"):
    j = json.loads(line)
    errors = [p for p in j["problems"] if p["severity"] == "error"]
    assert j["clean"] and not errors and j["meta"]["regions"] == 2, j
    named = sorted({p["finding"] for p in j["problems"] if "finding" in p})
    print(f"check_split: after the fix hfile-verify {j['path']}: clean, hbase:meta has its 2 "
          f"regions, no hole or overlap ({j['regions']} region dirs; meta notes: {named or 'none'})")
PY

# File split of one of t1's parent's store files (offline; loaded in the next start).
orig=$(find "$root/archive/data/default/t1/$parent/f" -type f ! -name '.*' | sort | head -1)
mkdir -p "$work/bulk/f"
"$split" --json --file "$orig" --at r08,r16 --out-dir "$work/bulk/f" > "$work/file-split.json"
cat "$work/file-split.json"
"$harness" read "$orig" > "$work/orig.jsonl"
mkdir -p "$work/bulk-orig/f" && cp "$orig" "$work/bulk-orig/f/"

{ echo '{"op":"enable","table":"t1"}'; cat "$work/s.scan.jsonl"
  echo '{"op":"enable","table":"t4"}'; cat "$work/t4.scan.jsonl" "$work/t4.hbase.jsonl"
  echo '{"op":"create","table":"t2","families":[{"name":"f","max_versions":1000}]}'
  echo "{\"op\":\"bulkload\",\"table\":\"t2\",\"dir\":\"$work/bulk\"}"
  echo '{"op":"scan","table":"t2"}'
  echo '{"op":"create","table":"t3","families":[{"name":"f","max_versions":1000}]}'
  echo "{\"op\":\"bulkload\",\"table\":\"t3\",\"dir\":\"$work/bulk-orig\"}"
  echo '{"op":"scan","table":"t3"}'; } > "$work/s.enable.jsonl"
"$harness" cluster --root "$work/A" --script "$work/s.enable.jsonl" > "$work/after.out"
python3 - "$work" <<'PY'
import json, sys
sys.path.insert(0, sys.argv[1])
from segments import segments
w = sys.argv[1]
load, after = segments(f"{w}/load.out"), segments(f"{w}/after.out")
kinds = lambda segs: [k for k, _ in segs]
# load: t1 raw, t1 client, t4 regions, t4 raw, t4 client, t4 split point
assert kinds(load) == ["cells", "client", "region", "cells", "client", "split_point"], kinds(load)
# after: t1 raw, client; t4 regions, raw, client; (split, compact, merge) regions, client;
# t2 bulkload, raw; t3 bulkload, raw
assert kinds(after) == ["cells", "client", "region", "cells", "client", "region", "client",
                        "bulkload", "cells", "bulkload", "cells"], kinds(after)
(_, lr), (_, lc), _, (_, l4r), (_, l4c), _ = load
(_, ar), (_, ac), (_, regions4), (_, a4r), (_, a4c), (_, merged4), (_, a4c2) = after[:7]
assert lr == ar, f"t1: raw scans differ after the split ({len(lr)} vs {len(ar)} records)"
assert lc == ac, f"t1: client scans differ after the split ({len(lc)} vs {len(ac)} records)"
split4 = json.load(open(f"{w}/split4.json"))
row = split4["split_row"]
got = [(r["start"], r["end"]) for r in regions4]
assert got == [("", row), (row, "")], f"t4 regions after the offline split: {got}"
assert l4r == a4r, f"t4: raw scans differ after the split ({len(l4r)} vs {len(a4r)} records)"
assert l4c == a4c, f"t4: client scans differ after the split ({len(l4c)} vs {len(a4c)} records)"
assert len(merged4) == 2, f"t4 after HBase's split of a daughter and a merge: {merged4}"
assert l4c == a4c2, f"t4: client scan differs after HBase's split, compaction and merge ({len(l4c)} vs {len(a4c2)})"
print(f"check_split: HBase restarted on the split tables scans the same: t1 {len(ar)} raw records, "
      f"{len(ac)} client-visible; t4 (2 families) {len(a4r)} raw, {len(a4c)} client-visible in "
      f"regions {got}; after HBase split a daughter, major-compacted and merged two regions: "
      f"the same {len(a4c2)} cells in {[(r['start'], r['end']) for r in merged4]}")

split = json.load(open(f"{w}/file-split.json"))
assert sum(o["cells"] for o in split["outputs"]) == split["cells"] > 0, split
orig = [json.loads(l) for l in open(f"{w}/orig.jsonl")]
assert sum(r.get("kind") == "cell" for r in orig) == split["cells"], "hfile-split read another count"
def cells(seg):
    out = []
    for line in seg:
        r = json.loads(line)
        r.pop("seqid", None)
        out.append(r)
    return out
t2, t3 = cells(after[8][1]), cells(after[10][1])
assert t2 and t2 == t3, f"t2 (hfile-split's files, {len(t2)} cells) and t3 (the original, {len(t3)} cells) scan differently"
print(f"check_split: {len(split['outputs'])} files of hfile-split --file ({split['cells']} cells) bulk-loaded: "
      f"HBase scans the same {len(t2)} cells as from the original file")
PY
# HBase's own split and merge, stopped before the CatalogJanitor cleaned up: hfile-verify agrees
# with hbase:meta (parents named there are not live regions) and finds nothing wrong.
"$verify" --json --root "$root" --table t4 > "$work/verify-end.json"
python3 - "$work" <<'PY'
import json, sys
j = json.load(open(f"{sys.argv[1]}/verify-end.json"))
errors = [p for p in j["problems"] if p["severity"] == "error"]
assert j["clean"] and not errors, errors
notes = sorted(p.get("finding", p["what"][:40]) for p in j["problems"] if p["severity"] != "info" or "finding" in p)
print(f"check_split: after HBase's split and merge hfile-verify --table t4 is clean: {j['regions']} region "
      f"dirs, {j['meta']['regions']} rows in hbase:meta; findings: {notes or 'none'}")
PY
echo "check_split: OK"
