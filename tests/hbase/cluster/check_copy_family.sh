#!/usr/bin/env bash
# check_copy_family.sh WORK_DIR HFILE_COPY_FAMILY [SEED]: hfile-copy-family against HBase on the
# same store files, with every kind of cell and store file HBase writes. Three HBase starts:
#   1. Load (root L): a local HBase with the VisibilityController and compactions off writes
#      table t1, family f (SNAPPY, FAST_DIFF, ROW bloom, VERSIONS 3): four flushed rounds of
#      random puts (plain; with a cell TTL, tag type 8, expired or not; with a visibility
#      expression, tags 2 and 4) and deletes of every kind (some with a visibility expression),
#      a completebulkload of one HFile (a _SeqId_N_ file), and HBase's own split at r12 (the
#      daughters keep Reference files to the parent's files, the bulk-loaded one included);
#      then a snapshot of t1 cloned as t2 (HFileLinks to t1's files, References to links).
#   2. Copies C and B of L. Offline, for t1 then t2: `hfile-copy-family T f g` on C (f and g
#      side by side), `--drop-old` on B (g alone; f archived, so that t2's links resolve
#      through the archive). g's daughters hold real files, no References or links.
#   3. HBase restarted on C, then on B (per table describe, raw and client scans with every label
#      authorized; compactions switched on, HBase's major compactions; describe and scans again):
#      on C, g reads exactly as f (HBase's own files and References) before and after HBase's
#      major compaction of both, and before it as the load cluster read f before stopping; B reads
#      exactly as C's g; describe shows g with f's attributes.
# Scans cross the RPC with KeyValueCodecWithTags so that tags are compared too. Per-cell
# sequence ids cross no RPC (every scanned cell shows 0); they are compared by their effect:
# of two cells with the same key (row, qualifier, timestamp, type) HBase returns the one with
# the higher sequence id, in raw scans too, and keeps it in a compaction.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
harness="$here/../harness.sh"
work=$1 copy=$2 seed=${3:-1}
rm -rf "$work" && mkdir -p "$work"
vc=org.apache.hadoop.hbase.security.visibility.VisibilityController
# Compactions off (hbase.regionserver.compaction.enabled): flushes, the bulk load and the split
# stay separate files and References until the script's compaction_switch turns them on.
export HARNESS_HBASE_CONF="hbase.coprocessor.master.classes=$vc;hbase.coprocessor.region.classes=$vc;hbase.regionserver.compaction.enabled=false;hbase.hstore.blockingStoreFiles=200;hbase.client.rpc.codec=org.apache.hadoop.hbase.codec.KeyValueCodecWithTags"
python3 "$here/gen_copy_family_script.py" "$seed" "$work/s" "$work/bulk"
mkdir -p "$work/bulk/f"
"$harness" gen --out "$work/gen" --name bulk --family f --cells-from "$work/s.bulk.cells.jsonl" \
  --compression snappy --encoding FAST_DIFF --bloom ROW
