// Compacted-away leftovers (D10): store files named in another store file's
// COMPACTION_EVENT_KEY are not read, as HBase 2.2+ drops them on store open, and describe and
// verify report them. The planner and the region reader share FindCompactedAway.
#include "region/compacted_files.h"

#include "hfile/file_info.h"

#include <gtest/gtest.h>

#include <sstream>

#include "hfile/reader.h"
#include "region/compact.h"
#include "region/describe.h"
#include "region/region_dump.h"
#include "region/region_set.h"
#include "region/verify_region.h"
#include "store_fixture.h"
#include "testutil.h"

namespace hfile::region {
namespace {

using store_fixture::Put;
using store_fixture::Table;
using store_fixture::WriteStoreFile;

constexpr char kOld[] = "aaaa0000000000000000000000000001";     // compacted away
constexpr char kOutput[] = "bbbb0000000000000000000000000002";  // names kOld
constexpr char kFlush[] = "cccc0000000000000000000000000003";   // unrelated, newer

// hfile::DecodeCompactionEvent parses with protobuf, as HBase does: all or nothing.
TEST(DecodeCompactionEvent, NamesTruncationAndNoPrefix) {
  using namespace std::string_literals;
  EXPECT_EQ(hfile::DecodeCompactionEvent("PBUF\x0a\x03" "abc\x0a\x01" "d"s),
            (std::vector<std::string>{"abc", "d"}));
  EXPECT_EQ(hfile::DecodeCompactionEvent("PBUF"s), std::vector<std::string>{});  // a flush
  EXPECT_FALSE(hfile::DecodeCompactionEvent("\x0a\x03" "abc"s));
  // A length running past the end: damage, no names.
  EXPECT_FALSE(hfile::DecodeCompactionEvent("PBUF\x0a\x01x\x0a\x09" "ab"s));
  // A field of another wire type is an unknown field to protobuf (and to HBase): skipped.
  EXPECT_EQ(hfile::DecodeCompactionEvent("PBUF\x08\x01\x0a\x01x"s), std::vector<std::string>{"x"});
  std::string enc;
  EncodeCompactionEvent({"abc", "d"}, &enc);
  EXPECT_EQ(enc, "PBUF\x0a\x03" "abc\x0a\x01" "d"s);
}

TEST(FindCompactedAway, PresentOthersOnlyOnceInOrder) {
  std::vector<StoreFileCompactionEvent> store = {
      {"a", {}}, {"b", {"a", "gone", "b"}}, {"c", {"a", "d"}}, {"d", {}}};
  auto away = FindCompactedAway(store);
  ASSERT_EQ(away.size(), 2u);
  EXPECT_EQ(away[0].name, "a");  // absent "gone" and b naming itself are ignored
  EXPECT_EQ(away[0].named_by, "b");
  EXPECT_EQ(away[1].name, "d");
  EXPECT_EQ(away[1].named_by, "c");
  EXPECT_TRUE(FindCompactedAway(std::vector<StoreFileCompactionEvent>{}).empty());
}

// A compaction that committed kOutput (the merge of kOld) and died before archiving kOld.
Table CrashedCompaction(const std::string& name) {
  Table t(name, {"f"});
  const std::string f = t.Family("f");
  WriteStoreFile(f + kOld, {Put("r1", "f", "q", 1), Put("r2", "f", "q", 2)}, 2);
  WriteStoreFile(f + kOutput, {Put("r1", "f", "q", 1), Put("r2", "f", "q", 2)}, 2,
                 std::vector<std::string>{kOld, "dddd0000000000000000000000000004"});
  WriteStoreFile(f + kFlush, {Put("r3", "f", "q", 5)}, 5);
  return t;
}

TEST(CompactedAway, RegionReadsOnlyWhatHBaseReads) {
  Table t = CrashedCompaction("compacted-away");
  for (bool whole_table : {false, true}) {
    SCOPED_TRACE(whole_table ? "table" : "region");
    auto set = whole_table ? OpenTableRegions(t.table_dir) : OpenRegionDirRegions(t.region_dir);
    ASSERT_TRUE(set.ok()) << set.status().ToString();
    ASSERT_EQ(set->regions.size(), 1u);
    const FamilyDir* fd = set->regions[0].FindFamily("f");
    ASSERT_NE(fd, nullptr);
    ASSERT_EQ(fd->store_files.size(), 2u);
    EXPECT_EQ(fd->store_files[0].name.name, kOutput);
    EXPECT_EQ(fd->store_files[1].name.name, kFlush);
    ASSERT_EQ(fd->compacted_away.size(), 1u);
    EXPECT_EQ(fd->compacted_away[0].file.name.name, kOld);
    EXPECT_EQ(fd->compacted_away[0].named_by, kOutput);

    // The merged dump holds each cell once.
    RegionDumpOptions o;
    o.dump.print_keys = true;
    std::ostringstream out, err;
    RegionDumpResult r;
    ASSERT_TRUE(DumpRegionSetCells(*set, o, out, err, &r).ok()) << err.str();
    EXPECT_EQ(r.cells, 3u) << out.str();
    EXPECT_EQ(r.store_files, 2u);

    // Verify: clean, one warning naming both files; the leftover's bytes are still verified.
    RegionVerifyReport v = VerifyRegionSet(*set, {});
    std::ostringstream vt;
    PrintRegionVerifyReport(v, false, false, vt);
    EXPECT_TRUE(v.clean()) << vt.str();
    EXPECT_EQ(v.warnings, 1u) << vt.str();
    EXPECT_EQ(v.store_files, 2u);
    EXPECT_EQ(v.files.size(), 3u);
    const std::string s = vt.str();
    EXPECT_NE(s.find(std::string("f/") + kOld + ": compacted-away leftover: the "
                     "COMPACTION_EVENT_KEY of " + kOutput + " names it, so HBase does not "
                     "read it"), std::string::npos) << s;
    EXPECT_NE(s.find("the next `hfile compact` archives it"), std::string::npos) << s;

    // Describe lists it apart from the store files.
    RegionSetSummary sum = SummarizeRegionSet(*set);
    EXPECT_EQ(sum.store_files, 2u);
    EXPECT_EQ(sum.cells, 3u);
    std::ostringstream text, json;
    DescribeRegionSet(*set, sum, {}, text);
    EXPECT_NE(text.str().find("family f: 2 store files"), std::string::npos) << text.str();
    EXPECT_NE(text.str().find("1 compacted-away leftovers not read"), std::string::npos)
        << text.str();
    EXPECT_NE(text.str().find("compacted-away leftover: the COMPACTION_EVENT_KEY of"),
              std::string::npos) << text.str();
    DescribeOptions jo;
    jo.json = true;
    DescribeRegionSet(*set, sum, jo, json);
    EXPECT_NE(json.str().find("\"compacted_away\":1"), std::string::npos) << json.str();
  }
}

TEST(CompactedAway, PlannerAgreesWithTheReader) {
  Table t = CrashedCompaction("compacted-away-plan");
  auto plan = PlanCompaction(t.region_dir, CompactOptions{});
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  ASSERT_EQ(plan->regions.size(), 1u);
  ASSERT_EQ(plan->regions[0].stores.size(), 1u);
  const StorePlan& sp = plan->regions[0].stores[0];
  EXPECT_EQ(sp.already_compacted, std::vector<std::string>{kOld});
  ASSERT_EQ(sp.files.size(), 2u);
  for (const auto& f : sp.files) EXPECT_NE(f.name, kOld);
}

// A snapshot keeps what its manifest lists (its readers go through HFileLinks, whose names
// do not match), and the summary warns.
TEST(CompactedAway, SnapshotKeepsBothAndWarns) {
  Table t = CrashedCompaction("compacted-away-snapshot");
  auto region = OpenRegionDirRegions(t.region_dir);
  ASSERT_TRUE(region.ok()) << region.status().ToString();
  RegionSet snap = *region;
  snap.kind = RegionSet::Kind::kSnapshot;
  FamilyDir& fd = snap.regions[0].families[0];
  for (auto& left : fd.compacted_away) fd.store_files.push_back(left.file);
  fd.compacted_away.clear();
  RegionSetSummary sum = SummarizeRegionSet(snap);
  EXPECT_EQ(sum.store_files, 3u);
  bool warned = false;
  for (const auto& p : sum.problems)
    warned = warned || (p.file == kOld && p.severity == LayoutProblem::Severity::kWarning &&
                        p.what.find("compacted-away leftover captured by the snapshot: the "
                                    "COMPACTION_EVENT_KEY of " + std::string(kOutput)) == 0);
  EXPECT_TRUE(warned);
}

// D10: the root dir a compaction killed after its commit left behind.
TEST(CompactedAwayDefect, D10DumpReadsEachCellOnce) {
  HFILE_REQUIRE_DEFECTS();
  const std::string root = test::DefectsDir() + "/dump-doubles-after-compact-crash";
  const std::string table = root + "/data/hbase/namespace";
  const std::string family = table + "/077a6e561e777ff7d7b235487e686aa9/info/";
  const std::string output = "84d19ab2dfac4ca38bd4356145730f9d";  // names the input
  const std::string input = "644db0f0580544e7a93dece6f0b429b1";
  auto set = OpenTableRegions(table);
  ASSERT_TRUE(set.ok()) << set.status().ToString();
  ASSERT_EQ(set->regions.size(), 1u);
  const FamilyDir* fd = set->regions[0].FindFamily("info");
  ASSERT_NE(fd, nullptr);
  ASSERT_EQ(fd->store_files.size(), 1u);
  EXPECT_EQ(fd->store_files[0].name.name, output);
  ASSERT_EQ(fd->compacted_away.size(), 1u);
  EXPECT_EQ(fd->compacted_away[0].file.name.name, input);
  EXPECT_EQ(fd->compacted_away[0].named_by, output);

  // The cells of the store without the leftover: those of the compaction output alone.
  auto reader = Reader::Open(family + output);
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  uint64_t expected = 0;
  auto it = (*reader)->NewIterator();
  for (it->SeekToFirst(); it->Valid(); it->Next()) ++expected;
  ASSERT_TRUE(it->status().ok());
  ASSERT_GT(expected, 0u);

  RegionDumpOptions o;
  o.dump.print_cells = true;
  std::ostringstream out, err;
  RegionDumpResult r;
  ASSERT_TRUE(DumpRegionSetCells(*set, o, out, err, &r).ok()) << err.str();
  EXPECT_EQ(r.cells, expected) << out.str();

  RegionVerifyReport v = VerifyRegionSet(*set, {});
  std::ostringstream vt;
  PrintRegionVerifyReport(v, false, true, vt);
  const std::string s = vt.str();
  EXPECT_GE(v.warnings, 1u) << s;
  EXPECT_NE(s.find(input + ": compacted-away leftover: the COMPACTION_EVENT_KEY of " + output),
            std::string::npos) << s;
}

}  // namespace
}  // namespace hfile::region
