// AdviseTable: small tables written with our writer that trigger each rule, and near twins
// that do not; a golden run over a real HBase root dir.
#include "region/advise.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <random>
#include <sstream>

#include "cli_common.h"
#include "hfile/writer.h"
#include "region/region_info.h"
#include "region/table_descriptor.h"
#include "region/vector_iterator.h"
#include "split_table.h"
#include "testutil.h"

namespace hfile::region {
namespace {

constexpr int64_t kNow = 1700000000000;  // fixed "now" for TTL decisions
constexpr int64_t kDay = 86400000;

// A table under <root>/data/default/t with the given families and regions split at `splits`.
struct TestTable {
  std::string root, table_dir;
  std::vector<RegionInfo> regions;

  TestTable(const std::string& name, const std::vector<FamilyDescriptor>& families,
            const std::vector<std::string>& splits = {}) {
    root = test::NewTempDir(name);
    table_dir = root + "/data/default/t";
    std::filesystem::create_directories(table_dir + "/.tabledesc");
    TableDescriptor d(TableName{"default", "t"});
    for (const auto& f : families) d.AddFamily(f);
    std::string bytes;
    d.EncodeTo(&bytes);
    test::WriteFileOrDie(table_dir + "/.tabledesc/" + TableInfoFileNameFor(1), bytes);
    std::vector<std::string> bounds = {""};
    bounds.insert(bounds.end(), splits.begin(), splits.end());
    bounds.push_back("");
    for (size_t i = 0; i + 1 < bounds.size(); ++i) {
      RegionInfo info;
      info.table = TableName{"default", "t"};
      info.start_key = bounds[i];
      info.end_key = bounds[i + 1];
      info.region_id = 1000;
      const std::string dir = table_dir + "/" + info.EncodedName();
      for (const auto& f : families) std::filesystem::create_directories(dir + "/" + f.name());
      bytes.clear();
      info.EncodeTo(&bytes);
      test::WriteFileOrDie(dir + "/.regioninfo", bytes);
      regions.push_back(info);
    }
  }
  std::string Dir(size_t region, const std::string& family) const {
    return table_dir + "/" + regions[region].EncodedName() + "/" + family;
  }
  // Writes `cells` (sorted here) as one store file of `family` in `region`.
  void Write(size_t region, const std::string& family, std::vector<CellData> cells,
             WriterOptions o = {}) const {
    std::stable_sort(cells.begin(), cells.end(), [](const CellData& a, const CellData& b) {
      return CompareKeys(ComparatorKind::kDefault, a.key, b.key) < 0;
    });
    o.max_seq_id = 10;
    static int n = 0;
    auto w = Writer::Create(Dir(region, family) + "/" + fmt(n++), o);
    ASSERT_TRUE(w.ok()) << w.status().ToString();
    for (const auto& c : cells) ASSERT_TRUE((*w)->Append(c.view()).ok());
    ASSERT_TRUE((*w)->Finish().ok());
  }
  static std::string fmt(int n) {
    char buf[40];
    std::snprintf(buf, sizeof(buf), "%032x", n + 1);
    return buf;
  }
};

FamilyDescriptor Family(const std::string& name,
                        std::vector<std::pair<std::string, std::string>> attrs = {}) {
  FamilyDescriptor f = FamilyDescriptor::WithDefaults(name);
  for (const auto& [k, v] : attrs) f.SetValue(k, v);
  return f;
}

// `n` rows "r0000".. with one cell each in `family`, value `value`, timestamp `ts`.
std::vector<CellData> Rows(const std::string& family, int n, const std::string& value,
                           int64_t ts = kNow - 1000, const std::string& q = "q", int first = 0) {
  std::vector<CellData> cells;
  for (int i = first; i < first + n; ++i) {
    char row[16];
    std::snprintf(row, sizeof(row), "r%06d", i);
    cells.push_back(CellData::Make(row, family, q, ts, KeyType::kPut, value, 1));
  }
  return cells;
}

std::string RandomBytes(size_t n, uint32_t seed) {
  std::mt19937 g(seed);
  std::string s(n, '\0');
  for (auto& c : s) c = static_cast<char>(g());
  return s;
}

Advice Advise(const TestTable& t, AdviseOptions o = {}) {
  o.table_dir = t.table_dir;
  o.now_ms = kNow;
  auto a = AdviseTable(o);
  EXPECT_TRUE(a.ok()) << a.status().ToString();
  return a.ok() ? *a : Advice{};
}

const Finding* Find(const Advice& a, const std::string& code, const std::string& family = "") {
  for (const auto& f : a.findings)
    if (f.code == code && (family.empty() || f.family == family)) return &f;
  return nullptr;
}

bool Has(const Advice& a, const std::string& code, const std::string& family = "") {
  return Find(a, code, family) != nullptr;
}

TEST(Advise, TooManyFamilies) {
  TestTable four("advise-4f", {Family("a"), Family("b"), Family("c"), Family("d")});
  const Advice a = Advise(four);
  const Finding* f = Find(a, "too-many-families");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, AdviceSeverity::kWarn);
  EXPECT_EQ(f->figures.at("families"), 4);
  EXPECT_NE(f->fix.find("new table"), std::string::npos);
  TestTable three("advise-3f", {Family("a"), Family("b"), Family("c")});
  EXPECT_FALSE(Has(Advise(three), "too-many-families"));
}

TEST(Advise, FamiliesWrittenTogether) {
  TestTable t("advise-together", {Family("a"), Family("b")});
  t.Write(0, "a", Rows("a", 50, "x"));
  t.Write(0, "b", Rows("b", 50, "yy"));
  const Advice a = Advise(t);
  const Finding* f = Find(a, "families-written-together");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->figures.at("rows"), 50);
  // Same rows, other timestamps: written by other puts.
  TestTable u("advise-apart", {Family("a"), Family("b")});
  u.Write(0, "a", Rows("a", 50, "x"));
  u.Write(0, "b", Rows("b", 50, "yy", kNow - 5000));
  EXPECT_FALSE(Has(Advise(u), "families-written-together"));
}

