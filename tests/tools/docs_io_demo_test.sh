#!/usr/bin/env bash
# docs_io_demo_test.sh SOURCE_DIR BIN_DIR: scripts/docs_io_demo.sh on a 300-document sample:
# the sample is the same when generated twice; the folder listing touches one store of the
# two-family table (family m, one region) and reads at least 20x fewer data bytes there than in
# the one-family twin; the document open reads two stores (m and b) of one region.
set -euo pipefail
src=$1 bin=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 "$src/scripts/docs_sample.py" --docs 300 "$work/again" >/dev/null
out=$(LAY_OUT_TABLE=$bin/../tests/lay_out_table bash "$src/scripts/docs_io_demo.sh" "$bin" "$work/demo" 300)
echo "$out"
fail() { echo "FAIL: $*" >&2; exit 1; }
for f in docs.jsonl docs_twin.jsonl folders.txt; do
  cmp -s "$work/again/$f" "$work/demo/sample/$f" || fail "$f differs between two runs"
done
grep -Eq '^folder listing +docs +1 +1 ' <<<"$out" || fail "folder listing on docs: not 1 store, 1 file"
grep -Eq '^document open +docs +2 +2 ' <<<"$out" || fail "document open on docs: not 2 stores"
grep -Eq '^document open +docs_twin +1 +1 ' <<<"$out" || fail "document open on the twin: not 1 store"
ratio=$(sed -n 's/^folder listing: docs_twin reads \([0-9.]*\)x.*/\1/p' <<<"$out")
[[ -n $ratio ]] || fail "no folder listing ratio"
python3 -c "import sys; sys.exit(0 if float('$ratio') >= 20 else 1)" ||
  fail "folder listing: the twin reads only ${ratio}x the bytes"
echo "PASS (folder listing ratio ${ratio}x)"
