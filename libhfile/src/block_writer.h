// BlockWriter: turns a block body into an on-disk block and appends it to the file, as HBase's
// HFileBlock.Writer does.
//
//   +--------------------+---------------------------------+------------------------------+
//   | header (33 bytes)  | on-disk body                    | checksums                    |
//   | block_header.h     | Compress(codec, body), or body  | 4 bytes BE per bpc chunk of  |
//   |                    | itself for NONE                 | [header + on-disk body]      |
//   +--------------------+---------------------------------+------------------------------+
//
// prevBlockOffset is the offset of the previous block written with the same type id
// (BlockTypeChainId: DATA and ENCODED_DATA share one chain; the data-index and meta-index root
// blocks share the ROOT_INDEX chain; general and delete-family bloom chunks share BLOOM_CHUNK).
// A NULL checksum type still reserves the checksum bytes, zero-filled (HBase's
// ChecksumUtil.numBytes does not look at the type).
#ifndef HFILE_SRC_BLOCK_WRITER_H_
#define HFILE_SRC_BLOCK_WRITER_H_

#include <cstdint>
#include <string>

#include "compression.h"
#include "file.h"
#include "hfile/block_type.h"
#include "hfile/slice.h"
#include "hfile/status.h"
#include "hfile/types.h"

namespace hfile {

struct BlockWriterOptions {
  Compression compression = Compression::kNone;
  CompressOptions compress;
  ChecksumType checksum_type = ChecksumType::kCrc32c;
  uint32_t bytes_per_checksum = 16384;
};

// Where and how big a written block is.
struct WrittenBlock {
  uint64_t offset = 0;
  uint32_t on_disk_size_with_header = 0;
  uint32_t uncompressed_size_without_header = 0;
  // HBase's getUncompressedSizeWithHeader: what the trailer's total_uncompressed_bytes sums.
  uint64_t uncompressed_size_with_header() const { return 33 + uint64_t{uncompressed_size_without_header}; }
};

class BlockWriter {
 public:
  // `file` must outlive the writer.
  BlockWriter(WritableFile* file, const BlockWriterOptions& options);

  // Writes one block of `type` whose uncompressed body is `body`.
  Status Write(BlockType type, const Slice& body, WrittenBlock* written);

  // The offset the next block will be written at.
  uint64_t offset() const { return file_->size(); }

 private:
  WritableFile* file_;
  BlockWriterOptions options_;
  int64_t prev_offset_[16];
  std::string block_;  // header + on-disk body, reused
  std::string sums_;   // checksums, reused
  std::string header_;
};

}  // namespace hfile

#endif  // HFILE_SRC_BLOCK_WRITER_H_