TEST(Advise, LongFamilyNameMeasuredAfterCodec) {
  const std::string name = "document_metadata";
  TestTable t("advise-longname", {Family(name)});
  t.Write(0, name, Rows(name, 3000, "v"));
  const Advice a = Advise(t);
  const Finding* f = Find(a, "long-family-name", name);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->figures.at("uncompressed_bytes"), 17.0 * 3000);
  // NONE encoding, NONE codec: the name costs on disk nearly what it costs uncompressed.
  EXPECT_GT(f->figures.at("on_disk_share"), 0.2);
  EXPECT_EQ(f->fix, "hfile copy-family " + t.table_dir + " " + name + " d --drop-old");
  TestTable s("advise-shortname", {Family("d")});
  s.Write(0, "d", Rows("d", 3000, "v"));
  EXPECT_FALSE(Has(Advise(s), "long-family-name"));
}

TEST(Advise, VersionsAndMinVersionsWithoutTtl) {
  TestTable t("advise-versions", {Family("a", {{"VERSIONS", "200"}}),
                                  Family("b", {{"MIN_VERSIONS", "1"}, {"VERSIONS", "2"}})});
  const Advice a = Advise(t);
  const Finding* v = Find(a, "versions-without-ttl", "a");
  ASSERT_NE(v, nullptr);
  EXPECT_EQ(v->severity, AdviceSeverity::kWarn);
  ASSERT_NE(Find(a, "min-versions-without-ttl", "b"), nullptr);
  EXPECT_NE(Find(a, "min-versions-without-ttl", "b")->fix.find("MIN_VERSIONS => 0"),
            std::string::npos);
  TestTable u("advise-versions-ttl",
              {Family("a", {{"VERSIONS", "200"}, {"TTL", "86400"}}),
               Family("b", {{"MIN_VERSIONS", "1"}, {"VERSIONS", "2"}, {"TTL", "86400"}})});
  const Advice b = Advise(u);
  EXPECT_EQ(Find(b, "versions-without-ttl"), nullptr);
  EXPECT_EQ(Find(b, "min-versions-without-ttl"), nullptr);
}

