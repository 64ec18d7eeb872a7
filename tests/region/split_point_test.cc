// HBase's split-point choice (region/split_point.h) and the mid key it rests on
// (Reader::MidKey), on store files with 1, 2 and 3 index levels written by our Writer. The
// same choice is compared with HBase's own midKey() and StoreUtils by tests/hbase/check_midkey.sh.
#include "region/split_point.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "hfile/cell.h"
#include "hfile/reader.h"
#include "hfile/writer.h"
#include "split_table.h"
#include "store_fixture.h"
#include "testutil.h"

namespace hfile::region {
namespace {

using store_fixture::Table;

std::string RowName(int i) {
  char b[32];
  snprintf(b, sizeof b, "row%06d", i);
  return b;
}

// `rows` rows of `per_row` cells into `path`, one data block per `block_size` bytes; small index
// blocks force more index levels.
WriterStats WriteRows(const std::string& path, const std::string& family, int first, int rows,
                      int per_row, uint32_t block_size, uint32_t index_max, int64_t seq,
                      size_t value_size = 20) {
  WriterOptions o;
  o.block_size = block_size;
  o.index_block_max_size = index_max;
  o.index_min_entries = 4;
  o.max_seq_id = seq;
  o.major_compaction = false;
  auto w = Writer::Create(path, o);
  EXPECT_TRUE(w.ok()) << w.status().ToString();
  for (int i = first; i < first + rows; ++i) {
    for (int q = 0; q < per_row; ++q) {
      char qual[16];
      snprintf(qual, sizeof qual, "q%03d", q);
      auto c = CellData::Make(RowName(i), family, qual, 100, KeyType::kPut,
                              std::string(value_size, 'v'), seq);
      Status s = (*w)->Append(c.view());
      if (!s.ok()) {
        ADD_FAILURE() << s.ToString();
        return {};
      }
    }
  }
  WriterStats st;
  EXPECT_TRUE((*w)->Finish(&st).ok());
  return st;
}

// Every cell key of the file, in order.
std::vector<std::string> Keys(const std::string& path) {
  auto r = Reader::Open(path);
  EXPECT_TRUE(r.ok());
  std::vector<std::string> keys;
  auto it = (*r)->NewIterator();
  for (it->SeekToFirst(); it->Valid(); it->Next()) keys.push_back(it->cell().key.ToString());
  return keys;
}

class MidKeyLevels : public ::testing::TestWithParam<uint32_t> {};

// One cell per data block: the mid key is the index key of block n/2 (one level) or of leaf
// entry (n-1)/2 (more levels), i.e. a key in (key[i-1], key[i]] of cell i.
TEST_P(MidKeyLevels, MidKeyIsTheMiddleBlocksIndexKey) {
  const uint32_t levels = GetParam();
  const std::string dir = test::NewTempDir("midkey-levels");
  const std::string path = dir + "/f";
  const uint32_t index_max = levels == 1 ? 1 << 20 : levels == 2 ? 1024 : 256;
  const int rows = levels == 1 ? 101 : levels == 2 ? 400 : 200;
  WriterStats st = WriteRows(path, "cf", 0, rows, 1, 1, index_max, 7);
  ASSERT_EQ(st.index_levels, levels);
  ASSERT_EQ(st.data_blocks, static_cast<uint64_t>(rows));
  auto r = Reader::Open(path);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ((*r)->trailer().num_data_index_levels, levels);
  auto mid = (*r)->MidKey();
  ASSERT_TRUE(mid.ok()) << mid.status().ToString();
  ASSERT_TRUE(mid->has_value());
  const auto keys = Keys(path);
  const size_t i = levels == 1 ? keys.size() / 2 : (keys.size() - 1) / 2;
  ASSERT_GT(i, 0u);
  EXPECT_GT(CompareKeys(ComparatorKind::kDefault, **mid, keys[i - 1]), 0);
  EXPECT_LE(CompareKeys(ComparatorKind::kDefault, **mid, keys[i]), 0);
  // A shortened separator: here a prefix of cell i's row ("row00005" for "row000050").
  const std::string mid_row = KeyRow(Slice(**mid)).ToString();
  EXPECT_EQ(RowName(static_cast<int>(i)).compare(0, mid_row.size(), mid_row), 0) << mid_row;
}

INSTANTIATE_TEST_SUITE_P(Levels, MidKeyLevels, ::testing::Values(1u, 2u, 3u));

TEST(MidKey, EmptyFileHasNone) {
  const std::string dir = test::NewTempDir("midkey-empty");
  WriteRows(dir + "/f", "cf", 0, 0, 1, 65536, 131072, 1);
  auto r = Reader::Open(dir + "/f");
  ASSERT_TRUE(r.ok());
  auto mid = (*r)->MidKey();
  ASSERT_TRUE(mid.ok());
  EXPECT_FALSE(mid->has_value());
}

TEST(FileSplitRow, RefusesFirstAndLastRow) {
  std::string reason;
  std::string a, b, c;
  AppendKey(&a, "a", "f", "q", 1, 4);
  AppendKey(&b, "b", "f", "q", 1, 4);
  AppendKey(&c, "c", "f", "q", 1, 4);
  EXPECT_EQ(FileSplitRow(b, a, c, &reason), std::optional<std::string>("b"));
  EXPECT_FALSE(FileSplitRow(a, a, c, &reason));
  EXPECT_NE(reason.find("first row"), std::string::npos);
  std::string a2;
  AppendKey(&a2, "a", "g", "", 1, 4);  // same row, other column: still the first row
  EXPECT_FALSE(FileSplitRow(a2, a, c, &reason));
  EXPECT_FALSE(FileSplitRow(c, a, c, &reason));
  EXPECT_NE(reason.find("last row"), std::string::npos);
  EXPECT_FALSE(FileSplitRow(std::nullopt, std::nullopt, std::nullopt, &reason));
}

TEST(RestrictSplitRow, AsHBase) {
  EXPECT_EQ(RestrictSplitRow("abcdef", "KeyPrefix", "3", {}), "abc");
  EXPECT_EQ(RestrictSplitRow("ab", "KeyPrefix", "3", {}), "ab");
  EXPECT_EQ(RestrictSplitRow("abcdef", "KeyPrefix", "0", {}), "abcdef");
  EXPECT_EQ(RestrictSplitRow("abcdef", "KeyPrefix", "x", {}), "abcdef");
  EXPECT_EQ(RestrictSplitRow("ab,cd,ef", "DelimitedKeyPrefix", {}, ","), "ab");
  EXPECT_EQ(RestrictSplitRow("abcdef", "DelimitedKeyPrefix", {}, ","), "abcdef");
  EXPECT_EQ(RestrictSplitRow("abcdef", "None", "3", ","), "abcdef");
}

class SplitPointLevels : public ::testing::TestWithParam<uint32_t> {};

// Two families: the larger store's largest file decides; the sides add up to every cell.
TEST_P(SplitPointLevels, LargestStoresLargestFile) {
  const uint32_t levels = GetParam();
  const uint32_t index_max = levels == 1 ? 1 << 20 : levels == 2 ? 1024 : 256;
  Table t("split-point", {"a", "b"});
  // Family a: small. Family b: a small older file and the large one that decides.
  WriteRows(t.Family("a") + "0a0a", "a", 0, 50, 2, 64, index_max, 5);
  WriteRows(t.Family("b") + "0b01", "b", 0, 30, 1, 64, index_max, 3);
  WriterStats big = WriteRows(t.Family("b") + "0b02", "b", 10, 300, 1, 64, index_max, 9);
  ASSERT_EQ(big.index_levels, levels);
  auto sp = ComputeSplitPoint(t.root, t.region_dir);
  ASSERT_TRUE(sp.ok()) << sp.status().ToString();
  ASSERT_EQ(sp->families.size(), 2u);
  EXPECT_EQ(sp->families[0].family, "a");
  ASSERT_EQ(sp->chosen_family, 1);
  const auto& b = sp->families[1];
  ASSERT_EQ(b.files.size(), 2u);
  ASSERT_GE(b.largest_file, 0);
  EXPECT_EQ(std::filesystem::path(b.files[b.largest_file].path).filename(), "0b02");
  auto r = Reader::Open(t.Family("b") + "0b02");
  ASSERT_TRUE(r.ok());
  auto mid = (*r)->MidKey();
  ASSERT_TRUE(mid.ok() && mid->has_value());
  ASSERT_TRUE(sp->split_row);
  EXPECT_EQ(*sp->split_row, KeyRow(Slice(**mid)).ToString());
  EXPECT_EQ(b.files[b.largest_file].mid_key, **mid);
  EXPECT_EQ(b.store_size, std::filesystem::file_size(t.Family("b") + "0b01") +
                              std::filesystem::file_size(t.Family("b") + "0b02"));
  // Sides: every cell once; family a's rows all sort below the split row.
  ASSERT_TRUE(sp->sides_counted);
  EXPECT_EQ(sp->families[0].below.cells + sp->families[0].above.cells, 100u);
  EXPECT_EQ(b.below.cells + b.above.cells, 330u);
  EXPECT_EQ(sp->families[0].above.cells, 0u);
  uint64_t below = 0;
  for (const auto& k : Keys(t.Family("b") + "0b01")) below += KeyRow(Slice(k)).ToString() < *sp->split_row;
  for (const auto& k : Keys(t.Family("b") + "0b02")) below += KeyRow(Slice(k)).ToString() < *sp->split_row;
  EXPECT_EQ(b.below.cells, below);
  EXPECT_GT(b.above.cells, 0u);
  EXPECT_EQ(b.below.file_bytes + b.above.file_bytes, b.store_size);
  EXPECT_EQ(sp->families[0].below.kv_bytes + sp->families[0].above.kv_bytes,
            100u * (8 + 2 + 9 + 1 + 1 + 4 + 8 + 1 + 20));
}

INSTANTIATE_TEST_SUITE_P(Levels, SplitPointLevels, ::testing::Values(1u, 2u, 3u));

TEST(SplitPoint, StoreWhoseMidRowIsItsFirstOrLastRowHasNone) {
  Table t("split-point-onerow", {"a", "b"});
  // Family b is larger but holds a single row: its mid row is its first row. HBase then takes
  // the smaller store's split point.
  WriteRows(t.Family("a") + "0a01", "a", 0, 40, 1, 64, 131072, 1);
  WriteRows(t.Family("b") + "0b01", "b", 7, 1, 400, 64, 131072, 1);
  auto sp = ComputeSplitPoint(t.root, t.region_dir);
  ASSERT_TRUE(sp.ok()) << sp.status().ToString();
  EXPECT_FALSE(sp->families[1].split_row);
  EXPECT_NE(sp->families[1].no_split_reason.find("first row"), std::string::npos);
  EXPECT_GT(sp->families[1].store_size, sp->families[0].store_size);
  ASSERT_TRUE(sp->split_row);
  EXPECT_EQ(sp->chosen_family, 0);
}

TEST(SplitPoint, EqualStoreSizesKeepTheFirstFamily) {
  Table t("split-point-tie", {"a", "b"});
  WriteRows(t.Family("a") + "0a01", "a", 0, 100, 1, 64, 131072, 1);
  WriteRows(t.Family("b") + "0b01", "b", 0, 100, 1, 64, 131072, 1);
  auto sp = ComputeSplitPoint(t.root, t.region_dir);
  ASSERT_TRUE(sp.ok());
  ASSERT_EQ(sp->families[0].store_size, sp->families[1].store_size);
  EXPECT_EQ(sp->chosen_family, 0);
}

TEST(SplitPoint, EqualFileLengthsTakeTheLowestSequenceId) {
  Table t("split-point-filetie", {"a"});
  // Same cells shape, different rows: same length; seq 2 comes first in SEQ_ID order.
  WriteRows(t.Family("a") + "0a01", "a", 100, 100, 1, 64, 131072, 8);
  WriteRows(t.Family("a") + "0a02", "a", 500, 100, 1, 64, 131072, 2);
  ASSERT_EQ(std::filesystem::file_size(t.Family("a") + "0a01"),
            std::filesystem::file_size(t.Family("a") + "0a02"));
  auto sp = ComputeSplitPoint(t.root, t.region_dir);
  ASSERT_TRUE(sp.ok());
  const auto& a = sp->families[0];
  EXPECT_EQ(std::filesystem::path(a.files[a.largest_file].path).filename(), "0a02");
  ASSERT_TRUE(sp->split_row);
  EXPECT_GE(*sp->split_row, RowName(500));
}

TEST(SplitPoint, OutsideTheRegionOrRestricted) {
  Table t("split-point-range", {"a"}, "row000000", "row000010");
  WriteRows(t.Family("a") + "0a01", "a", 0, 100, 1, 64, 131072, 1);  // cells past the end
  auto sp = ComputeSplitPoint(t.root, t.region_dir);
  ASSERT_TRUE(sp.ok());
  EXPECT_FALSE(sp->split_row);
  EXPECT_NE(sp->no_split_reason.find("outside the region"), std::string::npos);
  ASSERT_TRUE(sp->sides_row);  // refused, still counted
  EXPECT_EQ(sp->families[0].below.cells + sp->families[0].above.cells, 100u);

  Table u("split-point-restrict", {"a"});
  WriteRows(u.Family("a") + "0a01", "a", 0, 100, 1, 64, 131072, 1);
  TableDescriptor d(TableName{"default", "t"});
  d.AddFamily(FamilyDescriptor::WithDefaults("a"));
  d.SetValue("hbase.regionserver.region.split_restriction.type", "KeyPrefix");
  d.SetValue("hbase.regionserver.region.split_restriction.prefix_length", "7");
  SplitPointOptions o;
  o.descriptor = &d;
  auto rp = ComputeSplitPoint(u.root, u.region_dir, o);
  ASSERT_TRUE(rp.ok());
  ASSERT_TRUE(rp->split_row && rp->unrestricted_row);
  EXPECT_EQ(*rp->split_row, rp->unrestricted_row->substr(0, 7));
}

TEST(SplitPoint, ExplicitRowIsCounted) {
  Table t("split-point-explicit", {"a"});
  WriteRows(t.Family("a") + "0a01", "a", 0, 100, 3, 64, 131072, 1);
  SplitPointOptions o;
  o.split_row = RowName(25);
  auto sp = ComputeSplitPoint(t.root, t.region_dir, o);
  ASSERT_TRUE(sp.ok());
  ASSERT_TRUE(sp->explicit_row);
  EXPECT_EQ(sp->split_row, RowName(25));
  EXPECT_EQ(sp->families[0].below.cells, 75u);
  EXPECT_EQ(sp->families[0].above.cells, 225u);
}

TEST(SplitPoint, EmptyRegionHasNone) {
  Table t("split-point-empty", {"a"});
  auto sp = ComputeSplitPoint(t.root, t.region_dir);
  ASSERT_TRUE(sp.ok());
  EXPECT_FALSE(sp->split_row);
  EXPECT_EQ(sp->families[0].no_split_reason, "store has no files");
}

// A split daughter still holding references cannot split (real HBase files).
TEST(SplitPoint, DaughterWithReferencesHasNone) {
  HFILE_REQUIRE_REAL_DATA();
  SyntheticTable t = MakeTable("split-point-refs");
  auto sp = ComputeSplitPoint(t.root, t.table_dir + "/" + t.a.EncodedName());
  ASSERT_TRUE(sp.ok()) << sp.status().ToString();
  EXPECT_FALSE(sp->split_row);
  EXPECT_TRUE(sp->families[0].has_references);
  EXPECT_NE(sp->no_split_reason.find("reference"), std::string::npos);
  // A user's row is refused too (RegionSplitPolicy.canSplit), but still counted.
  SplitPointOptions o;
  o.split_row = "m";
  auto ex = ComputeSplitPoint(t.root, t.table_dir + "/" + t.a.EncodedName(), o);
  ASSERT_TRUE(ex.ok()) << ex.status().ToString();
  EXPECT_FALSE(ex->split_row);
  EXPECT_EQ(ex->sides_row, std::optional<std::string>("m"));
  EXPECT_NE(ex->no_split_reason.find("reference"), std::string::npos);
  EXPECT_TRUE(ex->sides_counted);
  // The parent's files themselves: a split point inside [f, r).
  auto parent = ComputeSplitPoint(t.root, t.table_dir + "/" + t.parent.EncodedName());
  ASSERT_TRUE(parent.ok()) << parent.status().ToString();
  if (parent->split_row) {
    EXPECT_GT(*parent->split_row, "f");
    EXPECT_LT(*parent->split_row, "r");
  }
}


// Not a test: prints our mid keys and split points in MidKeyCommand's JSON lines for
// tests/hbase/check_midkey.sh, which runs it as
//   SPLIT_POINT_FILES=LIST SPLIT_POINT_REGIONS=LIST SPLIT_POINT_OUT=FILE split_point_test \
//     --gtest_also_run_disabled_tests --gtest_filter=SplitPointHarness.DISABLED_Print
// (LIST: one path a line; a region's root is taken as the dir above data/, else its table's
// grandparent).
std::string Hex(const std::optional<std::string>& b) {
  if (!b) return "null";
  static const char* d = "0123456789abcdef";
  std::string s = "\"";
  for (unsigned char c : *b) {
    s.push_back(d[c >> 4]);
    s.push_back(d[c & 15]);
  }
  return s + "\"";
}

std::string JsonStr(const std::string& v) {
  std::string s = "\"";
  for (char c : v) {
    if (c == '"' || c == '\\') s.push_back('\\');
    s.push_back(c);
  }
  return s + "\"";
}

std::vector<std::string> ListLines(const char* env) {
  std::vector<std::string> out;
  const char* p = getenv(env);
  if (!p || !*p) return out;
  std::ifstream in(p);
  for (std::string l; std::getline(in, l);) {
    if (!l.empty()) out.push_back(l);
  }
  return out;
}

TEST(SplitPointHarness, DISABLED_Print) {
  const char* out_path = getenv("SPLIT_POINT_OUT");
  ASSERT_TRUE(out_path) << "SPLIT_POINT_OUT not set";
  std::ofstream out(out_path);
  for (const auto& f : ListLines("SPLIT_POINT_FILES")) {
    auto r = Reader::Open(f);
    if (!r.ok()) {
      out << "{\"kind\":\"file\",\"path\":" << JsonStr(f) << ",\"error\":"
          << JsonStr(r.status().ToString()) << "}\n";
      continue;
    }
    auto mid = (*r)->MidKey();
    if (!mid.ok()) {
      out << "{\"kind\":\"file\",\"path\":" << JsonStr(f) << ",\"error\":"
          << JsonStr(mid.status().ToString()) << "}\n";
      continue;
    }
    std::optional<std::string> row;
    if (*mid) row = KeyRow(Slice(**mid)).ToString();
    std::string reason;
    auto split = FileSplitRow(*mid, (*r)->first_key(), (*r)->last_key(), &reason);
    out << "{\"kind\":\"file\",\"path\":" << JsonStr(f)
        << ",\"levels\":" << (*r)->trailer().num_data_index_levels << ",\"midkey\":" << Hex(*mid)
        << ",\"midrow\":" << Hex(row) << ",\"split_row\":" << Hex(split) << "}\n";
  }
  for (const auto& dir : ListLines("SPLIT_POINT_REGIONS")) {
    std::filesystem::path p = std::filesystem::absolute(dir).lexically_normal();
    std::filesystem::path root = p.parent_path().parent_path().parent_path();
    if (root.filename() == "data") root = root.parent_path();
    auto sp = ComputeSplitPoint(root.string(), p.string());
    if (!sp.ok()) {
      out << "{\"kind\":\"region\",\"path\":" << JsonStr(dir) << ",\"error\":"
          << JsonStr(sp.status().ToString()) << "}\n";
      continue;
    }
    out << "{\"kind\":\"region\",\"path\":" << JsonStr(dir) << ",\"families\":[";
    for (size_t i = 0; i < sp->families.size(); ++i) {
      const auto& f = sp->families[i];
      std::optional<std::string> largest;
      if (f.largest_file >= 0 && !f.has_references) {
        largest = std::filesystem::path(f.files[f.largest_file].path).filename().string();
      }
      out << (i ? "," : "") << "{\"family\":" << JsonStr(f.family)
          << ",\"store_size\":" << f.store_size
          << ",\"references\":" << (f.has_references ? "true" : "false")
          << ",\"largest\":" << (largest ? JsonStr(*largest) : "null")
          << ",\"split_row\":" << Hex(f.split_row) << "}";
    }
    out << "],\"split_row\":" << Hex(sp->split_row) << ",\"family\":"
        << (sp->chosen_family >= 0 && sp->split_row ? JsonStr(sp->families[sp->chosen_family].family)
                                                    : "null")
        << "}\n";
  }
}

}  // namespace
}  // namespace hfile::region
