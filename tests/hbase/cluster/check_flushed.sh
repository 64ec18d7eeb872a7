#!/usr/bin/env bash
# check_flushed.sh HFILE_DUMP WORK_DIR
# A local HBase writes and flushes a table (flushed_script.py: two families with different
# codecs, encodings and blooms, three flushes, every delete type), then stops, keeping its root
# dir. hfilekit reads the store files from the kept root dir: hfile-dump -p --json of every
# store file, merged in cell order, must equal HBase's raw scan cell for cell; and each store
# file's cells must equal HBase's own `read` of it (sequence ids and all).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
harness="$here/../harness.sh"
dump=$1 work=$2
rm -rf "$work" && mkdir -p "$work"
python3 "$here/flushed_script.py" > "$work/script.jsonl"
"$harness" cluster --root "$work/root" --script "$work/script.jsonl" > "$work/scan.jsonl"
mapfile -t files < <(find "$work/root/hbase/data/default/flushed" -mindepth 3 -maxdepth 3 -type f \
  -path '*/[ab]/*' | sort)
echo "check_flushed: ${#files[@]} store files"
if [[ ${#files[@]} -ne 6 ]]; then
  echo "check_flushed: expected 3 store files in each of 2 families" >&2
  exit 1
fi
mkdir -p "$work/ours"
for f in "${files[@]}"; do
  "$dump" -p --json "$f" | grep '"kind":"cell"' > "$work/ours/$(basename "$f").jsonl" || true
done
python3 "$here/sort_cells.py" "$work/ours/"*.jsonl > "$work/ours-merged.jsonl"
python3 "$here/../compare_jsonl.py" --exact "$work/scan.jsonl" "$work/ours-merged.jsonl"
"$harness" read "${files[@]}" --out-dir "$work/hbase-read"
for f in "${files[@]}"; do
  b="$(basename "$f")"
  python3 "$here/../compare_jsonl.py" --exact --kinds cell --ignore path,v \
    "$work/hbase-read/$b.hbase.jsonl" "$work/ours/$b.jsonl"
done
echo "check_flushed: OK"