TEST(Advise, ExpiredDataAndWholeExpiredFiles) {
  TestTable t("advise-ttl", {Family("a", {{"TTL", "86400"}})}, {"r000050"});
  t.Write(0, "a", Rows("a", 50, "old", kNow - 3 * kDay));           // wholly expired
  t.Write(1, "a", Rows("a", 10, "old", kNow - 3 * kDay, "q", 50));  // wholly expired
  t.Write(1, "a", Rows("a", 40, "new", kNow - 1000, "q", 60));
  const Advice a = Advise(t);
  const Finding* f = Find(a, "expired-data", "a");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->figures.at("expired_cells"), 60);
  EXPECT_EQ(f->figures.at("expired_files"), 2);
  EXPECT_EQ(f->fix, "hfile compact " + t.table_dir + " --family a");
  TestTable u("advise-ttl-fresh", {Family("a", {{"TTL", "86400"}})});
  u.Write(0, "a", Rows("a", 50, "new", kNow - 1000));
  EXPECT_FALSE(Has(Advise(u), "expired-data"));
}

TEST(Advise, CellTtlTagsBeyondFamilyTtl) {
  auto cells = [](int64_t ttl_ms) {
    std::vector<CellData> v;
    for (int i = 0; i < 5; ++i)
      v.push_back(CellData::Make("r" + std::to_string(i), "a", "q", kNow - 10, KeyType::kPut, "v",
                                 1, TtlTag(ttl_ms)));
    return v;
  };
  TestTable t("advise-cellttl", {Family("a", {{"TTL", "3600"}})});
  t.Write(0, "a", cells(7200 * 1000));
  const Advice a = Advise(t);
  const Finding* f = Find(a, "cell-ttl-beyond-family", "a");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->figures.at("cells"), 5);
  EXPECT_NE(f->fix.find("TTL => 7200"), std::string::npos);
  TestTable u("advise-cellttl-short", {Family("a", {{"TTL", "3600"}})});
  u.Write(0, "a", cells(60 * 1000));
  EXPECT_FALSE(Has(Advise(u), "cell-ttl-beyond-family"));
}

TEST(Advise, BigCellsMobAndOutsideHBase) {
  TestTable t("advise-mob", {Family("a"), Family("b")});
  t.Write(0, "a", Rows("a", 1, std::string(11 << 20, 'm')));
  t.Write(0, "b", Rows("b", 1, std::string(51 << 20, 'h')));
  AdviseOptions o;
  o.trial_blocks = 0;
  const Advice a = Advise(t, o);
  const Finding* mob = Find(a, "mob-candidate", "a");
  ASSERT_NE(mob, nullptr);
  EXPECT_NE(mob->fix.find("IS_MOB => true"), std::string::npos);
  EXPECT_EQ(Find(a, "mob-candidate", "b"), nullptr);  // the bigger one is beyond MOB
  ASSERT_NE(Find(a, "cells-over-50mb", "b"), nullptr);
  EXPECT_EQ(Find(a, "cells-over-50mb", "a"), nullptr);
  ASSERT_NE(Find(a, "blockcache-big-values", "a"), nullptr);
  // 1 MB cells: neither, and no block cache finding once BLOCKCACHE is off.
  TestTable u("advise-nomob", {Family("a", {{"BLOCKCACHE", "false"}})});
  u.Write(0, "a", Rows("a", 2, std::string(1 << 20, 'm')));
  const Advice b = Advise(u, o);
  EXPECT_EQ(Find(b, "mob-candidate"), nullptr);
  EXPECT_EQ(Find(b, "cells-over-50mb"), nullptr);
  EXPECT_EQ(Find(b, "blockcache-big-values"), nullptr);
}

TEST(Advise, CompressionAndEncodingFromTrials) {
  // Small cells with long shared row prefixes and repetitive values, stored NONE/NONE.
  TestTable t("advise-codec", {Family("a")});
  std::vector<CellData> cells;
  for (int i = 0; i < 5000; ++i)
    cells.push_back(CellData::Make("user-profile-000000-" + std::to_string(100000 + i), "a",
                                   "status", kNow - 10, KeyType::kPut,
                                   "active,active,active,active", 1));
  t.Write(0, "a", cells);
  const Advice a = Advise(t);
  const Finding* c = Find(a, "compression-recommended", "a");
  ASSERT_NE(c, nullptr);
  EXPECT_LT(c->figures.at("best_size"), c->figures.at("current_size") * 0.9);
  EXPECT_NE(c->fix.find("COMPRESSION => '"), std::string::npos);
  ASSERT_NE(Find(a, "encoding-recommended", "a"), nullptr);
  // Random values: no codec helps, and encoding-recommended is not made for big random cells.
  TestTable u("advise-random", {Family("a")});
  std::vector<CellData> rnd;
  for (int i = 0; i < 200; ++i)
    rnd.push_back(CellData::Make("r" + std::to_string(1000 + i), "a", "q", kNow - 10, KeyType::kPut,
                                 RandomBytes(2000, i), 1));
  u.Write(0, "a", rnd);
  const Advice b = Advise(u);
  EXPECT_EQ(Find(b, "compression-recommended"), nullptr);
  EXPECT_EQ(Find(b, "encoding-recommended"), nullptr);
  // The same random cells FAST_DIFF-encoded: the encoding buys nothing on 2 KB values.
  TestTable v("advise-random-enc", {Family("a", {{"DATA_BLOCK_ENCODING", "FAST_DIFF"}})});
  WriterOptions fast;
  fast.encoding = DataBlockEncoding::kFastDiff;
  v.Write(0, "a", rnd, fast);
  ASSERT_TRUE(Has(Advise(v), "encoding-on-large-values", "a"));
}

