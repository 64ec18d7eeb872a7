// Reads one block: header, body, checksum verification, decompression.
//
// One pread per block: the reader asks for the block plus the next block's header, so that a
// sequential scan always knows the next block's size before reading it (as HBase does).
#ifndef HFILE_SRC_BLOCK_READER_H_
#define HFILE_SRC_BLOCK_READER_H_

#include <cstdint>

#include "block_header.h"
#include "buffer.h"
#include "file.h"
#include "hfile/status.h"
#include "hfile/types.h"

namespace hfile {

// A block as read: its header and its uncompressed body. The body points into buffers the Block
// owns; reading another block into the same Block reuses them.
struct Block {
  uint64_t offset = 0;
  BlockHeader header;
  Slice body;  // uncompressed body, header and checksums excluded

  Buffer raw;           // on-disk bytes (+ the next header)
  Buffer uncompressed;  // decompressed body, when the file is compressed
};

struct BlockReaderOptions {
  size_t header_size = kBlockHeaderSizeWithChecksum;
  Compression compression = Compression::kNone;
  uint64_t section_end = 0;  // blocks lie in [0, section_end): the trailer starts there
  bool verify_checksums = true;
  uint64_t max_block_size = 1ull << 30;  // refuse bodies larger than this
  // The trailer's totalUncompressedBytes, when the file records one: HBase's writer adds every
  // block's uncompressed size with header to it except the data root and intermediate index
  // blocks, which uncompressed_data_index_size covers. No block of an intact file claims more
  // than the larger of the two, so a claim above it is refused before anything is allocated.
  // 0: not recorded (no bound from the file).
  uint64_t total_uncompressed_bytes = 0;
  uint64_t uncompressed_data_index_size = 0;
};

class BlockReader {
 public:
  BlockReader(const RandomAccessFile* file, const BlockReaderOptions& options)
      : file_(file), options_(options) {}

  // Reads the block at `offset`. `expected_size` is its on-disk size with header when an index
  // says so (0 if unknown); a header that disagrees is Corruption. Errors name the offset.
  Status ReadBlock(uint64_t offset, uint64_t expected_size, Block* block);
  // Reads and decodes only the header at `offset`.
  Status ReadHeader(uint64_t offset, BlockHeader* header);

  const BlockReaderOptions& options() const { return options_; }

  // The stage at which the last ReadBlock failed, so that a verifier can name the kind of
  // damage without parsing the message; kNone after a success.
  enum class Fault : uint8_t { kNone, kIo, kHeader, kSize, kChecksum, kDecompression };
  Fault last_fault() const { return fault_; }

 private:
  Status ReadBlockImpl(uint64_t offset, uint64_t expected_size, Block* block);

  const RandomAccessFile* file_;
  Fault fault_ = Fault::kNone;
  BlockReaderOptions options_;
  // The header that followed the last block read, and where it is.
  uint64_t next_offset_ = UINT64_MAX;
  uint64_t next_size_ = 0;
};

}  // namespace hfile

#endif  // HFILE_SRC_BLOCK_READER_H_
