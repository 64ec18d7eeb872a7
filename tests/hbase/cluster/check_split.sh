#!/usr/bin/env bash
# check_split.sh WORK_DIR HFILE_SPLIT [SEED]: an offline hfile-split that HBase restarted serves.
#   1. A local HBase loads random puts and deletes of every kind with several flushes (table t1,
#      one region), scans it raw and client-side, disables the table (so that the restarted
#      master does not open the parent), stops.
#   2. hfile-split splits the region at r12 offline: two daughters, the parent archived.
#   3. HBase restarted: hbase:meta is brought to what the CatalogJanitor leaves after a split,
#      with what HBCK2's extraRegionsInMeta --fix and addFsRegionsMissingInMeta do (the
#      harness's meta_replace op: the parent's row deleted, a CLOSED row per daughter's
#      .regioninfo); HBase stops (man hfile-split: the master reloads hbase:meta).
#   4. HBase restarted: enable t1; two regions are served, and raw and client scans equal step
#      1's.
#   5. File split: one of the parent's (archived) store files cut by hfile-split --file at r08
#      and r16 (every cell kept: the outputs' counts add up to the file's); HBase's
#      completebulkload loads the three outputs into a new table t2, and a copy of the original
#      file into t3: the raw scans of t2 and t3 are the same (sequence ids aside: a bulk load
#      gives every cell of a file one, which can make two cells of the original identical, and
#      HBase then returns one of them, on t2 and t3 alike).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
harness="$here/../harness.sh"
work=$1 split=$2 seed=${3:-1}
rm -rf "$work" && mkdir -p "$work"
export HARNESS_HBASE_CONF="hbase.hstore.compactionThreshold=100;hbase.hstore.blockingStoreFiles=200"
python3 "$here/gen_compact_script.py" "$seed" "$work/s"
{ cat "$work/s.load.jsonl"; echo '{"op":"disable","table":"t1"}'; } > "$work/s.load-disable.jsonl"
"$harness" cluster --root "$work/A" --script "$work/s.load-disable.jsonl" > "$work/load.out"
table="$work/A/hbase/data/default/t1"
mapfile -t regions < <(find "$table" -mindepth 1 -maxdepth 1 -type d -regex '.*/[0-9a-f]+$' -printf '%f\n')
if [[ ${#regions[@]} -ne 1 ]]; then
  echo "check_split: expected 1 region, found ${#regions[@]}: ${regions[*]}" >&2
  exit 1
fi
parent=${regions[0]}
echo "check_split: $(find "$table/$parent" -path '*/f/*' -type f ! -name '.*' | wc -l) store files in $parent"
"$split" --json --at r12 "$table/$parent" > "$work/split.json"
cat "$work/split.json"
read -r a b < <(python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(j["daughter_a"], j["daughter_b"])' "$work/split.json")
test ! -e "$table/$parent" && test -d "$table/$a" && test -d "$table/$b"
echo "{\"op\":\"meta_replace\",\"table\":\"t1\",\"remove\":[\"$parent\"],\"add\":[\"$table/$a\",\"$table/$b\"]}" > "$work/s.meta.jsonl"
"$harness" cluster --root "$work/A" --script "$work/s.meta.jsonl" > "$work/meta.out"
{ echo '{"op":"enable","table":"t1"}'; cat "$work/s.scan.jsonl"; } > "$work/s.enable.jsonl"
"$harness" cluster --root "$work/A" --script "$work/s.enable.jsonl" > "$work/after.out"
python3 - "$work" <<'PY'
import sys
w = sys.argv[1]
load = open(f"{w}/load.out").read().splitlines()
after = open(f"{w}/after.out").read().splitlines()
marker = '{"kind":"scan","raw":false}'
def sides(lines):  # the raw scan's records, then the client scan's (after the marker)
    i = lines.index(marker)
    return lines[:i], lines[i + 1:]
lr, lc = sides(load)
ar, ac = sides(after)
assert lr == ar, f"raw scans differ after the split ({len(lr)} vs {len(ar)} records)"
assert lc == ac, f"client scans differ after the split ({len(lc)} vs {len(ac)} records)"
print(f"check_split: HBase restarted on the split table scans the same: {len(ar)} raw records, "
      f"{len(ac)} client-visible")
PY

orig=$(find "$work/A/hbase/archive/data/default/t1/$parent/f" -type f ! -name '.*' | sort | head -1)
mkdir -p "$work/bulk/f"
"$split" --json --file "$orig" --at r08,r16 --out-dir "$work/bulk/f" > "$work/file-split.json"
cat "$work/file-split.json"
"$harness" read "$orig" > "$work/orig.jsonl"
mkdir -p "$work/bulk-orig/f" && cp "$orig" "$work/bulk-orig/f/"
{ echo '{"op":"create","table":"t2","families":[{"name":"f","max_versions":1000}]}'
  echo "{\"op\":\"bulkload\",\"table\":\"t2\",\"dir\":\"$work/bulk\"}"
  echo '{"op":"scan","table":"t2"}'
  echo '{"op":"create","table":"t3","families":[{"name":"f","max_versions":1000}]}'
  echo "{\"op\":\"bulkload\",\"table\":\"t3\",\"dir\":\"$work/bulk-orig\"}"
  echo '{"op":"scan","table":"t3"}'; } > "$work/s.bulk.jsonl"
"$harness" cluster --root "$work/A" --script "$work/s.bulk.jsonl" > "$work/bulk.out"
python3 - "$work" <<'PY'
import json, sys
w = sys.argv[1]
split = json.load(open(f"{w}/file-split.json"))
assert sum(o["cells"] for o in split["outputs"]) == split["cells"] > 0, split
orig = [json.loads(l) for l in open(f"{w}/orig.jsonl")]
assert sum(r.get("kind") == "cell" for r in orig) == split["cells"], "hfile-split read another count"
scans, cur = [], None
for line in open(f"{w}/bulk.out"):
    r = json.loads(line)
    if r.get("kind") == "bulkload":
        cur = []
        scans.append(cur)
    elif r.get("kind") == "cell":
        r.pop("seqid", None)
        cur.append(r)
t2, t3 = scans
assert t2 and t2 == t3, f"t2 (hfile-split's files, {len(t2)} cells) and t3 (the original, {len(t3)} cells) scan differently"
print(f"check_split: {len(split['outputs'])} files of hfile-split --file ({split['cells']} cells) bulk-loaded: "
      f"HBase scans the same {len(t2)} cells as from the original file")
PY
echo "check_split: OK"