TEST(Advise, DescriptorAndFilesDisagree) {
  TestTable t("advise-alter", {Family("a", {{"COMPRESSION", "GZ"}, {"BLOOMFILTER", "ROW"}})});
  t.Write(0, "a", Rows("a", 10, "v"));  // written NONE: an alter to GZ never compacted
  const Advice a = Advise(t);
  const Finding* f = Find(a, "descriptor-files-disagree", "a");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->figures.at("files_other_codec"), 1);
  EXPECT_EQ(f->figures.at("files_other_bloom"), 0);
  TestTable u("advise-alter-done", {Family("a", {{"COMPRESSION", "GZ"}})});
  WriterOptions gz;
  gz.compression = Compression::kGz;
  u.Write(0, "a", Rows("a", 10, "v"), gz);
  EXPECT_FALSE(Has(Advise(u), "descriptor-files-disagree"));
}

TEST(Advise, BloomAgainstData) {
  TestTable t("advise-bloom",
              {Family("a", {{"BLOOMFILTER", "ROWCOL"}}), Family("b", {{"BLOOMFILTER", "ROWCOL"}}),
               Family("c", {{"BLOOMFILTER", "NONE"}})});
  WriterOptions rowcol;
  rowcol.bloom_type = BloomType::kRowCol;
  t.Write(0, "a", Rows("a", 20, "v"), rowcol);
  auto two = Rows("b", 20, "v");
  auto more = Rows("b", 20, "v", kNow - 1000, "q2");
  two.insert(two.end(), more.begin(), more.end());
  t.Write(0, "b", two, rowcol);
  WriterOptions none;
  none.bloom_type = BloomType::kNone;
  t.Write(0, "c", Rows("c", 20, "v", kNow - 7), none);
  const Advice a = Advise(t);
  EXPECT_NE(Find(a, "rowcol-bloom-one-column", "a"), nullptr);
  EXPECT_EQ(Find(a, "rowcol-bloom-one-column", "b"), nullptr);
  EXPECT_NE(Find(a, "no-bloom", "c"), nullptr);
  EXPECT_EQ(Find(a, "no-bloom", "a"), nullptr);
}

TEST(Advise, BlockSizeAgainstCells) {
  TestTable t("advise-block", {Family("a", {{"BLOCKSIZE", "4096"}})});
  t.Write(0, "a", Rows("a", 20, std::string(20000, 'z')));
  const Advice a = Advise(t);
  const Finding* f = Find(a, "block-smaller-than-cells", "a");
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->fix.find("BLOCKSIZE => 32768"), std::string::npos);
  TestTable u("advise-block-ok", {Family("a")});
  u.Write(0, "a", Rows("a", 20, std::string(20000, 'z')));
  EXPECT_FALSE(Has(Advise(u), "block-smaller-than-cells"));
}

