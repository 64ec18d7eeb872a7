#!/usr/bin/env bash
# docs_io_measure.sh BIN_DIR ROOT PREFIX ROW [TABLE [TWIN [TWIN_FAMILY]]]: what the design guide's two reads
# cost on the `docs` table and on its one-family twin, from the reader's own counters
# (`hfile dump --io-stats`): the folder listing (row prefix PREFIX, family m only) and the
# document open (row ROW, every family). Prints the blocks and bytes each read per store, then
# one comparison table. Reads only; how the tables were made is not its business.
set -euo pipefail
if [[ $# -lt 4 || $# -gt 7 ]]; then
  echo "usage: $0 BIN_DIR ROOT PREFIX ROW [TABLE [TWIN [TWIN_FAMILY]]]" >&2
  exit 1
fi
bin=$1 root=$2 prefix=$3 row=$4 table=${5:-docs} twin=${6:-docs_twin} twin_family=${7:-m}
dump=$bin/hfile-dump
[[ -x $dump ]] || { echo "$0: no $dump" >&2; exit 1; }

# read NAME TABLE ARGS...: the per-store lines, and the JSON total kept for the summary.
summary=$(mktemp)
trap 'rm -f "$summary"' EXIT
read_one() {
  local name=$1 t=$2
  shift 2
  echo "== $name on $t: hfile dump $* --io-stats --root $root --table $t"
  "$dump" "$@" --io-stats --root "$root" --table "$t" | grep '^io-stats '
  "$dump" --json "$@" --io-stats --root "$root" --table "$t" |
    grep '"kind":"io_stats_total"' | sed "s/^{/{\"read\":\"$name\",\"table\":\"$t\",/" >>"$summary"
}
for t in "$table" "$twin"; do
  family=m
  [[ $t == "$twin" ]] && family=$twin_family
  read_one "folder listing" "$t" -e --family "$family" --prefix "$prefix"
  read_one "document open" "$t" -e -w "$row"
done

python3 - "$summary" "$prefix" "$row" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
print()
print(f"folder listing: --prefix {sys.argv[2]}, one family;  document open: -w {sys.argv[3]}")
print(f"{'read':<16} {'table':<12} {'stores':>6} {'files read':>10} {'data blocks':>11} "
      f"{'data bytes':>11} {'index+bloom':>11} {'seeks':>6}")
by = {}
for r in rows:
    by[(r["read"], r["table"])] = r
    print(f"{r['read']:<16} {r['table']:<12} {r['stores']:>6} {r['files_read']:>10} "
          f"{r['data_blocks']:>11} {r['data_bytes']:>11} "
          f"{r['index_bytes'] + r['bloom_bytes']:>11} {r['seeks']:>6}")
tables = sorted({r["table"] for r in rows}, key=[r["table"] for r in rows].index)
if len(tables) == 2:
    for read in ("folder listing", "document open"):
        a, b = by.get((read, tables[0])), by.get((read, tables[1]))
        if a and b and a["data_bytes"]:
            print(f"{read}: {tables[1]} reads {b['data_bytes'] / a['data_bytes']:.1f}x the data "
                  f"bytes of {tables[0]}")
PY
