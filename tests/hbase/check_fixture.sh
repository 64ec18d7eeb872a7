#!/usr/bin/env bash
# check_fixture.sh FIXTURE_DIR NAME WORK_DIR
# Regenerates fixture NAME with the options recorded in FIXTURE_DIR/fixtures.tsv, then checks
#  1. the new HFile is byte-identical to the committed FIXTURE_DIR/NAME.hfile,
#  2. HBase's `read` of it yields exactly the cells in the committed NAME.cells.jsonl,
#  3. HBase's HFilePrettyPrinter check passed,
#  4. the whole `read` output (trailer, file info, Bloom answers) equals NAME.hbase.jsonl.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
fixtures=$1 name=$2 work=$3
args="$(awk -F'\t' -v n="$name" '$1 == n { print $2 }' "$fixtures/fixtures.tsv")"
if [[ -z "$args" ]]; then
  echo "check_fixture: $name not in $fixtures/fixtures.tsv" >&2
  exit 1
fi
rm -rf "$work" && mkdir -p "$work"
# shellcheck disable=SC2086  # args is a recorded, space-separated option list
"$here/harness.sh" gen --out "$work" --name "$name" $args
cmp "$fixtures/$name.hfile" "$work/$name.hfile"
"$here/harness.sh" read "$work/$name.hfile" --probes "$fixtures/probes.jsonl" > "$work/$name.hbase.jsonl"
python3 "$here/compare_jsonl.py" --exact --kinds cell "$fixtures/$name.cells.jsonl" "$work/$name.hbase.jsonl"
tail -n 1 "$work/$name.hbase.jsonl" | grep -q '"kind":"check","ok":true'
python3 "$here/compare_jsonl.py" --exact "$fixtures/$name.hbase.jsonl" "$work/$name.hbase.jsonl"
echo "check_fixture: $name OK"
