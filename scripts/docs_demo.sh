#!/usr/bin/env bash
# docs_demo.sh BIN_DIR WORKDIR [DOCS]: the main job (scripts/run-sample.sh runs it after the
# build): the column-family design guide's `docs` table built and changed offline end to end in
# WORKDIR (recreated when it is new, empty or made by an earlier run; anything else is refused),
# with the hfile tools in BIN_DIR.
#
#   1. a generated sample: DOCS documents (default 2000) in 50 folders; family m holds each
#      document's title/owner/size/mtime, family b its ~40 KB HTML body in three revisions
#      (scripts/docs_sample.py; rows = md5(folder)[0:8] + document id)
#   2. `hfile create` the guide's statement on a new root dir, and a one-family twin that keeps
#      everything in one long-named family; `hfile bulkload --into` both
#   3. `hfile describe docs`
#   4. the folder listing (row prefix, family m) and the document open (one row, both families)
#      on docs and on the twin, with the blocks and bytes each read per store (dump --io-stats,
#      scripts/docs_io_measure.sh)
#   5. `hfile advise docs`
#   6. alter 'docs', {NAME => 'm', BLOCKSIZE => 8192}: m's files are rewritten at once
#   7. the twin's long family renamed with copy-family (HBase has no rename)
#   8. a region of docs split offline; every table verified
set -euo pipefail
if [[ $# -lt 2 || $# -gt 3 ]]; then
  echo "usage: $0 BIN_DIR WORKDIR [DOCS]" >&2
  exit 1
fi
bin=$(cd "$1" && pwd) work=$2 docs=${3:-2000}
here=$(cd "$(dirname "$0")" && pwd)
hfile=$bin/hfile

if [[ -t 1 ]]; then bold=$'\033[1m' plain=$'\033[0m'; else bold='' plain=''; fi
step() { printf '\n%s== %s%s\n' "$bold" "$*" "$plain"; }
show() { printf '$ %s\n' "$*"; "$@"; }
# The store files of one family of a table, with their size and data block count.
files_of() {
  local table=$1 family=$2
  for f in "$root"/data/default/"$table"/*/"$family"/*; do
    [[ -f $f ]] || continue
    printf '  %-58s %9d bytes  %s\n' "${f#"$root"/}" "$(stat -c %s "$f")" \
      "$("$hfile" dump -h "$f" | grep -c 'blockType=[A-Z_]*DATA,') data blocks"
  done
}

# WORKDIR is recreated only if it is new, empty, or an earlier run of this script made it.
marker=.hfile-docs-demo
if [[ -e $work && ! -e $work/$marker && -n $(ls -A "$work" 2>/dev/null) ]]; then
  echo "$0: $work exists and was not made by this script; give a new or empty dir" >&2
  exit 1
fi
rm -rf "$work"
mkdir -p "$work"
touch "$work/$marker"
root=$work/root
started=$(date +%s)

step "1. the sample: $docs documents (scripts/docs_sample.py)"
# Timestamps end now, so that b's 90-day TTL has expired nothing yet.
python3 "$here/docs_sample.py" --docs "$docs" --twin-family document \
  --base-ms "$(date +%s%3N)" "$work/sample"
ls -l "$work/sample"

step "2. hfile create: the guide's docs table, and the same data in one family"
show "$hfile" create "$root" "create 'docs', {NAME => 'm', VERSIONS => 1, BLOOMFILTER => 'ROW', \
DATA_BLOCK_ENCODING => 'FAST_DIFF', COMPRESSION => 'SNAPPY', BLOCKSIZE => 16384}, \
{NAME => 'b', VERSIONS => 3, TTL => 7776000, COMPRESSION => 'ZSTD', BLOCKSIZE => 131072, \
BLOCKCACHE => false}, {SPLITS => ['2', '4', '6', '8', 'a', 'c', 'e']}"
show "$hfile" create "$root" "create 'docs_twin', {NAME => 'document', VERSIONS => 3, \
BLOOMFILTER => 'ROW', DATA_BLOCK_ENCODING => 'FAST_DIFF', COMPRESSION => 'SNAPPY', \
BLOCKSIZE => 16384}, {SPLITS => ['2', '4', '6', '8', 'a', 'c', 'e']}"
show "$hfile" bulkload --format json --into --root "$root" --table docs --no-progress \
  "$work/sample/docs.jsonl"
show "$hfile" bulkload --format json --into --root "$root" --table docs_twin --no-progress \
  "$work/sample/docs_twin.jsonl"

step "3. hfile describe docs"
show "$hfile" describe "$root" docs

step "4. what the guide's two reads cost: a folder listing and a document open"
# The first folder that has documents, and its first document.
while IFS=$'\t' read -r prefix path; do
  row=$("$hfile" dump -e --family m --prefix "$prefix" --limit 1 --root "$root" --table docs |
        sed -n 's|^K: \([^/]*\)/.*|\1|p' | head -1)
  [[ -n $row ]] && break
done <"$work/sample/folders.txt"
echo "folder $path (row prefix $prefix), document $row"
"$here/docs_io_measure.sh" "$bin" "$root" "$prefix" "$row" docs docs_twin document

step "5. hfile advise docs"
show "$hfile" advise "$root" docs

step "6. alter 'docs', {NAME => 'm', BLOCKSIZE => 8192}: the files change on disk at once"
echo "m's store files before:"
files_of docs m
show "$hfile" alter "$root" "alter 'docs', {NAME => 'm', BLOCKSIZE => 8192}"
echo "m's store files after:"
files_of docs m

step "7. rename the twin's long family: copy-family document -> d, then drop the old one"
show "$hfile" copy-family "$root" docs_twin document d --drop-old
show "$hfile" describe "$root" docs_twin

step "8. split a region of docs offline, then verify every table"
region='' largest=-1
for d in "$root"/data/default/docs/*/; do
  [[ -f $d/.regioninfo ]] || continue
  size=$(du -sb "$d" | cut -f1)
  if ((size > largest)); then largest=$size region=${d%/}; fi
done
[[ -n $region ]] || { echo "$0: docs has no region to split" >&2; exit 1; }
show "$hfile" split "$region"
show "$hfile" verify --table "$root/data/default/docs" --table "$root/data/default/docs_twin"

step "done in $(($(date +%s) - started)) s; the tables are in $root"