TEST(Advise, FamilyImbalanceAndItsCost) {
  TestTable t("advise-imbalance", {Family("big"), Family("s")}, {"r000100", "r000200"});
  for (int r = 0; r < 3; ++r) {
    t.Write(r, "big", Rows("big", 100, std::string(2000, 'b'), kNow - 10, "q", r * 100));
    t.Write(r, "s", Rows("s", 2, "v", kNow - 10, "q", r * 100));
  }
  const Advice a = Advise(t);
  const Finding* f = Find(a, "family-imbalance", "s");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->figures.at("regions_touched"), 3);
  EXPECT_EQ(f->figures.at("regions_needed"), 1);
  EXPECT_EQ(f->figures.at("row_ratio"), 50);
  TestTable u("advise-balanced", {Family("big"), Family("s")});
  u.Write(0, "big", Rows("big", 100, std::string(50, 'b')));
  u.Write(0, "s", Rows("s", 100, std::string(40, 'b'), kNow - 20));
  EXPECT_FALSE(Has(Advise(u), "family-imbalance"));
  // The same rows with values 400x apart (small metadata beside large bodies): what families
  // are for, not an imbalance.
  TestTable v("advise-split-by-size", {Family("body"), Family("meta")});
  v.Write(0, "body", Rows("body", 100, std::string(20000, 'b')));
  v.Write(0, "meta", Rows("meta", 100, std::string(50, 'm')));
  EXPECT_FALSE(Has(Advise(v), "family-imbalance"));
  // Sampled: the big family's rows are estimated from the sample's cells per row.
  AdviseOptions sampled;
  sampled.sample_blocks = 4;
  sampled.trial_blocks = 0;
  const Advice est = Advise(t, sampled);
  const Finding* e = Find(est, "family-imbalance", "s");
  ASSERT_NE(e, nullptr);
  EXPECT_NEAR(e->figures.at("row_ratio"), 50, 5);
  EXPECT_FALSE(Has(Advise(v, sampled), "family-imbalance"));
}

TEST(Advise, ColdFamilySmallFlushes) {
  TestTable t("advise-cold", {Family("hot"), Family("cold")});
  t.Write(0, "hot", Rows("hot", 1000, std::string(200, 'h')));
  for (int i = 0; i < 3; ++i) t.Write(0, "cold", Rows("cold", 2, "c", kNow - 10 - i, "q", i * 2));
  const Advice a = Advise(t);
  const Finding* f = Find(a, "cold-family-small-flushes", "cold");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->figures.at("store_files"), 3);
  TestTable u("advise-warm", {Family("hot"), Family("cold")});
  u.Write(0, "hot", Rows("hot", 400, std::string(200, 'h')));
  u.Write(0, "cold", Rows("cold", 2, "c"));  // one file per store: no flush pattern
  EXPECT_FALSE(Has(Advise(u), "cold-family-small-flushes"));
}

TEST(Advise, RegionSizesCountsAndFiles) {
  TestTable t("advise-regions", {Family("a")}, {"r000100"});
  t.Write(0, "a", Rows("a", 100, std::string(1000, 'a')));
  for (int i = 0; i < 4; ++i) t.Write(1, "a", Rows("a", 10, "v", kNow - 10 - i, "q", 100 + 10 * i));
  AdviseOptions o;
  o.trial_blocks = 0;
  const Advice dflt = Advise(t, o);
  EXPECT_NE(Find(dflt, "regions-small"), nullptr);  // 2 regions of kilobytes
  EXPECT_EQ(Find(dflt, "region-too-large"), nullptr);
  EXPECT_EQ(Find(dflt, "store-files-blocking"), nullptr);
  EXPECT_EQ(Find(dflt, "directory-items"), nullptr);
  EXPECT_EQ(Find(dflt, "many-regions"), nullptr);
  o.large_region_bytes = 50000;
  o.small_region_bytes = 1000;
  o.blocking_store_files = 4;
  o.max_directory_items = 30;
  o.many_regions = 1;
  const Advice low = Advise(t, o);
  const Finding* big = Find(low, "region-too-large");
  ASSERT_NE(big, nullptr);
  EXPECT_EQ(big->region, t.regions[0].EncodedName());
  EXPECT_EQ(big->fix.rfind(
                "hfile split " + t.table_dir + "/" + t.regions[0].EncodedName() + " --into ", 0),
            0u);
  EXPECT_EQ(Find(low, "regions-small"), nullptr);
  const Finding* blocking = Find(low, "store-files-blocking");
  ASSERT_NE(blocking, nullptr);
  EXPECT_EQ(blocking->region, t.regions[1].EncodedName());
  EXPECT_NE(Find(low, "directory-items"), nullptr);
  EXPECT_NE(Find(low, "many-regions"), nullptr);
}

