// The fixed file trailer: the last bytes of every HFile, and the format-version predicates.
//
//   v3 (4096 bytes), v2 minor >= 2 (212 bytes):
//     +----------+----------------------------------+---------+-----------------+
//     | TRABLK"$ | varint32 len | FileTrailerProto | 0 pad.. | int32 BE version|
//     +----------+----------------------------------+---------+-----------------+
//   v2 minor < 2 (212 bytes): magic, then fixed big-endian fields (Writable layout).
//   version = (minor << 24) | major; a v3.3 file ends with 03 00 00 03.
#ifndef HFILE_TRAILER_H_
#define HFILE_TRAILER_H_

#include <cstdint>
#include <string>

#include "hfile/slice.h"
#include "hfile/status.h"
#include "hfile/types.h"

namespace hfile {

// Format-version predicates: the only place that compares version numbers.
inline size_t TrailerSize(int major) { return major == 1 ? 60 : major == 2 ? 212 : 4096; }
inline bool IsSupportedMajorVersion(int major) { return major == 2 || major == 3; }
inline bool TrailerIsProtobuf(int major, int minor) { return major > 2 || minor >= 2; }
inline bool BlocksHaveChecksums(int major, int minor) { return major > 2 || minor >= 1; }
inline size_t BlockHeaderSize(int major, int minor) {
  return BlocksHaveChecksums(major, minor) ? 33 : 24;
}
inline bool MajorVersionHasTags(int major) { return major >= 3; }
// HBase 2.x opens v3 files and v2 files from minor 3 on.
inline bool HBase2CanOpen(int major, int minor) { return major == 3 || (major == 2 && minor >= 3); }

inline constexpr char kTrailerMagic[] = "TRABLK\"$";

struct Trailer {
  int major_version = 3;
  int minor_version = 3;
  uint64_t file_info_offset = 0;
  uint64_t load_on_open_data_offset = 0;
  uint64_t uncompressed_data_index_size = 0;
  uint64_t total_uncompressed_bytes = 0;
  uint32_t data_index_count = 0;
  uint32_t meta_index_count = 0;
  uint64_t entry_count = 0;
  uint32_t num_data_index_levels = 1;
  int64_t first_data_block_offset = -1;  // -1: no data block
  int64_t last_data_block_offset = -1;
  std::string comparator_class_name;
  uint32_t compression_ordinal = static_cast<uint32_t>(Compression::kNone);
  std::string encryption_key;  // non-empty: the file is encrypted

  size_t size() const { return TrailerSize(major_version); }
  Compression compression() const { return static_cast<Compression>(compression_ordinal); }

  // Parses the trailer from `tail`, the last min(4096, file size) bytes of a file of
  // `file_size` bytes. Validates the magic, the version, the codec ordinal and that every offset
  // lies inside the file; Corruption / NotSupported (v1) otherwise.
  Status DecodeFrom(const Slice& tail, uint64_t file_size);
  // Appends the trailer (size() bytes). Only v3 and protobuf v2 are written.
  Status EncodeTo(std::string* dst) const;
};

// Reads just the version from the last 4 bytes: (major, minor).
void DecodeVersion(uint32_t v, int* major, int* minor);

}  // namespace hfile

#endif  // HFILE_TRAILER_H_
