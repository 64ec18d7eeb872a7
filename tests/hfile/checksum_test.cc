#include "checksum.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <random>
#include <string>

#include "raw_block.h"
#include "../testutil.h"

namespace hfile {
namespace {

std::string RandomBytes(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::string s(n, '\0');
  for (auto& c : s) c = static_cast<char>(rng());
  return s;
}

TEST(Checksum, StandardVectors) {
  EXPECT_EQ(Crc32("123456789", 9), 0xCBF43926u);
  EXPECT_EQ(Crc32c("123456789", 9), 0xE3069283u);
  EXPECT_EQ(Crc32("", 0), 0u);
  EXPECT_EQ(Crc32c("", 0), 0u);
  // RFC 3720 B.4 CRC32C vectors.
  std::string zeros(32, '\0'), ones(32, '\xff'), up(32, '\0'), down(32, '\0');
  for (int i = 0; i < 32; ++i) {
    up[i] = static_cast<char>(i);
    down[i] = static_cast<char>(31 - i);
  }
  EXPECT_EQ(Crc32c(zeros.data(), 32), 0x8A9136AAu);
  EXPECT_EQ(Crc32c(ones.data(), 32), 0x62A8AB43u);
  EXPECT_EQ(Crc32c(up.data(), 32), 0x46DD794Eu);
  EXPECT_EQ(Crc32c(down.data(), 32), 0x113FDB5Cu);
}

TEST(Checksum, Crc32MatchesZlibAtEveryLengthAndAlignment) {
  const std::string data = RandomBytes(4200, 7);
  for (size_t start = 0; start < 8; ++start) {
    for (size_t n : {0, 1, 3, 7, 8, 15, 16, 31, 64, 255, 1024, 4100}) {
      const uint32_t want = static_cast<uint32_t>(
          crc32(0, reinterpret_cast<const Bytef*>(data.data() + start), static_cast<uInt>(n)));
      EXPECT_EQ(Crc32(data.data() + start, n), want) << start << "+" << n;
    }
  }
}

TEST(Checksum, ChecksumBytes) {
  EXPECT_EQ(ChecksumBytes(16384, 0), 0u);
  EXPECT_EQ(ChecksumBytes(16384, 1), 4u);
  EXPECT_EQ(ChecksumBytes(16384, 16384), 4u);
  EXPECT_EQ(ChecksumBytes(16384, 16385), 8u);
  EXPECT_EQ(ChecksumBytes(512, 3 * 512), 12u);
  EXPECT_EQ(ChecksumBytes(0, 100), 0u);
}

TEST(Checksum, AppendThenVerifyAtChunkBoundaries) {
  const uint32_t bpc = 512;
  for (ChecksumType t : {ChecksumType::kCrc32, ChecksumType::kCrc32c, ChecksumType::kNull}) {
    for (size_t n : {size_t{0}, size_t{1}, size_t{bpc - 1}, size_t{bpc}, size_t{bpc + 1},
                     size_t{3 * bpc}, size_t{3 * bpc + 7}}) {
      const std::string data = RandomBytes(n, static_cast<uint32_t>(n));
      std::string sums = "prefix";
      AppendChecksums(t, bpc, data, &sums);
      ASSERT_EQ(sums.size(), 6 + ChecksumBytes(bpc, n));
      Slice stored = Slice(sums).sub(6);
      EXPECT_TRUE(VerifyChecksums(t, bpc, data, stored).ok()) << n;
      if (t == ChecksumType::kNull) {
        EXPECT_EQ(stored.ToString(), std::string(stored.size(), '\0'));
      } else if (n > 0) {
        // The last chunk is the short tail, checksummed on its own.
        const size_t last = (n - 1) / bpc;
        const uint32_t want = t == ChecksumType::kCrc32
                                  ? Crc32(data.data() + last * bpc, n - last * bpc)
                                  : Crc32c(data.data() + last * bpc, n - last * bpc);
        EXPECT_EQ(DecodeFixed32BE(stored.data() + 4 * last), want);
      }
    }
  }
}

TEST(Checksum, VerifyFailureNamesTheChunk) {
  const uint32_t bpc = 512;
  std::string data = RandomBytes(3 * bpc + 100, 1);
  std::string sums;
  AppendChecksums(ChecksumType::kCrc32c, bpc, data, &sums);
  data[2 * bpc + 5] ^= 1;
  Status s = VerifyChecksums(ChecksumType::kCrc32c, bpc, data, sums);
  ASSERT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(s.message().find("chunk 2 (bytes [1024, 1536) of 1636)"), std::string::npos)
      << s.ToString();
  data[2 * bpc + 5] ^= 1;
  sums[13] ^= 0x40;  // checksum of chunk 3, the 100-byte tail
  s = VerifyChecksums(ChecksumType::kCrc32c, bpc, data, sums);
  ASSERT_TRUE(s.IsCorruption());
  EXPECT_NE(s.message().find("chunk 3 (bytes [1536, 1636)"), std::string::npos) << s.ToString();
  // NULL never checks anything.
  EXPECT_TRUE(VerifyChecksums(ChecksumType::kNull, bpc, data, "junk").ok());
}

TEST(Checksum, VerifyRejectsMalformedArguments) {
  const std::string data = RandomBytes(1000, 2);
  std::string sums;
  AppendChecksums(ChecksumType::kCrc32, 512, data, &sums);
  EXPECT_TRUE(VerifyChecksums(ChecksumType::kCrc32, 512, data, Slice(sums).sub(0, 4))
                  .IsCorruption());
  EXPECT_TRUE(VerifyChecksums(ChecksumType::kCrc32, 512, data, sums + "x").IsCorruption());
  EXPECT_TRUE(VerifyChecksums(ChecksumType::kCrc32, 0, data, sums).IsCorruption());
  EXPECT_TRUE(VerifyChecksums(static_cast<ChecksumType>(9), 512, data, sums).IsCorruption());
  std::string none;
  AppendChecksums(ChecksumType::kCrc32, 0, data, &none);  // must not loop forever
  EXPECT_TRUE(none.empty());
}

// Every block of these real files must verify: CRC32 (HBase 0.98), CRC32C (1.x, 2.x),
// NULL (Hudi's native writer), with GZ and SNAPPY bodies.
TEST(Checksum, RealFilesVerify) {
  HFILE_REQUIRE_REAL_DATA();
  const std::string dir = test::RealDataDir();
  const char* files[] = {
      "hudi-rs/hudi_1_0_hbase_2_4_9_16KB_GZ_20000.hfile",
      "hudi-rs/hudi_1_0_hbase_2_4_9_16KB_NONE_5000.hfile",
      "java-bigtable-hbase/from-zip/data/archive/data/default/test-snappy-table/"
      "94218dba9c63bf9641853138d8df502f/cf/caa9f5d794b941879397ca0b04c2155c",
      "java-bigtable-hbase/integration-test/data/archive/data/default/demo-1/"
      "a2e677e20068512effafcd5b8ac06c5d/cf/44f36bce77074ffeaa4e656a15fc7fbe",
      "hbase-0.98-rootdir/hbase/data/hbase/meta/1588230740/info/00b7c52b22db4b17bb9a8e8c95e16361",
  };
  int crc32_blocks = 0, crc32c_blocks = 0;
  for (const char* f : files) {
    const std::string file = test::ReadFileOrDie(dir + "/" + f);
    const auto blocks = test::WalkBlocks(file);
    ASSERT_FALSE(blocks.empty()) << f;
    for (const auto& b : blocks) {
      const auto type = static_cast<ChecksumType>(b.checksum_type);
      Status s = VerifyChecksums(type, b.bytes_per_checksum, b.header_and_body, b.checksums);
      EXPECT_TRUE(s.ok()) << f << " block at " << b.offset << ": " << s.ToString();
      crc32_blocks += type == ChecksumType::kCrc32;
      crc32c_blocks += type == ChecksumType::kCrc32c;
      // Re-generating the checksums must give the stored bytes exactly.
      std::string again;
      AppendChecksums(type, b.bytes_per_checksum, b.header_and_body, &again);
      EXPECT_EQ(again, b.checksums.ToString()) << f << " block at " << b.offset;
    }
  }
  EXPECT_GT(crc32_blocks, 0);
  EXPECT_GT(crc32c_blocks, 0);
}

TEST(Checksum, RealFileWithNullChecksumType) {
  HFILE_REQUIRE_REAL_DATA();
  const auto files = test::ListFilesRecursive(test::RealDataDir() + "/hudi-rs-native-writer");
  int null_blocks = 0;
  for (const auto& f : files) {
    if (f.find(".hfile") == std::string::npos) continue;
    for (const auto& b : test::WalkBlocks(test::ReadFileOrDie(f))) {
      if (b.checksum_type != 0) continue;
      ++null_blocks;
      EXPECT_TRUE(VerifyChecksums(ChecksumType::kNull, b.bytes_per_checksum, b.header_and_body,
                                  b.checksums)
                      .ok());
      EXPECT_EQ(b.checksums.size(), ChecksumBytes(b.bytes_per_checksum, b.header_and_body.size()))
          << "NULL-type block at " << b.offset << " of " << f;
    }
  }
  EXPECT_GT(null_blocks, 0);
}

}  // namespace
}  // namespace hfile
