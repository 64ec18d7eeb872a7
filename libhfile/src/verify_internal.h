// Pieces of VerifyFile: walking the data index in data-block order, and checking the blooms
// against the cells as they stream by. Both keep O(index depth) blocks in memory.
#ifndef HFILE_SRC_VERIFY_INTERNAL_H_
#define HFILE_SRC_VERIFY_INTERNAL_H_

#include <algorithm>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "hfile/verify.h"
#include "reader_internal.h"

namespace hfile {

// Reports an error found at a block offset (-1: none) of a block type (nullptr: none).
using ProblemSink =
    std::function<void(int64_t offset, const char* block, ProblemCode code, std::string what)>;

// The code of a failed BlockReader::ReadBlock, from the stage at which it failed.
ProblemCode BlockReadCode(const BlockReader& reader, const Status& s);
// The same from the fault a failed read left (BlockReader::last_fault).
ProblemCode BlockReadCode(BlockReader::Fault fault, const Status& s);

// Yields the data-level entries of the data index in order, descending through intermediate and
// leaf blocks as it goes, and checks each index block's type, size and first key on the way.
class IndexWalker {
 public:
  IndexWalker(const Reader::Rep& rep, ProblemSink problem);
  ~IndexWalker();
  // The next data-block entry (key copied into *key); false at the end or when a damaged index
  // block stops the walk (reported).
  bool Next(uint64_t* offset, uint32_t* size, std::string* key);
  // Index blocks (leaf, intermediate) read so far.
  uint64_t index_blocks_read() const { return index_blocks_read_; }
  // The first read of an index block that failed with an I/O error (also reported).
  const Status& io_error() const { return io_error_; }

 private:
  struct Level;
  bool Descend(uint64_t offset, uint32_t size, const std::string& parent_key, uint32_t level);

  const Reader::Rep& rep_;
  ProblemSink problem_;
  BlockReader reader_;
  size_t root_pos_ = 0;
  std::vector<std::unique_ptr<Level>> stack_;
  uint64_t index_blocks_read_ = 0;
  bool failed_ = false;
  Status io_error_;
};

// Tests the keys of the cells, in file order, against one compound bloom as HBase's
// StoreFileReader would look each up, loading one chunk at a time. A key HBase would not find
// is an error, except in hbase:meta files, where HBase itself misses some (a warning).
class BloomScanner {
 public:
  // `general`: the general bloom (LAST_BLOOM_KEY applies; ROWCOL if the file's type says so),
  // else the delete-family bloom.
  BloomScanner(const Reader::Rep& rep, const BloomMeta& meta, bool general, const char* name,
               ProblemSink problem, ProblemSink warning);
  // Checks one key (the caller passes each distinct key once, in order).
  void Check(const Slice& hash_key, const Slice& index_key);
  uint64_t keys() const { return keys_; }
  // Keys of an hbase:meta file that HBase's own lookup denies, and how many of them were
  // passed to the warning sink (the first few).
  uint64_t hbase_denials() const { return hbase_denials_; }
  uint64_t hbase_denials_reported() const { return std::min<uint64_t>(hbase_denials_, kListed); }
  const std::string& last_index_key() const { return last_index_key_; }
  // The first read of a chunk that failed with an I/O error (also reported).
  const Status& io_error() const { return io_error_; }

 private:
  static constexpr uint64_t kListed = 5;  // problems listed per bloom and kind
  enum class Answer { kPasses, kBeforeFirstChunk, kBitsUnset, kAfterLastBloomKey };
  Answer Probe(const Slice& hash_key, const Slice& index_key, int* chunk);

  const Reader::Rep& rep_;
  const BloomMeta& meta_;
  bool general_, rowcol_;
  const char* name_;
  ProblemSink problem_, warning_;
  BlockReader reader_;
  Block chunk_;
  Status io_error_;
  int loaded_ = -1;
  bool chunk_ok_ = false;
  std::set<int> bad_chunks_;
  uint64_t keys_ = 0;
  uint64_t misses_ = 0;
  uint64_t hbase_denials_ = 0;
  std::string last_index_key_;
};

}  // namespace hfile

#endif  // HFILE_SRC_VERIFY_INTERNAL_H_
