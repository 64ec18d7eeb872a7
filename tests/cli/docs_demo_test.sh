#!/usr/bin/env bash
# docs_demo_test.sh SOURCE_DIR BIN_DIR: the main job (scripts/docs_demo.sh) on a 300-document
# sample. The sample is the same when generated twice with the same base time; every step exits
# 0; the folder listing touches one store of the two-family table (family m, one region) and
# reads at least 20x fewer data bytes there than the one-family twin; the document open reads
# two stores (m and b) of one region; the alter rewrote m's 8 files; the rename left only d; the
# split made two daughters; both tables verify clean.
set -euo pipefail
src=$1 bin=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
python3 "$src/scripts/docs_sample.py" --docs 50 "$work/a" >/dev/null
python3 "$src/scripts/docs_sample.py" --docs 50 "$work/b" >/dev/null
for f in docs.jsonl docs_twin.jsonl folders.txt; do
  cmp -s "$work/a/$f" "$work/b/$f" || fail "$f differs between two runs"
done
rc=0
out=$(bash "$src/scripts/docs_demo.sh" "$bin" "$work/demo" 300 2>&1) || rc=$?
echo "$out"
[[ $rc == 0 ]] || fail "docs_demo.sh exited $rc"
grep -Eq '^folder listing +docs +1 +1 ' <<<"$out" || fail "folder listing on docs: not 1 store, 1 file"
grep -Eq '^document open +docs +2 +2 ' <<<"$out" || fail "document open on docs: not 2 stores"
grep -Eq '^document open +docs_twin +1 +1 ' <<<"$out" || fail "document open on the twin: not 1 store"
ratio=$(sed -n 's/^folder listing: docs_twin reads \([0-9.]*\)x.*/\1/p' <<<"$out")
[[ -n $ratio ]] || fail "no folder listing ratio"
python3 -c "import sys; sys.exit(0 if float('$ratio') >= 20 else 1)" ||
  fail "folder listing: the twin reads only ${ratio}x the bytes"
grep -q 'findings: ' <<<"$out" || fail "no advise summary"
[[ $(grep -c '^[0-9a-f]\{32\}/m: rewrote 1 file(s)' <<<"$out") == 8 ]] || fail "alter did not rewrite 8 m files"
grep -q '^verified: d holds exactly the cells of document' <<<"$out" || fail "copy-family not verified"
root=$work/demo/root/data/default
if ls -d "$root"/docs_twin/*/document >/dev/null 2>&1; then fail "docs_twin still has family document dirs"; fi
grep -q '^committed: daughters ' <<<"$out" || fail "no split"
[[ $(ls "$root"/docs/*/.regioninfo | wc -l) == 9 ]] || fail "docs has not 9 regions after the split"
grep -Eq '^table .*/docs: OK \(9 regions, 18 store files, 0 errors' <<<"$out" || fail "docs does not verify"
grep -Eq '^table .*/docs_twin: OK \(8 regions, 8 store files, 0 errors' <<<"$out" || fail "docs_twin does not verify"
echo "PASS (folder listing ratio ${ratio}x)"
