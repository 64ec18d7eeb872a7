// Block header: the fixed prefix of every block.
//
//   0  magic[8]                        block type (kBlockMagics)
//   8  int32 onDiskSizeWithoutHeader   compressed body + checksum bytes
//  12  int32 uncompressedSizeWithoutHeader
//  16  int64 prevBlockOffset           previous block of the same type id, -1 if none
//  --- from v2.1 on (HBase checksums) ---
//  24  u8    checksumType              0 NULL, 1 CRC32, 2 CRC32C
//  25  int32 bytesPerChecksum
//  29  int32 onDiskDataSizeWithHeader  header + compressed body, without checksums
//  33  body ...                        then the checksums (checksum.h)
#ifndef HFILE_SRC_BLOCK_HEADER_H_
#define HFILE_SRC_BLOCK_HEADER_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "hfile/block_type.h"
#include "hfile/slice.h"
#include "hfile/status.h"
#include "hfile/types.h"

namespace hfile {

inline constexpr size_t kBlockHeaderSizeWithChecksum = 33;
inline constexpr size_t kBlockHeaderSizeNoChecksum = 24;

struct BlockHeader {
  BlockType type = BlockType::kData;
  uint32_t on_disk_size_without_header = 0;
  uint32_t uncompressed_size_without_header = 0;
  int64_t prev_block_offset = -1;
  ChecksumType checksum_type = ChecksumType::kCrc32c;
  uint32_t bytes_per_checksum = 16384;
  uint32_t on_disk_data_size_with_header = 0;
  size_t header_size = kBlockHeaderSizeWithChecksum;  // 24 for v2.0 files

  uint64_t on_disk_size_with_header() const {
    return uint64_t{header_size} + on_disk_size_without_header;
  }
  // Bytes of checksums after the body (0 for headers without checksum fields).
  uint64_t checksum_bytes() const {
    return header_size == kBlockHeaderSizeWithChecksum
               ? on_disk_size_with_header() - on_disk_data_size_with_header
               : 0;
  }
  uint64_t on_disk_body_size() const {
    return header_size == kBlockHeaderSizeWithChecksum
               ? on_disk_data_size_with_header - header_size
               : on_disk_size_without_header;
  }

  // Parses header_size bytes. Corruption on a bad magic, a negative size, an unknown checksum
  // type, or sizes that contradict each other.
  Status DecodeFrom(const Slice& in, size_t header_size);
  void EncodeTo(std::string* dst) const;
};

}  // namespace hfile

#endif  // HFILE_SRC_BLOCK_HEADER_H_
