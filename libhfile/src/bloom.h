// Bloom filters: HBase's hash functions, the compound Bloom filter (version 3) that HBase keeps in
// BLMFBLK2 chunk blocks indexed by a BLMFMET2 / DFBLMET2 meta block, and the bloom keys per type.
//
// Bloom meta body (BLMFMET2 / DFBLMET2):
//   int32 version (3) | int64 totalByteSize | int32 hashCount | int32 hashType
//   int64 totalKeyCount | int64 totalMaxKeys | int32 numChunks
//   VInt+bytes comparator class name ("" raw bytes, else the cell comparator)
//   numChunks x { int64 chunkOffset | int32 chunkOnDiskSizeWithHeader | VInt+bytes firstKey }
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

// The bytes HBase hashes for a cell, per bloom type:
//   ROW: the row; ROWPREFIX_FIXED_LENGTH: the first min(prefix_len, rowlen) bytes;
//   ROWCOL: key(row, empty family, qualifier, LATEST_TIMESTAMP, Maximum).
void AppendBloomHashKey(BloomType type, int prefix_length, const Slice& row,
                        const Slice& qualifier, std::string* dst);
// The bytes HBase stores as a chunk's first key / LAST_BLOOM_KEY:
//   ROW/ROWPREFIX: as above; ROWCOL: key(row, family, qualifier, LATEST_TIMESTAMP, Maximum).
void AppendBloomIndexKey(BloomType type, int prefix_length, const Slice& row,
                         const Slice& family, const Slice& qualifier, std::string* dst);

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

  // Parses a BLMFMET2 / DFBLMET2 body; Corruption on any inconsistency (bounded counts).
  Status DecodeFrom(Slice* input);
  void EncodeTo(std::string* dst) const;
  // The chunk that would hold `index_key`: last chunk whose first key <= index_key, or -1.
  int FindChunk(const Slice& index_key) const;
};

// True unless the bits for `hash_key` are not all set in `chunk` (the chunk block's body).
bool BloomChunkMightContain(const Slice& chunk, const Slice& hash_key, int32_t hash_count,
                            HashType hash_type);

// Builds a compound Bloom filter as HBase's CompoundBloomFilterWriter does: chunks of
// byte_size bytes receive keys until full, are folded, and are handed out for writing as
// BLMFBLK2 blocks at data-block boundaries; the meta block is written at close.
class BloomWriter {
 public:
  struct Options {
    BloomType type = BloomType::kRow;
    int prefix_length = 0;        // ROWPREFIX_FIXED_LENGTH
    double error_rate = 0.01;     // io.storefile.bloom.error.rate
    int max_fold = 7;             // io.storefile.bloom.max.fold
    int chunk_byte_size = 131072; // io.storefile.bloom.block.size
    HashType hash_type = HashType::kMurmur;
    bool delete_family = false;   // the delete-family bloom (ROW semantics, empty comparator)
  };
  explicit BloomWriter(const Options& options);
  ~BloomWriter();

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
  // The meta block body. REQUIRES: every chunk written.
  void EncodeMeta(std::string* dst) const;

 private:
  struct Rep;
  Rep* rep_;
};

}  // namespace hfile

#endif  // HFILE_SRC_BLOOM_H_