# No '.' in the name: completebulkload skips NAME.SUFFIX as a Reference.
mv "$work/gen/bulk.hfile" "$work/bulk/f/bulk1"
"$harness" cluster --root "$work/L" --script "$work/s.load.jsonl" > "$work/load.out"
# count TABLE: the store files of f in TABLE's daughters (the split parent, offline, its files
# read through the References, is not copied), its References and those to a _SeqId_ file,
# its HFileLinks; sets nf, refs, bulkrefs, links, parent.
count() {
  local dir="$work/L/hbase/data/default/$1"
  refs=$(find "$dir" -path '*/f/*.*' -type f ! -name '.*' | wc -l)
  bulkrefs=$(find "$dir" -path '*/f/*_SeqId_*_.*' -type f | wc -l)
  links=$(find "$dir" -path '*/f/*=*' -type f | wc -l)
  parent=$(find "$dir" -path '*/f/*.*' -type f ! -name '.*' -printf '%f\n' | head -1)
  parent=${parent##*.}
  nf=$(find "$dir" -path '*/f/*' -type f ! -name '.*' ! -path "*/$parent/*" | wc -l)
}
# check_copied TABLE: C and B hold one real g file per daughter file of f, no Reference; B has
# no f left (archived), C all of it.
check_copied() {
  count "$1"
  local t="data/default/$1" r ng gref
  for r in C B; do
    ng=$(find "$work/$r/hbase/$t" -path '*/g/*' -type f ! -name '.*' | wc -l)
    gref=$(find "$work/$r/hbase/$t" -path '*/g/*[.=]*' -type f ! -name '.*' | wc -l)
    if [[ $nf -ne $ng || $gref -ne 0 ]]; then
      echo "check_copy_family: $r/$1: f had $nf store files, g has $ng ($gref References/links)" >&2
      exit 1
    fi
  done
  test -z "$(find "$work/B/hbase/$t" -mindepth 2 -maxdepth 2 -name f)"
  test -n "$(find "$work/B/hbase/archive/$t" -path '*/f/*' -type f)"
  test "$(find "$work/C/hbase/$t" -path '*/f/*' -type f ! -name '.*' ! -path "*/$parent/*" \
    | wc -l)" -eq "$nf"
}
for t in t1 t2; do
  count $t
  echo "check_copy_family: $t: HBase left $nf store files in the daughters' f: $refs" \
    "References to the split parent $parent's files ($bulkrefs to the bulk-loaded one), $links" \
    "HFileLinks"
  if [[ $refs -lt 2 || $bulkrefs -ne 2 || ( $t == t2 && $links -lt $nf ) ]]; then
    echo "check_copy_family: $t: expected References in both daughters (to the bulk-loaded" \
      "file too), and in t2 links" >&2
    exit 1
  fi
done
cp -a "$work/L" "$work/C"
cp -a "$work/L" "$work/B"
# B: t1's f is archived before t2 is copied: t2's links then resolve through the archive.
for t in t1 t2; do
  "$copy" --json "$work/C/hbase" $t f g > "$work/C.$t.copy.json"
  "$copy" --json --drop-old "$work/B/hbase" $t f g > "$work/B.$t.copy.json"
done
cat "$work/B.t2.copy.json"
check_copied t1
check_copied t2
"$harness" cluster --root "$work/C" --script "$work/s.after.jsonl" > "$work/C.out"
"$harness" cluster --root "$work/B" --script "$work/s.after.jsonl" > "$work/B.out"
python3 - "$work" <<'PY'
import json, sys
w = sys.argv[1]
c = open(f"{w}/C.out").read().splitlines()
b = open(f"{w}/B.out").read().splitlines()
for name, out in (("C", c), ("B", b)):
    stuck = [l for l in out if '"finished":false' in l]
    # HBase's own compaction or scan not finishing is HBase's bug (see tests/hbase/README.md,
    # the TTL/KEEP_DELETED_CELLS hangs), not a difference: say so rather than compare.
    assert not stuck, f"{name}: HBase did not finish: {stuck}"

def family(line):
    return json.loads(line).get("family") if '"kind":"cell"' in line else None

def only(lines, fam):  # the records of one family, every separator (describe, scan marker) kept
    return [l for l in lines if family(l) in (None, fam)]

def describes(lines):
    return [json.loads(l) for l in lines if '"kind":"describe"' in l]

f_renamed = [l.replace('"family":"f"', '"family":"g"') if family(l) == "f" else l
             for l in only(c, "f")]
c_g = only(c, "g")
# Separators: describe, raw scan, client marker, client scan, describe, raw, marker, client.
for d in describes(c):
    fams = {x["name"]: x for x in d["families"]}
    assert fams["f"]["values"] == fams["g"]["values"], f"C: g's attributes differ from f's: {d}"
    assert fams["f"]["configuration"] == fams["g"]["configuration"], d
for i, (x, y) in enumerate(zip(f_renamed, c_g)):
    if '"kind":"describe"' in x:
        continue
    assert x == y, f"C, record {i}:\nHBase on f, renamed: {x}\nHBase on g:          {y}"
assert len(f_renamed) == len(c_g), (len(f_renamed), len(c_g))
# B: g alone; its describe is C's with f dropped, every cell record C's g.
for db, dc in zip(describes(b), describes(c)):
    fc = {x["name"]: x for x in dc["families"]}
    assert db["values"] == dc["values"], (db, dc)
    assert [x["name"] for x in db["families"]] == ["g"], db
    assert db["families"][0]["values"] == fc["f"]["values"], (db, dc)
    assert db["families"][0]["configuration"] == fc["f"]["configuration"], (db, dc)
bb = [l for l in b if '"kind":"describe"' not in l]
cg = [l for l in c_g if '"kind":"describe"' not in l]
assert len(bb) == len(cg), (len(bb), len(cg))
for i, (x, y) in enumerate(zip(cg, bb)):
    assert x == y, f"B, record {i}:\nHBase on C's g: {x}\nHBase on B's g: {y}"
# And the first raw and client scans equal the load cluster's, taken before HBase stopped.
load = [l.replace('"family":"f"', '"family":"g"')
        for l in open(f"{w}/load.out").read().splitlines() if '"kind":"bulkload"' not in l]
cut = [i for i, l in enumerate(c_g) if '"kind":"describe"' in l]
first = c_g[cut[0] + 1:cut[1]]
assert first == load, f"C's g before compaction: {len(first)} records, the load's {len(load)}"
cells = [json.loads(l) for l in c_g if '"kind":"cell"' in l]
tags = lambda t: sum(any(x["type"] == t for x in r["tags"]) for r in cells)
assert tags(2) > 0 and tags(8) > 0, "no visibility or TTL tags reached the scans"
print(f"check_copy_family: describe: g = f's attributes (C: side by side; B: g alone); "
      f"{len(cells)} cell records (visibility-tagged {tags(2)}, TTL-tagged {tags(8)}) in raw and "
      f"client scans before and after HBase's major compaction: C's g = C's f = the load's f, "
      f"B's g = C's g")
PY
echo "check_copy_family: OK (t1 and t2: every daughter file, References and HFileLinks included," \
  "copied one for one into a real file)"
