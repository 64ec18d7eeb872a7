#!/usr/bin/env bash
# hfilekit's mid key and split-point choice vs HBase 2.6.4's own (Reader::MidKey and
# region/split_point.h vs HFileReaderImpl.midKey, StoreUtils.getFileSplitPoint / getSplitPoint
# and RegionSplitPolicy's choice, through the harness's `midkey` command):
#   * files written by HBase: the committed fixtures (testdata/hbase) and new ones with 1, 2 and
#     3 index levels (small hfile.index.block.max.size), plus a one-row file;
#   * files written by our Writer: the harness writer matrix (hfilekit-compat-gen, 3-level
#     indexes among them);
#   * every file of ../shared/testdata/real that both readers open (skipped loudly if absent);
#   * region dirs assembled from those files (two families, several files), and every real
#     region dir of the shared corpus's root dirs (read in place).
# Usage: check_midkey.sh SPLIT_POINT_TEST COMPAT_GEN FIXTURE_DIR SHARED_REAL_DIR WORK_DIR
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
test_bin="$1"; compat_gen="$2"; fixtures="$3"; real="$4"; work="$5"
harness="$here/harness.sh"
rm -rf "$work"
mkdir -p "$work/hbase" "$work/ours"

# --- HBase-written files -------------------------------------------------------------------
gen() { "$harness" gen --out "$work/hbase" "$@" >/dev/null; }
gen --name h-1level-many --block-size 256 --cells 600 --value-max 8
gen --name h-1level-odd --block-size 512 --cells 333 --value-max 16 --seed 5
gen --name h-2level --block-size 256 --index-max-size 1024 --index-min-entries 4 --cells 900 --value-max 8
gen --name h-2level-gz --compression gz --encoding fast_diff --block-size 256 --index-max-size 512 \
  --index-min-entries 4 --cells 700 --value-max 8 --seed 3
gen --name h-3level --block-size 256 --index-max-size 256 --index-min-entries 4 --cells 1500 --value-max 8
gen --name h-3level-b --block-size 128 --index-max-size 200 --index-min-entries 4 --cells 2501 \
  --value-max 4 --seed 9
python3 - "$work/onerow.jsonl" <<'EOF'
import json, sys
with open(sys.argv[1], "w") as f:
    for i in range(900):
        f.write(json.dumps({"kind": "cell", "row": "onlyrow", "family": "f", "qualifier": "q%04d" % i,
                            "timestamp": 1, "type": "Put", "value": "v" * 20, "tags": [],
                            "seqid": 7}) + "\n")
EOF
gen --name h-onerow --block-size 256 --cells-from "$work/onerow.jsonl"

# --- our files -----------------------------------------------------------------------------
"$compat_gen" --testdata "$fixtures" --out "$work/ours" >/dev/null

