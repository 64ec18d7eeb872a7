// HBase block checksums: a 4-byte big-endian CRC per bytes_per_checksum chunk of
// [block header + on-disk body], stored right after the body.
//
//   | header (33) | on-disk body | crc(chunk 0) | crc(chunk 1) | ... |
//   |<------ onDiskDataSizeWithHeader ------>|
#ifndef HFILE_SRC_CHECKSUM_H_
#define HFILE_SRC_CHECKSUM_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "hfile/slice.h"
#include "hfile/status.h"
#include "hfile/types.h"

namespace hfile {

// Standard CRC-32 (IEEE, zlib) and CRC-32C (Castagnoli) of `n` bytes.
uint32_t Crc32(const char* data, size_t n);
uint32_t Crc32c(const char* data, size_t n);

// Number of checksum bytes HBase stores for `data_len` bytes (header + body).
size_t ChecksumBytes(uint32_t bytes_per_checksum, size_t data_len);

// Checks `sums` (as stored) against `data`. NULL type always passes. On mismatch returns
// Corruption naming the chunk index and its byte range within the block.
// REQUIRES: bytes_per_checksum > 0.
Status VerifyChecksums(ChecksumType type, uint32_t bytes_per_checksum, const Slice& data,
                       const Slice& sums);

// Appends ChecksumBytes(bpc, data.size()) bytes of checksums of `data` (zeros for NULL).
void AppendChecksums(ChecksumType type, uint32_t bytes_per_checksum, const Slice& data,
                     std::string* out);
// The same for the concatenation head + tail, without copying them together (a block header
// and an uncompressed body).
void AppendChecksums(ChecksumType type, uint32_t bytes_per_checksum, const Slice& head,
                     const Slice& tail, std::string* out);

}  // namespace hfile

#endif  // HFILE_SRC_CHECKSUM_H_
