// IndexWriter: the multi-level data block index, built as HBase's
// HFileBlockIndex.BlockIndexWriter builds it (formats in block_index.h).
//
//   data blocks ──> current leaf chunk ──(non-root size >= max_chunk_size at a data-block
//                   boundary, or any entries at close)──> IDXLEAF2 inline block
//               root chunk: one entry per leaf block (firstKey, offset, onDiskSize), plus the
//                           cumulative data-block count used for the mid-key metadata
//   close: no leaf block written yet -> the leaf chunk becomes the root (1 level).
//          else, while root size > max_chunk_size && root entries > min_entries && levels < 16:
//            split the level into IDXINTE2 blocks (cut after entry i when i >= min_entries and
//            the chunk's root-format size >= max_chunk_size), parent = their first keys.
//          root written as IDXROOT2 + 16-byte mid-key metadata when levels >= 2 (computed from
//          the leaf-level root chunk, before intermediate levels replace it).
// uncompressed_size() sums uncompressedSizeWithoutHeader of every index block (leaf,
// intermediate, root): the trailer's uncompressed_data_index_size.
#ifndef HFILE_SRC_INDEX_WRITER_H_
#define HFILE_SRC_INDEX_WRITER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "block_writer.h"
#include "hfile/slice.h"
#include "hfile/status.h"

namespace hfile {

// One chunk of index entries; keys live in one arena string.
class IndexChunk {
 public:
  void Add(const Slice& key, uint64_t offset, uint32_t on_disk_size, int64_t cumulative = -1);
  void Clear();
  size_t size() const { return offsets_.size(); }
  Slice key(size_t i) const {
    return Slice(keys_.data() + key_starts_[i], key_starts_[i + 1] - key_starts_[i]);
  }
  uint64_t offset(size_t i) const { return offsets_[i]; }
  uint32_t on_disk_size(size_t i) const { return sizes_[i]; }
  // 4 + 4 * (n + 1) + sum(12 + keylen)
  size_t NonRootSize() const { return 4 + 4 * (size() + 1) + 12 * size() + keys_.size(); }
  // sum(12 + vintsize(keylen) + keylen)
  size_t RootSize() const { return root_size_; }
  void EncodeNonRoot(std::string* dst) const;
  void EncodeRoot(std::string* dst) const;
  // REQUIRES: entries added with cumulative counts and the last count > 0.
  void EncodeMidKeyMetadata(std::string* dst) const;

 private:
  std::string keys_;
  std::vector<size_t> key_starts_{0};
  std::vector<uint64_t> offsets_;
  std::vector<uint32_t> sizes_;
  std::vector<int64_t> cumulative_;
  size_t root_size_ = 0;
};

class IndexWriter {
 public:
  IndexWriter(uint32_t max_chunk_size, uint32_t min_entries)
      : max_chunk_size_(max_chunk_size), min_entries_(min_entries) {}

  // One data block.
  void AddEntry(const Slice& key, uint64_t offset, uint32_t on_disk_size);

  // Writes the current leaf chunk as an IDXLEAF2 block if HBase would now (see above). With
  // closing and no leaf written yet, moves the entries to the root instead.
  Status MaybeWriteLeaf(BlockWriter* w, bool closing, uint64_t* uncompressed_with_header);

  // Writes the intermediate levels and the root; *root_offset receives the root's offset.
  // REQUIRES: MaybeWriteLeaf(closing = true) was called.
  Status Finish(BlockWriter* w, uint64_t* root_offset);

  uint32_t num_levels() const { return num_levels_; }
  uint32_t root_entries() const { return static_cast<uint32_t>(root_.size()); }
  uint64_t uncompressed_size() const { return uncompressed_size_; }
  uint64_t data_blocks() const { return total_entries_; }

 private:
  Status WriteIntermediateLevel(BlockWriter* w);

  uint32_t max_chunk_size_;
  uint32_t min_entries_;
  IndexChunk leaf_;
  IndexChunk root_;
  bool leaf_moved_to_root_ = false;
  uint32_t num_levels_ = 1;
  int64_t total_entries_ = 0;
  uint64_t uncompressed_size_ = 0;
  std::string body_;
};

}  // namespace hfile

#endif  // HFILE_SRC_INDEX_WRITER_H_
