// Compound Bloom filter reading side: the meta block, bloom keys, and the chunk bit test.
// (Layout diagram in bloom.h.)
//
// Confirmed by reading apache/hbase (paths below hbase-server/src/main/java/org/apache/hadoop/
// hbase/ unless noted) and checked against HBase-written files in shared/testdata/real:
//   io/hfile/CompoundBloomFilter.java   meta field order after the version (read by
//       util/BloomFilterFactory.createFromMeta, which accepts only version 3); an empty
//       comparator name selects a raw-bytes chunk index, otherwise a cell-based one; the index is
//       a single-level root index (HFileBlockIndex.readRootIndex: int64 offset, int32 on-disk size
//       with header, Bytes.readByteArray key); a key before the first chunk (-1) -> "not in file";
//       the chunk's bit count is 8 * uncompressedSizeWithoutHeader.
//   util/BloomFilterUtil.java   contains(): h1 = hash(key, 0), h2 = hash(key, h1), composite
//       starts at h1 and grows by h2 in int arithmetic, probe bit = Math.abs(composite % bitSize)
//       (Java remainder takes the sign of the dividend); bit order: bitvals = {0x01, ... 0x80}.
//   hbase-common/.../util/RowColBloomHashKey.java   ROWCOL hashes <int16 rowlen><row><0>
//       <qualifier><Long.MAX_VALUE><0xFF>: the family length byte is 0 and the family is skipped.
//   hbase-common/.../util/RowBloomHashKey.java   ROW hashes the row bytes.
//   util/RowPrefixFixedLengthBloomContext.java   ROWPREFIX: the cell is rebuilt with row =
//       first min(prefixLength, rowLength) bytes, then treated as ROW.
//   io/hfile/CompoundBloomFilterWriter.java + PrivateCellUtil.createFirstOnRowCol(Cell) (hbase-
//       common): ROWCOL chunk first keys and LAST_BLOOM_KEY (util/RowColBloomContext.java) are
//       key(row, EMPTY family, qualifier, LATEST_TIMESTAMP, Maximum) -- the HFILE_FORMAT.md claim
//       "real family" is wrong; the hbase:meta file of hbase-4.0-snapshot-rootdir stores
//       "\0\x39my_table,...\0regioninfo\x7f\xff...\xff" as its first chunk key.
//   regionserver/StoreFileReader.java   checkGeneralBloomFilter: LAST_BLOOM_KEY check, ROWCOL
//       probes both first-on-row-col and first-on-row (summarised in bloom.h).
#include <algorithm>
#include <optional>

#include "bloom.h"
#include "hfile/coding.h"
#include "hfile/cell.h"

