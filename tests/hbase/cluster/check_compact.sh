#!/usr/bin/env bash
# check_compact.sh WORK_DIR HFILE_COMPACT [SEED]: hfile-compact against HBase's own major
# compaction on the same store files.
#   1. A local HBase loads random puts and deletes of every kind with 5 flushes (auto
#      compaction off), then stops cleanly: root A. A copy of it: root B.
#   2. HBase restarts on A and major-compacts the table.
#   3. hfile-compact major-compacts the table in B offline (HBase stopped).
#   4. The two compacted store files hold exactly the same cells (HBase's reader on both, cells
#      incl. sequence ids), HBase's check accepts ours, and HBase restarted on B scans (raw and
#      client) exactly what A scans after its compaction; the client scan equals the one before.
#   5. Crash safety with the real HBase: hfile-compact on a third copy C is SIGKILLed right after
#      its commit point (new file in place, all old files still there); HBase opening C must
#      drop the old files itself (COMPACTION_EVENT_KEY) and scan exactly what B scans.
#   6. (seed 1) The same compaction as a distributed job on a fourth copy D: planned with
#      --emit-units, each unit run by hfile-task into its attempt dir, committed with
#      hfile-task --commit. HBase's reader finds the same cells as in B's file, and HBase
#      restarted on D scans exactly what B scans.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
harness="$here/../harness.sh"
work=$1 compact=$2 seed=${3:-1}
rm -rf "$work" && mkdir -p "$work"
export HARNESS_HBASE_CONF="hbase.hstore.compactionThreshold=100;hbase.hstore.blockingStoreFiles=200"
python3 "$here/gen_compact_script.py" "$seed" "$work/s"

"$harness" cluster --root "$work/A" --script "$work/s.load.jsonl" > "$work/load.out"
cp -a "$work/A" "$work/B"
cp -a "$work/A" "$work/C"
[[ $seed == 1 ]] && cp -a "$work/A" "$work/D"
table=data/default/t1
nfiles=$(find "$work/B/hbase/$table" -path '*/f/*' -type f | wc -l)
echo "check_compact: $nfiles store files before compaction"

"$harness" cluster --root "$work/A" --script "$work/s.compact.jsonl" > "$work/A.out"
"$compact" --json "$work/B/hbase/$table" > "$work/B.compact.json"
cat "$work/B.compact.json"

one_file() {
  mapfile -t files < <(find "$1/hbase/$table" -path '*/f/*' -type f ! -name '.*')
  if [[ ${#files[@]} -ne 1 ]]; then
    echo "check_compact: expected 1 store file in $1, found ${#files[@]}: ${files[*]}" >&2
    exit 1
  fi
  echo "${files[0]}"
}
"$harness" read "$(one_file "$work/A")" > "$work/A.file.jsonl"
"$harness" read "$(one_file "$work/B")" > "$work/B.file.jsonl"
tail -n 1 "$work/B.file.jsonl" | grep -q '"kind":"check","ok":true'
python3 "$here/../compare_jsonl.py" --kinds cell "$work/A.file.jsonl" "$work/B.file.jsonl"
echo "check_compact: $(grep -c '"kind":"cell"' "$work/A.file.jsonl") cells, identical to HBase's"

"$harness" cluster --root "$work/B" --script "$work/s.scan.jsonl" > "$work/B.out"
# A.out = scans before + after HBase's compaction; the "after" half must equal B's scans.
python3 - "$work" <<'EOF'
import sys
w = sys.argv[1]
a = open(f"{w}/A.out").read().splitlines()
b = open(f"{w}/B.out").read().splitlines()
load = open(f"{w}/load.out").read().splitlines()
marker = '{"kind":"scan","raw":false}'
def client(lines):
    return lines[lines.index(marker) + 1:]
assert len(a) == len(load) + len(b), (len(a), len(load), len(b))
assert a[len(load):] == b, "HBase's scans after hfile-compact differ from after its own compaction"
assert client(b) == client(load), "client scan changed across the compaction"
print(f"check_compact: scans after restart identical ({len(b)} records, "
      f"{len(client(b))} client-visible cells)")
EOF

if HFILE_COMPACT_CRASH_AT=committed "$compact" "$work/C/hbase/$table" > /dev/null 2>&1; then
  echo "check_compact: --crash-at committed did not crash" >&2
  exit 1
fi
left=$(find "$work/C/hbase/$table" -path '*/f/*' -type f ! -name '.*' | wc -l)
echo "check_compact: killed after commit: $left store files in the family dir"
"$harness" cluster --root "$work/C" --script "$work/s.scan.jsonl" > "$work/C.out"
cmp "$work/B.out" "$work/C.out"
one_file "$work/C" > /dev/null
echo "check_compact: HBase opened the crashed copy: same scans, old files archived by HBase"

if [[ $seed == 1 ]]; then
  task="$(dirname "$compact")/hfile-task"
  "$compact" --emit-units --job-id d "$work/D/hbase/$table" > "$work/D.plan.out"
  job="$work/D/hbase/$table/.hfile-jobs/d"
  units=$(wc -l < "$job/units.jsonl")
  while IFS= read -r unit; do
    printf '%s\n' "$unit" | "$task" - --attempt 0-0 > /dev/null
  done < "$job/units.jsonl"
  "$task" --commit "$job"
  "$harness" read "$(one_file "$work/D")" > "$work/D.file.jsonl"
  tail -n 1 "$work/D.file.jsonl" | grep -q '"kind":"check","ok":true'
  python3 "$here/../compare_jsonl.py" --kinds cell "$work/B.file.jsonl" "$work/D.file.jsonl"
  "$harness" cluster --root "$work/D" --script "$work/s.scan.jsonl" > "$work/D.out"
  cmp "$work/B.out" "$work/D.out"
  echo "check_compact: distributed job ($units unit(s)): same cells as hfile-compact's, HBase scans the same"
fi
echo "check_compact: OK"
