#!/usr/bin/env bash
# check_writer_matrix.sh GEN_BINARY FIXTURE_DIR WORK_DIR
# Writes the settings matrix with hfilekit's writer (hfilekit-compat-gen), has HBase 2.6.4 read
# every file in one JVM (harness `read` with the Bloom probes and seek targets), and compares
# HBase's reading with the cells we wrote and with our own reader's view
# (check_writer_matrix.py). See tests/hbase/README.md, "hfilekit writes, HBase reads".
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
gen=$1 fixtures=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
"$gen" --testdata "$fixtures" --out "$work"
mapfile -t files < <(cut -f1 "$work/cases.tsv" | sed "s|^|$work/|; s|\$|.hfile|")
# The read exits non-zero if a file cannot be read; the comparison reports which.
"$here/harness.sh" read "${files[@]}" --probes "$work/probes.jsonl" --seeks "$work/seeks.jsonl" \
  --out-dir "$work/hbase" 2> "$work/hbase.stderr" || echo "harness read failed on some files (see $work/hbase.stderr)"
python3 "$here/check_writer_matrix.py" "$work"
# Passed: the 1.7 GB matrix is not kept (a failure above exits first and keeps it to look at).
rm -rf "$work"
