#!/usr/bin/env bash
# check_rename_peers.sh WORK_DIR HFILE_COPY_FAMILY MAN_PAGE: family f copied under new names by
# HBase's own tools and by hfile-copy-family, and what each kept (the table in MAN_PAGE's
# "Compared with HBase's tools").
#   1. A local HBase loads f (gen_rename_peers_script.py: versions, TTL tags, one delete marker of
#      each kind, several flushes), then runs CopyTable (defaults; --all.cells --versions=MAX) and
#      Export (raw, all versions) + Import -DHBASE_IMPORTER_RENAME_CFS in LocalJobRunner, each
#      plain and with the tags RPC codec, into families c1 c2 c3 e e2 of the same table; flush,
#      stop. HBase's reader dumps every store file of each family.
#   2. hfile-copy-family t1 f g, HBase stopped; g's store files dumped the same way.
#   3. HBase restarted: raw and client scans of every family.
#   4. check_rename_peers.py measures each copy against f and asserts the table.
# Needs the harness and mapreduce/pom.xml's classpath file in HARNESS_BUILD_DIR (CTest fixtures).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
harness="$here/../harness.sh"
work=$1 copy=$2 man=$3
target="${HARNESS_BUILD_DIR:-$here/../target}"
if [[ ! -f "$target/mapreduce-classpath.txt" ]]; then
  echo "check_rename_peers: no $target/mapreduce-classpath.txt; run:" \
    "mvn -q -f $here/../mapreduce/pom.xml -Dharness.build.dir=$target package" >&2
  exit 2
fi
HARNESS_EXTRA_CLASSPATH="$(cat "$target/mapreduce-classpath.txt")"
export HARNESS_EXTRA_CLASSPATH
rm -rf "$work" && mkdir -p "$work"
# No compaction behind the script's back: f keeps one file per flush.
export HARNESS_HBASE_CONF="hbase.hstore.compactionThreshold=100;hbase.hstore.blockingStoreFiles=200"
python3 "$here/gen_rename_peers_script.py" "$work/s" "$work/export"
"$harness" cluster --root "$work/A" --script "$work/s.load.jsonl" > "$work/load.out"
grep '"kind":"mapreduce"' "$work/load.out"
region_dir() { find "$work/A/hbase/data/default/t1" -mindepth 1 -maxdepth 1 -type d ! -name '.*'; }
test "$(region_dir | wc -l)" -eq 1
dump() {  # dump FAMILY: HBase's reader on every store file of FAMILY -> $work/read-FAMILY/
  local files
  mapfile -t files < <(find "$(region_dir)/$1" -type f ! -name '.*' | sort)
  test "${#files[@]}" -gt 0
  "$harness" read "${files[@]}" --out-dir "$work/read-$1" > /dev/null
}
for fam in f c1 c2 c3 e e2; do
  dump "$fam"
done
"$copy" --json "$work/A/hbase" t1 f g > "$work/copy.json"
cat "$work/copy.json"
dump g
"$harness" cluster --root "$work/A" --script "$work/s.scan.jsonl" > "$work/after.out"
python3 "$here/check_rename_peers.py" "$work" "$man"
echo "check_rename_peers: OK"