files="$work/files.txt"
ls "$fixtures"/*.hfile "$work"/hbase/*.hfile "$work"/ours/*.hfile > "$files"
real_status="present"
if [[ -d "$real" ]]; then
  find "$real" -type f ! -name '*.md' ! -name '*.tgz' ! -name '*.zip' ! -name '.regioninfo' \
    ! -name '.tableinfo*' ! -path '*/.tabledesc/*' ! -path '*/recovered.edits/*' \
    ! -path '*/WALs/*' ! -path '*/oldWALs/*' ! -path '*/MasterData/WALs/*' -size +0 | sort >> "$files"
else
  real_status="absent"
  echo "check_midkey: SKIPPING the real-file corpus: $real is absent" >&2
fi

# --- region dirs ---------------------------------------------------------------------------
regions="$work/regions.txt"
: > "$regions"
tdir="$work/root/data/default/t"
region() {  # region ENC FAMILY:FILE...
  local enc="$1"; shift
  for spec in "$@"; do
    local fam="${spec%%:*}" src="${spec#*:}"
    mkdir -p "$tdir/$enc/$fam"
    cp "$src" "$tdir/$enc/$fam/$(printf '%s' "$src" | sha1sum | cut -c1-32)"
  done
  echo "$tdir/$enc" >> "$regions"
}
H="$work/hbase"; O="$work/ours"
region 0a01 "a:$H/h-1level-odd.hfile" "b:$H/h-3level.hfile" "b:$H/h-2level.hfile"
region 0a02 "a:$H/h-2level-gz.hfile" "b:$H/h-onerow.hfile"
region 0a03 "a:$H/h-3level-b.hfile" "a:$H/h-1level-many.hfile" "c:$H/h-2level.hfile"
region 0a04 "f:$O/none-none-row-crc32c-notags-3level.hfile" \
  "f:$O/snappy-fast_diff-row-crc32c-notags-3level.hfile" "g:$(ls "$O"/*-edge.hfile | head -1)"
region 0a05 "f:$H/h-onerow.hfile"
region 0a06 "x:$H/h-2level.hfile" "y:$H/h-2level.hfile"   # equal stores: the first family
# A split daughter: family b holds a BOTTOM Reference to a file of 0a01 (split at row-00050),
# family a a plain file with a split point of its own: no split at all.
mkdir -p "$tdir/0a07/a" "$tdir/0a07/b"
cp "$H/h-2level-gz.hfile" "$tdir/0a07/a/$(printf 0a07a | sha1sum | cut -c1-32)"
parent_b="$(ls "$tdir/0a01/b" | head -1)"
python3 - "$tdir/0a07/b/$parent_b.0a01" <<'PY'
import struct, sys
row = b"row-00050"
key = struct.pack(">H", len(row)) + row + b"\x00" + struct.pack(">q", 2**63 - 1) + b"\xff"
body = b"\x0a" + bytes([len(key)]) + key + b"\x10\x01"  # splitkey, range BOTTOM
open(sys.argv[1], "wb").write(b"PBUF" + body)
PY
echo "$tdir/0a07" >> "$regions"
# Tables with a descriptor and .regioninfo files (protobuf written here): table r splits with
# a KeyPrefix restriction of 6 bytes (0b01: the row trimmed; 0b02, starting at row-01: the
# trimmed row falls below the region); table s has none (0c01: the mid row is below the
# region's start, 0c02: an ordinary region with bounds).
python3 - "$work/root/data/default" <<'PY'
import os, sys
def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F; n >>= 7
        out.append(b | (0x80 if n else 0))
        if not n: return bytes(out)
def field(num, payload):  # length-delimited
    return varint(num << 3 | 2) + varint(len(payload)) + payload
def table_name(q):
    return field(1, b"default") + field(2, q)
def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    open(path, "wb").write(data)
root = sys.argv[1]
def table(q, families, attrs):
    body = field(1, table_name(q))
    for k, v in attrs:
        body += field(2, field(1, k) + field(2, v))
    for f in families:
        body += field(3, field(1, f))
    write(f"{root}/{q.decode()}/.tabledesc/.tableinfo.0000000001", b"PBUF" + body)
def region(q, enc, start, end):
    body = varint(1 << 3 | 0) + varint(1000) + field(2, table_name(q)) + field(3, start) + field(4, end)
    write(f"{root}/{q.decode()}/{enc}/.regioninfo", b"PBUF" + varint(len(body)) + body)
table(b"r", [b"a", b"b"], [(b"hbase.regionserver.region.split_restriction.type", b"KeyPrefix"),
                          (b"hbase.regionserver.region.split_restriction.prefix_length", b"6")])
region(b"r", "0b01", b"", b"")
region(b"r", "0b02", b"row-01", b"")
table(b"s", [b"a"], [])
region(b"s", "0c01", b"row-005", b"")
region(b"s", "0c02", b"row-0001", b"row-009")
PY
put() {  # put DIR FAMILY FILE
  mkdir -p "$1/$2"; cp "$3" "$1/$2/$(printf '%s' "$1$3" | sha1sum | cut -c1-32)"; }
droot="$work/root/data/default"
put "$droot/r/0b01" a "$H/h-3level.hfile"; put "$droot/r/0b01" b "$H/h-1level-odd.hfile"
put "$droot/r/0b02" a "$H/h-2level.hfile"
put "$droot/s/0c01" a "$H/h-2level.hfile"
put "$droot/s/0c02" a "$H/h-3level-b.hfile"
printf '%s\n' "$droot/r/0b01" "$droot/r/0b02" "$droot/s/0c01" "$droot/s/0c02" >> "$regions"
if [[ -d "$real" ]]; then
  find "$real" -name .regioninfo -path '*/data/*' -printf '%h\n' | sort >> "$regions"
fi

# --- both sides ----------------------------------------------------------------------------
"$harness" midkey --files "$files" --regions "$regions" > "$work/hbase.jsonl" 2> "$work/hbase.err" || {
  tail -20 "$work/hbase.err" >&2; exit 1; }
SPLIT_POINT_FILES="$files" SPLIT_POINT_REGIONS="$regions" SPLIT_POINT_OUT="$work/ours.jsonl" \
  "$test_bin" --gtest_also_run_disabled_tests --gtest_filter=SplitPointHarness.DISABLED_Print \
  > "$work/ours.log" 2>&1 || { tail -20 "$work/ours.log" >&2; exit 1; }

python3 - "$work/hbase.jsonl" "$work/ours.jsonl" "$real_status" <<'EOF'
import collections, json, sys
hb = [json.loads(l) for l in open(sys.argv[1])]
us = [json.loads(l) for l in open(sys.argv[2])]
ours = {(r["kind"], r["path"]): r for r in us}
bad, levels, skipped = [], collections.Counter(), []
files = regions = split_files = split_regions = 0
for h in hb:
    o = ours.get((h["kind"], h["path"]))
    if o is None:
        bad.append(("missing in ours", h["path"])); continue
    if "error" in h or "error" in o:
        if "error" in h and "error" in o:
            skipped.append((h["path"], "neither reads it"))
        elif "error" in h:
            skipped.append((h["path"], "HBase cannot read it: " + h["error"][:120]))
        else:
            bad.append(("we fail where HBase reads", h["path"], o["error"]))
        continue
    if h["kind"] == "file":
        files += 1
        levels[h["levels"]] += 1
        for k in ("levels", "midkey", "midrow", "split_row"):
            if h[k] != o[k]:
                bad.append((h["path"], k, h[k], o[k]))
        split_files += h["split_row"] is not None
    else:
        regions += 1
        if h["split_row"] != o["split_row"] or h["family"] != o["family"]:
            bad.append((h["path"], "region split", h["split_row"], h["family"], o["split_row"], o["family"]))
        split_regions += h["split_row"] is not None
        hf = {f["family"]: f for f in h["families"]}
        of = {f["family"]: f for f in o["families"]}
        if sorted(hf) != sorted(of):
            bad.append((h["path"], "families", sorted(hf), sorted(of)))
        for name in hf:
            if name in of:
                for k in ("store_size", "references", "largest", "split_row"):
                    if hf[name][k] != of[name][k]:
                        bad.append((h["path"], name, k, hf[name][k], of[name][k]))
for s in skipped:
    print("skipped:", *s)
print(f"files compared: {files} (index levels: {dict(sorted(levels.items()))}; "
      f"{split_files} with a split row), regions compared: {regions} ({split_regions} with a "
      f"split row); real corpus {sys.argv[3]}")
for b in bad:
    print("MISMATCH:", *b)
if bad or files == 0 or 3 not in levels or 2 not in levels or 1 not in levels:
    sys.exit(1)
EOF
# Passed (set -e: a mismatch exits above and keeps the work dir to look at): the ~900 MB of
# region dirs and files is not kept.
rm -rf "$work"