TEST(Advise, SamplingIsBoundedAndSaid) {
  TestTable t("advise-sample", {Family("a", {{"BLOCKSIZE", "1024"}})});
  t.Write(0, "a", Rows("a", 5000, std::string(100, 'v')));
  AdviseOptions o;
  o.sample_blocks = 4;
  o.trial_blocks = 0;
  const Advice a = Advise(t, o);
  ASSERT_EQ(a.families.size(), 1u);
  EXPECT_TRUE(a.families[0].sampled);
  EXPECT_LT(a.families[0].cells, 100u);
  EXPECT_EQ(a.families[0].trailer_cells, 5000u);
  ASSERT_FALSE(a.sampling.empty());
  EXPECT_NE(a.sampling[0].find("of 5000 cells"), std::string::npos);
  o.sample_blocks = 0;
  const Advice all = Advise(t, o);
  EXPECT_FALSE(all.families[0].sampled);
  EXPECT_EQ(all.families[0].cells, 5000u);
}

TEST(Advise, OutputsCarryTheFindings) {
  TestTable t("advise-out", {Family("a", {{"VERSIONS", "500"}})});
  t.Write(0, "a", Rows("a", 10, "v"));
  const Advice a = Advise(t);
  const std::string text = AdviceText(a), json = AdviceJson(a), html = AdviceHtml(a);
  EXPECT_NE(text.find("warn versions-without-ttl family a"), std::string::npos);
  EXPECT_NE(json.find("\"code\":\"versions-without-ttl\""), std::string::npos);
  EXPECT_NE(html.find("data-code=\"versions-without-ttl\""), std::string::npos);
  EXPECT_NE(html.find("<svg"), std::string::npos);
  EXPECT_NE(html.find("id=\"cell-sizes\""), std::string::npos);
}

TEST(Advise, UnreadableFileIsAFindingNotAnError) {
  TestTable t("advise-unreadable", {Family("a")});
  t.Write(0, "a", Rows("a", 10, "v"));
  test::WriteFileOrDie(t.Dir(0, "a") + "/" + TestTable::fmt(9999), std::string(5000, 'x'));
  const Advice a = Advise(t);
  const Finding* f = Find(a, "unreadable-file", "a");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, AdviceSeverity::kError);
  EXPECT_EQ(f->fix.rfind("hfile verify ", 0), 0u);
  ASSERT_EQ(a.families.size(), 1u);
  EXPECT_EQ(a.families[0].store_files, 1u);  // the readable one is still measured
  EXPECT_EQ(a.families[0].cells, 10u);
  TestTable u("advise-readable", {Family("a")});
  u.Write(0, "a", Rows("a", 10, "v"));
  EXPECT_FALSE(Has(Advise(u), "unreadable-file"));
  // Damage inside a data block: the file opens, its cells stop at the bad checksum.
  const std::string path = test::ListFilesRecursive(u.Dir(0, "a"))[0];
  std::string bytes = test::ReadFileOrDie(path);
  bytes[100] ^= 0x55;
  test::WriteFileOrDie(path, bytes);
  const Advice d = Advise(u);
  const Finding* g = Find(d, "unreadable-file", "a");
  ASSERT_NE(g, nullptr);
  EXPECT_NE(g->message.find("cannot all be read"), std::string::npos) << g->message;
  EXPECT_EQ(d.families[0].store_files, 1u);
}

TEST(Advise, TrialsThatCannotRunAreSaid) {
  TestTable t("advise-trialfail", {Family("a")});
  t.Write(0, "a", Rows("a", 2000, std::string(40, 'v')));  // enough bytes for codec trials
  AdviseOptions o;
  o.tmp_dir = t.root + "/no-such-dir";
  const Advice a = Advise(t, o);
  ASSERT_TRUE(Has(a, "trial-failed", "a"));
  EXPECT_TRUE(a.families[0].trials.empty());
  o.tmp_dir = test::NewTempDir("advise-trialok");
  const Advice b = Advise(t, o);
  EXPECT_FALSE(Has(b, "trial-failed"));
  EXPECT_FALSE(b.families[0].trials.empty());
  // A family of a few hundred bytes gets no codec trials (they would measure file overhead).
  TestTable small("advise-trialsmall", {Family("a")});
  small.Write(0, "a", Rows("a", 10, "v"));
  const Advice c = Advise(small, o);
  EXPECT_TRUE(c.families[0].trials.empty());
  EXPECT_FALSE(Has(c, "trial-failed"));
  ASSERT_FALSE(c.sampling.empty());
  EXPECT_NE(c.sampling.back().find("no codec trials"), std::string::npos);
}

