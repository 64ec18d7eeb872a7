#!/usr/bin/env bash
# Regenerates the HBase-written fixture HFiles in testdata/hbase/ (or in DIR if given):
# for each fixture NAME it writes NAME.hfile and NAME.cells.jsonl (harness `gen`) and
# NAME.hbase.jsonl (harness `read --probes probes.jsonl`), then fixtures.tsv (NAME, gen
# options; used by check_fixture.sh) and README.md with provenance.
# Usage: tests/hbase/gen_fixtures.sh [DIR]      (SKIP_BUILD=1 to reuse an existing build)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="$(realpath -m "${1:-$root/testdata/hbase}")"
cd "$root"  # --cells-from paths in fixtures.tsv are relative to the repository root
harness="$here/harness.sh"

if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
  (cd "$here" && mvn -q -B package)
fi
mkdir -p "$out"
rm -f "$out"/*.hfile "$out"/*.cells.jsonl "$out"/*.hbase.jsonl
cp "$here/probes.jsonl" "$out/probes.jsonl"
printf 'name\tgen_options\n' > "$out/fixtures.tsv"
hbase_version="$(sed -n 's:.*<hbase.version>\(.*\)</hbase.version>.*:\1:p' "$here/pom.xml")"
manifest="$(mktemp)"
trap 'rm -f "$manifest"' EXIT
seed=0

# fx CODEC ENCODING BLOOM CHECKSUM TAGS [SUFFIX [extra gen options...]]
# The file name is built from the settings: CODEC-ENCODING-BLOOM-CHECKSUM-TAGS[-SUFFIX].
#   CODEC    none gz snappy lz4 zstd lzo, or snappy_hadoop / gz_hadoop (Hadoop's codec class)
#   BLOOM    row rowcol rowprefix nobloom;  CHECKSUM crc32c crc32 nullck
#   TAGS     tags (dictionary-compressed when encoded) | rawtags (uncompressed) | notags
fx() {
  local codec=$1 enc=$2 bloom=$3 ck=$4 tags=$5 suffix=${6:-}
  shift 5; [[ $# -gt 0 ]] && shift
  local name="$codec-$enc-$bloom-$ck-$tags${suffix:+-$suffix}"
  local args=()
  case $codec in
    snappy_hadoop) args+=(--compression snappy --codec-class org.apache.hadoop.io.compress.SnappyCodec) ;;
    gz_hadoop) args+=(--compression gz --codec-class org.apache.hadoop.io.compress.GzipCodec) ;;
    *) args+=(--compression "$codec") ;;
  esac
  args+=(--encoding "${enc^^}")
  case $bloom in
    nobloom) args+=(--bloom NONE) ;;
    rowprefix) args+=(--bloom ROWPREFIX_FIXED_LENGTH --bloom-prefix-length 8) ;;
    *) args+=(--bloom "${bloom^^}") ;;
  esac
  case $ck in nullck) args+=(--checksum NULL) ;; *) args+=(--checksum "${ck^^}") ;; esac
  case $tags in
    tags) args+=(--tags true) ;;
    rawtags) args+=(--tags true --compress-tags false) ;;
    notags) args+=(--tags false) ;;
  esac
  seed=$((seed + 1))
  # Small blocks so that even small files have several data blocks (and index entries).
  args+=(--block-size 4096 --cells 100 --value-max 32 --seed "$seed" "$@")
  "$harness" gen --out "$out" --name "$name" "${args[@]}"
  "$harness" read "$out/$name.hfile" --probes "$out/probes.jsonl" > "$out/$name.hbase.jsonl"
  if ! tail -n 1 "$out/$name.hbase.jsonl" | grep -q '"kind":"check","ok":true'; then
    echo "gen_fixtures: HBase's own check failed for $name:" >&2
    tail -n 1 "$out/$name.hbase.jsonl" >&2
    exit 1
  fi
  printf '%s\t%s\n' "$name" "${args[*]}" >> "$out/fixtures.tsv"
  printf '| `%s` | %s | `gen %s` |\n' "$name.hfile" "$(stat -c %s "$out/$name.hfile")" \
    "${args[*]}" >> "$manifest"
  echo "  $name" >&2
}

# Every codec with FAST_DIFF and NONE encodings.
for codec in none gz snappy lz4 zstd lzo snappy_hadoop gz_hadoop; do
  fx $codec none row crc32c tags
  fx $codec fast_diff row crc32c tags
done
# Every encoding with NONE, SNAPPY and ZSTD (NONE and FAST_DIFF are already above).
for codec in none snappy zstd; do
  for enc in prefix diff row_index_v1; do
    fx $codec $enc row crc32c tags
  done
done
# Tags off, and tags stored raw (not dictionary-compressed) in encoded blocks.
fx none none row crc32c notags
fx none fast_diff row crc32c notags
fx snappy prefix row crc32c notags
fx none diff row crc32c notags
fx none row_index_v1 row crc32c notags
fx none fast_diff row crc32c rawtags
fx none prefix row crc32c rawtags
fx none diff row crc32c rawtags
# Bloom types (the delete-family Bloom is written whenever the general one is not ROWCOL).
fx none none rowcol crc32c tags
fx none none rowprefix crc32c tags
fx none none nobloom crc32c tags
fx snappy fast_diff rowcol crc32c tags
fx none none rowcol crc32c tags bloomchunks --bloom-block-size 32 --cells 300
fx none none row crc32c tags bloomchunks --bloom-block-size 8 --cells 300
# Checksum types and several checksum chunks per block.
fx none none row crc32 tags
fx none none row nullck tags
fx snappy fast_diff row nullck tags
fx none none row crc32c tags bpc512 --bytes-per-checksum 512
fx gz fast_diff row crc32 tags bpc512 --bytes-per-checksum 512
# Multi-level data index: 512-byte blocks and tiny index chunks force root+intermediate+leaf.
fx none none row crc32c notags 3level --block-size 512 --index-max-size 256 \
  --index-min-entries 4 --cells 800 --value-max 8
fx snappy fast_diff row crc32c notags 3level --block-size 512 --index-max-size 256 \
  --index-min-entries 4 --cells 800 --value-max 8
# Default 64 KiB blocks (single data block), and empty files.
fx none none row crc32c tags bs64k --block-size 65536 --large-value 2000
fx none none row crc32c tags empty --cells 0
fx snappy fast_diff rowcol crc32c tags empty --cells 0
# Given cells (tests/hbase/prefix_rows.jsonl, path relative to the repository root), one per
# 16-byte block: rows and qualifiers that are prefixes of the next one at a block boundary,
# keys differing only in timestamp or type, 0xFF bytes. Settles the shortened index keys.
fx none none row crc32c notags prefixrows --block-size 16 --cells 16 \
  --cells-from tests/hbase/prefix_rows.jsonl

cat > "$out/README.md" <<README
# HBase-written fixture HFiles

Generated by \`tests/hbase/gen_fixtures.sh\` with the Java harness in \`tests/hbase/\`, which
writes through HBase's own \`StoreFileWriter\` (the RegionServer flush/compaction writer) from
**Apache HBase $hbase_version** jars (Hadoop 3.4.2). Do not edit by hand; regenerate with

    tests/hbase/gen_fixtures.sh            # needs Java 17 + Maven (Maven Central reachable)

Output is byte-for-byte reproducible: the cells come from a seeded generator and the file's
\`hfile.CREATE_TIME_TS\` is pinned (1700000000000).

For each fixture \`NAME\`:

- \`NAME.hfile\` — the HFile.
- \`NAME.cells.jsonl\` — the cells the harness appended, in order (canonical JSON lines,
  format in \`tests/hbase/README.md\`).
- \`NAME.hbase.jsonl\` — \`harness.sh read NAME.hfile --probes probes.jsonl\`: trailer, file
  info, cells, Bloom answers for every probe in \`probes.jsonl\` (general and delete-family),
  and the verdict of HBase's \`HFilePrettyPrinter -k -m -v\` (always ok here).

Also \`probes.jsonl\` (the Bloom probes) and \`fixtures.tsv\` (each NAME with its exact
\`gen\` options; \`tests/hbase/check_fixture.sh\` regenerates a fixture from it).

Names are \`CODEC-ENCODING-BLOOM-CHECKSUM-TAGS[-VARIANT]\`. \`snappy_hadoop\`/\`gz_hadoop\`
use Hadoop's \`SnappyCodec\`/\`GzipCodec\` classes instead of HBase's defaults here
(\`org.apache.hadoop.hbase.io.compress.xerial.SnappyCodec\`, \`ReusableStreamGzipCodec\`).
\`tags\` = tags on (dictionary-compressed inside PREFIX/DIFF/FAST_DIFF blocks, as a
RegionServer does by default), \`rawtags\` = tags on, not compressed, \`notags\` = no tags.
Common options (unless the command says otherwise): \`--block-size 4096 --cells 100
--value-max 32\`; every data block thus ends after ~4 KiB, and some values (block size + 100
bytes, text-like) are larger than a block. Column family \`f\`; every cell has an MVCC sequence id.

Codecs not present: BZIP2 (HBase's getCompressor() calls Compressor.finished(), which Hadoop's
pure-Java BZip2DummyCompressor does not implement, so HBase 2.6 cannot write BZIP2 without the
native libhadoop), ZSTD through Hadoop's ZStandardCodec (needs native libhadoop), LZMA and
BROTLI (HBase's hbase-compression-xz / -brotli artifacts are not served by the Maven registry
this project can reach). LZO uses \`com.hadoop.compression.lzo.LzoCodec\` (HBase's default LZO
class name) from the pure-Java hadoop-lzo port \`org.anarres.lzo:lzo-hadoop:1.0.6\`.

| File | Bytes | Harness command (\`tests/hbase/harness.sh gen --out DIR --name NAME ...\`) |
|---|---|---|
$(cat "$manifest")
README
echo "gen_fixtures: wrote $(grep -c . "$manifest") fixtures to $out" >&2
