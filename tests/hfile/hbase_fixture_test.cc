// HFiles written by real HBase 2.6 through the harness (testdata/hbase/, see its README): our
// reader must see exactly what HBase's reader saw (.hbase.jsonl) and what the harness wrote
// (.cells.jsonl), answer every bloom probe as HBase did, and verify clean.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "dump_internal.h"
#include "hfile/dump.h"
#include "hfile/escape.h"
#include "hfile/reader.h"
#include "hfile/verify.h"
#include "testutil.h"

namespace hfile {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::vector<json> ReadJsonLines(const std::string& path) {
  std::vector<json> out;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty()) out.push_back(json::parse(line));
  }
  return out;
}

std::vector<json> OfKind(const std::vector<json>& records, const std::string& kind) {
  std::vector<json> out;
  for (const auto& r : records)
    if (r.value("kind", "") == kind) out.push_back(r);
  return out;
}

std::vector<std::string> Fixtures() {
  std::vector<std::string> out;
  std::string dir = test::ProjectTestDataDir() + "/hbase";
  if (!fs::is_directory(dir)) return out;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".hfile") out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

std::string Bytes(const json& j) {
  auto b = FromStringBinary(j.get<std::string>());
  EXPECT_TRUE(b.has_value()) << j;
  return b.value_or("");
}

class HBaseFixture : public ::testing::TestWithParam<std::string> {};

TEST(HBaseFixtures, Present) {
  // The fixtures are committed; an empty list means a broken checkout, not a skip.
  EXPECT_GE(Fixtures().size(), 10u);
}

TEST_P(HBaseFixture, CellsTrailerAndFileInfoEqualHBasesReading) {
  const std::string path = GetParam();
  const std::string base = path.substr(0, path.size() - strlen(".hfile"));
  auto hbase = ReadJsonLines(base + ".hbase.jsonl");
  ASSERT_FALSE(hbase.empty());

  DumpOptions o;
  o.json = true;
  o.print_cells = true;
  o.print_meta = true;
  std::ostringstream out, err;
  Status s = DumpFile(path, o, out, err, nullptr);
  ASSERT_TRUE(s.ok()) << s.ToString();
  std::vector<json> ours;
  std::istringstream lines(out.str());
  for (std::string line; std::getline(lines, line);) {
    ours.push_back(json::parse(line));
    // Every record names the file it comes from and the schema version (hfile-json(7));
    // HBase's reading does not.
    EXPECT_EQ(ours.back().value("path", ""), path) << line;
    EXPECT_EQ(ours.back().value("v", 0), 1) << line;
    ours.back().erase("path");
    ours.back().erase("v");
  }

  // Trailer: every field HBase reported.
  auto ht = OfKind(hbase, "trailer"), ot = OfKind(ours, "trailer");
  ASSERT_EQ(ht.size(), 1u);
  ASSERT_EQ(ot.size(), 1u);
  for (auto& [k, v] : ht[0].items()) EXPECT_EQ(ot[0][k], v) << "trailer field " << k;

  // File info: the same keys and raw values.
  auto hf = OfKind(hbase, "fileinfo"), of = OfKind(ours, "fileinfo");
  ASSERT_EQ(hf.size(), of.size());
  for (size_t i = 0; i < hf.size(); ++i) {
    EXPECT_EQ(of[i]["key"], hf[i]["key"]);
    EXPECT_EQ(of[i]["value"], hf[i]["value"]) << hf[i]["key"];
  }

  // Cells: identical records in identical order.
  auto hc = OfKind(hbase, "cell"), oc = OfKind(ours, "cell");
  ASSERT_EQ(hc.size(), oc.size());
  for (size_t i = 0; i < hc.size(); ++i) ASSERT_EQ(oc[i], hc[i]) << "cell " << i;

  // And they are the cells the harness wrote.
  auto expected = ReadJsonLines(base + ".cells.jsonl");
  ASSERT_EQ(expected.size(), oc.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    for (auto& [k, v] : expected[i].items()) EXPECT_EQ(oc[i][k], v) << "cell " << i << " " << k;
  }

  // HBase's own checks found nothing.
  for (const auto& c : OfKind(hbase, "check")) EXPECT_TRUE(c["ok"].get<bool>()) << c;
}