TEST(Advise, WideRowsKeepMemoryBoundedAndSkipTheTogetherRule) {
  // Two families with the same one row of 5000 versions-free columns: alike, but the row is
  // wider than the fingerprint keeps, so the rule says nothing rather than guess.
  auto wide = [](const std::string& family) {
    std::vector<CellData> v;
    for (int i = 0; i < 5000; ++i)
      v.push_back(CellData::Make("row", family, "q" + std::to_string(100000 + i), kNow - 10 - i,
                                 KeyType::kPut, "v", 1));
    return v;
  };
  TestTable t("advise-wide", {Family("a"), Family("b")});
  t.Write(0, "a", wide("a"));
  t.Write(0, "b", wide("b"));
  AdviseOptions o;
  o.sample_blocks = 0;
  o.trial_blocks = 0;
  const Advice a = Advise(t, o);
  EXPECT_TRUE(a.families[0].fingerprint_partial);
  EXPECT_FALSE(Has(a, "families-written-together"));
  // The same row 4000 columns wide: within the cap, and found.
  TestTable u("advise-narrow", {Family("a"), Family("b")});
  auto na = wide("a"), nb = wide("b");
  na.resize(4000);
  nb.resize(4000);
  u.Write(0, "a", na);
  u.Write(0, "b", nb);
  EXPECT_TRUE(Has(Advise(u, o), "families-written-together"));
}

// Splits a command line as a POSIX shell does for plain words, '...' and "..." (no expansions:
// the fixes the advisor prints contain none).
std::vector<std::string> ShellSplit(const std::string& line) {
  std::vector<std::string> words;
  std::string w;
  bool in_word = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (c == ' ') {
      if (in_word) words.push_back(w), w.clear(), in_word = false;
    } else if (c == '\'' || c == '"') {
      const size_t end = line.find(c, i + 1);
      w += line.substr(i + 1, end - i - 1);
      i = end;
      in_word = true;
    } else {
      w += c;
      in_word = true;
    }
  }
  if (in_word) words.push_back(w);
  return words;
}

// Runs a fix line ("hfile <tool> ARGS...") in-process; returns the tool's exit code.
int RunFix(const std::string& fix, std::string* output) {
  std::vector<std::string> words = ShellSplit(fix);
  if (words.size() < 2 || words[0] != "hfile") return -1;
  const std::string tool = words[1];
  words.erase(words.begin());
  words[0] = "hfile-" + tool;
  words.push_back("--now");
  words.push_back(std::to_string(kNow));
  std::vector<const char*> argv;
  for (const auto& x : words) argv.push_back(x.c_str());
  std::ostringstream out, err;
  int rc = -1;
  const int argc = static_cast<int>(argv.size());
  if (tool == "alter") rc = cli::RunAlterTool(argc, argv.data(), out, err);
  if (tool == "compact") rc = cli::RunCompactTool(argc, argv.data(), out, err);
  if (tool == "copy-family") rc = cli::RunCopyFamilyTool(argc, argv.data(), out, err);
  if (tool == "split") rc = cli::RunSplitTool(argc, argv.data(), out, err);
  *output = out.str() + err.str();
  return rc;
}

// The fix each finding prints is a command line our tools run, and after it the finding is gone.
TEST(Advise, TheFixesFix) {
  TestTable t("advise-fixes",
              {Family("document_metadata", {{"VERSIONS", "200"}}), Family("e", {{"TTL", "86400"}}),
               Family("z", {{"COMPRESSION", "GZ"}})},
              {"r001000"});
  t.Write(0, "document_metadata", Rows("document_metadata", 1000, std::string(300, 'm')));
  t.Write(1, "document_metadata", Rows("document_metadata", 3000, "v", kNow - 10, "q", 1000));
  t.Write(0, "z", Rows("z", 900, "v"));  // NONE under a GZ descriptor
  t.Write(1, "e", Rows("e", 10, "old", kNow - 3 * kDay, "q", 1000));
  t.Write(1, "e", Rows("e", 10, "new", kNow - 10, "q", 1010));
  AdviseOptions o;
  o.large_region_bytes = 300000;  // region 0 (about 430 KB) only
  const Advice before = Advise(t, o);
  for (const char* code : {"versions-without-ttl", "descriptor-files-disagree", "expired-data",
                           "long-family-name", "region-too-large"}) {
    const Finding* f = Find(before, code);
    ASSERT_NE(f, nullptr) << code;
    std::string output;
    ASSERT_EQ(RunFix(f->fix, &output), 0) << f->fix << "\n" << output;
    const Advice after = Advise(t, o);
    EXPECT_FALSE(Has(after, code)) << code << " still there after " << f->fix;
  }
}

