// Hand-computed HBase bytes for each encoding, the tag dictionary's LRU rule, specific malformed
// blocks, and the real ROW_INDEX_V1 blocks of an HBase 4.0-SNAPSHOT hbase:meta.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "hfile/coding.h"
#include "data_block_codec.h"
#include "tag_compression.h"
#include "../testutil.h"

namespace hfile {
namespace {

struct OwnedCell {
  std::string key, value, tags;
  uint64_t seq = 0;
  Cell view() const { return Cell{Slice(key), Slice(value), Slice(tags), seq}; }
};

OwnedCell Make(const std::string& row, const std::string& qual, int64_t ts, uint8_t type,
               const std::string& value) {
  OwnedCell c;
  AppendKey(&c.key, row, "f", qual, ts, type);
  c.value = value;
  return c;
}

std::string Encode(DataBlockEncoding e, const CellFormat& f, const std::vector<OwnedCell>& cells) {
  auto enc = NewDataBlockEncoder(e, f);
  enc->Reset();
  for (const auto& c : cells) enc->Add(c.view());
  std::string body;
  enc->Finish(&body);
  return body;
}

// A: r1/f:q ts 1 Put "v1"; B: r1/f:q2 ts 2 Put "v1"; C: r1/f:q2 ts 256 Delete "".
// Unencoded sizes 26 + 27 + 25 = 78 (0x4E).
std::vector<OwnedCell> ThreeCells() {
  return {Make("r1", "q", 1, 4, "v1"), Make("r1", "q2", 2, 4, "v1"), Make("r1", "q2", 256, 8, "")};
}
const char* kKeyA = "00 02 72 31 01 66 71 00 00 00 00 00 00 00 01 04";

void ExpectGolden(DataBlockEncoding e, const CellFormat& f, const std::vector<OwnedCell>& cells,
                  const std::string& want) {
  const std::string body = Encode(e, f, cells);
  EXPECT_EQ(want, test::SpacedHex(body));
  auto dec = NewDataBlockDecoder(e, f);
  ASSERT_TRUE(dec.ok());
  ASSERT_TRUE((*dec)->Reset(body).ok());
  Cell c;
  for (const auto& w : cells) {
    ASSERT_TRUE((*dec)->Next(&c)) << (*dec)->status().ToString();
    EXPECT_EQ(test::SpacedHex(w.key), test::SpacedHex(c.key.ToString()));
    EXPECT_EQ(w.value, c.value.ToString());
    EXPECT_EQ(test::SpacedHex(w.tags), test::SpacedHex(c.tags.ToString()));
    EXPECT_EQ(w.seq, c.sequence_id);
  }
  EXPECT_FALSE((*dec)->Next(&c));
  EXPECT_TRUE((*dec)->status().ok()) << (*dec)->status().ToString();
}

TEST(DataBlockGolden, Prefix) {
  // B: common 7 (row, family, "q"; qualifier lengths differ so no timestamp), tail 10.
  // C: qualifiers equal, so timestamps too: 6 common bytes -> common 14, tail 3.
  ExpectGolden(DataBlockEncoding::kPrefix, {}, ThreeCells(),
               "00 02 00 00 00 4E "
               "10 02 00 " + std::string(kKeyA) + " 76 31 "
               "0A 02 07 32 00 00 00 00 00 00 00 02 04 76 31 "
               "03 00 0E 01 00 08");
}

TEST(DataBlockGolden, Diff) {
  // Family once. A: flag 00 (ts fits 1 byte). B: SAME_VALUE_LENGTH|SAME_TYPE, diff -1 needs as
  // many bytes as ts 2 -> plain ts. C: SAME_KEY_LENGTH, diff 2-256 = -254 fits 1 byte < 2 ->
  // IS_DIFF|SIGN; value length 0 written.
  ExpectGolden(DataBlockEncoding::kDiff, {}, ThreeCells(),
               "00 03 00 00 00 4E 01 66 "
               "00 10 02 00 00 02 72 31 71 01 04 76 31 "
               "06 11 07 32 02 76 31 "
               "89 00 08 FE 08");
}

TEST(DataBlockGolden, DiffNegativeTimestampFirstCell) {
  std::vector<OwnedCell> cells = {Make("r", "", -1, 4, "")};
  cells[0].key.clear();
  AppendKey(&cells[0].key, "r", "f", "", -1, 4);
  ExpectGolden(DataBlockEncoding::kDiff, {}, cells,
               "00 03 00 00 00 16 01 66 80 0E 00 00 00 01 72 01 04");
}

TEST(DataBlockGolden, FastDiff) {
  // B: SAME_VALUE_LENGTH|SAME_TYPE|SAME_VALUE, 7 common ts bytes. C: SAME_KEY_LENGTH, 6.
  ExpectGolden(DataBlockEncoding::kFastDiff, {}, ThreeCells(),
               "00 04 00 00 00 4E "
               "00 10 02 00 " + std::string(kKeyA) + " 76 31 "
               "77 11 07 32 02 "
               "0E 00 08 01 00 08");
}

TEST(DataBlockGolden, FastDiffCompressedTagsAndMvcc) {
  // Both cells carry the same TTL tag: the second one refers to dictionary entry 0.
  auto cells = ThreeCells();
  cells.resize(2);
  std::string ttl = std::string("\x00\x09\x08", 3) + std::string("\0\0\0\0\0\0\x03\xE8", 8);
  cells[0].tags = cells[1].tags = ttl;
  cells[0].seq = 5;
  CellFormat f{true, true, true};
  // Unencoded: 26 + 2 + 11 + 1 = 40, 27 + 2 + 11 + 1 = 41.
  ExpectGolden(DataBlockEncoding::kFastDiff, f, cells,
               "00 04 00 00 00 51 "
               "00 10 02 00 " + std::string(kKeyA) +
                   " 76 31 0B FF 09 08 00 00 00 00 00 00 03 E8 05 "
               "77 11 07 32 02 0B 00 00 00");
}

TEST(DataBlockGolden, RowIndexV1) {
  std::vector<OwnedCell> cells = {Make("r1", "q", 1, 4, "v1"), Make("r2", "q", 1, 4, "v")};
  ExpectGolden(DataBlockEncoding::kRowIndexV1, {}, cells,
               "00 07 "
               "00 00 00 10 00 00 00 02 " + std::string(kKeyA) + " 76 31 "
               "00 00 00 10 00 00 00 01 00 02 72 32 01 66 71 00 00 00 00 00 00 00 01 04 76 "
               "00 00 00 02 00 00 00 00 00 00 00 1A 00 00 00 33");
}

TEST(DataBlockGolden, NoneWithTagsAndMvcc) {
  // The worked example of the format notes, §6.1.
  std::vector<OwnedCell> cells(1);
  AppendKey(&cells[0].key, "r", "f", "q", 1, 4);
  cells[0].value = "v";
  ExpectGolden(DataBlockEncoding::kNone, {true, false, true}, cells,
               "00 00 00 0F 00 00 00 01 00 01 72 01 66 71 00 00 00 00 00 00 00 01 04 76 00 00 00");
}

TEST(DataBlockCodec, PrefixTreeIsNotSupported) {
  auto dec = NewDataBlockDecoder(DataBlockEncoding::kPrefixTree, {});
  ASSERT_TRUE(dec.status().IsNotSupported());
  EXPECT_NE(std::string::npos, dec.status().message().find("removed in HBase 2.0"));
  EXPECT_EQ(nullptr, NewDataBlockEncoder(DataBlockEncoding::kPrefixTree, {}));
}

TEST(TagDictionary, LruEvictionKeepsIndexes) {
  TagDictionary d;
  for (int i = 0; i < TagDictionary::kCapacity; ++i) EXPECT_EQ(-1, d.FindOrAdd(std::to_string(i)));
  EXPECT_EQ(0, d.FindOrAdd("0"));   // 0 becomes most recently used; 1 is now the oldest
  EXPECT_EQ(-1, d.FindOrAdd("new"));  // evicts "1", takes index 1
  Slice e;
  ASSERT_TRUE(d.Get(1, &e));
  EXPECT_EQ("new", e.ToString());
  EXPECT_EQ(-1, d.FindOrAdd("1"));  // gone; re-added over the oldest, "2"
  ASSERT_TRUE(d.Get(2, &e));
  EXPECT_EQ("1", e.ToString());
  EXPECT_EQ(-1, d.FindOrAdd(""));  // empty payloads are never added
  EXPECT_FALSE(d.Get(127, &e));
  d.Clear();
  EXPECT_FALSE(d.Get(0, &e));
}

// Malformed blocks built by hand: each must end in Corruption, never crash.
TEST(DataBlockCodec, HandMadeCorruption) {
  auto expect_corrupt = [](DataBlockEncoding e, const std::string& body, const char* what) {
    auto dec = NewDataBlockDecoder(e, {});
    ASSERT_TRUE(dec.ok());
    Cell c;
    if ((*dec)->Reset(body).ok()) {
      while ((*dec)->Next(&c)) {
      }
    }
    EXPECT_TRUE((*dec)->status().IsCorruption()) << what;
    EXPECT_NE(std::string::npos, (*dec)->status().message().find(what))
        << (*dec)->status().ToString();
  };
  const std::string hdr = test::ParseSpacedHex("00 02 00 00 00 1A");
  std::string key_a;
  AppendKey(&key_a, "r1", "f", "q", 1, 4);
  const std::string first = hdr + test::ParseSpacedHex("10 02 00") + key_a + "v1";
  // PREFIX: second cell claims 40 common bytes of a 16-byte key.
  expect_corrupt(DataBlockEncoding::kPrefix, first + test::ParseSpacedHex("01 00 28 78"),
                 "common prefix longer than the previous key");
  // PREFIX: first cell with a common prefix.
  expect_corrupt(DataBlockEncoding::kPrefix, hdr + test::ParseSpacedHex("01 00 05 78"), "first cell");
  // PREFIX: a key shorter than 12 bytes.
  expect_corrupt(DataBlockEncoding::kPrefix, hdr + test::ParseSpacedHex("05 00 00") + "abcde",
                 "key length < 12");
  // PREFIX: a huge key length claim must fail before allocating it.
  expect_corrupt(DataBlockEncoding::kPrefix, hdr + test::ParseSpacedHex("FF FF FF FF 0F 00 00"),
                 "truncated key");
  // NONE: row length pointing past the key.
  std::string kv;
  PutFixed32BE(&kv, 12);
  PutFixed32BE(&kv, 0);
  kv += std::string("\x00\x05", 2) + std::string(10, '\0');
  expect_corrupt(DataBlockEncoding::kNone, kv, "inconsistent");
  // ROW_INDEX_V1: cellsSize beyond the block.
  expect_corrupt(DataBlockEncoding::kRowIndexV1,
                 std::string("\x00\x07\x00\x00\x00\x00\x7F\x00\x00\x00", 10), "cellsSize");
  // DIFF: first cell with SAME_KEY_LENGTH.
  expect_corrupt(DataBlockEncoding::kDiff, test::ParseSpacedHex("00 03 00 00 00 00 01 66 01 00 00"),
                 "first cell");
  // DIFF: second cell's key length too small for its (new) row and the family.
  expect_corrupt(DataBlockEncoding::kDiff,
                 test::ParseSpacedHex("00 03 00 00 00 00 01 66 00 10 02 00 00 02 72 31 71 01 04 76 31 "
                         "00 0C 00 00 00 01 72"),
                 "too small");
  // FAST_DIFF: SAME_VALUE (0x40) with another value length (3, SAME_KEY_LENGTH|SAME_TYPE).
  expect_corrupt(DataBlockEncoding::kFastDiff,
                 test::ParseSpacedHex("00 04 00 00 00 00 00 10 02 00") + key_a + "v1" +
                     test::ParseSpacedHex("6F 03 07 01"),
                 "SAME_VALUE");
  // FAST_DIFF: a compressed-tags index that is not in the dictionary.
  {
    auto dec = NewDataBlockDecoder(DataBlockEncoding::kFastDiff, {true, true, false});
    std::string body =
        test::ParseSpacedHex("00 04 00 00 00 00 00 10 02 00") + key_a + "v1" + test::ParseSpacedHex("03 00 05");
    ASSERT_TRUE((*dec)->Reset(body).ok());
    Cell c;
    EXPECT_FALSE((*dec)->Next(&c));
    EXPECT_NE(std::string::npos, (*dec)->status().message().find("missing tag dictionary entry"))
        << (*dec)->status().ToString();
  }
}

// ---------------------------------------------------------------------------------------------
// Real blocks: the three hbase:meta HFiles of an HBase 4.0.0-alpha-1-SNAPSHOT root dir (one
// ROW_INDEX_V1 DATABLKE block each at offset 0; no hfile.MAX_TAGS_LEN, KEY_VALUE_VERSION = 1).

struct RealFile {
  const char* path;
  size_t cells;
  std::vector<std::string> rows;
};

TEST(DataBlockReal, HbaseMetaRowIndexV1DecodesAndReencodesByteIdentical) {
  HFILE_REQUIRE_REAL_DATA();
  const std::string dir =
      test::RealDataDir() + "/hbase-4.0-snapshot-rootdir/data/hbase/meta/1588230740/";
  const std::string region_row = "my_table,,1733179231941.6c930cffe9f380e753905208e8dca1fa.";
  const RealFile files[] = {
      {"info/92b8aa6c192847a78fea61932571d55d", 10, {region_row}},
      {"ns/1c74a8bdf2f242f29b3997d961fa3178", 2, {"default", "hbase"}},
      {"table/8fde246d34d940c0b4ef1d459f33af8c", 2, {"my_table"}},
  };
  const CellFormat format{/*include_tags=*/false, /*tags_compressed=*/false,
                          /*include_mvcc=*/true};
  for (const auto& f : files) {
    SCOPED_TRACE(f.path);
    const std::string file = test::ReadFileOrDie(dir + f.path);
    ASSERT_GE(file.size(), 33u);
    ASSERT_EQ("DATABLKE", file.substr(0, 8));
    const uint32_t uncompressed = DecodeFixed32BE(file.data() + 12);
    ASSERT_LE(33 + uncompressed, file.size());
    const std::string body = file.substr(33, uncompressed);
    ASSERT_EQ(7, DecodeFixed16BE(body.data()));

    auto dec = NewDataBlockDecoder(DataBlockEncoding::kRowIndexV1, format);
    ASSERT_TRUE(dec.ok());
    ASSERT_TRUE((*dec)->Reset(body).ok());
    std::vector<OwnedCell> cells;
    std::vector<std::string> rows;
    Cell c;
    while ((*dec)->Next(&c)) {
      cells.push_back({c.key.ToString(), c.value.ToString(), c.tags.ToString(), c.sequence_id});
      if (rows.empty() || rows.back() != c.row().ToString()) rows.push_back(c.row().ToString());
    }
    ASSERT_TRUE((*dec)->status().ok()) << (*dec)->status().ToString();
    EXPECT_EQ(f.cells, cells.size());
    EXPECT_EQ(f.rows, rows);

    EXPECT_EQ(test::SpacedHex(body), test::SpacedHex(Encode(DataBlockEncoding::kRowIndexV1, format, cells)));
  }
}

}  // namespace
}  // namespace hfile
