#!/usr/bin/env bash
# check_hpp.sh HFILE_DUMP FIXTURE_DIR REAL_DIR WORK_DIR
# `hfile dump --hpp` against HBase 2.6's own HFilePrettyPrinter (harness `hpp`, all files and
# modes in one JVM): -m, -s, -b, -h, -d and -a on every committed fixture, a copy of one fixture
# at a path without its family (so that -a warns on every cell), a handful of real HBase files
# from REAL_DIR, and a region found by its name under a real root (`-r NAME`, hbase.rootdir /
# `--root`); the real ones are skipped loudly when REAL_DIR is absent. check_hpp.py says what is
# masked and why.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
dump=$1 fixtures=$2 real=$3 work=$4
rm -rf "$work" && mkdir -p "$work/hbase" "$work/ours" "$work/copy"
files=("$fixtures"/*.hfile)
# -a: the family "f" is not in this path (the work dir is below the build tree; if that has an
# "f" somewhere, -a simply finds nothing to warn about, on both sides).
cp "$fixtures/none-none-nobloom-crc32c-tags.hfile" "$work/copy/nobloom-tags"
files+=("$work/copy/nobloom-tags")
# Real files HBase 2.6 reads (HBase 0.98 meta, 2.2.3 namespace, 4.0 meta with ROW_INDEX_V1 and a
# ROWCOL bloom, 1.x snappy, a delete-family bloom, 15 small blocks, 2- and 3-level indexes, 4200
# cells in 200 rows). Hudi's own files name a comparator class HBase does not have.
real_files=(
  hbase-0.98-rootdir/hbase/data/hbase/meta/1588230740/info/00b7c52b22db4b17bb9a8e8c95e16361
  hbase-2.2.3-rootdir/data/hbase/namespace/077a6e561e777ff7d7b235487e686aa9/info/644db0f0580544e7a93dece6f0b429b1
  hbase-4.0-snapshot-rootdir/data/hbase/meta/1588230740/info/92b8aa6c192847a78fea61932571d55d
  java-bigtable-hbase/integration-test/data/archive/data/default/demo-1/a2e677e20068512effafcd5b8ac06c5d/cf/44f36bce77074ffeaa4e656a15fc7fbe
  riverbed/snapshot/testdata/test_snapshot_v1/data/test_snapshot/3efacbde293c7a0a735dd9a803dc058e/cf/daff862e92b7485d9b34c23b65e4304a
  riverbed/hfile/testdata/seek.hfile
  hudi-rs/hudi_1_0_hbase_2_4_13_1KB_GZ_20000_large_keys.hfile
  hudi-rs/hudi_1_0_hbase_2_4_13_1KB_GZ_10000_large_keys_deep_index.hfile
  hudi-rs/hudi_1_0_hbase_2_4_9_16KB_GZ_200_20_non_unique.hfile
)
region_root="$real/hbase-2.2.3-rootdir"
region_name="hbase:namespace,,1580000000000.077a6e561e777ff7d7b235487e686aa9."
region_args=()
if [[ -d "$real" ]]; then
  for f in "${real_files[@]}"; do files+=("$real/$f"); done
  region_args=(--root "$region_root" --region "$region_name")
else
  echo "check_hpp: SKIPPING the ${#real_files[@]} real HBase files: $real is absent" >&2
fi
modes=(m s b h d a)
"$here/harness.sh" hpp --modes "$(IFS=,; echo "${modes[*]/#/-}")" --out-dir "$work/hbase" \
  "${region_args[@]}" "${files[@]}"
names=()
for f in "${files[@]}"; do
  name="$(basename "$f" .hfile)"
  names+=("$name")
  for m in "${modes[@]}"; do
    rc=0
    "$dump" --hpp "-$m" "$f" > "$work/ours/$name.$m.out" 2> "$work/ours/$name.$m.err" || rc=$?
    echo "$rc" > "$work/ours/$name.$m.rc"
  done
done
if [[ ${#region_args[@]} -gt 0 ]]; then
  names+=(region)
  for m in "${modes[@]}"; do
    rc=0
    "$dump" --hpp "-$m" --root "$region_root" -r "$region_name" > "$work/ours/region.$m.out" \
      2> "$work/ours/region.$m.err" || rc=$?
    echo "$rc" > "$work/ours/region.$m.rc"
  done
fi
python3 "$here/check_hpp.py" "$work/hbase" "$work/ours" "${modes[@]}" -- "${names[@]}"