// C1 (../shared/testdata/defects): HBase 2.6.4 wrote this file through Hadoop's Lz4Codec with a
// pooled compressor built with a smaller buffer size, so its block framing ends with a repeated
// raw length. The .cells.jsonl beside it is HBase's own reading of it (the probe harness's
// format: "k" records, bytes in hex); our cells must be exactly those, and the file verify clean.
TEST(HBaseDefectReproducers, C1_HadoopLz4PooledSmallBufferCellsEqualHBasesReading) {
  HFILE_REQUIRE_DEFECTS();
  const std::string base = test::DefectsDir() + "/hadoop-lz4codec-pooled-small-buffer";
  std::vector<json> expected;
  for (const auto& rec : ReadJsonLines(base + ".cells.jsonl")) {
    if (rec.value("k", "") == "cell") expected.push_back(rec);
  }
  ASSERT_FALSE(expected.empty());
  auto reader = Reader::Open(base + ".hfile");
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  auto hex = [](const Slice& s) { return ToHex(s); };
  auto it = (*reader)->NewIterator();
  size_t n = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next(), ++n) {
    ASSERT_LT(n, expected.size());
    const Cell& c = it->cell();
    const json& e = expected[n];
    EXPECT_EQ(hex(c.row()), e["r"].get<std::string>()) << "cell " << n;
    EXPECT_EQ(hex(c.family()), e["f"].get<std::string>()) << "cell " << n;
    EXPECT_EQ(hex(c.qualifier()), e["q"].get<std::string>()) << "cell " << n;
    EXPECT_EQ(c.timestamp(), e["ts"].get<int64_t>()) << "cell " << n;
    EXPECT_EQ(c.type(), e["t"].get<int>()) << "cell " << n;
    EXPECT_EQ(hex(c.value), e["v"].get<std::string>()) << "cell " << n;
    EXPECT_EQ(c.sequence_id, e["s"].get<uint64_t>()) << "cell " << n;
    EXPECT_TRUE(c.tags.empty() && e["tags"].empty()) << "cell " << n;
  }
  ASSERT_TRUE(it->status().ok()) << it->status().ToString();
  EXPECT_EQ(n, expected.size());
  VerifyReport r = VerifyFile(base + ".hfile", VerifyOptions());
  EXPECT_TRUE(r.clean()) << r.problems.size();
  EXPECT_EQ(r.warning_count, 0u);
}

TEST_P(HBaseFixture, BloomAnswersEqualHBases) {
  const std::string path = GetParam();
  const std::string base = path.substr(0, path.size() - strlen(".hfile"));
  auto hbase = ReadJsonLines(base + ".hbase.jsonl");
  auto reader = Reader::Open(path);
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  for (const auto& probe : OfKind(hbase, "bloom")) {
    std::string row = Bytes(probe["row"]);
    Result<bool> ours = false;
    if (probe["filter"] == "delete_family") {
      ours = (*reader)->DeleteFamilyBloomMightContain(row);
    } else if (probe["qualifier"].is_null()) {
      ours = (*reader)->BloomMightContainRow(row);
    } else {
      ours = (*reader)->BloomMightContainColumn(row, Bytes(probe["family"]),
                                                Bytes(probe["qualifier"]));
    }
    ASSERT_TRUE(ours.ok()) << ours.status().ToString();
    EXPECT_EQ(*ours, probe["answer"].get<bool>()) << probe;
  }
}

TEST_P(HBaseFixture, VerifiesCleanWithoutWarnings) {
  VerifyReport r = VerifyFile(GetParam(), {});
  std::ostringstream out;
  PrintVerifyReport(r, false, out);
  EXPECT_TRUE(r.clean()) << out.str();
  EXPECT_EQ(r.warning_count, 0u) << out.str();
}

TEST_P(HBaseFixture, SeeksLandWhereAScanSays) {
  auto reader = Reader::Open(GetParam());
  ASSERT_TRUE(reader.ok());
  std::vector<std::string> keys;
  auto it = (*reader)->NewIterator();
  for (it->SeekToFirst(); it->Valid(); it->Next()) keys.push_back(it->cell().key.ToString());
  ASSERT_TRUE(it->status().ok());
  auto seeker = (*reader)->NewIterator();
  for (size_t i = 0; i < keys.size(); i += 7) {
    seeker->Seek(keys[i]);
    ASSERT_TRUE(seeker->Valid());
    // The first cell >= keys[i]: an equal key, possibly an earlier duplicate.
    EXPECT_EQ(CompareKeys((*reader)->comparator(), seeker->cell().key, keys[i]), 0);
  }
}

std::string FixtureName(const ::testing::TestParamInfo<std::string>& info) {
  std::string n = fs::path(info.param).stem().string();
  for (char& c : n)
    if (!isalnum(static_cast<unsigned char>(c))) c = '_';
  return n;
}

INSTANTIATE_TEST_SUITE_P(Committed, HBaseFixture, ::testing::ValuesIn(Fixtures()), FixtureName);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(HBaseFixture);

}  // namespace
}  // namespace hfile
