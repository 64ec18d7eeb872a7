// A small HFile v3 builder for tests and fuzz seeds, assembled from the library's block-level
// encoders (data block encoders, codecs, checksums, index and bloom encoders, file info,
// trailer). It writes what HBase 2.x writes for a single-level index, so VerifyFile reports the
// result clean; it is not the project's writer and supports only what the tests need.
#ifndef HFILE_TESTS_TEST_HFILE_H_
#define HFILE_TESTS_TEST_HFILE_H_

#include <cstdint>
#include <string>

#include "hfile/types.h"

namespace hfile::test {

struct TestHFileOptions {
  DataBlockEncoding encoding = DataBlockEncoding::kNone;
  Compression compression = Compression::kNone;
  ChecksumType checksum = ChecksumType::kCrc32c;
  uint32_t bytes_per_checksum = 512;
  int rows = 40;
  int cells_per_row = 3;
  size_t block_size = 1024;  // unencoded bytes per data block
  bool mvcc = true;
  bool tags = false;
  bool bloom = true;         // ROW bloom, several chunks
  bool meta_block = true;    // one meta block named "TESTMETA"
};

// The bytes of a complete HFile v3.3.
std::string BuildTestHFile(const TestHFileOptions& options);

}  // namespace hfile::test

#endif  // HFILE_TESTS_TEST_HFILE_H_
