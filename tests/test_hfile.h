// Small HFiles for the corrupt-file suite and the fuzz seeds, written with the project's Writer:
// a few rows of cells in small blocks, several bloom chunks and a meta block.
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
