#include "hfile/coding.h"

#include <gtest/gtest.h>

#include "testutil.h"

#include <string>
#include <vector>

namespace hfile {
namespace {

TEST(Coding, VLongVectorsFromHadoop) {
  struct {
    int64_t v;
    const char* hex;
  } cases[] = {{0, "00"},         {127, "7F"},         {128, "8F 80"},     {255, "8F FF"},
               {256, "8E 01 00"}, {-1, "FF"},          {-112, "90"},       {-113, "87 70"},
               {1000000, "8D 0F 42 40"}, {INT64_MAX, "88 7F FF FF FF FF FF FF FF"}};
  for (const auto& c : cases) {
    std::string s;
    PutVLong(&s, c.v);
    EXPECT_EQ(test::SpacedHex(s), c.hex) << c.v;
    EXPECT_EQ(VLongSize(c.v), static_cast<int>(s.size()));
    Slice in(s);
    int64_t back;
    ASSERT_TRUE(GetVLong(&in, &back));
    EXPECT_EQ(back, c.v);
    EXPECT_TRUE(in.empty());
  }
}

TEST(Coding, VLongRoundTripAndTruncation) {
  for (int64_t v : {INT64_MIN, INT64_MIN + 1, int64_t{-1} << 40, int64_t{-129}, int64_t{1} << 33}) {
    std::string s;
    PutVLong(&s, v);
    for (size_t cut = 0; cut < s.size(); ++cut) {
      Slice in(s.data(), cut);
      int64_t x;
      EXPECT_FALSE(GetVLong(&in, &x)) << v << " cut " << cut;
    }
    Slice in(s);
    int64_t back;
    ASSERT_TRUE(GetVLong(&in, &back));
    EXPECT_EQ(back, v);
  }
}

// DecodeVLong reads multi-byte values with one 8-byte load when 9 bytes are readable and byte
// by byte otherwise; both paths must agree, wherever the value sits in its buffer.
TEST(Coding, VLongFastAndSlowPathsAgree) {
  std::vector<int64_t> values = {0, 127, 128, -112, -113, INT64_MAX, INT64_MIN, -1};
  for (int shift = 0; shift < 64; ++shift) {
    values.push_back(int64_t{1} << shift);
    values.push_back(-(int64_t{1} << shift) - 1);
    values.push_back(static_cast<int64_t>(0x9E3779B97F4A7C15ull >> shift));
  }
  for (int64_t v : values) {
    char enc[kMaxVLongSize];
    const int n = EncodeVLong(enc, v);
    ASSERT_EQ(n, VLongSize(v)) << v;
    for (size_t pad = 0; pad <= 9; ++pad) {  // bytes after the value in the buffer
      std::string buf(enc, static_cast<size_t>(n));
      buf.append(pad, '\xAB');
      int64_t fast = 0, slow = 0;
      const char* p = DecodeVLong(buf.data(), buf.data() + buf.size(), &fast);
      const char* q = DecodeVLongSlow(buf.data(), buf.data() + buf.size(), &slow);
      ASSERT_EQ(p, buf.data() + n) << v << " pad " << pad;
      ASSERT_EQ(q, p);
      EXPECT_EQ(fast, v);
      EXPECT_EQ(slow, v);
    }
  }
}

TEST(Coding, CompressedIntVectors) {
  struct {
    uint32_t v;
    const char* hex;
  } cases[] = {{0, "00"}, {127, "7F"}, {128, "80 01"}, {300, "AC 02"}, {65536, "80 80 04"}};
  for (const auto& c : cases) {
    std::string s;
    PutCompressedInt(&s, c.v);
    EXPECT_EQ(test::SpacedHex(s), c.hex);
    Slice in(s);
    uint32_t back;
    ASSERT_TRUE(GetCompressedInt(&in, &back));
    EXPECT_EQ(back, c.v);
  }
  std::string unterminated("\x80\x80", 2);
  Slice in(unterminated);
  uint32_t x;
  EXPECT_FALSE(GetCompressedInt(&in, &x));
}

TEST(Coding, FixedBigEndian) {
  std::string s;
  PutFixed16BE(&s, 0x0102);
  PutFixed32BE(&s, 0x03040506);
  PutFixed64BE(&s, 0x0708090A0B0C0D0EULL);
  EXPECT_EQ(test::SpacedHex(s), "01 02 03 04 05 06 07 08 09 0A 0B 0C 0D 0E");
  Slice in(s);
  uint16_t a;
  uint32_t b;
  uint64_t c;
  ASSERT_TRUE(GetFixed16BE(&in, &a) && GetFixed32BE(&in, &b) && GetFixed64BE(&in, &c));
  EXPECT_EQ(a, 0x0102);
  EXPECT_EQ(b, 0x03040506u);
  EXPECT_EQ(c, 0x0708090A0B0C0D0EULL);
  EXPECT_FALSE(GetFixed16BE(&in, &a));
}

TEST(Coding, ByteArrayRejectsOverlongLength) {
  std::string s;
  PutByteArray(&s, Slice("abc"));
  Slice in(s);
  Slice out;
  ASSERT_TRUE(GetByteArray(&in, &out));
  EXPECT_EQ(out.ToString(), "abc");
  std::string bad;
  PutVLong(&bad, 1000);
  bad += "xy";
  Slice in2(bad);
  EXPECT_FALSE(GetByteArray(&in2, &out));
  std::string neg;
  PutVLong(&neg, -5);
  Slice in3(neg);
  EXPECT_FALSE(GetByteArray(&in3, &out));
}

TEST(Coding, ProtobufVarint) {
  std::string s;
  PutVarint64(&s, UINT64_MAX);
  EXPECT_EQ(s.size(), 10u);
  EXPECT_EQ(Varint64Size(UINT64_MAX), 10);
  Slice in(s);
  uint64_t v;
  ASSERT_TRUE(GetVarint64(&in, &v));
  EXPECT_EQ(v, UINT64_MAX);
  Slice in2(s);
  uint32_t v32;
  EXPECT_FALSE(GetVarint32(&in2, &v32));
}

}  // namespace
}  // namespace hfile
