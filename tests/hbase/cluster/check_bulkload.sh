#!/usr/bin/env bash
# check_bulkload.sh GEN_BINARY HFILE_DUMP FIXTURE_DIR WORK_DIR
# hfilekit writes bulk-load-shaped HFiles (hfilekit-compat-gen --bulkload: two families, a
# table pre-split in three regions, one file per region in family f and one file across every
# region in family g), a local HBase loads them with completebulkload (BulkLoadHFilesTool,
# harness cluster op "bulkload"), and a raw full scan must return exactly the cells we wrote.
# Then every store file HBase left in the region directories (ours moved in as they are, and
# the halves HBase split from ours) must read back with hfile-dump equal to HBase's `read`.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
harness="$here/../harness.sh"
gen=$1 dump=$2 fixtures=$3 work=$4
rm -rf "$work" && mkdir -p "$work"
"$gen" --testdata "$fixtures" --bulkload "$work/in"
# Our region-aligned files are moved into the regions unchanged: remember their digests.
sha256sum "$work/in/hfiles/f/"* | cut -d' ' -f1 | sort > "$work/ours.sha256"
"$harness" cluster --root "$work/root" --script "$work/in/script.jsonl" > "$work/out.jsonl"
grep '"kind":"bulkload"' "$work/out.jsonl"
grep '"kind":"cell"' "$work/out.jsonl" > "$work/scan.jsonl" || true
python3 "$here/../compare_jsonl.py" --exact "$work/in/expected.jsonl" "$work/scan.jsonl"
mapfile -t files < <(find "$work/root/hbase/data/default/bulk" -mindepth 3 -maxdepth 3 -type f \
  -path '*/[fg]/*' | sort)
echo "check_bulkload: ${#files[@]} store files after the load"
if [[ ${#files[@]} -lt 5 ]]; then
  echo "check_bulkload: expected 2 files in f and 3 in g, found ${#files[@]}" >&2
  exit 1
fi
sha256sum "${files[@]}" | cut -d' ' -f1 | sort > "$work/loaded.sha256"
if [[ "$(comm -12 "$work/ours.sha256" "$work/loaded.sha256" | wc -l)" -ne 2 ]]; then
  echo "check_bulkload: our two family-f files are not among the store files unchanged" >&2
  exit 1
fi
# Every store file (ours, and the halves HBase split from our family-g file): hfile-dump's
# cells equal HBase's reading of the same file.
"$harness" read "${files[@]}" --out-dir "$work/hbase-read"
for f in "${files[@]}"; do
  b="$(basename "$f")"
  "$dump" -p --json "$f" | grep '"kind":"cell"' > "$work/hbase-read/$b.ours.jsonl" || true
  python3 "$here/../compare_jsonl.py" --exact --kinds cell --ignore path,v \
    "$work/hbase-read/$b.hbase.jsonl" \
    "$work/hbase-read/$b.ours.jsonl"
  tail -n 1 "$work/hbase-read/$b.hbase.jsonl" | grep -q '"kind":"check","ok":true'
done
echo "check_bulkload: OK"
