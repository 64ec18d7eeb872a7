// Round trips, hand-computed golden bytes, and hostile input for the data block codecs.
#include "data_block_codec.h"

#include <gtest/gtest.h>

#include "testutil.h"

#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "hfile/coding.h"
#include "tag_compression.h"

namespace hfile {
namespace {

struct OwnedCell {
  std::string key, value, tags;
  uint64_t seq = 0;
  Cell view() const { return Cell{Slice(key), Slice(value), Slice(tags), seq}; }
};

OwnedCell MakeCell(const std::string& row, const std::string& fam, const std::string& qual,
                   int64_t ts, uint8_t type, const std::string& value, std::string tags = "",
                   uint64_t seq = 0) {
  OwnedCell c;
  AppendKey(&c.key, row, fam, qual, ts, type);
  c.value = value;
  c.tags = std::move(tags);
  c.seq = seq;
  return c;
}

// A decoded cell's bytes, kept after the decoder moves on.
OwnedCell Own(const Cell& c) {
  return OwnedCell{c.key.ToString(), c.value.ToString(), c.tags.ToString(), c.sequence_id};
}

std::string Tag(uint8_t type, const std::string& value) {
  std::string t;
  PutFixed16BE(&t, static_cast<uint16_t>(1 + value.size()));
  t.push_back(static_cast<char>(type));
  return t + value;
}

std::string Encode(DataBlockEncoding e, const CellFormat& f, const std::vector<OwnedCell>& cells) {
  auto enc = NewDataBlockEncoder(e, f);
  enc->Reset();
  for (const auto& c : cells) enc->Add(c.view());
  std::string body;
  enc->Finish(&body);
  return body;
}

// Decodes everything; returns the status.
Status DecodeAll(DataBlockDecoder* dec, const Slice& body, std::vector<OwnedCell>* out) {
  out->clear();
  Status s = dec->Reset(body);
  if (!s.ok()) return s;
  Cell c;
  while (dec->Next(&c)) {
    out->push_back(Own(c));
  }
  return dec->status();
}

// DecodeAll as a file's iterator reads a block: the first cell by Next, the rest by ReadAll
// where the decoder has it (a batch of views, copied out only once the batch is complete).
// *batched tells whether ReadAll took over.
Status DecodeBatched(DataBlockDecoder* dec, const Slice& body, std::vector<OwnedCell>* out,
                     bool* batched) {
  out->clear();
  *batched = false;
  Status s = dec->Reset(body);
  if (!s.ok()) return s;
  Cell c;
  if (!dec->Next(&c)) return dec->status();
  out->push_back(Own(c));
  CellBatch batch;
  batch.Add()->value = Slice("a cell before the ones ReadAll appends");
  if (dec->ReadAll(&batch)) {
    *batched = true;
    for (size_t i = 1; i < batch.size(); ++i) {
      out->push_back(Own(batch[i]));
    }
    return dec->status();
  }
  while (dec->Next(&c)) {
    out->push_back(Own(c));
  }
  return dec->status();
}

// ---------------------------------------------------------------------------------------------
// Random cells as a file would hold them: sorted rows, one family, several qualifiers and
// versions per row, all the awkward values.

std::vector<OwnedCell> RandomCells(std::mt19937_64* rng, const CellFormat& f, int rows) {
  auto rnd = [&](uint64_t n) { return (*rng)() % n; };
  static const int64_t kTs[] = {0, -1, INT64_MIN, INT64_MAX, 1, 255, 256, 65536,
                                1733179231941, -1733179231941};
  static const uint8_t kTypes[] = {0, 4, 8, 10, 12, 14, 255};
  const std::string family = rnd(4) == 0 ? "" : std::string(1 + rnd(6), 'f');
  std::vector<OwnedCell> cells;
  int unique_tag = 0;
  for (int r = 0; r < rows; ++r) {
    std::string row = "row" + std::to_string(1000 + r * 7) + std::string(rnd(3) * 40, 'x');
    if (rnd(5) == 0) row.resize(rnd(row.size()) + 1);  // row lengths change both ways
    const int quals = 1 + rnd(5);
    for (int q = 0; q < quals; ++q) {
      std::string qual = q == 0 && rnd(2) ? "" : "q" + std::string(rnd(3), 'a' + q);
      const int versions = 1 + rnd(3);
      for (int v = 0; v < versions; ++v) {
        int64_t ts = rnd(3) == 0 ? kTs[rnd(10)]
                     : !cells.empty() && rnd(3) == 0 ? cells.back().view().timestamp()
                                                     : static_cast<int64_t>((*rng)());
        uint8_t type = kTypes[rnd(7)];
        std::string value;
        switch (rnd(6)) {
          case 0: break;
          case 1: value = cells.empty() ? "" : cells.back().value; break;
          case 2: value = std::string(1 + rnd(40), static_cast<char>(rnd(256))); break;
          default: value = "v" + std::to_string(rnd(1000)); break;
        }
        std::string tags;
        if (f.include_tags) {
          switch (rnd(5)) {
            case 0: break;
            case 1: tags = Tag(8, std::string("\0\0\0\0\0\0\x03\xE8", 8)); break;
            case 2: tags = Tag(1, "acl" + std::to_string(rnd(4))) + Tag(8, "ttl"); break;
            case 3: tags = Tag(static_cast<uint8_t>(rnd(256)), "u" + std::to_string(unique_tag++));
                    break;
            default: tags = Tag(2, "") + Tag(7, std::string(rnd(300), 'v')); break;
          }
        }
        uint64_t seq = rnd(3) == 0 ? 0 : rnd(2) ? rnd(300) : (*rng)();
        OwnedCell c = MakeCell(row, family, qual, ts, type, value, tags, seq);
        cells.push_back(c);
        if (rnd(10) == 0) cells.push_back(c);  // identical consecutive keys
      }
    }
  }
  // One value over 64 KiB, and a second identical one right after it.
  if (!cells.empty()) {
    size_t i = rnd(cells.size());
    cells[i].value.assign(70000 + rnd(1000), 'B');
    OwnedCell copy = cells[i];
    cells.insert(cells.begin() + i + 1, copy);
  }
  return cells;
}

using Param = std::tuple<DataBlockEncoding, bool, bool, bool>;

class CodecTest : public ::testing::TestWithParam<Param> {
 protected:
  DataBlockEncoding encoding() const { return std::get<0>(GetParam()); }
  CellFormat format() const {
    CellFormat f;
    f.include_tags = std::get<1>(GetParam());
    f.tags_compressed = std::get<2>(GetParam());
    f.include_mvcc = std::get<3>(GetParam());
    return f;
  }
  // What a round trip must give back: tags and sequence ids only where the format keeps them.
  std::vector<OwnedCell> Expected(std::vector<OwnedCell> cells) const {
    for (auto& c : cells) {
      if (!format().include_tags) c.tags.clear();
      if (!format().include_mvcc) c.seq = 0;
    }
    return cells;
  }
};

void ExpectSame(const std::vector<OwnedCell>& want, const std::vector<OwnedCell>& got) {
  ASSERT_EQ(want.size(), got.size());
  for (size_t i = 0; i < want.size(); ++i) {
    ASSERT_EQ(test::SpacedHex(want[i].key), test::SpacedHex(got[i].key)) << "cell " << i;
    ASSERT_EQ(want[i].value, got[i].value) << "cell " << i;
    ASSERT_EQ(test::SpacedHex(want[i].tags), test::SpacedHex(got[i].tags)) << "cell " << i;
    ASSERT_EQ(want[i].seq, got[i].seq) << "cell " << i;
  }
}

TEST_P(CodecTest, RoundTrip) {
  std::mt19937_64 rng(std::hash<std::string>()(
      ::testing::UnitTest::GetInstance()->current_test_info()->name()));
  auto dec = NewDataBlockDecoder(encoding(), format());
  ASSERT_TRUE(dec.ok());
  auto enc = NewDataBlockEncoder(encoding(), format());
  for (int block = 0; block < 12; ++block) {  // encoder and decoder are reused across blocks
    auto cells = RandomCells(&rng, format(), block == 0 ? 1 : 2 + block * 4);
    enc->Reset();
    size_t unencoded = 0;
    for (const auto& c : cells) {
      enc->Add(c.view());
      unencoded += KeyValueSize(c.view(), format());
    }
    EXPECT_EQ(unencoded, enc->UnencodedSize());
    EXPECT_EQ(cells.size(), enc->cell_count());
    std::string body;
    enc->Finish(&body);
    if (encoding() == DataBlockEncoding::kPrefix || encoding() == DataBlockEncoding::kDiff ||
        encoding() == DataBlockEncoding::kFastDiff) {
      EXPECT_EQ(static_cast<uint16_t>(encoding()), DecodeFixed16BE(body.data()));
      EXPECT_EQ(unencoded, DecodeFixed32BE(body.data() + 2));
      EXPECT_EQ(body.size() - 6, enc->EncodedSize());
    } else if (encoding() == DataBlockEncoding::kNone) {
      EXPECT_EQ(body.size(), enc->EncodedSize());
    } else if (encoding() == DataBlockEncoding::kRowIndexV1) {
      EXPECT_EQ(body.size(), 2 + enc->EncodedSize() + 4 + 4);  // id, cells + offsets, count, size
    }
    std::vector<OwnedCell> got;
    Status s = DecodeAll(dec->get(), body, &got);
    ASSERT_TRUE(s.ok()) << s.ToString();
    ExpectSame(Expected(cells), got);
    bool batched;
    s = DecodeBatched(dec->get(), body, &got, &batched);
    ASSERT_TRUE(s.ok()) << s.ToString();
    ExpectSame(Expected(cells), got);
    // The decoders that read a block's rest themselves (the file iterator's batches).
    const bool reads_all = encoding() == DataBlockEncoding::kNone ||
                           encoding() == DataBlockEncoding::kDiff ||
                           encoding() == DataBlockEncoding::kFastDiff;
    EXPECT_EQ(reads_all, batched);
  }
}

// On damaged bodies too, ReadAll gives the cells Next gives and stops with the same error.
TEST_P(CodecTest, ReadAllDecodesAsNextDoes) {
  std::mt19937_64 rng(11);
  auto cells = RandomCells(&rng, format(), 9);
  for (auto& c : cells) c.value.resize(std::min<size_t>(c.value.size(), 20));
  const std::string body = Encode(encoding(), format(), cells);
  auto dec = NewDataBlockDecoder(encoding(), format());
  ASSERT_TRUE(dec.ok());
  std::vector<OwnedCell> want, got;
  bool batched;
  for (int i = 0; i < 2000; ++i) {
    std::string bad = body;
    if (i % 2 == 0) {
      bad.resize(rng() % body.size());
    } else {
      for (int k = 1 + rng() % 3; k > 0; --k) {
        bad[rng() % bad.size()] ^= static_cast<char>(1 + rng() % 255);
      }
    }
    const Status a = DecodeAll(dec->get(), bad, &want);
    const Status b = DecodeBatched(dec->get(), bad, &got, &batched);
    ASSERT_EQ(a.ToString(), b.ToString()) << "damage " << i;
    ExpectSame(want, got);
    if (HasFatalFailure()) return;
  }
}

TEST_P(CodecTest, TruncationAndBitFlipsNeverCrash) {
  std::mt19937_64 rng(7);
  auto cells = RandomCells(&rng, format(), 6);
  for (auto& c : cells) c.value.resize(std::min<size_t>(c.value.size(), 20));
  const std::string body = Encode(encoding(), format(), cells);
  auto dec = NewDataBlockDecoder(encoding(), format());
  ASSERT_TRUE(dec.ok());
  std::vector<OwnedCell> got;
  size_t corrupt = 0;
  for (size_t len = 0; len < body.size(); ++len) {
    std::string cut = body.substr(0, len);  // own copy: ASan sees reads past `len`
    Status s = DecodeAll(dec->get(), cut, &got);
    if (s.IsCorruption()) {
      ++corrupt;
      EXPECT_TRUE(s.message().find("offset") != std::string::npos ||
                  s.message().find("body of") != std::string::npos)
          << s.ToString();
    }
    EXPECT_LT(got.size(), cells.size() + 1);
  }
  // Only cuts at cell boundaries can go unnoticed (and none for ROW_INDEX_V1 or empty-prefix).
  EXPECT_GE(corrupt + cells.size() + 1, body.size()) << "corrupt " << corrupt;
  for (int i = 0; i < 3000; ++i) {
    std::string bad = body;
    const int flips = 1 + rng() % 3;
    for (int k = 0; k < flips; ++k) bad[rng() % bad.size()] ^= static_cast<char>(1 + rng() % 255);
    Status s = DecodeAll(dec->get(), bad, &got);
    if (!s.ok()) {
      EXPECT_TRUE(s.IsCorruption()) << s.ToString();
    }
    for (const auto& c : got) EXPECT_LE(c.key.size() + c.value.size(), bad.size() + 70000);
  }
}

std::string ParamName(const ::testing::TestParamInfo<Param>& info) {
  return std::string(DataBlockEncodingName(std::get<0>(info.param))) +
         (std::get<1>(info.param) ? "_tags" : "_notags") +
         (std::get<2>(info.param) ? "_compressed" : "_raw") +
         (std::get<3>(info.param) ? "_mvcc" : "_nomvcc");
}

INSTANTIATE_TEST_SUITE_P(
    AllEncodings, CodecTest,
    ::testing::Combine(::testing::Values(DataBlockEncoding::kNone, DataBlockEncoding::kPrefix,
                                         DataBlockEncoding::kDiff, DataBlockEncoding::kFastDiff,
                                         DataBlockEncoding::kRowIndexV1),
                       ::testing::Bool(), ::testing::Bool(), ::testing::Bool()),
    ParamName);

}  // namespace
}  // namespace hfile
