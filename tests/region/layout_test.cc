#include "region/layout.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "region/snapshot.h"
#include "region/store_file_sequence.h"
#include "../testutil.h"

namespace hfile::region {
namespace {

TEST(Layout, NameRules) {
  EXPECT_TRUE(IsRegionDirName("1588230740"));
  EXPECT_TRUE(IsRegionDirName("1c36300ce560a054f2aad4ce3b1afcd9"));
  EXPECT_FALSE(IsRegionDirName(".tabledesc"));
  EXPECT_FALSE(IsRegionDirName(".tmp"));
  EXPECT_FALSE(IsRegionDirName(""));
  EXPECT_TRUE(IsFamilyDirName("cf"));
  EXPECT_FALSE(IsFamilyDirName(".tmp"));
  EXPECT_FALSE(IsFamilyDirName("recovered.edits"));
  EXPECT_FALSE(IsFamilyDirName("a:b"));
  EXPECT_FALSE(IsFamilyDirName("a\x01"));
}

// A synthetic region with every kind of entry.
TEST(Layout, SyntheticRegion) {
  std::string root = test::NewTempDir("layout_root");
  namespace fs = std::filesystem;
  RegionInfo parent;
  parent.table = *TableName::Parse("t1");
  parent.region_id = 1700000000000;
  RegionInfo child = parent;
  child.region_id = 1700000000001;
  std::string table = root + "/data/default/t1";
  std::string pdir = table + "/" + parent.EncodedName();
  std::string cdir = table + "/" + child.EncodedName();
  fs::create_directories(pdir + "/cf");
  fs::create_directories(cdir + "/cf");
  fs::create_directories(cdir + "/.tmp");
  fs::create_directories(cdir + "/recovered.edits");
  fs::create_directories(root + "/archive/data/default/t1/" + parent.EncodedName() + "/cf");
  std::string ri;
  child.EncodeTo(&ri);
  test::WriteFileOrDie(cdir + "/.regioninfo", ri);
  test::WriteFileOrDie(pdir + "/cf/aaaa", "x");
  test::WriteFileOrDie(root + "/archive/data/default/t1/" + parent.EncodedName() + "/cf/bbbb", "x");
  test::WriteFileOrDie(cdir + "/cf/cccc_SeqId_5_", "x");
  std::string ref;
  Reference::ForRow("m", Reference::Range::kTop).EncodeTo(&ref);
  test::WriteFileOrDie(cdir + "/cf/aaaa." + parent.EncodedName(), ref);
  test::WriteFileOrDie(cdir + "/cf/t1=" + parent.EncodedName() + "-bbbb", "");
  test::WriteFileOrDie(cdir + "/cf/t1=" + parent.EncodedName() + "-dddd", "");
  test::WriteFileOrDie(cdir + "/cf/foo.hfile", "x");
  test::WriteFileOrDie(cdir + "/cf/has-dash", "x");
  test::WriteFileOrDie(cdir + "/cf/eeee", "");
  test::WriteFileOrDie(cdir + "/recovered.edits/5.seqid", "");

  auto r = RootDir::Open(root);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  auto tables = r->ListTables();
  ASSERT_TRUE(tables.ok());
  ASSERT_EQ(tables->size(), 1u);
  auto region = r->OpenRegion(child.table, child.EncodedName());
  ASSERT_TRUE(region.ok()) << region.status().ToString();
  EXPECT_TRUE(region->name_matches_info);
  EXPECT_TRUE(region->has_tmp);
  EXPECT_FALSE(region->HasPendingEdits());
  const FamilyDir* cf = region->FindFamily("cf");
  ASSERT_NE(cf, nullptr);
  ASSERT_EQ(cf->store_files.size(), 4u);
  EXPECT_EQ(cf->invalid, std::vector<std::string>{"foo.hfile"});
  EXPECT_EQ(cf->skipped, (std::vector<std::string>{"eeee", "has-dash"}));
  for (const auto& sf : cf->store_files) {
    SCOPED_TRACE(sf.name.name);
    switch (sf.name.kind) {
      case StoreFileKind::kReference:
        ASSERT_TRUE(sf.reference);
        EXPECT_TRUE(sf.reference->top());
        EXPECT_EQ(sf.target_path, pdir + "/cf/aaaa");
        break;
      case StoreFileKind::kLink:
        if (sf.name.link->hfile == "bbbb") {
          EXPECT_EQ(sf.target_path,
                    root + "/archive/data/default/t1/" + parent.EncodedName() + "/cf/bbbb");
        } else {
          EXPECT_TRUE(sf.target_path.empty());
          EXPECT_TRUE(sf.target_status.IsNotFound());
        }
        break;
      case StoreFileKind::kHFile:
        EXPECT_EQ(*sf.name.bulk_load_seq_id, 5u);
        EXPECT_EQ(sf.target_path, sf.path);
        break;
      default:
        ADD_FAILURE();
    }
  }
  test::WriteFileOrDie(cdir + "/recovered.edits/0000000000000000007", "edits");
  region = r->OpenRegion(child.table, child.EncodedName());
  EXPECT_TRUE(region->HasPendingEdits());
  // The FILE tracker: only listed files count.
  fs::create_directories(cdir + "/cf/.filelist");
  StoreFileList list;
  list.timestamp = 2;
  list.files = {{"cccc_SeqId_5_", 1}};
  std::string enc;
  list.EncodeTo(&enc);
  test::WriteFileOrDie(cdir + "/cf/.filelist/f1", enc);
  list.timestamp = 1;
  list.files.clear();
  enc.clear();
  list.EncodeTo(&enc);
  test::WriteFileOrDie(cdir + "/cf/.filelist/f2", enc);
  region = r->OpenRegion(child.table, child.EncodedName());
  cf = region->FindFamily("cf");
  ASSERT_TRUE(cf->tracker);
  EXPECT_EQ(cf->tracker->timestamp, 2u);
  ASSERT_EQ(cf->store_files.size(), 1u);
  EXPECT_EQ(cf->store_files[0].name.name, "cccc_SeqId_5_");
  EXPECT_TRUE(cf->invalid.empty());
}

struct ExpectedRegion {
  std::string table;
  std::string encoded;
  std::string start, end;
  std::vector<std::pair<std::string, size_t>> families;  // name, store file count
};

void CheckRoot(const std::string& root, const std::vector<std::string>& tables,
               const std::vector<ExpectedRegion>& regions) {
  SCOPED_TRACE(root);
  auto r = RootDir::Open(root);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  auto listed = r->ListTables();
  ASSERT_TRUE(listed.ok());
  std::vector<std::string> names;
  for (const auto& t : *listed) names.push_back(t.ToString());
  EXPECT_EQ(names, tables);
  for (const auto& t : *listed) {
    auto td = r->OpenTable(t);
    ASSERT_TRUE(td.ok());
    EXPECT_TRUE(td->descriptor) << t.ToString() << ": " << td->descriptor_status.ToString();
    if (td->descriptor) {
      EXPECT_EQ(td->descriptor->descriptor.name(), t);
    }
  }
  for (const auto& e : regions) {
    SCOPED_TRACE(e.encoded);
    auto t = *TableName::Parse(e.table);
    auto td = r->OpenTable(t);
    ASSERT_TRUE(td.ok());
    EXPECT_NE(std::find(td->regions.begin(), td->regions.end(), e.encoded), td->regions.end());
    auto reg = r->OpenRegion(t, e.encoded);
    ASSERT_TRUE(reg.ok()) << reg.status().ToString();
    ASSERT_TRUE(reg->info) << reg->info_status.ToString();
    EXPECT_TRUE(reg->name_matches_info);
    EXPECT_EQ(reg->info->start_key, e.start);
    EXPECT_EQ(reg->info->end_key, e.end);
    ASSERT_EQ(reg->families.size(), e.families.size());
    for (size_t i = 0; i < e.families.size(); ++i) {
      EXPECT_EQ(reg->families[i].name, e.families[i].first);
      EXPECT_EQ(reg->families[i].store_files.size(), e.families[i].second);
      EXPECT_TRUE(reg->families[i].invalid.empty());
    }
    EXPECT_FALSE(reg->HasPendingEdits());
  }
}

TEST(LayoutReal, RootDirs) {
  HFILE_REQUIRE_REAL_DATA();
  std::string d = test::RealDataDir();
  CheckRoot(d + "/hbase-0.98-rootdir/hbase", {"test", "hbase:meta", "hbase:namespace"},
            {{"test", "1c36300ce560a054f2aad4ce3b1afcd9", "", "", {}},
             {"hbase:meta", "1588230740", "", "", {{"info", 3}}},
             {"hbase:namespace", "f633db02a9250f006ed024a0dd01ade9", "", "", {{"info", 1}}}});
  CheckRoot(d + "/hbase-2.2.3-rootdir", {"hbase:meta", "hbase:namespace"},
            {{"hbase:meta", "1588230740", "", "", {{"info", 1}, {"table", 1}}},
             {"hbase:namespace", "077a6e561e777ff7d7b235487e686aa9", "", "", {{"info", 1}}}});
  CheckRoot(d + "/hbase-4.0-snapshot-rootdir", {"my_table", "hbase:meta"},
            {{"my_table", "6c930cffe9f380e753905208e8dca1fa", "", "", {}},
             {"hbase:meta", "1588230740", "", "", {{"info", 1}, {"ns", 1}, {"table", 1}}}});
}

TEST(LayoutReal, PreNamespaceRootIsNotSupported) {
  HFILE_REQUIRE_REAL_DATA();
  std::string tmp = test::NewTempDir("layout_094");
  std::string cmd = "tar xzf " + test::RealDataDir() +
                    "/hbase-upgrade-fixtures/TestNamespaceUpgrade.tgz -C " + tmp;
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  EXPECT_TRUE(RootDir::Open(tmp + "/hbase").status().IsNotSupported());
}

TEST(SnapshotReal, Riverbed) {
  HFILE_REQUIRE_REAL_DATA();
  std::string base = test::RealDataDir() + "/riverbed/snapshot/testdata/";
  struct Case {
    std::string dir, table;
    size_t regions, files;
  } cases[] = {{"test_snapshot", "test_table", 1, 2},
               {"multi_region_snapshot", "multi_region", 3, 3},
               {"test_snapshot_v1", "test_snapshot", 3, 6}};
  for (const auto& c : cases) {
    SCOPED_TRACE(c.dir);
    SnapshotOptions opt;
    opt.extra_data_dirs = {base + c.dir + "/data"};
    auto s = Snapshot::Open(base + c.dir, opt);
    ASSERT_TRUE(s.ok()) << s.status().ToString();
    EXPECT_EQ(s->info().name, c.dir);
    EXPECT_EQ(s->info().table, c.table);
    EXPECT_EQ(s->info().version, 2);
    EXPECT_EQ(s->descriptor().name().ToString(), c.table);
    EXPECT_EQ(s->regions().size(), c.regions);
    EXPECT_EQ(s->store_file_count(), c.files);
    EXPECT_EQ(s->unresolved_count(), 0u);
  }
  SnapshotOptions opt;
  opt.extra_data_dirs = {base + "test_snapshot_v1/data"};
  auto s = Snapshot::Open(base + "test_snapshot_v1", opt);
  ASSERT_TRUE(s.ok());
  std::vector<std::pair<std::string, std::string>> ranges;
  for (const auto& r : s->regions()) ranges.emplace_back(r.info.start_key, r.info.end_key);
  std::sort(ranges.begin(), ranges.end());
  EXPECT_EQ(ranges, (std::vector<std::pair<std::string, std::string>>{
                        {"", "f"}, {"f", "r"}, {"r", ""}}));
  auto t = Snapshot::Open(base + "test_snapshot", opt);
  ASSERT_TRUE(t.ok());
  ASSERT_EQ(t->descriptor().families().size(), 2u);
  EXPECT_EQ(t->descriptor().families()[0].name(), "cf1");
  EXPECT_EQ(t->descriptor().families()[1].name(), "cf2");
}

TEST(SnapshotReal, JavaBigtableHbase) {
  HFILE_REQUIRE_REAL_DATA();
  std::string root = test::RealDataDir() + "/java-bigtable-hbase/integration-test/data";
  auto r = RootDir::Open(root);
  // This export has no data/ directory, only archive/ and .hbase-snapshot/.
  EXPECT_TRUE(r.status().IsNotFound());
  auto s = Snapshot::Open(root + "/.hbase-snapshot/test-snapshot");
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ(s->info().table, "test");
  EXPECT_EQ(s->regions().size(), 10u);
  EXPECT_EQ(s->store_file_count(), 9u);
  EXPECT_EQ(s->unresolved_count(), 0u);
  for (const auto& reg : s->regions())
    for (const auto& f : reg.families)
      for (const auto& sf : f.files)
        EXPECT_NE(sf.path.find("/archive/data/default/test/"), std::string::npos);
  auto demo = Snapshot::Open(root + "/.hbase-snapshot/demo-snapshot");
  ASSERT_TRUE(demo.ok());
  EXPECT_EQ(demo->info().table, "demo-1");
  EXPECT_EQ(demo->regions().size(), 1u);
  EXPECT_EQ(demo->store_file_count(), 1u);
  EXPECT_EQ(demo->unresolved_count(), 0u);
  EXPECT_EQ(demo->descriptor().families()[0].compression(), Compression::kSnappy);
}

}  // namespace
}  // namespace hfile::region

namespace hfile::region {
namespace {

// Needs the full libhfile (codecs, checksums); links only once those modules are merged.
TEST(LayoutReal, StoreFileSequenceFromFileInfo) {
  HFILE_REQUIRE_REAL_DATA();
  auto r = RootDir::Open(test::RealDataDir() + "/hbase-2.2.3-rootdir");
  ASSERT_TRUE(r.ok());
  auto reg = r->OpenRegion(*TableName::Parse("hbase:namespace"), "077a6e561e777ff7d7b235487e686aa9");
  ASSERT_TRUE(reg.ok());
  ASSERT_EQ(reg->families.size(), 1u);
  ASSERT_EQ(reg->families[0].store_files.size(), 1u);
  ReaderOptions ro;
  ro.verify_checksums = false;
  auto seq = ReadStoreFileSequence(reg->families[0].store_files[0], ro);
  ASSERT_TRUE(seq.ok()) << seq.status().ToString();
  EXPECT_GT(seq->sequence_id, 0);
  EXPECT_FALSE(seq->bulk_loaded);
}

}  // namespace
}  // namespace hfile::region
