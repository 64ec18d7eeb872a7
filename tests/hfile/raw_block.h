// Test-only walker over the blocks of an HFile v2.1+/v3 file, parsing the 33-byte block header
// by hand so that codec and checksum tests do not depend on the block reader.
//
//   | magic 8 | onDiskSizeWithoutHeader BE32 | uncompressedSizeWithoutHeader BE32 |
//   | prevBlockOffset BE64 | checksumType u8 | bytesPerChecksum BE32 |
//   | onDiskDataSizeWithHeader BE32 |
#ifndef HFILE_TESTS_HFILE_RAW_BLOCK_H_
#define HFILE_TESTS_HFILE_RAW_BLOCK_H_

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "hfile/coding.h"
#include "hfile/slice.h"

namespace hfile::test {

struct RawBlock {
  size_t offset = 0;
  std::string magic;
  uint32_t on_disk_size_without_header = 0;
  uint32_t uncompressed_size_without_header = 0;
  uint8_t checksum_type = 0;
  uint32_t bytes_per_checksum = 0;
  uint32_t on_disk_data_size_with_header = 0;
  Slice header_and_body;  // [0, onDiskDataSizeWithHeader)
  Slice body;             // [33, onDiskDataSizeWithHeader)
  Slice checksums;        // [onDiskDataSizeWithHeader, 33 + onDiskSizeWithoutHeader)
};

constexpr size_t kBlockHeaderSize = 33;

// Parses the block at `offset`; false if it is not a well-formed block header in bounds.
inline bool ParseRawBlock(const std::string& file, size_t offset, RawBlock* b) {
  if (offset > file.size() || file.size() - offset < kBlockHeaderSize) return false;
  const char* p = file.data() + offset;
  b->offset = offset;
  b->magic.assign(p, 8);
  b->on_disk_size_without_header = DecodeFixed32BE(p + 8);
  b->uncompressed_size_without_header = DecodeFixed32BE(p + 12);
  b->checksum_type = static_cast<uint8_t>(p[24]);
  b->bytes_per_checksum = DecodeFixed32BE(p + 25);
  b->on_disk_data_size_with_header = DecodeFixed32BE(p + 29);
  const uint64_t total = uint64_t{kBlockHeaderSize} + b->on_disk_size_without_header;
  if (total > file.size() - offset) return false;
  if (b->on_disk_data_size_with_header < kBlockHeaderSize ||
      b->on_disk_data_size_with_header > total) {
    return false;
  }
  b->header_and_body = Slice(p, b->on_disk_data_size_with_header);
  b->body = Slice(p + kBlockHeaderSize, b->on_disk_data_size_with_header - kBlockHeaderSize);
  b->checksums = Slice(p + b->on_disk_data_size_with_header,
                       total - b->on_disk_data_size_with_header);
  return true;
}

inline bool IsBlockMagic(const std::string& m) {
  static const char* kMagics[] = {"DATABLK*", "DATABLKE", "LEAF2IDX", "IDXLEAF2", "IDXINTE2",
                                  "IDXROOT2", "METABLKc", "FILEINF2", "BLMFMET2", "BLMFBLK2",
                                  "DFBLMET2", "TRABLK\"$"};
  for (const char* k : kMagics) {
    if (m == k) return true;
  }
  return false;
}

// Every block from offset 0 up to (not including) the trailer, in file order.
inline std::vector<RawBlock> WalkBlocks(const std::string& file) {
  std::vector<RawBlock> out;
  size_t off = 0;
  RawBlock b;
  while (ParseRawBlock(file, off, &b) && IsBlockMagic(b.magic) && b.magic != "TRABLK\"$") {
    out.push_back(b);
    off += kBlockHeaderSize + b.on_disk_size_without_header;
  }
  return out;
}

}  // namespace hfile::test

#endif  // HFILE_TESTS_HFILE_RAW_BLOCK_H_
