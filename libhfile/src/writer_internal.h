// Writer internals: the state HFileWriterImpl and StoreFileWriter keep while cells arrive.
#ifndef HFILE_SRC_WRITER_INTERNAL_H_
#define HFILE_SRC_WRITER_INTERNAL_H_

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "block_writer.h"
#include "bloom.h"
#include "data_block_codec.h"
#include "file.h"
#include "hfile/file_info.h"
#include "hfile/writer.h"
#include "index_writer.h"

namespace hfile {

// A copy of a key in a buffer that only grows: keeping each appended cell's key is then one
// memcpy (std::string::assign cost about as much again, once per cell).
class KeyCopy {
 public:
  void Assign(const Slice& key) {
    if (key.size() > buf_.size()) buf_.resize(std::max(key.size(), 2 * buf_.size()));
    if (!key.empty()) std::memcpy(buf_.data(), key.data(), key.size());
    size_ = key.size();
  }
  Slice slice() const { return Slice(buf_.data(), size_); }

 private:
  std::string buf_;
  size_t size_ = 0;
};

struct Writer::Rep {
  WriterOptions options;
  CellFormat format;
  BlockType data_block_type = BlockType::kData;
  std::unique_ptr<WritableFile> file;
  std::unique_ptr<BlockWriter> blocks;
  std::unique_ptr<IndexWriter> index;
  std::unique_ptr<DataBlockEncoder> encoder;
  std::unique_ptr<BloomWriter> general_bloom;
  std::unique_ptr<BloomWriter> delete_family_bloom;
  bool failed = false;
  bool finished = false;

  // Reused buffers (no per-cell allocation once they have grown).
  std::string body;
  std::string index_key;
  std::string bloom_key;
  std::string prev_bloom_prefix;  // ROWPREFIX_FIXED_LENGTH: the row prefix of the last bloom key
  std::string last_bloom_key;
  std::string prev_delete_family_row;
  bool has_delete_family_row = false;

  // HFileWriterImpl state.
  KeyCopy last_key;                    // lastCell's key, taken from the encoder at Finish
  std::string first_key_in_block;      // firstCellInBlock
  std::string prev_block_last_key;     // lastCellOfPreviousBlock
  bool has_prev_block = false;
  uint64_t entry_count = 0;
  uint64_t total_key_length = 0;
  uint64_t total_value_length = 0;
  uint64_t unencoded_bytes = 0;
  int64_t len_of_biggest_cell = 0;
  std::string key_of_biggest_cell;
  uint64_t max_memstore_ts = 0;
  uint32_t max_tags_length = 0;
  int64_t first_data_block_offset = -1;
  int64_t last_data_block_offset = -1;
  uint64_t total_uncompressed_bytes = 0;
  std::vector<std::pair<std::string, std::string>> meta_blocks;

  // StoreFileWriter state.
  int64_t delete_family_count = 0;
  int64_t earliest_put_ts = INT64_MAX;
  TimeRange time_range;

  Status Fail(Status s) {
    failed = true;
    if (file) file->Abandon();
    return s;
  }
  bool ShouldFinishBlock() const;
  // `block_last_key`: the key of the block's last cell (the encoder's last_key(), or a view of
  // the cell before in a batch).
  Status FinishDataBlock(const Slice& block_last_key);
  // Append's work for one cell whose predecessor's key is `prev_key` (unused for the first cell
  // of the file). `key_valid`: the key is known to pass
  // IsValidKey (CellBatch::keys_valid).
  // `known`: the caller's first_difference (AppendAfter), trusted except where a block ends;
  // nullptr: compared here.
  Status AddCell(const Cell& cell, const Slice& prev_key, bool key_valid,
                 const KeyField* known = nullptr);
  // Append / AppendAfter: AddCell after the encoder's last key.
  Status AppendOne(const Cell& cell, const KeyField* known);
  Status WriteInlineBlocks(bool closing);
  // `differs`: the first key field that differs from the previous cell (kRow for the first).
  void AddToBlooms(const Cell& cell, KeyField differs);
  void TrackTimestamps(const Cell& cell);
  // The FILEINF2 contents at close (HFileWriterImpl.finishFileInfo + StoreFileWriter keys).
  void BuildFileInfo(FileInfo* info) const;
};

}  // namespace hfile

#endif  // HFILE_SRC_WRITER_INTERNAL_H_