// A file of another writer (Apache Hudi's HFile: raw-bytes comparator, no blooms) in a family
// dir: measured like any other, nothing crashes.
TEST(Advise, RawBytesFileInAFamilyDir) {
  HFILE_REQUIRE_REAL_DATA();
  TestTable t("advise-hudi", {Family("a")});
  std::filesystem::copy_file(
      test::RealDataDir() + "/hudi-rs/hudi_1_0_hbase_2_4_9_16KB_NONE_5000.hfile",
      t.Dir(0, "a") + "/" + TestTable::fmt(7777));
  const Advice a = Advise(t);
  ASSERT_EQ(a.families.size(), 1u);
  EXPECT_EQ(a.families[0].store_files, 1u);
  EXPECT_EQ(a.families[0].trailer_cells, 5000u);
  EXPECT_EQ(a.families[0].rows, 5000u);  // one record key per row
  EXPECT_FALSE(Has(a, "unreadable-file"));
  EXPECT_TRUE(Has(a, "descriptor-files-disagree", "a"));  // no bloom under a ROW family
}

// A real HBase 2.2.3 table (hbase:namespace): no crash, the same findings every run.
TEST(Advise, GoldenRealHBaseTable) {
  HFILE_REQUIRE_REAL_DATA();
  AdviseOptions o;
  o.root_dir = test::RealDataDir() + "/hbase-2.2.3-rootdir";
  o.table = "hbase:namespace";
  o.now_ms = kNow;
  o.tmp_dir = test::NewTempDir("advise-golden");
  auto a = AdviseTable(o);
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  auto b = AdviseTable(o);
  ASSERT_TRUE(b.ok());
  std::vector<std::string> codes, again;
  for (const auto& f : a->findings) codes.push_back(f.code + "/" + f.family);
  for (const auto& f : b->findings) again.push_back(f.code + "/" + f.family);
  EXPECT_EQ(codes, again);
  ASSERT_EQ(a->families.size(), 1u);
  EXPECT_EQ(a->families[0].name, "info");
  EXPECT_EQ(a->families[0].cells, 2u);
  // hbase:namespace's family info: VERSIONS => 10 (HBase's own schema), a 4-byte name in
  // 2 small cells.
  EXPECT_EQ(codes,
            (std::vector<std::string>{"versions-without-ttl/info", "long-family-name/info"}));
  // HBase's own table: facts, not changes to make.
  for (const auto& f : a->findings) EXPECT_EQ(f.fix.rfind("none: hbase:namespace", 0), 0u) << f.fix;
}

// Real HBase-written files in a split layout (an HFileLink, a split parent and its daughters'
// references, a bulk-loaded file): every file read through its link or half, stable findings.
TEST(Advise, GoldenRealFilesInASplitLayout) {
  HFILE_REQUIRE_REAL_DATA();
  const SyntheticTable t = MakeTable("advise-split");
  AdviseOptions o;
  o.table_dir = t.table_dir;
  o.now_ms = kNow;
  o.tmp_dir = test::NewTempDir("advise-split-tmp");
  auto a = AdviseTable(o);
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  auto b = AdviseTable(o);
  ASSERT_TRUE(b.ok());
  std::vector<std::string> codes, again;
  for (const auto& f : a->findings) codes.push_back(f.code + "/" + f.family);
  for (const auto& f : b->findings) again.push_back(f.code + "/" + f.family);
  EXPECT_EQ(codes, again);
  EXPECT_EQ(a->regions.size(), 4u);  // the split parent is left out
  ASSERT_EQ(a->families.size(), 1u);
  const FamilyMeasure& cf = a->families[0];
  EXPECT_EQ(cf.store_files, 8u);
  EXPECT_EQ(cf.regions_with_files, 4u);
  EXPECT_FALSE(cf.sampled);
  // Tiny regions of a few KB each; the data rules find nothing to say about 8 small files.
  EXPECT_EQ(codes, (std::vector<std::string>{"regions-small/"}));
}

}  // namespace
}  // namespace hfile::region
