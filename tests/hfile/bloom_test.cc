#include "bloom.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "hfile/coding.h"
#include "hfile/reader.h"
#include "hfile/rewrite.h"
#include "hfile/verify.h"
#include "hfile/writer.h"
#include "reader_internal.h"
#include "hfile/cell.h"
#include "../testutil.h"

namespace hfile {
namespace {

// ---------------------------------------------------------------------------------------------
// Hashes

int32_t S(uint32_t v) { return static_cast<int32_t>(v); }

TEST(BloomHash, Murmur3StandardVectors) {
  // MurmurHash3_x86_32 reference vectors (SMHasher); HBase masks the tail bytes, so they hold.
  EXPECT_EQ(Murmur3Hash("", 0, 0), 0);
  EXPECT_EQ(Murmur3Hash("", 0, 1), S(0x514E28B7));
  EXPECT_EQ(Murmur3Hash("", 0, S(0xffffffff)), S(0x81F16F39));
  EXPECT_EQ(Murmur3Hash("\0\0\0\0", 4, 0), S(0x2362F9DE));
  EXPECT_EQ(Murmur3Hash("aaaa", 4, S(0x9747b28c)), S(0x5A97808A));
  EXPECT_EQ(Murmur3Hash("Hello, world!", 13, S(0x9747b28c)), S(0x24884CBA));
  const char* fox = "The quick brown fox jumps over the lazy dog";
  EXPECT_EQ(Murmur3Hash(fox, std::strlen(fox), S(0x9747b28c)), S(0x2FA826CD));
}

TEST(BloomHash, JenkinsLookup3Vectors) {
  // From the driver in Bob Jenkins' lookup3.c (hashlittle).
  EXPECT_EQ(JenkinsHash("", 0, 0), S(0xdeadbeef));
  EXPECT_EQ(JenkinsHash("", 0, S(0xdeadbeef)), S(0xbd5b7dde));
  const char* s = "Four score and seven years ago";
  EXPECT_EQ(JenkinsHash(s, 30, 0), S(0x17770551));
  EXPECT_EQ(JenkinsHash(s, 30, 1), S(0xcd628161));
}

// The C reference MurmurHash2 (unsigned tail bytes), to show where HBase differs.
uint32_t ReferenceMurmur2(const std::string& d, uint32_t seed) {
  const uint32_t m = 0x5bd1e995;
  uint32_t h = seed ^ static_cast<uint32_t>(d.size());
  const auto* p = reinterpret_cast<const unsigned char*>(d.data());
  size_t n = d.size();
  while (n >= 4) {
    uint32_t k = p[0] | (p[1] << 8) | (p[2] << 16) | (static_cast<uint32_t>(p[3]) << 24);
    k *= m;
    k ^= k >> 24;
    k *= m;
    h *= m;
    h ^= k;
    p += 4;
    n -= 4;
  }
  switch (n) {
    case 3: h ^= p[2] << 16; [[fallthrough]];
    case 2: h ^= p[1] << 8; [[fallthrough]];
    case 1: h ^= p[0]; h *= m;
  }
  h ^= h >> 13;
  h *= m;
  h ^= h >> 15;
  return h;
}

TEST(BloomHash, MurmurVectors) {
  // Values from an independent Python transcription of MurmurHash.java; the real-file tests
  // below check the same function against bits HBase wrote.
  struct {
    std::string data;
    uint32_t seed;
    uint32_t hbase;
    uint32_t reference_c;
  } cases[] = {
      {"", 0, 0x0, 0x0},
      {"a", 0, 0x92685f5e, 0x92685f5e},
      {"abc", 0, 0x13577c9b, 0x13577c9b},
      {"abcd", 0, 0x26873021, 0x26873021},
      {"hello world", 0, 0x44a81419, 0x44a81419},
      {"row-00", 0, 0xfd1170d2, 0xfd1170d2},
      // Tail bytes >= 0x80 are sign-extended by Java: the quirk.
      {"\x80", 0, 0xfdab6e14, 0x9b891bb0},
      {"ab\xff", 0, 0xb0dd19ad, 0x37436e93},
      {"abcd\xfe\x81", 12345, 0x3ad7a6b8, 0x8e1cf67b},
      {"\xff\xff\xff", 0xffffffff, 0xd1d2c648, 0x3c851e70},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(MurmurHash(c.data.data(), c.data.size(), S(c.seed)), S(c.hbase)) << c.data;
    EXPECT_EQ(ReferenceMurmur2(c.data, c.seed), c.reference_c) << c.data;
    EXPECT_EQ(Hash(HashType::kMurmur, c.data.data(), c.data.size(), S(c.seed)), S(c.hbase));
  }
  // A high byte inside a full 4-byte block is not affected (it is shifted into bit 24..31).
  std::string block = "\xff\xfe\x80\x81";
  EXPECT_EQ(S(ReferenceMurmur2(block, 7)), MurmurHash(block.data(), 4, 7));
}

TEST(BloomHash, Dispatch) {
  const char* k = "some key";
  EXPECT_EQ(Hash(HashType::kJenkins, k, 8, 3), JenkinsHash(k, 8, 3));
  EXPECT_EQ(Hash(HashType::kMurmur3, k, 8, 3), Murmur3Hash(k, 8, 3));
}

// ---------------------------------------------------------------------------------------------
// Keys, sizing, folding

TEST(BloomKeys, PerType) {
  std::string s;
  AppendBloomHashKey(BloomType::kRow, 0, "row1", "q", &s);
  EXPECT_EQ(s, "row1");
  s.clear();
  AppendBloomHashKey(BloomType::kRowPrefixFixedLength, 3, "row1", "q", &s);
  EXPECT_EQ(s, "row");
  s.clear();
  AppendBloomHashKey(BloomType::kRowPrefixFixedLength, 10, "row1", "q", &s);
  EXPECT_EQ(s, "row1");
  s.clear();
  AppendBloomHashKey(BloomType::kRowCol, 0, "row1", "qual", &s);
  EXPECT_EQ(s, std::string("\x00\x04row1\x00qual\x7f\xff\xff\xff\xff\xff\xff\xff\xff", 20));
  std::string idx;
  AppendBloomIndexKey(BloomType::kRowCol, 0, "row1", "family", "qual", &idx);
  EXPECT_EQ(idx, s);  // HBase drops the family here too
  idx.clear();
  AppendBloomIndexKey(BloomType::kRow, 0, "row1", "family", "qual", &idx);
  EXPECT_EQ(idx, "row1");
}

TEST(BloomSizing, Defaults) {
  EXPECT_EQ(BloomErrorRate(BloomType::kRow, 0.01), 0.01f);
  EXPECT_EQ(static_cast<double>(BloomErrorRate(BloomType::kRow, 0.01)), 0.009999999776482582);
  EXPECT_EQ(static_cast<double>(BloomErrorRate(BloomType::kRowCol, 0.01)), 0.0050125583074986935);

  BloomChunkParams row = ComputeBloomChunkParams(131072, BloomErrorRate(BloomType::kRow, 0.01), 7);
  EXPECT_EQ(row.byte_size, 131072);
  EXPECT_EQ(row.hash_count, 7);
  EXPECT_EQ(row.max_keys, 109306);
  BloomChunkParams rowcol =
      ComputeBloomChunkParams(131072, BloomErrorRate(BloomType::kRowCol, 0.01), 7);
  EXPECT_EQ(rowcol.byte_size, 131072);
  EXPECT_EQ(rowcol.hash_count, 8);
  EXPECT_EQ(rowcol.max_keys, 95069);
  // Byte sizes are rounded up to a multiple of 2^max_fold.
  EXPECT_EQ(ComputeBloomChunkParams(1000, 0.01f, 7).byte_size, 1024);
  EXPECT_EQ(ComputeBloomChunkParams(1000, 0.01f, 0).byte_size, 1000);
}

TEST(BloomFold, HalvesWhileSparse) {
  std::string bits(32, '\0');
  bits[0] = 0x01;
  bits[9] = 0x02;
  bits[17] = 0x04;
  bits[31] = static_cast<char>(0x80);
  int32_t max_keys = 100;
  FoldBloomChunk(&bits, 10, &max_keys);  // 100 > 20 -> 50 > 20 -> 25 > 20 -> 12: 3 halvings
  ASSERT_EQ(bits.size(), 4u);
  EXPECT_EQ(max_keys, 12);
  EXPECT_EQ(static_cast<uint8_t>(bits[0]), 0x01);
  EXPECT_EQ(static_cast<uint8_t>(bits[1]), 0x06);  // 9 % 4 == 1, 17 % 4 == 1
  EXPECT_EQ(static_cast<uint8_t>(bits[3]), 0x80);

  std::string odd(6, '\x01');
  int32_t mk = 1000;
  FoldBloomChunk(&odd, 1, &mk);  // 6 -> 3 (odd): one halving only
  EXPECT_EQ(odd.size(), 3u);
  EXPECT_EQ(mk, 500);

  std::string none(8, '\0');
  int32_t mk2 = 10;
  FoldBloomChunk(&none, 0, &mk2);  // no keys: untouched
  EXPECT_EQ(none.size(), 8u);
  EXPECT_EQ(mk2, 10);
}

// The bit positions are HBase's |(int) (h1 + i * h2) % bit_size| (checked by the 64-bit remainder
// itself) for every chunk size: 1, powers of two, odd, HBase's default 128 KiB chunk, the
// largest the fast remainder takes and one beyond; hashes at INT32_MIN / INT32_MAX included.
TEST(BloomBits, PositionsAreJavasRemainder) {
  std::mt19937_64 rng(20261207);
  const int64_t sizes[] = {1, 8, 64, 1000003, int64_t{128} << 13, 8 * 3331, (int64_t{1} << 31) - 8,
                           int64_t{UINT32_MAX}, int64_t{UINT32_MAX} + 1, int64_t{1} << 40};
  std::vector<std::pair<int32_t, int32_t>> hashes = {
      {INT32_MIN, 1}, {INT32_MAX, INT32_MAX}, {0, INT32_MIN}, {-1, -1}, {7, 0}};
  for (int i = 0; i < 2000; ++i) {
    hashes.emplace_back(static_cast<int32_t>(rng()), static_cast<int32_t>(rng()));
  }
  for (const int64_t bit_size : sizes) {
    for (const auto& [h1, h2] : hashes) {
      std::vector<int64_t> want, got;
      uint32_t composite = static_cast<uint32_t>(h1);
      for (int k = 0; k < 9; ++k, composite += static_cast<uint32_t>(h2)) {
        const int64_t x = static_cast<int32_t>(composite);
        want.push_back(std::llabs(x % bit_size));
      }
      ForEachBloomBit(bit_size, h1, h2, 9, [&](int64_t pos) {
        got.push_back(pos);
        return true;
      });
      ASSERT_EQ(got, want) << "bit_size " << bit_size << ", h1 " << h1 << ", h2 " << h2;
    }
  }
  // The callback's false stops the walk.
  int calls = 0;
  ForEachBloomBit(1000, 5, 7, 9, [&](int64_t) { return ++calls < 3; });
  EXPECT_EQ(calls, 3);
}

TEST(BloomChunk, EmptyChunkAnswersTrue) {
  EXPECT_TRUE(BloomChunkMightContain(Slice(), "x", 7, HashType::kMurmur));
  std::string zeros(16, '\0');
  EXPECT_FALSE(BloomChunkMightContain(zeros, "x", 7, HashType::kMurmur));
  EXPECT_TRUE(BloomChunkMightContain(zeros, "x", 0, HashType::kMurmur));
}

// ---------------------------------------------------------------------------------------------
// Writer -> reader round trips

struct Built {
  std::map<uint64_t, std::string> chunks;  // by offset
  BloomMeta meta;
};

// Drains the writer as an HFile writer would, with fake offsets.
void Drain(BloomWriter* w, uint64_t* next_offset, std::map<uint64_t, std::string>* out) {
  while (w->HasReadyChunk()) {
    std::string body = w->ReadyChunk().ToString();
    uint32_t size = static_cast<uint32_t>(33 + body.size() + 4);
    (*out)[*next_offset] = body;
    w->ChunkWritten(*next_offset, size);
    *next_offset += size + 1000;  // pretend data blocks sit in between
  }
}

Built Finish(BloomWriter* w, uint64_t* next_offset, std::map<uint64_t, std::string> chunks) {
  w->FinishChunks();
  Drain(w, next_offset, &chunks);
  std::string meta_body;
  w->EncodeMeta(&meta_body);
  Built b;
  b.chunks = std::move(chunks);
  Slice in(meta_body);
  EXPECT_TRUE(b.meta.DecodeFrom(&in).ok());
  EXPECT_TRUE(in.empty());
  std::string again;
  b.meta.EncodeTo(&again);
  EXPECT_EQ(again, meta_body);
  return b;
}

bool Lookup(const Built& b, const Slice& index_key, const Slice& hash_key) {
  int c = b.meta.FindChunk(index_key);
  if (c < 0) return false;
  const std::string& chunk = b.chunks.at(b.meta.chunks[c].offset);
  return BloomChunkMightContain(chunk, hash_key, b.meta.hash_count, b.meta.hash_type);
}

struct KeySpec {
  BloomType type;
  int prefix_length;
  const char* name;
};

// Present key i and absent key i (ordered like the present ones), per type.
void MakeKey(const KeySpec& spec, int i, bool present, std::string* hash_key,
             std::string* index_key) {
  char row[32], qual[8];
  hash_key->clear();
  index_key->clear();
  switch (spec.type) {
    case BloomType::kRowCol:
      std::snprintf(row, sizeof(row), "r%07d", i / 2);
      std::snprintf(qual, sizeof(qual), present ? "q%d" : "q%dx", i % 2);
      break;
    case BloomType::kRowPrefixFixedLength:
      // prefix_length 8: even 8-digit prefixes are present, odd ones absent.
      std::snprintf(row, sizeof(row), "%08d-tail", 2 * i + (present ? 0 : 1));
      qual[0] = 0;
      break;
    default:
      std::snprintf(row, sizeof(row), present ? "row-%08d" : "row-%08dx", i);
      qual[0] = 0;
  }
  AppendBloomHashKey(spec.type, spec.prefix_length, row, qual, hash_key);
  AppendBloomIndexKey(spec.type, spec.prefix_length, row, "cf", qual, index_key);
}

class BloomRoundTrip : public ::testing::TestWithParam<std::tuple<KeySpec, int>> {};

TEST_P(BloomRoundTrip, NoFalseNegativesAndExpectedFpRate) {
  const KeySpec spec = std::get<0>(GetParam());
  const int n = std::get<1>(GetParam());
  BloomWriter::Options opt;
  opt.type = spec.type;
  opt.prefix_length = spec.prefix_length;
  BloomWriter w(opt);
  const BloomChunkParams p = w.params();

  uint64_t offset = 0;
  std::map<uint64_t, std::string> chunks;
  std::string hk, ik;
  for (int i = 0; i < n; i++) {
    MakeKey(spec, i, true, &hk, &ik);
    w.Add(hk, ik);
    if (i % 97 == 0) Drain(&w, &offset, &chunks);  // "data block boundaries"
  }
  EXPECT_EQ(w.key_count(), static_cast<uint64_t>(n));
  Built b = Finish(&w, &offset, std::move(chunks));

  const int expect_chunks = (n + p.max_keys - 1) / p.max_keys;
  ASSERT_EQ(b.meta.chunks.size(), static_cast<size_t>(expect_chunks));
  EXPECT_EQ(b.meta.total_key_count, n);
  EXPECT_EQ(b.meta.hash_count, p.hash_count);
  EXPECT_EQ(b.meta.comparator_class_name,
            spec.type == BloomType::kRowCol ? "org.apache.hadoop.hbase.CellComparatorImpl" : "");
  int64_t bytes = 0;
  for (const auto& c : b.meta.chunks) bytes += static_cast<int64_t>(b.chunks.at(c.offset).size());
  EXPECT_EQ(b.meta.total_byte_size, bytes);
  // Full chunks are not folded; the last, partial one is folded to <= 2x its keys.
  int last_keys = n - (expect_chunks - 1) * p.max_keys;
  int64_t last_max = b.meta.total_max_keys - int64_t{expect_chunks - 1} * p.max_keys;
  EXPECT_LE(last_max, std::max<int64_t>(2 * last_keys, p.max_keys >> 16));
  EXPECT_GE(last_max, last_keys);

  for (int i = 0; i < n; i++) {
    MakeKey(spec, i, true, &hk, &ik);
    ASSERT_TRUE(Lookup(b, ik, hk)) << spec.name << " key " << i;
  }

  const int probes = std::min(n, 100000);
  int positives = 0;
  std::mt19937 rng(42);
  for (int j = 0; j < probes; j++) {
    MakeKey(spec, static_cast<int>(rng() % n), false, &hk, &ik);
    if (Lookup(b, ik, hk)) positives++;
  }
  const double rate = static_cast<double>(positives) / probes;
  const double target = BloomErrorRate(spec.type, 0.01);
  if (n >= 100000) {
    EXPECT_GT(rate, target * 0.6) << spec.name;
    EXPECT_LT(rate, target * 1.5) << spec.name;
  } else {
    EXPECT_LT(rate, target * 1.5) << spec.name;
  }
}

const KeySpec kSpecs[] = {{BloomType::kRow, 0, "ROW"},
                          {BloomType::kRowCol, 0, "ROWCOL"},
                          {BloomType::kRowPrefixFixedLength, 8, "ROWPREFIX"}};

INSTANTIATE_TEST_SUITE_P(Types, BloomRoundTrip,
                         ::testing::Combine(::testing::ValuesIn(kSpecs),
                                            ::testing::Values(1, 1000, 300000)),
                         [](const auto& info) {
                           return std::string(std::get<0>(info.param).name) + "_" +
                                  std::to_string(std::get<1>(info.param));
                         });

TEST(BloomWriter, FullChunkIsReadyImmediatelyAndUnfolded) {
  BloomWriter::Options opt;
  opt.chunk_byte_size = 128;  // 1024 bits -> small max_keys
  BloomWriter w(opt);
  const BloomChunkParams p = w.params();
  ASSERT_GT(p.max_keys, 4);
  std::string k;
  for (int i = 0; i < p.max_keys - 1; i++) {
    k = "k" + std::to_string(1000 + i);
    w.Add(k, k);
    EXPECT_FALSE(w.HasReadyChunk());
  }
  k = "k" + std::to_string(1000 + p.max_keys);
  w.Add(k, k);
  ASSERT_TRUE(w.HasReadyChunk());
  EXPECT_EQ(w.ReadyChunk().size(), 128u);
  w.ChunkWritten(500, 200);
  EXPECT_FALSE(w.HasReadyChunk());
  w.Add("z1", "z1");
  w.FinishChunks();
  ASSERT_TRUE(w.HasReadyChunk());
  // One key: max_keys 106 -> 53 -> 26 -> 13 -> 6 -> 3 -> 1 while > 2, so 128 -> 2 bytes.
  EXPECT_EQ(p.max_keys, 106);
  EXPECT_EQ(w.ReadyChunk().size(), 2u);
  w.ChunkWritten(900, 40);
  std::string meta_body;
  w.EncodeMeta(&meta_body);
  BloomMeta m;
  Slice in(meta_body);
  ASSERT_TRUE(m.DecodeFrom(&in).ok());
  ASSERT_EQ(m.chunks.size(), 2u);
  EXPECT_EQ(m.chunks[0].offset, 500u);
  EXPECT_EQ(m.chunks[0].on_disk_size, 200u);
  EXPECT_EQ(m.chunks[0].first_key, "k1000");
  EXPECT_EQ(m.chunks[1].first_key, "z1");
  EXPECT_EQ(m.total_byte_size, 130);
  EXPECT_EQ(m.total_max_keys, p.max_keys + 1);
  EXPECT_EQ(m.total_key_count, p.max_keys + 1);
  EXPECT_EQ(m.FindChunk("a"), -1);
  EXPECT_EQ(m.FindChunk("k1000"), 0);
  EXPECT_EQ(m.FindChunk("y"), 0);
  EXPECT_EQ(m.FindChunk("z1"), 1);
  EXPECT_EQ(m.FindChunk("zz"), 1);
}

TEST(BloomWriter, DeleteFamilyIsRowWithEmptyComparator) {
  BloomWriter::Options opt;
  opt.type = BloomType::kRowCol;  // the general type is irrelevant for the delete-family bloom
  opt.delete_family = true;
  BloomWriter w(opt);
  EXPECT_EQ(w.params().hash_count, 7);
  EXPECT_EQ(w.params().max_keys, 109306);
  w.Add("orange", "orange");
  w.FinishChunks();
  w.ChunkWritten(1, 2);
  std::string body;
  w.EncodeMeta(&body);
  BloomMeta m;
  Slice in(body);
  ASSERT_TRUE(m.DecodeFrom(&in).ok());
  EXPECT_EQ(m.comparator_class_name, "");
}

TEST(BloomWriter, OutOfContractOptionsStayDefined) {
  EXPECT_EQ(ComputeBloomChunkParams(1, 0.01f, 99).byte_size, 1 << 30);  // fold clamped to 30
  EXPECT_EQ(ComputeBloomChunkParams(1, 0.01f, -5).byte_size, 1);
  for (double err : {0.9, 1e-9}) {
    BloomWriter::Options opt;
    opt.chunk_byte_size = 0;
    opt.max_fold = 2;
    opt.error_rate = err;
    BloomWriter w(opt);
    EXPECT_EQ(w.params().byte_size, 4);
    EXPECT_GE(w.params().hash_count, 1);
    uint64_t off = 0;
    std::map<uint64_t, std::string> chunks;
    for (int i = 0; i < 50; i++) {
      std::string k = "k" + std::to_string(100 + i);
      w.Add(k, k);
      Drain(&w, &off, &chunks);
    }
    Built b = Finish(&w, &off, std::move(chunks));
    for (int i = 0; i < 50; i++) {
      std::string k = "k" + std::to_string(100 + i);
      EXPECT_TRUE(Lookup(b, k, k));
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Meta decoding of hostile input

std::string SampleMeta(const std::string& comparator = "") {
  BloomMeta m;
  m.total_byte_size = 48;
  m.hash_count = 7;
  m.hash_type = HashType::kMurmur;
  m.total_key_count = 30;
  m.total_max_keys = 40;
  m.comparator_class_name = comparator;
  if (comparator.empty()) {
    m.chunks = {{100, 53, "aaa"}, {300, 53, "mmm"}, {600, 37, "xyz"}};
  } else {
    std::string k1, k2;
    AppendBloomIndexKey(BloomType::kRowCol, 0, "r1", "f", "q", &k1);
    AppendBloomIndexKey(BloomType::kRowCol, 0, "r2", "f", "q", &k2);
    m.chunks = {{100, 53, k1}, {300, 53, k2}};
  }
  std::string s;
  m.EncodeTo(&s);
  return s;
}

TEST(BloomMeta, RoundTripAndFind) {
  std::string s = SampleMeta();
  s += "trailing";
  BloomMeta m;
  Slice in(s);
  ASSERT_TRUE(m.DecodeFrom(&in).ok());
  EXPECT_EQ(in.ToString(), "trailing");
  EXPECT_EQ(m.version, 3);
  EXPECT_EQ(m.total_byte_size, 48);
  EXPECT_EQ(m.hash_count, 7);
  EXPECT_EQ(m.hash_type, HashType::kMurmur);
  EXPECT_EQ(m.total_key_count, 30);
  EXPECT_EQ(m.total_max_keys, 40);
  ASSERT_EQ(m.chunks.size(), 3u);
  EXPECT_EQ(m.chunks[2].offset, 600u);
  EXPECT_EQ(m.chunks[2].on_disk_size, 37u);
  EXPECT_EQ(m.FindChunk(""), -1);
  EXPECT_EQ(m.FindChunk("aa"), -1);
  EXPECT_EQ(m.FindChunk("aaa"), 0);
  EXPECT_EQ(m.FindChunk("b"), 0);
  EXPECT_EQ(m.FindChunk("mmm"), 1);
  EXPECT_EQ(m.FindChunk("\xff"), 2);  // unsigned byte order

  std::string c = SampleMeta("org.apache.hadoop.hbase.CellComparatorImpl");
  BloomMeta mc;
  Slice cin(c);
  ASSERT_TRUE(mc.DecodeFrom(&cin).ok());
  std::string probe;
  AppendBloomIndexKey(BloomType::kRowCol, 0, "r1", "", "", &probe);
  EXPECT_EQ(mc.FindChunk(probe), -1);  // empty qualifier sorts first
  probe.clear();
  AppendBloomIndexKey(BloomType::kRowCol, 0, "r1", "", "zz", &probe);
  EXPECT_EQ(mc.FindChunk(probe), 0);
  probe.clear();
  AppendBloomIndexKey(BloomType::kRowCol, 0, "r3", "", "a", &probe);
  EXPECT_EQ(mc.FindChunk(probe), 1);
  EXPECT_EQ(mc.FindChunk("not a key"), -1);
}

TEST(BloomMeta, TruncatedAtEveryOffsetIsCorruption) {
  for (const std::string& s :
       {SampleMeta(), SampleMeta("org.apache.hadoop.hbase.CellComparatorImpl")}) {
    for (size_t n = 0; n < s.size(); n++) {
      std::string cut = s.substr(0, n);  // own buffer so ASan sees overreads
      Slice in(cut);
      BloomMeta m;
      Status st = m.DecodeFrom(&in);
      EXPECT_TRUE(st.IsCorruption()) << "cut at " << n << ": " << st.ToString();
    }
  }
}

TEST(BloomMeta, BadFieldsAreRejected) {
  const std::string good = SampleMeta();
  auto patched = [&](size_t pos, uint32_t v32) {
    std::string s = good;
    EncodeFixed32BE(&s[pos], v32);
    return s;
  };
  auto patched64 = [&](size_t pos, uint64_t v) {
    std::string s = good;
    EncodeFixed64BE(&s[pos], v);
    return s;
  };
  // Offsets: version 0, totalByteSize 4, hashCount 12, hashType 16, keyCount 20, maxKeys 28,
  // numChunks 36, comparator 40.
  const std::string bad[] = {
      patched(0, 2),           patched(0, 4),          patched64(4, ~0ull),
      patched(12, 0),          patched(12, 65),        patched(12, 0xffffffff),
      patched(16, 3),          patched(16, 0xffffffff), patched64(20, 1ull << 63),
      patched64(28, ~0ull),    patched(36, 0x7fffffff), patched(36, 0xffffffff),
      patched(36, 4),          patched64(41, 1ull << 63),  // chunk 0 offset < 0
      patched(49, 0),          patched(49, 0x80000000),    // chunk 0 size <= 0
  };
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
    Slice in(bad[i]);
    BloomMeta m;
    EXPECT_TRUE(m.DecodeFrom(&in).IsCorruption()) << "case " << i;
  }
  // A cell comparator requires cell keys.
  BloomMeta m;
  m.hash_count = 7;
  m.comparator_class_name = "org.apache.hadoop.hbase.CellComparatorImpl";
  m.chunks = {{0, 40, "raw"}};
  std::string s;
  m.EncodeTo(&s);
  Slice in(s);
  EXPECT_TRUE(m.DecodeFrom(&in).IsCorruption());
  // An unknown comparator is not supported.
  m.comparator_class_name = "com.example.Mine";
  m.chunks.clear();
  s.clear();
  m.EncodeTo(&s);
  in = Slice(s);
  EXPECT_TRUE(m.DecodeFrom(&in).IsNotSupported());
}

TEST(BloomMeta, RandomGarbageNeverCrashes) {
  std::mt19937 rng(7);
  const std::string good = SampleMeta("org.apache.hadoop.hbase.CellComparatorImpl");
  for (int iter = 0; iter < 20000; iter++) {
    std::string s = good;
    int flips = 1 + static_cast<int>(rng() % 4);
    for (int f = 0; f < flips; f++) s[rng() % s.size()] = static_cast<char>(rng());
    Slice in(s);
    BloomMeta m;
    if (m.DecodeFrom(&in).ok()) {
      std::string probe;
      AppendBloomIndexKey(BloomType::kRowCol, 0, "r1", "", "q", &probe);
      int c = m.FindChunk(probe);
      EXPECT_GE(c, -1);
      EXPECT_LT(c, static_cast<int>(m.chunks.size()));
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Real HBase-written files (v3, CRC32C, NONE): walk the blocks by hand.

struct RawBlock {
  uint64_t offset;
  std::string magic;
  uint32_t on_disk_size_with_header;
  std::string body;  // uncompressed body, without checksums
};

std::vector<RawBlock> WalkBlocks(const std::string& file) {
  std::vector<RawBlock> out;
  if (file.size() < 4096) return out;
  const size_t end = file.size() - 4096;  // v3 trailer
  size_t off = 0;
  while (off + 33 <= end) {
    const char* h = file.data() + off;
    uint32_t on_disk = DecodeFixed32BE(h + 8);
    uint32_t uncompressed = DecodeFixed32BE(h + 12);
    if (off + 33 + on_disk > end || uncompressed > on_disk) break;
    out.push_back(RawBlock{off, std::string(h, 8), 33 + on_disk,
                           std::string(h + 33, uncompressed)});
    off += 33 + on_disk;
  }
  return out;
}

struct RealBloom {
  BloomMeta meta;
  std::string meta_body;
  std::map<uint64_t, std::string> chunks;
};

RealBloom LoadRealBloom(const std::string& path, const std::string& meta_magic) {
  RealBloom rb;
  const std::string file = test::ReadFileOrDie(path);
  std::vector<RawBlock> blocks = WalkBlocks(file);
  for (const RawBlock& b : blocks) {
    if (b.magic == "BLMFBLK2") rb.chunks[b.offset] = b.body;
    if (b.magic == meta_magic) rb.meta_body = b.body;
  }
  EXPECT_FALSE(rb.meta_body.empty()) << path << " has no " << meta_magic;
  Slice in(rb.meta_body);
  Status st = rb.meta.DecodeFrom(&in);
  EXPECT_TRUE(st.ok()) << st.ToString();
  EXPECT_TRUE(in.empty());
  for (const auto& c : rb.meta.chunks) {
    EXPECT_TRUE(rb.chunks.count(c.offset)) << "no BLMFBLK2 at " << c.offset;
    for (const RawBlock& b : blocks) {
      if (b.offset == c.offset) {
        EXPECT_EQ(b.on_disk_size_with_header, c.on_disk_size);
      }
    }
  }
  return rb;
}

bool RealContains(const RealBloom& rb, const Slice& index_key, const Slice& hash_key) {
  int c = rb.meta.FindChunk(index_key);
  if (c < 0) return false;
  auto it = rb.chunks.find(rb.meta.chunks[c].offset);
  if (it == rb.chunks.end()) return true;
  return BloomChunkMightContain(it->second, hash_key, rb.meta.hash_count, rb.meta.hash_type);
}

struct RealKey {
  std::string row, qualifier;
};

// Rebuilds the bloom with HBase defaults from `keys` (in file order) and checks that every
// chunk body and the meta body are byte-identical, copying only the chunk offsets and sizes.
void ExpectRebuiltIdentically(const RealBloom& rb, BloomType type, bool delete_family,
                              const std::vector<RealKey>& keys) {
  BloomWriter::Options opt;
  opt.type = type;
  opt.delete_family = delete_family;
  BloomWriter w(opt);
  std::string hk, ik;
  size_t next = 0;
  auto drain = [&] {
    while (w.HasReadyChunk()) {
      ASSERT_LT(next, rb.meta.chunks.size());
      const auto& orig = rb.meta.chunks[next++];
      EXPECT_EQ(w.ReadyChunk().ToString(), rb.chunks.at(orig.offset))
          << "chunk " << next - 1 << " differs";
      w.ChunkWritten(orig.offset, orig.on_disk_size);
    }
  };
  for (const RealKey& k : keys) {
    hk.clear();
    ik.clear();
    AppendBloomHashKey(type, 0, k.row, k.qualifier, &hk);
    AppendBloomIndexKey(type, 0, k.row, "", k.qualifier, &ik);
    w.Add(hk, ik);
    drain();
  }
  w.FinishChunks();
  drain();
  EXPECT_EQ(next, rb.meta.chunks.size());
  std::string meta_body;
  w.EncodeMeta(&meta_body);
  EXPECT_EQ(meta_body, rb.meta_body) << "meta differs";
}

std::vector<RealKey> Rows(const char* fmt, int n) {
  std::vector<RealKey> out;
  char buf[32];
  for (int i = 0; i < n; i++) {
    std::snprintf(buf, sizeof(buf), fmt, i);
    out.push_back({buf, ""});
  }
  return out;
}

void CheckRealRowBloom(const std::string& rel, const std::vector<RealKey>& rows,
                       int expect_hash_count = 7) {
  const std::string path = test::RealDataDir() + "/" + rel;
  RealBloom rb = LoadRealBloom(path, "BLMFMET2");
  EXPECT_EQ(rb.meta.hash_count, expect_hash_count);
  EXPECT_EQ(rb.meta.hash_type, HashType::kMurmur);
  EXPECT_EQ(rb.meta.comparator_class_name, "");
  EXPECT_EQ(rb.meta.total_key_count, static_cast<int64_t>(rows.size()));
  for (const RealKey& k : rows) EXPECT_TRUE(RealContains(rb, k.row, k.row)) << k.row;
  // Absent rows: mostly rejected (tiny files, so the odd false positive is allowed).
  int positives = 0;
  for (int i = 0; i < 200; i++) {
    std::string absent = rows[i % rows.size()].row + "#" + std::to_string(i);
    positives += RealContains(rb, absent, absent);
  }
  EXPECT_LT(positives, 10);
  ExpectRebuiltIdentically(rb, BloomType::kRow, false, rows);
}

TEST(BloomRealFiles, RiverbedSimple) {
  HFILE_REQUIRE_REAL_DATA();
  CheckRealRowBloom("riverbed/testdata/simple.hfile", Rows("row-%02d", 10));
}

TEST(BloomRealFiles, RiverbedSeek) {
  HFILE_REQUIRE_REAL_DATA();
  CheckRealRowBloom("riverbed/hfile/testdata/seek.hfile", Rows("row-%03d", 100));
}

TEST(BloomRealFiles, JavaBigtableFromZip) {
  HFILE_REQUIRE_REAL_DATA();
  CheckRealRowBloom(
      "java-bigtable-hbase/from-zip/data/archive/data/default/test-table/"
      "1fbddd7d5db627713df9c912955fc697/cf/7066ffc160794f7d9f8099b5d7e333c5",
      Rows("%02d", 10));
}

TEST(BloomRealFiles, RiverbedSnapshotWithDeleteFamilyBloom) {
  HFILE_REQUIRE_REAL_DATA();
  const std::string rel =
      "riverbed/snapshot/testdata/test_snapshot_v1/data/test_snapshot/"
      "3efacbde293c7a0a735dd9a803dc058e/cf/daff862e92b7485d9b34c23b65e4304a";
  // Rows of the file in order; `orange` carries the DeleteFamily cell.
  CheckRealRowBloom(rel, {{"fig", ""}, {"grape", ""}, {"kiwi", ""}, {"lemon", ""},
                          {"mango", ""}, {"orange", ""}});

  RealBloom df = LoadRealBloom(test::RealDataDir() + "/" + rel, "DFBLMET2");
  EXPECT_EQ(df.meta.total_key_count, 1);
  EXPECT_EQ(df.meta.comparator_class_name, "");
  EXPECT_TRUE(RealContains(df, "orange", "orange"));
  EXPECT_FALSE(RealContains(df, "fig", "fig"));  // before the first chunk key
  ExpectRebuiltIdentically(df, BloomType::kRow, true, {{"orange", ""}});
}

TEST(BloomRealFiles, HBase4MetaRowCol) {
  HFILE_REQUIRE_REAL_DATA();
  const std::string path = test::RealDataDir() +
                           "/hbase-4.0-snapshot-rootdir/data/hbase/meta/1588230740/info/"
                           "92b8aa6c192847a78fea61932571d55d";
  RealBloom rb = LoadRealBloom(path, "BLMFMET2");
  EXPECT_EQ(rb.meta.hash_count, 8);
  EXPECT_EQ(rb.meta.comparator_class_name, "org.apache.hadoop.hbase.CellComparatorImpl");
  ASSERT_EQ(rb.meta.chunks.size(), 1u);
  const std::string row = "my_table,,1733179231941.6c930cffe9f380e753905208e8dca1fa.";
  std::string first;
  AppendBloomIndexKey(BloomType::kRowCol, 0, row, "info", "regioninfo", &first);
  EXPECT_EQ(rb.meta.chunks[0].first_key, first);  // family dropped, as HBase does

  std::vector<RealKey> keys;
  for (const char* q : {"regioninfo", "seqnumDuringOpen", "server", "serverstartcode", "sn",
                        "state"}) {
    keys.push_back({row, q});
  }
  std::string hk, ik;
  for (const RealKey& k : keys) {
    hk.clear();
    AppendBloomHashKey(BloomType::kRowCol, 0, k.row, k.qualifier, &hk);
    EXPECT_TRUE(RealContains(rb, hk, hk)) << k.qualifier;
  }
  int positives = 0;
  for (int i = 0; i < 200; i++) {
    hk.clear();
    AppendBloomHashKey(BloomType::kRowCol, 0, row, "absent" + std::to_string(i), &hk);
    positives += RealContains(rb, hk, hk);
  }
  EXPECT_LT(positives, 20);
  ExpectRebuiltIdentically(rb, BloomType::kRowCol, false, keys);
}

// --- C2: hbase:meta files with general blooms ---------------------------------------------
//
// HBase's StoreFileReader looks a key up in the bloom's own order (raw bytes for ROW, the
// default cell order for ROWCOL) whatever the file's order, so in a file in hbase:meta order
// (MetaCellComparator: the table part of a row sorts before its comma) some keys the file holds
// are denied. Rows "a,,1" < "a,b,1" < "a!,,1" < "a!,b,1" < "b,,1" < "b,c,1" in meta order; as raw
// bytes "a!" < "a,". With 4-byte chunks and no folding a ROW chunk takes 3 keys (first keys
// "a,,1", "a!,b,1") and a ROWCOL chunk 2 (its rate is 1 - sqrt(1 - err); first keys on rows
// "a,,1", "a!,,1", "b,,1"). HBase's binary search (Bytes.binarySearch, insertion point - 1):
//   ROW:    "a,,1" equals chunk 0's key: found. "a,b,1" > "a,,1", > "a!,b,1": chunk 1, whose
//           bits it is not in. "a!,,1" and "a!,b,1" < "a,,1": before the first chunk. Denied: 1-3.
//   ROWCOL: "a,,1" and "a,b,1" > "a!,,1" (probe 1), < "b,,1": chunk 1, not theirs, and the
//           first-on-row keys land there too. "a!,,1" equals chunk 1's key. Denied: 0, 1.
namespace meta_order {

const std::vector<std::string> kRows = {"a,,1", "a,b,1", "a!,,1", "a!,b,1", "b,,1", "b,c,1"};

std::vector<bool> Denied(BloomType type) {
  if (type == BloomType::kRow) return {false, true, true, true, false, false};
  return {true, true, false, false, false, false};
}

std::string WriteMetaOrdered(BloomType type, const std::string& name,
                             const std::vector<std::string>& rows = kRows) {
  const std::string path = test::NewTempDir("bloom_meta_order") + "/" + name;
  WriterOptions o;
  o.comparator = ComparatorKind::kMeta;
  o.bloom_type = type;
  o.bloom_chunk_size = 4;
  o.bloom_max_fold = 0;
  o.block_size = 64;  // several data blocks, so chunks are written at block boundaries
  auto w = Writer::Create(path, o);
  EXPECT_TRUE(w.ok()) << w.status().ToString();
  if (!w.ok()) return "";
  for (const auto& row : rows) {
    std::string key;
    AppendKey(&key, row, "info", "q", 1, static_cast<uint8_t>(KeyType::kPut));
    Cell c;
    c.key = key;
    c.value = "v";
    EXPECT_TRUE((*w)->Append(c).ok()) << row;
  }
  Status s = (*w)->Finish();
  EXPECT_TRUE(s.ok()) << s.ToString();
  return path;
}

}  // namespace meta_order

TEST(BloomMetaOrder, ChunkLookupIsHBasesBinarySearch) {
  // Unsorted chunk keys: the probe sequence decides (Bytes.binarySearch, then insertion - 1).
  BloomMeta m;
  for (const auto& k : meta_order::kRows) m.chunks.push_back({0, 1, k});
  EXPECT_EQ(m.FindChunk("a!,,1"), 2);  // found at the first probe
  EXPECT_EQ(m.FindChunk("a!,b,1"), 3);
  EXPECT_EQ(m.FindChunk("a,,1"), 3);   // not its own chunk 0
  EXPECT_EQ(m.FindChunk("a,b,1"), 3);  // not its own chunk 1
  EXPECT_EQ(m.FindChunk("b,c,1"), 5);
  EXPECT_EQ(m.FindChunk("a!"), -1);    // before chunk 0 in the search's view
  // Sorted keys: the last chunk whose first key <= the key, as before.
  BloomMeta sorted;
  for (const char* k : {"b", "d", "f"}) sorted.chunks.push_back({0, 1, k});
  EXPECT_EQ(sorted.FindChunk("a"), -1);
  EXPECT_EQ(sorted.FindChunk("b"), 0);
  EXPECT_EQ(sorted.FindChunk("c"), 0);
  EXPECT_EQ(sorted.FindChunk("e"), 1);
  EXPECT_EQ(sorted.FindChunk("z"), 2);
}

class BloomMetaOrderFile : public ::testing::TestWithParam<BloomType> {};

TEST_P(BloomMetaOrderFile, ReaderAnswersAsHBaseMissesIncluded) {
  const std::string path = meta_order::WriteMetaOrdered(GetParam(), "meta.hfile");
  ASSERT_FALSE(path.empty());
  auto r = Reader::Open(path);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ((*r)->comparator(), ComparatorKind::kMeta);
  ASSERT_EQ((*r)->bloom_type(), GetParam());
  // The chunking the derivation above assumes (what HBase's writer makes of these settings).
  const BloomMeta& meta = *(*r)->rep().general_bloom;
  std::vector<std::string> first_rows;
  for (const auto& c : meta.chunks) {
    first_rows.push_back(GetParam() == BloomType::kRow ? c.first_key : KeyRow(c.first_key).ToString());
  }
  const std::vector<std::string> expected_first_rows =
      GetParam() == BloomType::kRow ? std::vector<std::string>{"a,,1", "a!,b,1"}
                                    : std::vector<std::string>{"a,,1", "a!,,1", "b,,1"};
  EXPECT_EQ(first_rows, expected_first_rows);
  const std::vector<bool> denied = meta_order::Denied(GetParam());
  for (size_t i = 0; i < meta_order::kRows.size(); ++i) {
    auto b = (*r)->BloomMightContainColumn(meta_order::kRows[i], "info", "q");
    ASSERT_TRUE(b.ok()) << b.status().ToString();
    EXPECT_EQ(*b, !denied[i]) << meta_order::kRows[i];
  }
}

TEST_P(BloomMetaOrderFile, VerifyWarnsNamingHBasesBehaviour) {
  const std::string path = meta_order::WriteMetaOrdered(GetParam(), "meta.hfile");
  ASSERT_FALSE(path.empty());
  VerifyReport rep = VerifyFile(path, VerifyOptions());
  std::ostringstream out;
  PrintVerifyReport(rep, false, out);
  EXPECT_TRUE(rep.clean()) << out.str();
  EXPECT_EQ(rep.problem_count, 0u) << out.str();
  const auto denied = meta_order::Denied(GetParam());
  EXPECT_EQ(rep.hbase_bloom_denials,
            static_cast<uint64_t>(std::count(denied.begin(), denied.end(), true)))
      << out.str();
  EXPECT_EQ(rep.warning_count, rep.hbase_bloom_denials) << out.str();
  for (const auto& p : rep.problems) {
    EXPECT_EQ(p.severity, Severity::kWarning);
    EXPECT_NE(p.what.find("HBase's StoreFileReader denies this key too"), std::string::npos)
        << p.what;
  }
}

TEST_P(BloomMetaOrderFile, RewriteWritesWhatHBaseWrites) {
  // Rows of the tables "a" then "a!": LAST_BLOOM_KEY is a row of "a!", which every row of "a"
  // sorts after as raw bytes, so even the rewrite's one default-sized chunk denies keys.
  const std::string in = meta_order::WriteMetaOrdered(GetParam(), "in.hfile",
                                                      {"a,,1", "a,b,1", "a!,,1", "a!,b,1"});
  ASSERT_FALSE(in.empty());
  const std::string out = in.substr(0, in.size() - strlen("in.hfile")) + "out.hfile";
  RewriteResult res;
  Status s = RewriteFile(in, out, RewriteOptions(), &res);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(res.cells, 4u);
  VerifyReport rep = VerifyFile(out, VerifyOptions());
  EXPECT_TRUE(rep.clean());
  EXPECT_GT(rep.hbase_bloom_denials, 0u);
  EXPECT_EQ(rep.warning_count, rep.hbase_bloom_denials);
  auto b = Reader::Open(out);
  ASSERT_TRUE(b.ok());
  EXPECT_EQ((*b)->bloom_type(), GetParam());
  EXPECT_EQ((*b)->comparator(), ComparatorKind::kMeta);
}

TEST_P(BloomMetaOrderFile, EveryDenialIsCountedTheFirstFewListed) {
  // 20 rows of table "a", then one of "a!" (LAST_BLOOM_KEY): all 20 sort after it as raw bytes.
  std::vector<std::string> rows;
  for (int i = 0; i < 20; ++i) rows.push_back("a,r" + std::to_string(100 + i) + ",1");
  rows.push_back("a!,,1");
  const std::string in = meta_order::WriteMetaOrdered(GetParam(), "many.hfile", rows);
  ASSERT_FALSE(in.empty());
  VerifyReport rep = VerifyFile(in, VerifyOptions());
  EXPECT_TRUE(rep.clean());
  EXPECT_GE(rep.hbase_bloom_denials, 20u);
  EXPECT_EQ(rep.warning_count, rep.hbase_bloom_denials);
  EXPECT_EQ(rep.problems.size(), 5u);
  // And a rewrite, whose self-check must tell them from other warnings, succeeds.
  RewriteResult res;
  Status s = RewriteFile(in, in + ".out", RewriteOptions(), &res);
  EXPECT_TRUE(s.ok()) << s.ToString();
}

INSTANTIATE_TEST_SUITE_P(RowAndRowCol, BloomMetaOrderFile,
                         ::testing::Values(BloomType::kRow, BloomType::kRowCol),
                         [](const auto& info) { return std::string(BloomTypeName(info.param)); });

TEST(BloomMetaOrder, DefaultOrderFilesStillReportMissesAsErrors) {
  // The same lookup in a user-table file: a key the bloom cannot find is damage.
  const std::string path = test::NewTempDir("bloom_default_order") + "/f.hfile";
  WriterOptions o;
  o.bloom_chunk_size = 4;
  o.bloom_max_fold = 0;
  o.block_size = 64;
  {
    auto w = Writer::Create(path, o);
    ASSERT_TRUE(w.ok());
    for (const char* row : {"a", "b", "c", "d"}) {
      std::string key;
      AppendKey(&key, row, "f", "q", 1, static_cast<uint8_t>(KeyType::kPut));
      Cell c;
      c.key = key;
      c.value = "v";
      ASSERT_TRUE((*w)->Append(c).ok());
    }
    ASSERT_TRUE((*w)->Finish().ok());
  }
  VerifyReport clean = VerifyFile(path, VerifyOptions());
  EXPECT_TRUE(clean.clean());
  EXPECT_EQ(clean.warning_count, 0u);
  // Swap the first keys of chunks 0 and 1 in the bloom meta (checksums recomputed): "a" now
  // sorts before the first chunk key "b"... as HBase would search.
  auto r = Reader::Open(path);
  ASSERT_TRUE(r.ok());
  const auto* meta = &*(*r)->rep().general_bloom;
  ASSERT_GE(meta->chunks.size(), 2u);
  BloomMeta m = *meta;
  std::swap(m.chunks[0].first_key, m.chunks[1].first_key);
  std::string body;
  m.EncodeTo(&body);
  std::string file = test::ReadFileOrDie(path);
  std::string old_body;
  meta->EncodeTo(&old_body);
  const size_t at = file.find(old_body);
  ASSERT_NE(at, std::string::npos);
  ASSERT_EQ(body.size(), old_body.size());
  file.replace(at, body.size(), body);
  const std::string bad = path + ".swapped";
  test::WriteFileOrDie(bad, file);
  VerifyOptions vo;
  vo.reader.verify_checksums = false;  // the bloom meta's checksum no longer matches
  VerifyReport rep = VerifyFile(bad, vo);
  EXPECT_FALSE(rep.clean());
  EXPECT_EQ(rep.hbase_bloom_denials, 0u);
  bool found = false;
  for (const auto& p : rep.problems) {
    found |= p.severity == Severity::kError &&
             (p.what.find("bloom key sorts before the first chunk") != std::string::npos ||
              p.what.find("misses a key present") != std::string::npos);
  }
  EXPECT_TRUE(found);
}

}  // namespace
}  // namespace hfile
