// Golden bytes built by hand from the formats, and hand-built Hadoop block framing that HBase
// can produce (or must reject).
#include <gtest/gtest.h>

#include "testutil.h"

#include <string>

#include "compression.h"

namespace hfile {
namespace {

std::string Z(Compression c, const std::string& in,
              ZstdFraming f = ZstdFraming::kHadoopBlock) {
  CompressOptions o;
  o.zstd_framing = f;
  std::string out;
  EXPECT_TRUE(Compress(c, in, o, &out).ok());
  return out;
}

Status Unz(Compression c, const std::string& in, size_t raw_len, std::string* out) {
  out->assign(raw_len, '\0');
  return Decompress(c, in, out->data(), raw_len);
}

TEST(CompressionGolden, HadoopFramedSnappy) {
  // [rawLen 3][clen 5] raw Snappy: varint 3, literal tag (3-1)<<2, "abc".
  EXPECT_EQ(Z(Compression::kSnappy, "abc"), test::ParseSpacedHex("00000003 00000005 03 08 616263"));
  EXPECT_EQ(Z(Compression::kSnappy, ""), test::ParseSpacedHex("00000000"));
}

TEST(CompressionGolden, HadoopFramedLz4) {
  // Raw LZ4 block: one sequence, token 0x30 = 3 literals, no match.
  EXPECT_EQ(Z(Compression::kLz4, "abc"), test::ParseSpacedHex("00000003 00000004 30 616263"));
  EXPECT_EQ(Z(Compression::kLz4, ""), test::ParseSpacedHex("00000000"));
}

TEST(CompressionGolden, GzIsWhatJavaGzipOutputStreamWrites) {
  // JDK header, empty final fixed-Huffman block, CRC 0, ISIZE 0.
  EXPECT_EQ(Z(Compression::kGz, ""), test::ParseSpacedHex("1f8b0800000000000000 0300 00000000 00000000"));
  const std::string z = Z(Compression::kGz, "abc");
  EXPECT_EQ(z.substr(0, 10), test::ParseSpacedHex("1f8b0800000000000000"));
  EXPECT_EQ(z.substr(z.size() - 8), test::ParseSpacedHex("c2412435 03000000"));  // crc32("abc") LE, 3 LE
}

TEST(CompressionGolden, Bzip2IsAStandardStream) {
  EXPECT_EQ(Z(Compression::kBzip2, ""), test::ParseSpacedHex("425a6839 177245385090 00000000"));
  std::string out;
  // Hadoop's reader accepts a stream whose "BZ" was stripped.
  ASSERT_TRUE(Unz(Compression::kBzip2, Z(Compression::kBzip2, "abc").substr(2), 3, &out).ok());
  EXPECT_EQ(out, "abc");
  // Concatenated streams decode as one.
  ASSERT_TRUE(Unz(Compression::kBzip2, Z(Compression::kBzip2, "ab") + Z(Compression::kBzip2, "c"),
                  3, &out)
                  .ok());
  EXPECT_EQ(out, "abc");
}

TEST(CompressionGolden, LzmaChunkIsDotLzmaWithKnownSize) {
  const std::string z = Z(Compression::kLzma, "abc");
  // [3][clen] then props 0x5D (lc 3, lp 0, pb 2), dict 4 KiB, size 3 (LE64).
  EXPECT_EQ(z.substr(0, 4), test::ParseSpacedHex("00000003"));
  EXPECT_EQ(z.substr(8, 13), test::ParseSpacedHex("5d 00100000 0300000000000000"));
}

TEST(CompressionGolden, ZstdBothFramings) {
  const std::string block = Z(Compression::kZstd, "abc");
  EXPECT_EQ(block.substr(0, 4), test::ParseSpacedHex("00000003"));
  EXPECT_EQ(block.substr(8, 4), test::ParseSpacedHex("28b52ffd"));
  const std::string raw = Z(Compression::kZstd, "abc", ZstdFraming::kRawFrame);
  EXPECT_EQ(raw.substr(0, 4), test::ParseSpacedHex("28b52ffd"));
  std::string out;
  ASSERT_TRUE(Unz(Compression::kZstd, raw, 3, &out).ok());
  EXPECT_EQ(out, "abc");
  // Hadoop's stream may end one frame and start another: concatenated frames are one body.
  ASSERT_TRUE(Unz(Compression::kZstd, raw + Z(Compression::kZstd, "de", ZstdFraming::kRawFrame),
                  5, &out)
                  .ok());
  EXPECT_EQ(out, "abcde");
}

TEST(CompressionGolden, GzConcatenatedMembers) {
  std::string out;
  ASSERT_TRUE(Unz(Compression::kGz, Z(Compression::kGz, "ab") + Z(Compression::kGz, "c"), 3, &out)
                  .ok());
  EXPECT_EQ(out, "abc");
  EXPECT_TRUE(Unz(Compression::kGz, Z(Compression::kGz, "abc") + "x", 3, &out).IsCorruption());
}

// Snappy chunks for hand-built framing: "abc" and "def".
const std::string kAbc = test::ParseSpacedHex("03 08 616263");
const std::string kDef = test::ParseSpacedHex("03 08 646566");

TEST(HadoopBlockFraming, SeveralSegmentsAndSeveralChunks) {
  std::string out;
  // Two segments, each [len][clen][chunk] (several write() calls of a Java writer).
  const std::string two_segments =
      test::ParseSpacedHex("00000003 00000005") + kAbc + test::ParseSpacedHex("00000003 00000005") + kDef;
  ASSERT_TRUE(Unz(Compression::kSnappy, two_segments, 6, &out).ok());
  EXPECT_EQ(out, "abcdef");
  // The large-body shape: one total length, pieces, then finish()'s empty segment.
  const std::string pieces =
      test::ParseSpacedHex("00000006 00000005") + kAbc + test::ParseSpacedHex("00000005") + kDef + test::ParseSpacedHex("00000000");
  ASSERT_TRUE(Unz(Compression::kSnappy, pieces, 6, &out).ok());
  EXPECT_EQ(out, "abcdef");
}

TEST(HadoopBlockFraming, RejectsInconsistentFraming) {
  std::string out;
  const std::string ok = test::ParseSpacedHex("00000003 00000005") + kAbc;
  struct {
    std::string body;
    const char* needle;
  } cases[] = {
      {test::ParseSpacedHex("00000004 00000005") + kAbc, "segment 0 at offset 0 claims 4 raw bytes"},
      {test::ParseSpacedHex("00000003 00000006") + kAbc, "chunk 0 of segment 0 at offset 4 claims 6"},
      {test::ParseSpacedHex("00000003 00000000") + kAbc, "chunk 0 of segment 0 at offset 4 claims 0"},
      {test::ParseSpacedHex("00000000") + ok, "segment 0 at offset 0 claims 0 raw bytes"},
      {ok + test::ParseSpacedHex("00000001"), "4 trailing bytes at offset 13"},
      {ok + test::ParseSpacedHex("00"), "1 trailing bytes at offset 13"},
      {test::ParseSpacedHex("000000"), "inside the length of segment 0"},
      {test::ParseSpacedHex("00000003 000000"), "inside the length of chunk 0 of segment 0"},
      {test::ParseSpacedHex("00000002 00000005") + kAbc, "segment 0"},  // chunk too big for its segment
  };
  for (const auto& c : cases) {
    Status s = Unz(Compression::kSnappy, c.body, 3, &out);
    ASSERT_TRUE(s.IsCorruption()) << c.needle;
    EXPECT_NE(s.message().find(c.needle), std::string::npos) << s.ToString();
  }
  EXPECT_TRUE(Unz(Compression::kSnappy, ok + test::ParseSpacedHex("00000000 00000000"), 3, &out).ok());
  EXPECT_TRUE(Unz(Compression::kSnappy, test::ParseSpacedHex("00000000"), 0, &out).ok());
  EXPECT_TRUE(Unz(Compression::kSnappy, "", 0, &out).ok());
}

// C1: a compressor from HBase's codec pool that was built with a smaller buffer size than the
// stream's makes BlockCompressorStream.write() flush [len] and several chunks at once; finish()
// then writes getBytesRead() once more. HBase reads raw_len bytes and accepts that marker, for
// every codec that uses Hadoop block framing.
TEST(HadoopBlockFraming, PooledSmallBufferCompressorRepeatsTheLengthAtTheEnd) {
  const Compression codecs[] = {Compression::kSnappy, Compression::kLz4, Compression::kLzo,
                                Compression::kZstd, Compression::kLzma, Compression::kBrotli};
  const std::string first(700, 'a'), second = "0123456789abcdefghijklmnopqrstuvwxyz";
  const std::string raw = first + second;
  for (Compression c : codecs) {
    SCOPED_TRACE(CompressionName(c));
    // Each codec's own [len][clen][chunk] for the two pieces; keep only the [clen][chunk] part.
    const std::string a = Z(c, first).substr(4), b = Z(c, second).substr(4);
    const std::string len = test::ParseSpacedHex("000002e0");  // 736
    ASSERT_EQ(raw.size(), 736u);
    std::string out;
    ASSERT_TRUE(Unz(c, len + a + b + len, raw.size(), &out).ok());
    EXPECT_EQ(out, raw);
    // The marker and finish()'s empty headers, in any order finish() could leave them.
    EXPECT_TRUE(Unz(c, len + a + b + len + test::ParseSpacedHex("00000000"), raw.size(), &out).ok());
    // Not what finish() writes: another length, or the marker twice.
    Status s = Unz(c, len + a + b + test::ParseSpacedHex("000002e1"), raw.size(), &out);
    EXPECT_TRUE(s.IsCorruption()) << s.ToString();
    EXPECT_NE(s.message().find("4 trailing bytes"), std::string::npos) << s.ToString();
    EXPECT_TRUE(Unz(c, len + a + b + len + len, raw.size(), &out).IsCorruption());
  }
}

TEST(CompressionLevels, DefaultsAndRanges) {
  for (Compression c : {Compression::kGz, Compression::kBzip2, Compression::kLzma,
                        Compression::kZstd, Compression::kBrotli, Compression::kLz4}) {
    for (int level : {1, 3, 9}) {
      CompressOptions o;
      o.level = level;
      std::string z, out;
      ASSERT_TRUE(Compress(c, "hello hello hello", o, &z).ok()) << CompressionName(c) << level;
      ASSERT_TRUE(Unz(c, z, 17, &out).ok()) << CompressionName(c) << level;
      EXPECT_EQ(out, "hello hello hello");
    }
    CompressOptions bad;
    bad.level = 1000;
    std::string z;
    EXPECT_TRUE(Compress(c, "x", bad, &z).IsInvalidArgument()) << CompressionName(c);
  }
}

}  // namespace
}  // namespace hfile
