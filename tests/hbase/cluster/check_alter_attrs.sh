#!/usr/bin/env bash
# check_alter_attrs.sh WORK_DIR HFILE_ALTER [SEED]: hfile-alter against HBase's own alter +
# major_compact, one family attribute at a time (gen_alter_attrs_script.py: one table per
# attribute, all in the same three HBase runs).
#   1. A local HBase creates the tables and loads each with the same random puts and deletes of
#      every kind (ancient, two-day-old and one-hour-old timestamps), 4 flushes per table, then
#      stops cleanly: root A. A copy: root B.
#   2. HBase restarts on A: per table, alter (the one attribute) + major_compact; then describe
#      and raw/client scans of every table.
#   3. hfile-alter runs each table's statement on B offline (HBase stopped).
#   4. HBase restarted on B: describe and scans of every table.
#   5. check_alter_attrs.py, per table: describe, raw scan (all versions) and client scan equal;
#      each of our store files holds the cells of HBase's (HBase's reader: sequence ids and tags
#      too) with the same trailer and file info and the same data blocks, and says the new codec,
#      encoding, bloom (and prefix length), block size and tag compression (hfile-dump -m/-h).
# Every attribute is checked and reported; the exit status is 1 if any of them differs.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
harness="$here/../harness.sh"
work=$1 alter=$2 seed=${3:-1}
dump="$(dirname "$alter")/hfile-dump"
rm -rf "$work" && mkdir -p "$work"
export HARNESS_HBASE_CONF="hbase.hstore.compactionThreshold=100;hbase.hstore.blockingStoreFiles=200;hbase.regionserver.thread.compaction.small=6;hbase.hfile.compaction.discharger.interval=1000"
python3 "$here/gen_alter_attrs_script.py" "$seed" "$work/s"
t0=$SECONDS

"$harness" cluster --root "$work/A" --script "$work/s.load.jsonl" > "$work/load.out"
echo "check_alter_attrs: loaded $(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["cases"]))' "$work/s.cases.json") tables ($((SECONDS - t0)) s)"
cp -a "$work/A" "$work/B"
"$harness" cluster --root "$work/A" --script "$work/s.alter.jsonl" > "$work/A.out"
echo "check_alter_attrs: HBase altered and major-compacted A ($((SECONDS - t0)) s)"

rc=0
while IFS=$'\t' read -r table statement; do
  "$alter" --json "$work/B/hbase" "$statement" > "$work/B.alter.$table.json" ||
    { rc=$?; echo "check_alter_attrs: hfile-alter exited $rc on: $statement" >&2; }
done < <(python3 -c '
import json, sys
for c in json.load(open(sys.argv[1]))["cases"]:
    print(c["table"] + "\t" + c["statement"])' "$work/s.cases.json")
echo "check_alter_attrs: hfile-alter altered B ($((SECONDS - t0)) s)"
"$harness" cluster --root "$work/B" --script "$work/s.after.jsonl" > "$work/B.out"
echo "check_alter_attrs: HBase restarted on B ($((SECONDS - t0)) s)"

# HBase's reader on every store file of both roots, in one JVM.
mapfile -t files < <(find "$work/A/hbase/data/default" "$work/B/hbase/data/default" \
  -path '*/a_*/*/f/*' ! -path '*/.tmp/*' -type f ! -name '.*' | sort)
"$harness" read --out-dir "$work/read" "${files[@]}" > /dev/null
python3 "$here/check_alter_attrs.py" "$work" "$dump" || rc=1
echo "check_alter_attrs: $((SECONDS - t0)) s in all"
[[ $rc -eq 0 ]] && echo "check_alter_attrs: OK"
exit $rc
