// Bloom filters: HBase's hash functions, the compound Bloom filter (version 3) that HBase keeps in
// BLMFBLK2 chunk blocks indexed by a BLMFMET2 / DFBLMET2 meta block, and the bloom keys per type.
//
// Bloom meta body (BLMFMET2 / DFBLMET2), all integers big-endian:
//
//   +---------+---------------+-----------+----------+---------------+--------------+-----------+
//   | version | totalByteSize | hashCount | hashType | totalKeyCount | totalMaxKeys | numChunks |
//   | int32=3 | int64         | int32     | int32    | int64         | int64        | int32     |
//   +---------+---------------+-----------+----------+---------------+--------------+-----------+
//   | comparator class name: VInt length + bytes ("" = chunk keys compare as raw bytes)        |
//   +------------------------------------------------------------------------------------------+
//   | numChunks x { int64 chunkOffset | int32 chunkOnDiskSizeWithHeader | VInt+bytes firstKey } |
//   +------------------------------------------------------------------------------------------+
//
// A BLMFBLK2 chunk body is the raw bit array; bit p is (byte[p >> 3] >> (p & 7)) & 1.
// For a key: h1 = hash(key, 0), h2 = hash(key, h1); probe i (0 <= i < hashCount) tests bit
// abs(int32(h1 + i * h2) % (8 * chunkBytes)) with Java int wrap-around and Java remainder.
#ifndef HFILE_SRC_BLOOM_H_
#define HFILE_SRC_BLOOM_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "hfile/slice.h"
#include "hfile/status.h"
#include "hfile/types.h"

namespace hfile {

enum class HashType : int32_t { kJenkins = 0, kMurmur = 1, kMurmur3 = 2 };

// HBase's hashes with Java int arithmetic (see doc/hfile_format.md for the MurmurHash tail quirk).
int32_t MurmurHash(const char* data, size_t n, int32_t seed);
int32_t Murmur3Hash(const char* data, size_t n, int32_t seed);
int32_t JenkinsHash(const char* data, size_t n, int32_t seed);
int32_t Hash(HashType type, const char* data, size_t n, int32_t seed);

// The bit positions HBase sets and tests for a key (BloomFilterUtil.setHashLoc / checkBit):
// for i < hash_count, |(int) (h1 + i * h2) % bit_size| with h1 = hash(key, 0) and h2 =
// hash(key, h1); `bit` is called with each until it returns false. The remainder by the chunk's
// bit count is a multiply by its precomputed inverse (Lemire's fastmod: exact for 32-bit
// dividends and divisors) rather than a 64-bit division per position, which cost more than the
// two hashes. REQUIRES: bit_size > 0.
template <typename BitFn>
inline void ForEachBloomBit(int64_t bit_size, int32_t h1, int32_t h2, int32_t hash_count,
                            BitFn bit) {
  uint32_t composite = static_cast<uint32_t>(h1);
  if (bit_size > static_cast<int64_t>(UINT32_MAX)) {  // no chunk is this large; kept exact
    for (int32_t i = 0; i < hash_count; i++, composite += static_cast<uint32_t>(h2)) {
      const int64_t x = static_cast<int32_t>(composite);
      if (!bit((x < 0 ? -x : x) % bit_size)) return;
    }
    return;
  }
  const uint64_t d = static_cast<uint64_t>(bit_size);
  const uint64_t inverse = ~uint64_t{0} / d + 1;  // ceil(2^64 / d); 0 for d = 1
  for (int32_t i = 0; i < hash_count; i++, composite += static_cast<uint32_t>(h2)) {
    // |x| % d == |x % d| (Java's remainder takes the dividend's sign); |INT32_MIN| is 2^31.
    const uint32_t x = composite;
    const uint32_t magnitude = static_cast<int32_t>(x) < 0 ? 0u - x : x;
    const uint64_t low = inverse * magnitude;
    if (!bit(static_cast<int64_t>((static_cast<unsigned __int128>(low) * d) >> 64))) return;
  }
}

// The bytes HBase hashes for a cell, per bloom type:
//   ROW (and the delete-family bloom): the row;
//   ROWPREFIX_FIXED_LENGTH: the first min(prefix_length, rowlen) bytes of the row;
//   ROWCOL: key(row, EMPTY family, qualifier, LATEST_TIMESTAMP, Maximum).
void AppendBloomHashKey(BloomType type, int prefix_length, const Slice& row,
                        const Slice& qualifier, std::string* dst);
// The bytes HBase stores as a chunk's first key / LAST_BLOOM_KEY and searches the chunk index
// with. They equal the hash key for every type: for ROWCOL HBase builds them with
// createFirstOnRowCol(cell), which drops the family, so `family` is ignored (it is accepted so
// that call sites read naturally; confirmed on an HBase-written ROWCOL file).
void AppendBloomIndexKey(BloomType type, int prefix_length, const Slice& row,
                         const Slice& family, const Slice& qualifier, std::string* dst);

// Chunk geometry for one error rate, as BloomFilterUtil.createBySize computes it.
struct BloomChunkParams {
  int32_t byte_size = 0;   // bytes of an unfolded chunk
  int32_t hash_count = 0;
  int32_t max_keys = 0;    // keys per unfolded chunk
};
// `error_rate` is the per-lookup rate (see BloomErrorRate); byte_size_hint is
// io.storefile.bloom.block.size and max_fold io.storefile.bloom.max.fold.
BloomChunkParams ComputeBloomChunkParams(int32_t byte_size_hint, float error_rate, int max_fold);
// The rate HBase sizes a bloom of `type` with, given io.storefile.bloom.error.rate: the value is
// read as a Java float; for ROWCOL it becomes (float)(1 - sqrt(1 - err)) (a ROWCOL lookup probes
// twice).
float BloomErrorRate(BloomType type, double configured_error_rate);
// BloomFilterChunk.compactBloom: while the size is even and max_keys > 2 * key_count, halves
// size and max_keys, then ORs the pieces into the first one and truncates `bits`.
// Does nothing when key_count is 0.
void FoldBloomChunk(std::string* bits, int32_t key_count, int32_t* max_keys);

// The decoded bloom meta block.
struct BloomMeta {
  int32_t version = 3;
  int64_t total_byte_size = 0;
  int32_t hash_count = 0;
  HashType hash_type = HashType::kMurmur;
  int64_t total_key_count = 0;
  int64_t total_max_keys = 0;
  std::string comparator_class_name;  // empty: chunk keys compare as raw bytes
  struct Chunk {
    uint64_t offset;
    uint32_t on_disk_size;  // with header
    std::string first_key;
  };
  std::vector<Chunk> chunks;

