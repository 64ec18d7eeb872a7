// StoreFileReader, RegionSet, describe, merged dump and VerifyRegionSet over a synthetic table
// built in a temp dir from real HBase-written HFiles (riverbed test_snapshot_v1): a split
// parent with two daughters holding TOP/BOTTOM references, an HFileLink into archive/, a
// bulk-loaded "_SeqId_42_" file and (in one test) a stray name.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "region/describe.h"
#include "region/region_dump.h"
#include "region/region_set.h"
#include "region/store_file_reader.h"
#include "region/verify_region.h"
#include "split_table.h"
#include "../testutil.h"

namespace hfile::region {
namespace {

namespace fs = std::filesystem;

const StoreFile* Find(const RegionSet& set, const RegionInfo& r, const std::string& prefix) {
  for (const auto& rd : set.regions)
    if (rd.encoded_name == r.EncodedName())
      for (const auto& f : rd.families)
        for (const auto& sf : f.store_files)
          if (sf.name.name.starts_with(prefix)) return &sf;
  return nullptr;
}

std::vector<std::string> Rows(const StoreFileReader& r, std::vector<uint64_t>* seqids = nullptr) {
  std::vector<std::string> rows;
  auto it = r.NewIterator();
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    rows.push_back(it->cell().row().ToString());
    if (seqids) seqids->push_back(it->cell().sequence_id);
  }
  EXPECT_TRUE(it->status().ok()) << it->status().ToString();
  return rows;
}

TEST(StoreFileReader, ReferenceHalvesLinksBulkLoad) {
  HFILE_REQUIRE_REAL_DATA();
  SyntheticTable t = MakeTable("region_set_root");
  auto set = OpenTableRegions(t.table_dir);
  ASSERT_TRUE(set.ok()) << set.status().ToString();
  // Both halves of each parent file partition its cells at the first cell of row "l".
  for (const char* f : {kF1, kF2}) {
    SCOPED_TRACE(f);
    const StoreFile* bottom = Find(*set, t.a, f);
    const StoreFile* top = Find(*set, t.b, f);
    ASSERT_TRUE(bottom && top);
    auto rb = StoreFileReader::Open(*bottom);
    auto rt = StoreFileReader::Open(*top);
    ASSERT_TRUE(rb.ok() && rt.ok());
    auto b = Rows(**rb), tp = Rows(**rt);
    EXPECT_EQ(b.size() + tp.size(), (*rb)->hfile().trailer().entry_count);
    for (const auto& row : b) EXPECT_LT(row, "l");
    for (const auto& row : tp) EXPECT_GE(row, "l");
    EXPECT_FALSE(b.empty());
    EXPECT_FALSE(tp.empty());
    // TOP references get the parent's sequence id + 1 (HStoreFile).
    EXPECT_EQ((*rt)->sequence().sequence_id, (*rb)->sequence().sequence_id + 1);
    // Seek below the split key on a TOP half lands on the split row.
    auto it = (*rt)->NewIterator();
    it->Seek(FirstOnRowKey("a"));
    ASSERT_TRUE(it->Valid());
    EXPECT_GE(it->cell().row().ToString(), "l");
  }
  const StoreFile* link = Find(*set, t.first, "t=0123abcd-");
  ASSERT_NE(link, nullptr);
  EXPECT_NE(link->target_path.find("/archive/data/default/t/0123abcd/cf/"), std::string::npos);
  auto rl = StoreFileReader::Open(*link);
  ASSERT_TRUE(rl.ok());
  EXPECT_EQ(Rows(**rl).size(), 4u);
  const StoreFile* bulk = Find(*set, t.last, kZ1);
  ASSERT_NE(bulk, nullptr);
  auto rz = StoreFileReader::Open(*bulk);
  ASSERT_TRUE(rz.ok());
  EXPECT_TRUE((*rz)->sequence().bulk_loaded);
  EXPECT_EQ((*rz)->sequence().sequence_id, 42);
  std::vector<uint64_t> seqids;
  Rows(**rz, &seqids);
  ASSERT_FALSE(seqids.empty());
  for (uint64_t s : seqids) EXPECT_EQ(s, 42u);
}

TEST(RegionSet, SyntheticTableDescribeDumpVerify) {
  HFILE_REQUIRE_REAL_DATA();
  SyntheticTable t = MakeTable("region_set_root");
  auto set = OpenTableRegions(t.root, "t");
  ASSERT_TRUE(set.ok()) << set.status().ToString();
  ASSERT_EQ(set->regions.size(), 5u);
  EXPECT_EQ(set->split_parents, std::vector<std::string>{t.parent.EncodedName()});
  // Start-key order, the parent before its first daughter.
  EXPECT_EQ(set->regions[0].encoded_name, t.first.EncodedName());
  EXPECT_EQ(set->regions[1].encoded_name, t.parent.EncodedName());
  EXPECT_EQ(set->regions[2].encoded_name, t.a.EncodedName());

  RegionSetSummary summary = SummarizeRegionSet(*set);
  EXPECT_EQ(summary.store_files, 10u);
  for (const auto& p : summary.problems) ADD_FAILURE() << p.what;
  std::ostringstream text;
  DescribeRegionSet(*set, summary, {}, text);
  EXPECT_NE(text.str().find("5 regions (1 split parents), 10 store files"), std::string::npos)
      << text.str();
  EXPECT_NE(text.str().find("(2 references)"), std::string::npos);
  EXPECT_NE(text.str().find("(1 links)"), std::string::npos);
  EXPECT_NE(text.str().find("(1 bulk-loaded)"), std::string::npos);
  EXPECT_NE(text.str().find("SPLIT PARENT"), std::string::npos);

  // The merged dump of the synthetic table holds exactly the snapshot's cells, in its order.
  RegionDumpOptions o;
  o.dump.print_keys = true;
  std::ostringstream mine, err;
  RegionDumpResult result;
  ASSERT_TRUE(DumpRegionSetCells(*set, o, mine, err, &result).ok()) << err.str();
  EXPECT_EQ(result.cells, 22u);
  EXPECT_EQ(result.regions, 4u);  // the split parent is skipped
  auto snap = OpenSnapshotRegions(SnapshotV1());
  ASSERT_TRUE(snap.ok()) << snap.status().ToString();
  std::ostringstream theirs;
  ASSERT_TRUE(DumpRegionSetCells(*snap, o, theirs, err, nullptr).ok());
  auto keys = [](const std::string& dump) {
    std::vector<std::string> out;
    std::istringstream in(dump);
    for (std::string line; std::getline(in, line);)
      if (line.starts_with("K: ")) out.push_back(line.substr(0, line.find("/seqid=")));
    return out;
  };
  EXPECT_EQ(keys(mine.str()), keys(theirs.str()));
  EXPECT_NE(mine.str().find("K: tomato/cf:col1/1771913877667/Put/vlen=15/seqid=42"),
            std::string::npos);

  RegionVerifyReport report = VerifyRegionSet(*set, {});
  EXPECT_TRUE(report.clean());
  EXPECT_EQ(report.files.size(), 6u);  // distinct HFiles: references share their parents'
  for (const auto& p : report.problems)
    EXPECT_NE(p.severity, LayoutProblem::Severity::kError) << p.what;
}

TEST(RegionSet, VerifyFindsStrayNamesKeyRangesAndHoles) {
  HFILE_REQUIRE_REAL_DATA();
  SyntheticTable t = MakeTable("region_set_root");
  // A stray name HBase refuses, and a link that drags the whole [f, r) file into [f, l).
  fs::copy_file(RealFile("451664e14acdb5e7e00f1bfd85fd8bf5", kZ2), t.last_cf + "foo.hfile");
  test::WriteFileOrDie(t.table_dir + "/" + t.a.EncodedName() + "/cf/t=" +
                           t.parent.EncodedName() + "-" + kF1, "");
  // A hole: daughter B's range shrinks to [m, r).
  RegionInfo b = t.b;
  b.start_key = "m";
  fs::rename(t.table_dir + "/" + t.b.EncodedName(), t.table_dir + "/" + b.EncodedName());
  std::string bytes;
  b.EncodeTo(&bytes);
  test::WriteFileOrDie(t.table_dir + "/" + b.EncodedName() + "/.regioninfo", bytes);

  auto set = OpenTableRegions(t.table_dir);
  ASSERT_TRUE(set.ok());
  RegionVerifyReport report = VerifyRegionSet(*set, {});
  EXPECT_TRUE(report.corrupt());
  std::ostringstream out;
  PrintRegionVerifyReport(report, false, true, out);
  const std::string s = out.str();
  EXPECT_NE(s.find("foo.hfile: not a valid store file name"), std::string::npos) << s;
  EXPECT_NE(s.find("lie outside the region's key range ['f', 'l'); first row 'mango'"),
            std::string::npos) << s;
  EXPECT_NE(s.find("hole: no region covers ['l', 'm')"), std::string::npos) << s;
  // B's TOP reference still starts at row "l", so "lemon" now falls below B's start "m".
  EXPECT_NE(s.find("(its TOP half) lie outside the region's key range ['m', 'r'); first row "
                   "'lemon'"), std::string::npos) << s;
  EXPECT_EQ(report.errors, 4u) << s;
  std::ostringstream json;
  PrintRegionVerifyReport(report, true, false, json);
  EXPECT_TRUE(json.str().starts_with("{\"kind\":\"table\",\"v\":1,\"path\":")) << json.str();
  EXPECT_NE(json.str().find("\"clean\":false,\"errors\":4"), std::string::npos);
}

TEST(RegionSetReal, PreNamespaceRootsAndSnapshots) {
  HFILE_REQUIRE_REAL_DATA();
  std::string tmp = test::NewTempDir("region_set_old");
  for (const char* tgz : {"hbase-upgrade-fixtures/TestMetaMigrationConvertToPB.tgz",
                          "hbase-upgrade-fixtures/TestNamespaceUpgrade.tgz",
                          "hbase-0.94/hbase-4388-root.dir.tgz"}) {
    std::string cmd = "tar xzf " + test::RealDataDir() + "/" + tgz + " -C " + tmp;
    ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  }
  // 0.92: 17 regions, 8 split parents found through their daughters; 100 live rows.
  auto t92 = OpenTableRegions(tmp + "/TestMetaMigrationConvertToPB/TestTable");
  ASSERT_TRUE(t92.ok()) << t92.status().ToString();
  EXPECT_TRUE(t92->pre_namespace_layout);
  EXPECT_EQ(t92->regions.size(), 17u);
  EXPECT_EQ(t92->split_parents.size(), 8u);
  EXPECT_FALSE(t92->descriptor.has_value());
  EXPECT_TRUE(t92->descriptor_status.IsNotSupported());
  RegionDumpOptions o;
  o.dump.print_keys = true;
  std::ostringstream out, err;
  RegionDumpResult r;
  ASSERT_TRUE(DumpRegionSetCells(*t92, o, out, err, &r).ok()) << err.str();
  EXPECT_EQ(r.cells, 100u);
  RegionVerifyReport v92 = VerifyRegionSet(*t92, {});
  EXPECT_TRUE(v92.clean());
  // 0.94 by root and name: Writable .regioninfo, HFile v2.0.
  auto foo = OpenTableRegions(tmp + "/hbase", "foo");
  ASSERT_TRUE(foo.ok()) << foo.status().ToString();
  ASSERT_EQ(foo->regions.size(), 1u);
  EXPECT_TRUE(foo->regions[0].info->from_writable);
  EXPECT_TRUE(OpenTableRegions(tmp + "/hbase", "ns1:foo").status().IsInvalidArgument());
  RegionSetSummary s = SummarizeRegionSet(*foo);
  bool v20 = false;
  for (const auto& p : s.problems) v20 = v20 || p.what.find("HFile v2.0: readable here") == 0;
  EXPECT_TRUE(v20);
  // 0.90: HFile v1 everywhere — unreadable, not corrupt.
  auto t90 = OpenTableRegions(tmp + "/hbase-4388-root.dir/TestTable");
  ASSERT_TRUE(t90.ok());
  RegionVerifyReport v90 = VerifyRegionSet(*t90, {});
  EXPECT_TRUE(v90.unreadable());
  EXPECT_FALSE(v90.corrupt());
  // A 0.94 v1 snapshot is refused with a reason.
  auto old_snap = OpenSnapshotRegions(tmp + "/hbase/.snapshot/foo_snapshot1");
  EXPECT_FALSE(old_snap.ok());
}

TEST(RegionSetReal, EveryRootAndSnapshot) {
  HFILE_REQUIRE_REAL_DATA();
  const std::string d = test::RealDataDir();
  struct Case {
    std::string root, table;
    size_t regions;
  } tables[] = {{d + "/hbase-0.98-rootdir/hbase", "hbase:meta", 1},
                {d + "/hbase-0.98-rootdir/hbase", "hbase:namespace", 1},
                {d + "/hbase-0.98-rootdir/hbase", "test", 1},
                {d + "/hbase-2.2.3-rootdir", "hbase:meta", 1},
                {d + "/hbase-2.2.3-rootdir", "hbase:namespace", 1},
                {d + "/hbase-4.0-snapshot-rootdir", "hbase:meta", 1},
                {d + "/hbase-4.0-snapshot-rootdir", "my_table", 1}};
  for (const auto& c : tables) {
    SCOPED_TRACE(c.root + " " + c.table);
    auto set = OpenTableRegions(c.root, c.table);
    ASSERT_TRUE(set.ok()) << set.status().ToString();
    EXPECT_EQ(set->regions.size(), c.regions);
    ASSERT_TRUE(set->descriptor.has_value());
    RegionVerifyReport v = VerifyRegionSet(*set, {});
    std::ostringstream out;
    PrintRegionVerifyReport(v, false, true, out);
    EXPECT_TRUE(v.clean()) << out.str();
  }
  struct Snap {
    std::string dir;
    size_t regions, files, cells;
  } snaps[] = {{d + "/riverbed/snapshot/testdata/test_snapshot", 1, 2, 4},
               {d + "/riverbed/snapshot/testdata/multi_region_snapshot", 3, 3, 10},
               {d + "/riverbed/snapshot/testdata/test_snapshot_v1", 3, 6, 22},
               {d + "/java-bigtable-hbase/integration-test/data/.hbase-snapshot/test-snapshot",
                10, 9, 100},
               {d + "/java-bigtable-hbase/integration-test/data/.hbase-snapshot/demo-snapshot",
                1, 1, 100}};
  for (const auto& c : snaps) {
    SCOPED_TRACE(c.dir);
    auto set = OpenSnapshotRegions(c.dir);
    ASSERT_TRUE(set.ok()) << set.status().ToString();
    EXPECT_EQ(set->regions.size(), c.regions);
    RegionSetSummary s = SummarizeRegionSet(*set);
    EXPECT_EQ(s.store_files, c.files);
    RegionDumpOptions o;
    o.dump.print_keys = true;
    std::ostringstream out, err;
    RegionDumpResult r;
    ASSERT_TRUE(DumpRegionSetCells(*set, o, out, err, &r).ok()) << err.str();
    EXPECT_EQ(r.cells, c.cells);
    RegionVerifyReport v = VerifyRegionSet(*set, {});
    std::ostringstream vo;
    PrintRegionVerifyReport(v, false, true, vo);
    EXPECT_TRUE(v.clean()) << vo.str();
  }
}

}  // namespace
}  // namespace hfile::region
