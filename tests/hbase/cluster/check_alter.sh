#!/usr/bin/env bash
# check_alter.sh WORK_DIR HFILE_ALTER [SEED]: hfile-alter against HBase's own alter followed by
# major_compact, on the same store files.
#   1. A local HBase loads random puts and deletes of every kind with 5 flushes (family f:
#      SNAPPY, FAST_DIFF, ROW bloom, VERSIONS 2), then stops cleanly: root A. A copy: root B.
#   2. HBase restarts on A: alter 't1', {NAME => 'f', COMPRESSION => 'GZ', BLOCKSIZE => 8192,
#      DATA_BLOCK_ENCODING => 'PREFIX', BLOOMFILTER => 'ROWCOL', VERSIONS => 1}, then
#      major_compact; describe and scans.
#   3. hfile-alter runs the same statement on B offline (HBase stopped).
#   4. HBase restarted on B: describe equals A's (the descriptor HBase's own alter wrote), raw and
#      client scans equal A's, the one store file holds exactly the cells of A's (HBase's reader
#      on both) and its trailer and file info say GZ, PREFIX, ROWCOL.
#   5. Add family g (VERSIONS 1, TTL 86400) on both before the comparison of 4; then drop it on
#      both: HBase restarted on B describes what HBase's own drop left, g's dirs are gone.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
harness="$here/../harness.sh"
work=$1 alter=$2 seed=${3:-1}
dump="$(dirname "$alter")/hfile-dump"
rm -rf "$work" && mkdir -p "$work"
export HARNESS_HBASE_CONF="hbase.hstore.compactionThreshold=100;hbase.hstore.blockingStoreFiles=200"
python3 "$here/gen_compact_script.py" "$seed" "$work/s"
op='{"op":"alter","table":"t1","family":"f","set":{"COMPRESSION":"GZ","BLOCKSIZE":"8192","DATA_BLOCK_ENCODING":"PREFIX","BLOOMFILTER":"ROWCOL","VERSIONS":"1"}}'
add='{"op":"add_family","table":"t1","family":"g","set":{"VERSIONS":"1","TTL":"86400"}}'
{ echo "$op"; echo '{"op":"compact","table":"t1","major":true}'; echo "$add";
  echo '{"op":"describe","table":"t1"}'; cat "$work/s.scan.jsonl"; } > "$work/s.alter.jsonl"
{ echo '{"op":"describe","table":"t1"}'; cat "$work/s.scan.jsonl"; } > "$work/s.after.jsonl"
{ echo '{"op":"delete_family","table":"t1","family":"g"}'; echo '{"op":"describe","table":"t1"}';
  } > "$work/s.drop.jsonl"
echo '{"op":"describe","table":"t1"}' > "$work/s.describe.jsonl"

one_file() {
  mapfile -t files < <(find "$1/hbase/$table" -path '*/f/*' -type f ! -name '.*')
  if [[ ${#files[@]} -ne 1 ]]; then
    echo "check_alter: expected 1 store file in $1, found ${#files[@]}: ${files[*]}" >&2
    exit 1
  fi
  echo "${files[0]}"
}
"$harness" cluster --root "$work/A" --script "$work/s.load.jsonl" > "$work/load.out"
cp -a "$work/A" "$work/B"
table=data/default/t1
"$harness" cluster --root "$work/A" --script "$work/s.alter.jsonl" > "$work/A.out"
"$alter" --json "$work/B/hbase" \
  "alter 't1', {NAME => 'f', COMPRESSION => 'GZ', BLOCKSIZE => 8192, DATA_BLOCK_ENCODING => 'PREFIX', BLOOMFILTER => 'ROWCOL', VERSIONS => 1}" \
  > "$work/B.alter.json"
cat "$work/B.alter.json"
"$alter" "$work/B/hbase" "alter 't1', {NAME => 'g', VERSIONS => 1, TTL => 86400}" > "$work/B.add.out"
test -d "$(dirname "$(one_file "$work/B")")/../g"  # the added family's dir, in every region
"$harness" cluster --root "$work/B" --script "$work/s.after.jsonl" > "$work/B.out"

python3 - "$work" <<'PY'
import json, sys
w = sys.argv[1]
a = open(f"{w}/A.out").read().splitlines()
b = open(f"{w}/B.out").read().splitlines()
da, db = json.loads(a[0]), json.loads(b[0])
assert da["kind"] == db["kind"] == "describe", (a[0], b[0])
assert da == db, f"describe differs:\nHBase's alter: {a[0]}\nhfile-alter:   {b[0]}"
assert a[1:] == b[1:], "scans after hfile-alter differ from after HBase's alter + major_compact"
print(f"check_alter: describe identical, scans identical ({len(b) - 1} records)")
PY

"$harness" read "$(one_file "$work/A")" > "$work/A.file.jsonl"
"$harness" read "$(one_file "$work/B")" > "$work/B.file.jsonl"
tail -n 1 "$work/B.file.jsonl" | grep -q '"kind":"check","ok":true'
python3 "$here/../compare_jsonl.py" --kinds cell "$work/A.file.jsonl" "$work/B.file.jsonl"
meta=$("$dump" -m "$(one_file "$work/B")")
for want in "compression=GZ" "dataBlockEncoding=PREFIX" "BLOOM_FILTER_TYPE = ROWCOL"; do
  grep -qF "$want" <<<"$meta" || { echo "check_alter: the rewritten file lacks $want" >&2; exit 1; }
done
echo "check_alter: $(grep -c '"kind":"cell"' "$work/A.file.jsonl") cells, identical to HBase's; GZ, PREFIX, ROWCOL"
# Drop: HBase's delete-column-family on A, hfile-alter's on B; HBase restarted on B holds the
# descriptor HBase's own drop left, and no region has the family's dir any more.
"$harness" cluster --root "$work/A" --script "$work/s.drop.jsonl" > "$work/A.drop.out"
"$alter" "$work/B/hbase" "alter 't1', 'delete' => 'g'" > "$work/B.drop.out"
"$harness" cluster --root "$work/B" --script "$work/s.describe.jsonl" > "$work/B.drop.describe"
cmp "$work/A.drop.out" "$work/B.drop.describe"
test -z "$(find "$work/B/hbase/$table" -mindepth 2 -maxdepth 2 -name g)"
echo "check_alter: add and drop of family g: describe identical to HBase's, its dirs gone"
echo "check_alter: OK"
