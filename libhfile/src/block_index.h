// Block index formats: the root level (IDXROOT2, also the meta index and the bloom chunk index)
// and the non-root levels (IDXLEAF2, IDXINTE2).
//
// Root (count from the trailer, not the block):
//   count x { int64 offset | int32 onDiskSizeWithHeader | VInt keylen | key }
//   [mid-key metadata, data index with >= 2 levels: int64 leafOffset | int32 leafOnDiskSize |
//    int32 entryIndexInLeaf]
// Non-root:
//   int32 n | int32 secondary[n + 1] (entry offsets after the array; last = total) |
//   n x { int64 offset | int32 onDiskSizeWithHeader | key (length from secondary) }
#ifndef HFILE_SRC_BLOCK_INDEX_H_
#define HFILE_SRC_BLOCK_INDEX_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "hfile/slice.h"
#include "hfile/status.h"

namespace hfile {

struct IndexEntry {
  uint64_t offset = 0;
  uint32_t on_disk_size = 0;  // with header
  Slice key;
};

// Orders index keys against a search key (CompareKeys for data indexes, raw for meta names).
using IndexKeyCompare = std::function<int(const Slice&, const Slice&)>;

struct MidKeyMetadata {
  uint64_t leaf_offset = 0;
  uint32_t leaf_on_disk_size = 0;
  uint32_t entry_index = 0;
};

// A decoded root-level index; owns a copy of its bytes.
class RootIndex {
 public:
  // Parses `count` entries from `body`. With expect_mid_key, 16 trailing bytes are read as
  // mid-key metadata when present. Corruption if entries overrun the body.
  Status DecodeFrom(const Slice& body, uint32_t count, bool expect_mid_key);

  size_t size() const { return entries_.size(); }
  const IndexEntry& entry(size_t i) const { return entries_[i]; }
  const std::vector<IndexEntry>& entries() const { return entries_; }
  const std::optional<MidKeyMetadata>& mid_key_metadata() const { return mid_key_; }
  // Index of the last entry whose key <= key, or -1 when key precedes every entry.
  int FindLastLE(const Slice& key, const IndexKeyCompare& cmp) const;

 private:
  std::string bytes_;
  std::vector<IndexEntry> entries_;
  std::optional<MidKeyMetadata> mid_key_;
};

// A view over a non-root index block body (no copy); validated by Init.
class NonRootIndexView {
 public:
  Status Init(const Slice& body);
  uint32_t size() const { return count_; }
  IndexEntry entry(uint32_t i) const;
  int FindLastLE(const Slice& key, const IndexKeyCompare& cmp) const;

 private:
  Slice body_;
  uint32_t count_ = 0;
  const char* entries_ = nullptr;  // first byte after the secondary index
};

// Appends a root-format entry / the non-root block for `entries`.
void AppendRootIndexEntry(std::string* dst, uint64_t offset, uint32_t on_disk_size,
                          const Slice& key);
void EncodeNonRootIndex(const std::vector<IndexEntry>& entries, std::string* dst);

}  // namespace hfile

#endif  // HFILE_SRC_BLOCK_INDEX_H_
