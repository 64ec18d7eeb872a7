#!/usr/bin/env bash
# check_cluster.sh WORK_DIR: runs smoke.script.jsonl on a fresh local HBase rooted at WORK_DIR,
# compares both raw scans with smoke.expected.jsonl, then checks that HBase's own reader
# accepts the store file the major compaction left in the (kept) root directory.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
harness="$here/../harness.sh"
work=$1
rm -rf "$work" && mkdir -p "$work"
"$harness" cluster --root "$work/root" --script "$here/smoke.script.jsonl" > "$work/scan.jsonl"
python3 "$here/../compare_jsonl.py" --exact "$here/smoke.expected.jsonl" "$work/scan.jsonl"
mapfile -t files < <(find "$work/root/hbase/data/default/t1" -path '*/f/*' -type f)
if [[ ${#files[@]} -ne 1 ]]; then
  echo "check_cluster: expected 1 store file after major compaction, found ${#files[@]}" >&2
  exit 1
fi
"$harness" read "${files[0]}" > "$work/storefile.jsonl"
tail -n 1 "$work/storefile.jsonl" | grep -q '"kind":"check","ok":true'
echo "check_cluster: OK"
