// Block bodies from real HBase files (GZ, Hadoop-framed SNAPPY, HBase ZstdCodec) decompress to
// exactly uncompressedSizeWithoutHeader bytes; damaged fuzz seeds never crash a codec.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>

#include "../testutil.h"
#include "checksum.h"
#include "compression.h"
#include "raw_block.h"

namespace hfile {
namespace {

// Decompresses every block of `path` with `c`; returns the first DATABLK* body.
std::string DecompressAllBlocks(const std::string& path, Compression c, int* blocks) {
  const std::string file = test::ReadFileOrDie(path);
  std::string first_data;
  *blocks = 0;
  for (const auto& b : test::WalkBlocks(file)) {
    std::string raw(b.uncompressed_size_without_header, '\0');
    Status s = Decompress(c, b.body, raw.data(), raw.size());
    EXPECT_TRUE(s.ok()) << path << " " << b.magic << " at " << b.offset << ": " << s.ToString();
    if (b.magic == "DATABLK*" && first_data.empty()) first_data = raw;
    ++*blocks;
  }
  return first_data;
}

// The first cell of an unencoded data block: int32 keylen, int32 vlen, key, value.
void ExpectKeyValueAtStart(const std::string& block, const char* what) {
  ASSERT_GE(block.size(), 8u) << what;
  const uint32_t klen = DecodeFixed32BE(block.data());
  const uint32_t vlen = DecodeFixed32BE(block.data() + 4);
  EXPECT_GT(klen, 12u) << what;  // row length (2) + family length (1) + ts (8) + type (1) < klen
  EXPECT_LE(uint64_t{klen} + vlen + 8, block.size()) << what;
  const uint16_t rlen = DecodeFixed16BE(block.data() + 8);
  EXPECT_LE(rlen + 12u, klen) << what;
}

TEST(CompressionReal, GzDataBlocks) {
  HFILE_REQUIRE_REAL_DATA();
  int blocks = 0;
  const std::string first = DecompressAllBlocks(
      test::RealDataDir() + "/hudi-rs/hudi_1_0_hbase_2_4_9_16KB_GZ_20000.hfile",
      Compression::kGz, &blocks);
  EXPECT_GT(blocks, 72);
  ASSERT_EQ(first.size(), 16402u);
  ExpectKeyValueAtStart(first, "GZ");
  // Row of the first cell is "hudi-key-000000000" (MANIFEST.md).
  EXPECT_EQ(first.substr(10, 18), "hudi-key-000000000");
}

TEST(CompressionReal, SnappyDataBlocks) {
  HFILE_REQUIRE_REAL_DATA();
  const char* files[] = {
      "/java-bigtable-hbase/from-zip/data/archive/data/default/test-snappy-table/"
      "94218dba9c63bf9641853138d8df502f/cf/caa9f5d794b941879397ca0b04c2155c",
      "/java-bigtable-hbase/integration-test/data/archive/data/default/demo-1/"
      "a2e677e20068512effafcd5b8ac06c5d/cf/44f36bce77074ffeaa4e656a15fc7fbe",
  };
  for (const char* f : files) {
    int blocks = 0;
    const std::string first =
        DecompressAllBlocks(test::RealDataDir() + f, Compression::kSnappy, &blocks);
    EXPECT_GT(blocks, 1) << f;
    ExpectKeyValueAtStart(first, f);
  }
}

// HBase 2.6.4 ZstdCodec, Hadoop block framed (fuzz-seeds/README.md).
TEST(CompressionReal, ZstdBlockFramedSeed) {
  HFILE_REQUIRE_REAL_DATA();
  const std::string path = test::FuzzSeedDir() + "/riverbed/0d8301b8b15ddb70";
  const std::string file = test::ReadFileOrDie(path);
  test::RawBlock b;
  ASSERT_TRUE(test::ParseRawBlock(file, 0, &b));
  ASSERT_EQ(b.magic, "DATABLK*");
  // Only assert on the bytes if the fuzzer left this block intact.
  ASSERT_TRUE(VerifyChecksums(static_cast<ChecksumType>(b.checksum_type), b.bytes_per_checksum,
                              b.header_and_body, b.checksums)
                  .ok());
  EXPECT_EQ(b.body.ToString().substr(8, 4), std::string("\x28\xb5\x2f\xfd", 4));
  std::string raw(b.uncompressed_size_without_header, '\0');
  Status s = Decompress(Compression::kZstd, b.body, raw.data(), raw.size());
  ASSERT_TRUE(s.ok()) << s.ToString();
  ExpectKeyValueAtStart(raw, "ZSTD");
}

// Every block of every damaged seed, through every codec: errors are fine, crashes are not.
TEST(CompressionReal, FuzzSeedsNeverCrashAnyCodec) {
  HFILE_REQUIRE_REAL_DATA();
  int tried = 0;
  for (const auto& path : test::ListFilesRecursive(test::FuzzSeedDir() + "/riverbed")) {
    const std::string file = test::ReadFileOrDie(path);
    for (size_t off = 0; off + test::kBlockHeaderSize <= file.size();) {
      test::RawBlock b;
      if (!test::ParseRawBlock(file, off, &b)) break;
      // The header is untrusted too: cap the output buffer like a reader would.
      const size_t raw_len = std::min<size_t>(b.uncompressed_size_without_header, 8 << 20);
      std::unique_ptr<char[]> out(new char[raw_len + 1]);
      for (int c = 0; c < kNumCompressions; ++c) {
        Status s = Decompress(static_cast<Compression>(c), b.body, out.get(), raw_len);
        EXPECT_TRUE(s.ok() || s.IsCorruption()) << path << " @" << off << ": " << s.ToString();
        ++tried;
      }
      off += test::kBlockHeaderSize + b.on_disk_size_without_header;
    }
  }
  EXPECT_GT(tried, 0);
}

}  // namespace
}  // namespace hfile
