#include "compression.h"

#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <string>
#include <vector>

#include "hfile/coding.h"

namespace hfile {
namespace {

struct CodecCase {
  Compression c;
  ZstdFraming framing;
  size_t max_input;  // Hadoop block framing MAX_INPUT; 0 when the codec is not block framed
  const char* name;
};

const CodecCase kCases[] = {
    {Compression::kNone, ZstdFraming::kHadoopBlock, 0, "NONE"},
    {Compression::kGz, ZstdFraming::kHadoopBlock, 0, "GZ"},
    {Compression::kBzip2, ZstdFraming::kHadoopBlock, 0, "BZIP2"},
    {Compression::kSnappy, ZstdFraming::kHadoopBlock, 218422, "SNAPPY"},
    {Compression::kLz4, ZstdFraming::kHadoopBlock, 261100, "LZ4"},
    {Compression::kLzo, ZstdFraming::kHadoopBlock, 54582, "LZO"},
    {Compression::kZstd, ZstdFraming::kHadoopBlock, 261120, "ZSTD_block"},
    {Compression::kZstd, ZstdFraming::kRawFrame, 0, "ZSTD_raw"},
    {Compression::kLzma, ZstdFraming::kHadoopBlock, 218422, "LZMA"},
    {Compression::kBrotli, ZstdFraming::kHadoopBlock, 218422, "BROTLI"},
};

std::string Incompressible(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::string s(n, '\0');
  for (auto& c : s) c = static_cast<char>(rng());
  return s;
}

// KeyValue-ish text: repetitive but not trivially so.
std::string Compressible(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  static const char* kWords[] = {"row-", "cf:", "qualifier", "value-", "hudi-key-", "\x00\x01",
                                 "0000", "timestamp", "\xff\xff\xff"};
  std::string s;
  while (s.size() < n) {
    s += kWords[rng() % 9];
    s += std::to_string(rng() % 1000);
  }
  s.resize(n);
  return s;
}

class CompressionTest : public ::testing::TestWithParam<CodecCase> {
 protected:
  std::string Compress(const std::string& in) {
    CompressOptions o;
    o.zstd_framing = GetParam().framing;
    std::string out = "pfx";  // Compress appends
    Status s = hfile::Compress(GetParam().c, in, o, &out);
    EXPECT_TRUE(s.ok()) << s.ToString();
    EXPECT_EQ(out.substr(0, 3), "pfx");
    return out.substr(3);
  }
  // Decompresses into a heap buffer of exactly raw_len bytes (so ASan sees any overrun).
  Status Decompress(const std::string& in, size_t raw_len, std::string* out = nullptr) {
    std::unique_ptr<char[]> buf(new char[raw_len == 0 ? 1 : raw_len]);
    Status s = hfile::Decompress(GetParam().c, in, raw_len == 0 ? nullptr : buf.get(), raw_len);
    if (out != nullptr) out->assign(buf.get(), raw_len);
    return s;
  }
  void RoundTrip(const std::string& in) {
    const std::string z = Compress(in);
    std::string back;
    Status s = Decompress(z, in.size(), &back);
    ASSERT_TRUE(s.ok()) << in.size() << ": " << s.ToString();
    ASSERT_TRUE(back == in) << in.size();
    CheckFraming(in.size(), z);
    // A wrong expected size must be reported, never overrun.
    Status big = Decompress(z, in.size() + 1);
    EXPECT_TRUE(big.IsCorruption()) << in.size() << "+1: " << big.ToString();
    if (!in.empty()) {
      Status small = Decompress(z, in.size() - 1);
      EXPECT_TRUE(small.IsCorruption()) << in.size() << "-1: " << small.ToString();
    }
  }
  // The writer must frame exactly as BlockCompressorStream does.
  void CheckFraming(size_t n, const std::string& z) {
    const size_t max = GetParam().max_input;
    if (max == 0) return;
    Slice in(z);
    uint32_t v;
    ASSERT_TRUE(GetFixed32BE(&in, &v));
    ASSERT_EQ(v, n);
    size_t pieces = 0;
    while (in.size() > 4 || (n <= max && !in.empty())) {
      ASSERT_TRUE(GetFixed32BE(&in, &v));
      ASSERT_LE(v, in.size());
      in.remove_prefix(v);
      ++pieces;
    }
    EXPECT_EQ(pieces, (n + max - 1) / max) << n;
    if (n > max) {
      ASSERT_TRUE(GetFixed32BE(&in, &v));  // the empty segment finish() appends
      EXPECT_EQ(v, 0u);
    }
    EXPECT_TRUE(in.empty());
  }
};

TEST_P(CompressionTest, Available) { EXPECT_TRUE(CompressionAvailable(GetParam().c)); }

TEST_P(CompressionTest, RoundTripSmall) {
  for (size_t n : {0, 1, 2, 3, 17, 100, 4096, 65536 + 3}) {
    RoundTrip(Incompressible(n, static_cast<uint32_t>(n)));
    RoundTrip(Compressible(n, static_cast<uint32_t>(n)));
  }
  RoundTrip(std::string(100000, 'a'));
}

TEST_P(CompressionTest, RoundTripAroundMaxInput) {
  const size_t max = GetParam().max_input != 0 ? GetParam().max_input : 218422;
  for (size_t n : {max - 1, max, max + 1, 2 * max, 2 * max + 1}) {
    RoundTrip(Compressible(n, static_cast<uint32_t>(n)));
  }
  RoundTrip(Incompressible(max + 1, 5));
}

TEST_P(CompressionTest, RoundTripLarge) {
  RoundTrip(Compressible(1536 * 1024 + 7, 11));
  RoundTrip(Incompressible(1100 * 1024, 12));
}

TEST_P(CompressionTest, EveryTruncationIsCorruption) {
  if (GetParam().c == Compression::kNone) return;
  const std::string in = Compressible(300, 3);
  const std::string z = Compress(in);
  for (size_t cut = 0; cut < z.size(); ++cut) {
    Status s = Decompress(z.substr(0, cut), in.size());
    EXPECT_TRUE(s.IsCorruption()) << "cut at " << cut << " of " << z.size() << ": "
                                  << s.ToString();
  }
}

TEST_P(CompressionTest, FlippedBytesNeverCrash) {
  const std::string in = Compressible(2000, 4);
  const std::string z = Compress(in);
  for (size_t i = 0; i < z.size(); ++i) {
    for (int bit : {0, 3, 7}) {
      std::string bad = z;
      bad[i] ^= static_cast<char>(1 << bit);
      Status s = Decompress(bad, in.size());
      // Codecs without an integrity check may decode a flipped literal "successfully".
      EXPECT_TRUE(s.ok() || s.IsCorruption()) << s.ToString();
    }
  }
}

TEST_P(CompressionTest, GarbageNeverCrashes) {
  for (uint32_t seed = 0; seed < 200; ++seed) {
    std::string junk = Incompressible(seed % 64, seed);
    if (seed % 3 == 0 && junk.size() >= 8) {  // plausible Hadoop framing, nonsense inside
      EncodeFixed32BE(&junk[0], 1000);
      EncodeFixed32BE(&junk[4], static_cast<uint32_t>(junk.size() - 8));
    }
    Status s = Decompress(junk, 1000);
    EXPECT_TRUE(s.ok() || s.IsCorruption()) << s.ToString();
  }
}

INSTANTIATE_TEST_SUITE_P(AllCodecs, CompressionTest, ::testing::ValuesIn(kCases),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace hfile