  // Parses a BLMFMET2 / DFBLMET2 body and advances `input` past it (trailing bytes are left,
  // as HBase ignores them). Corruption on any inconsistency: version != 3, negative sizes or
  // counts, hash_count outside 1..64, unknown hash type, more chunks than the remaining bytes
  // can hold, chunk keys that are not KeyValue keys under a cell comparator. NotSupported for a
  // comparator class name this library does not know.
  Status DecodeFrom(Slice* input);
  void EncodeTo(std::string* dst) const;
  // The chunk HBase's lookup picks for `index_key` (its binary search, exactly): for sorted
  // chunk keys the last chunk whose first key <= index_key; -1 (HBase then answers "not in the
  // file") if the search ends before the first chunk. Keys compare as raw bytes when comparator_class_name is
  // empty, else with the named cell order (REQUIRES: index_key is then a KeyValue key; an
  // invalid one yields -1). Allocates nothing.
  int FindChunk(const Slice& index_key) const;
};

// True unless the bits for `hash_key` are not all set in `chunk` (the chunk block's body, whose
// length gives the bit count). An empty chunk or hash_count <= 0 answers true: a reader must
// never turn bad metadata into a false negative (HBase itself would throw on an empty chunk).
// Allocates nothing.
bool BloomChunkMightContain(const Slice& chunk, const Slice& hash_key, int32_t hash_count,
                            HashType hash_type);

// How HBase's StoreFileReader answers with a general bloom (for callers assembling a lookup):
//   ROW / ROWPREFIX: "absent" if the key is > LAST_BLOOM_KEY (raw bytes); else FindChunk on the
//     key (-1 -> absent), then BloomChunkMightContain on that chunk.
//   ROWCOL: k = key(row, "", qualifier, LATEST, Maximum), r = key(row, "", "", LATEST, Maximum);
//     "absent" if r > LAST_BLOOM_KEY (the file's cell order); else present iff k or r passes (r: a
//     DeleteFamily has an empty qualifier).
//   delete-family bloom: as ROW on the row, without LAST_BLOOM_KEY.

// Builds a compound Bloom filter as HBase's CompoundBloomFilterWriter does: chunks of
// byte_size bytes receive keys until full, are folded, and are handed out for writing as
// BLMFBLK2 blocks at data-block boundaries; the meta block is written at close.
class BloomWriter {
 public:
  struct Options {
    BloomType type = BloomType::kRow;
    int prefix_length = 0;        // ROWPREFIX_FIXED_LENGTH
    double error_rate = 0.01;     // io.storefile.bloom.error.rate (used as a Java float)
    int max_fold = 7;             // io.storefile.bloom.max.fold
    int chunk_byte_size = 131072; // io.storefile.bloom.block.size
    HashType hash_type = HashType::kMurmur;
    bool delete_family = false;   // the delete-family bloom (ROW semantics, empty comparator)
  };
  // REQUIRES: 0 < error_rate < 1, chunk_byte_size > 0, 0 <= max_fold <= 30.
  explicit BloomWriter(const Options& options);
  ~BloomWriter();
  BloomWriter(const BloomWriter&) = delete;
  BloomWriter& operator=(const BloomWriter&) = delete;

  // Geometry of an unfolded chunk.
  const BloomChunkParams& params() const;

  // Adds a key: hash_key is what is hashed, index_key what the chunk index stores.
  // The caller skips keys equal to the previous one.
  void Add(const Slice& hash_key, const Slice& index_key);
  uint64_t key_count() const;

  // Chunks ready to be written (full ones; all of them after FinishChunks).
  bool HasReadyChunk() const;
  // Body of the oldest ready chunk. REQUIRES: HasReadyChunk().
  Slice ReadyChunk() const;
  // Records where the oldest ready chunk was written and drops it.
  void ChunkWritten(uint64_t offset, uint32_t on_disk_size_with_header);
  // Closes the current partial chunk (if it has keys) so that it becomes ready.
  void FinishChunks();
  // The meta block body. REQUIRES: every chunk written. The comparator name written is "" for
  // ROW, ROWPREFIX and the delete-family bloom, "org.apache.hadoop.hbase.CellComparatorImpl"
  // for ROWCOL (also in hbase:meta files).
  void EncodeMeta(std::string* dst) const;

 private:
  struct Rep;
  Rep* rep_;
};

}  // namespace hfile

#endif  // HFILE_SRC_BLOOM_H_
