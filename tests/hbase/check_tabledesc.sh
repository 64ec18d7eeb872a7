#!/usr/bin/env bash
# check_tabledesc.sh SCHEMA_GEN_BINARY REAL_TABLE_DIR WORK_DIR
# hfilekit's schema writer writes table descriptors (an altered copy of a real HBase 2.2.3
# descriptor with 2.6 file names, a created-then-altered table with 2.4 names, and the states a
# SIGKILL before and after the commit rename leaves); HBase 2.6.4
# loads each with FSTableDescriptors.getTableDescriptorFromFs (harness `tabledesc`) and must
# see exactly what our reader sees. Exit 77 (skipped) when the real root dir is absent.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
gen=$1 src=$2 work=$3
if [[ ! -d "$src/.tabledesc" ]]; then
  echo "SKIPPED: the real HBase 2.2.3 table dir $src is absent (shared/testdata/real)" >&2
  exit 77
fi
rm -rf "$work" && mkdir -p "$work"
"$gen" --src "$src" --out "$work" > "$work/tables.tsv"
fail=0
while IFS=$'\t' read -r dir ours path clean; do
  hbase="${ours%.ours.json}.hbase.json"
  if ! "$here/harness.sh" tabledesc "$dir" > "$hbase" 2> "$hbase.stderr"; then
    echo "FAIL: HBase could not load $dir (see $hbase.stderr)"; fail=1; continue
  fi
  if ! diff -u "$ours" "$hbase"; then
    echo "FAIL: HBase's view of $dir differs from ours (- ours, + HBase)"; fail=1; continue
  fi
  # A finished write leaves exactly the new file: no older .tableinfo, no .tmp/.
  left=$(ls -A "$dir/.tabledesc")
  if [[ $clean == 1 && "$left" != "$(basename "$path")" ]]; then
    echo "FAIL: $dir/.tabledesc holds: $left"; fail=1; continue
  fi
  echo "ok: $path ($(wc -c < "$path") bytes) reads the same in HBase 2.6.4"
done < "$work/tables.tsv"
[[ $(wc -l < "$work/tables.tsv") -eq 4 ]] || { echo "FAIL: expected 4 tables"; fail=1; }
exit $fail