namespace hfile {

namespace {

constexpr int32_t kBloomVersion = 3;
constexpr int32_t kMaxHashCount = 64;
// Smallest encoded chunk entry: int64 offset, int32 size, a one-byte VInt key length.
constexpr size_t kMinChunkEntrySize = 8 + 4 + 1;

}  // namespace

void AppendBloomHashKey(BloomType type, int prefix_length, const Slice& row,
                        const Slice& qualifier, std::string* dst) {
  switch (type) {
    case BloomType::kRowCol:
      AppendKey(dst, row, Slice(), qualifier, kLatestTimestamp,
                static_cast<uint8_t>(KeyType::kMaximum));
      return;
    case BloomType::kRowPrefixFixedLength: {
      size_t n = prefix_length <= 0 ? 0 : std::min(static_cast<size_t>(prefix_length), row.size());
      dst->append(row.data(), n);
      return;
    }
    case BloomType::kRow:
    case BloomType::kNone:
      break;
  }
  dst->append(row.data(), row.size());
}

void AppendBloomIndexKey(BloomType type, int prefix_length, const Slice& row,
                         const Slice& /*family*/, const Slice& qualifier, std::string* dst) {
  AppendBloomHashKey(type, prefix_length, row, qualifier, dst);
}

Status BloomMeta::DecodeFrom(Slice* input) {
  Slice in = *input;
  uint32_t version, hash_count_u, hash_type_u, num_chunks_u;
  uint64_t byte_size_u, key_count_u, max_keys_u;
  if (!GetFixed32BE(&in, &version) || !GetFixed64BE(&in, &byte_size_u) ||
      !GetFixed32BE(&in, &hash_count_u) || !GetFixed32BE(&in, &hash_type_u) ||
      !GetFixed64BE(&in, &key_count_u) || !GetFixed64BE(&in, &max_keys_u) ||
      !GetFixed32BE(&in, &num_chunks_u)) {
    return Status::Corruption("bloom meta: truncated header");
  }
  const auto v = static_cast<int32_t>(version);
  const auto hc = static_cast<int32_t>(hash_count_u);
  const auto ht = static_cast<int32_t>(hash_type_u);
  const auto nc = static_cast<int32_t>(num_chunks_u);
  const auto tbs = static_cast<int64_t>(byte_size_u);
  const auto tkc = static_cast<int64_t>(key_count_u);
  const auto tmk = static_cast<int64_t>(max_keys_u);
  if (v != kBloomVersion) return Status::Corruption("bloom meta: bad version");
  if (tbs < 0 || tkc < 0 || tmk < 0) return Status::Corruption("bloom meta: negative total");
  if (hc < 1 || hc > kMaxHashCount) return Status::Corruption("bloom meta: bad hash count");
  if (ht < 0 || ht > 2) return Status::Corruption("bloom meta: unknown hash type");
  if (nc < 0) return Status::Corruption("bloom meta: negative chunk count");

  Slice name;
  if (!GetByteArray(&in, &name)) return Status::Corruption("bloom meta: bad comparator name");
  std::optional<ComparatorKind> kind = ComparatorKind::kRawBytes;
  if (!name.empty()) {
    kind = ComparatorKindFromClassName(name.view());
    if (!kind) return Status::NotSupported("bloom meta: unknown comparator ", name.view());
  }
  if (static_cast<size_t>(nc) > in.size() / kMinChunkEntrySize) {
    return Status::Corruption("bloom meta: chunk count exceeds the block");
  }

  std::vector<Chunk> chunks;
  chunks.reserve(static_cast<size_t>(nc));
  for (int32_t i = 0; i < nc; i++) {
    uint64_t offset;
    uint32_t size;
    Slice key;
    if (!GetFixed64BE(&in, &offset) || !GetFixed32BE(&in, &size) || !GetByteArray(&in, &key)) {
      return Status::Corruption("bloom meta: truncated chunk index");
    }
    if (static_cast<int64_t>(offset) < 0 || static_cast<int32_t>(size) <= 0) {
      return Status::Corruption("bloom meta: bad chunk offset or size");
    }
    if (*kind != ComparatorKind::kRawBytes && !IsValidKey(key)) {
      return Status::Corruption("bloom meta: chunk key is not a cell key");
    }
    chunks.push_back(Chunk{offset, size, key.ToString()});
  }

  this->version = v;
  total_byte_size = tbs;
  hash_count = hc;
  hash_type = static_cast<HashType>(ht);
  total_key_count = tkc;
  total_max_keys = tmk;
  comparator_class_name = name.ToString();
  this->chunks = std::move(chunks);
  *input = in;
  return Status::OK();
}

void BloomMeta::EncodeTo(std::string* dst) const {
  PutFixed32BE(dst, static_cast<uint32_t>(version));
  PutFixed64BE(dst, static_cast<uint64_t>(total_byte_size));
  PutFixed32BE(dst, static_cast<uint32_t>(hash_count));
  PutFixed32BE(dst, static_cast<uint32_t>(hash_type));
  PutFixed64BE(dst, static_cast<uint64_t>(total_key_count));
  PutFixed64BE(dst, static_cast<uint64_t>(total_max_keys));
  PutFixed32BE(dst, static_cast<uint32_t>(chunks.size()));
  PutByteArray(dst, comparator_class_name);
  for (const Chunk& c : chunks) {
    PutFixed64BE(dst, c.offset);
    PutFixed32BE(dst, c.on_disk_size);
    PutByteArray(dst, c.first_key);
  }
}

int BloomMeta::FindChunk(const Slice& index_key) const {
  ComparatorKind kind = ComparatorKind::kRawBytes;
  if (!comparator_class_name.empty()) {
    std::optional<ComparatorKind> k = ComparatorKindFromClassName(comparator_class_name);
    if (!k) return -1;
    kind = *k;
  }
  if (kind != ComparatorKind::kRawBytes && !IsValidKey(index_key)) return -1;
  // HFileBlockIndex.rootBlockContainingKey over Bytes.binarySearch, step for step: an equal key
  // returns at once, otherwise the insertion point minus one. For sorted chunk keys this is the
  // last chunk whose first key <= index_key; hbase:meta files hold chunks that are not sorted
  // in the order compared with here, and then only the very same probe sequence gives HBase's
  // answer (its misses included).
  int low = 0, high = static_cast<int>(chunks.size()) - 1;
  while (low <= high) {
    const int mid = low + ((high - low) >> 1);
    const Slice first(chunks[mid].first_key);
    const int c = kind == ComparatorKind::kRawBytes ? index_key.compare(first)
                                                    : CompareKeys(kind, index_key, first);
    if (c > 0) {
      low = mid + 1;
    } else if (c < 0) {
      high = mid - 1;
    } else {
      return mid;
    }
  }
  return low - 1;
}

bool BloomChunkMightContain(const Slice& chunk, const Slice& hash_key, int32_t hash_count,
                            HashType hash_type) {
  if (chunk.empty()) return true;
  const int64_t bit_size = static_cast<int64_t>(chunk.size()) * 8;
  const int32_t h1 = Hash(hash_type, hash_key.data(), hash_key.size(), 0);
  const int32_t h2 = Hash(hash_type, hash_key.data(), hash_key.size(), h1);
  const unsigned char* bits = chunk.udata();
  bool all = true;
  ForEachBloomBit(bit_size, h1, h2, hash_count, [&](int64_t pos) {
    all = (bits[pos >> 3] & (1u << (pos & 7))) != 0;
    return all;
  });
  return all;
}

}  // namespace hfile
