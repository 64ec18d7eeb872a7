#!/usr/bin/env bash
# docs_io_demo.sh BIN_DIR WORKDIR [DOCS]: builds the design guide's `docs` table and its
# one-family twin offline from the generated sample (scripts/docs_sample.py, DOCS documents,
# default 2000), then measures the folder listing and the document open on both
# (scripts/docs_io_measure.sh).
#
# The tables are laid out with the test helper lay_out_table (BIN_DIR/../tests/, or $LAY_OUT_TABLE)
# from the issue's create statement and loaded with `hfile bulkload --into`; once `hfile create`
# exists it replaces the helper. An existing WORKDIR/root is measured as it is.
set -euo pipefail
if [[ $# -lt 2 || $# -gt 3 ]]; then
  echo "usage: $0 BIN_DIR WORKDIR [DOCS]" >&2
  exit 1
fi
bin=$(cd "$1" && pwd) work=$2 docs=${3:-2000}
here=$(cd "$(dirname "$0")" && pwd)
lay_out=${LAY_OUT_TABLE:-$bin/../tests/lay_out_table}
splits="{SPLITS => ['2', '4', '6', '8', 'a', 'c', 'e']}"
mkdir -p "$work"
root=$work/root
if [[ ! -d $root ]]; then
  [[ -x $lay_out ]] || { echo "$0: no $lay_out (ninja -C build lay_out_table)" >&2; exit 1; }
  python3 "$here/docs_sample.py" --docs "$docs" "$work/sample"
  "$lay_out" "$root" "create 'docs', {NAME => 'm', VERSIONS => 1, BLOOMFILTER => 'ROW', \
DATA_BLOCK_ENCODING => 'FAST_DIFF', COMPRESSION => 'SNAPPY', BLOCKSIZE => 16384}, \
{NAME => 'b', VERSIONS => 3, TTL => 7776000, COMPRESSION => 'ZSTD', BLOCKSIZE => 131072, \
BLOCKCACHE => false}, $splits" >/dev/null
  # The twin: every column in m, which keeps b's three versions.
  "$lay_out" "$root" "create 'docs_twin', {NAME => 'm', VERSIONS => 3, BLOOMFILTER => 'ROW', \
DATA_BLOCK_ENCODING => 'FAST_DIFF', COMPRESSION => 'SNAPPY', BLOCKSIZE => 16384}, $splits" >/dev/null
  for t in docs docs_twin; do
    in=$work/sample/docs.jsonl
    [[ $t == docs_twin ]] && in=$work/sample/docs_twin.jsonl
    "$bin/hfile-bulkload" --format json --into --root "$root" --table "$t" "$in" | tail -1
  done
fi
# The first folder that has documents, and its first document.
while IFS=$'\t' read -r prefix path; do
  row=$("$bin/hfile-dump" -e --family m --prefix "$prefix" --limit 1 --root "$root" --table docs |
        sed -n 's|^K: \([^/]*\)/.*|\1|p' | head -1)
  [[ -n $row ]] && break
done <"$work/sample/folders.txt"
echo "folder $path (prefix $prefix), document $row"
"$here/docs_io_measure.sh" "$bin" "$root" "$prefix" "$row"
