#include "region/region_info.h"

#include <gtest/gtest.h>

#include <cstdlib>

#include "hfile/escape.h"
#include "../testutil.h"

namespace hfile::region {
namespace {

std::string Hex(const std::string& s) { return ToHex(s); }

TEST(RegionInfo, EncodedNameVectors) {
  RegionInfo ri;
  ri.table = *TableName::Parse("t1");
  ri.region_id = 1700000000000;
  EXPECT_EQ(ri.EncodedName(), "43ae7364b4a555b93267937f9bc49ec1");
  EXPECT_EQ(ri.RegionName(), "t1,,1700000000000.43ae7364b4a555b93267937f9bc49ec1.");
  ri.table = *TableName::Parse("ns1:t1");
  ri.start_key = "row5";
  EXPECT_EQ(ri.EncodedName(), "b9577d910aa8c58a57efd9e6ee375042");
  ri.table = *TableName::Parse("test");
  ri.start_key = "";
  ri.region_id = 1430580123464;
  EXPECT_EQ(ri.EncodedName(), "1c36300ce560a054f2aad4ce3b1afcd9");
  ri.table = *TableName::Parse("hbase:namespace");
  ri.region_id = 1430580062202;
  EXPECT_EQ(ri.EncodedName(), "f633db02a9250f006ed024a0dd01ade9");
}

TEST(RegionInfo, MobRegionNames) {
  RegionInfo ri;
  ri.table = *TableName::Parse("t1");
  ri.start_key = ".mob";
  ri.region_id = 0;
  EXPECT_EQ(ri.EncodedName(), "78e317a6e78a0fceb27b9fa0cb9dcf5b");
  ri.table = *TableName::Parse("ns1:t1");
  EXPECT_EQ(ri.EncodedName(), "60ea381f210429261a1d34d391c94955");
}

TEST(RegionInfo, MetaAndReplicaNames) {
  RegionInfo meta;
  meta.table = *TableName::Parse("hbase:meta");
  meta.region_id = 1;
  EXPECT_EQ(meta.EncodedName(), kMetaEncodedName);
  EXPECT_EQ(meta.RegionName(), "hbase:meta,,1");
  RegionInfo r;
  r.table = *TableName::Parse("t1");
  r.region_id = 5;
  r.replica_id = 1;
  EXPECT_EQ(r.NameWithoutEncodedSuffix(), "t1,,5_0001");
}

TEST(RegionInfo, Computed2xBytes) {
  RegionInfo ri;
  ri.table = *TableName::Parse("t1");
  ri.region_id = 1700000000000;
  std::string out;
  ri.EncodeTo(&out);
  EXPECT_EQ(Hex(out), "50425546" "20" "0880d095ffbc31" "120d0a0764656661756c7412027431"
                      "1a00" "2200" "2800" "3000" "3800");
  RegionInfo back;
  ASSERT_TRUE(back.DecodeFrom(out).ok());
  EXPECT_EQ(back.table, ri.table);
  EXPECT_EQ(back.region_id, ri.region_id);
  EXPECT_TRUE(back.has_replica_field);
}

TEST(RegionInfo, ContainsRow) {
  RegionInfo ri;
  ri.start_key = "b";
  ri.end_key = "d";
  EXPECT_FALSE(ri.ContainsRow("a"));
  EXPECT_TRUE(ri.ContainsRow("b"));
  EXPECT_TRUE(ri.ContainsRow("c\xff"));
  EXPECT_FALSE(ri.ContainsRow("d"));
  ri.end_key = "";
  EXPECT_TRUE(ri.ContainsRow("zzz"));
}

TEST(RegionInfo, Malformed) {
  RegionInfo ri;
  EXPECT_TRUE(ri.DecodeFrom(std::string("PBUF\x7f\x08", 6)).IsCorruption());
  EXPECT_TRUE(ri.DecodeFrom(std::string("\x05garbage", 8)).IsCorruption());
}

TEST(RegionInfoReal, Hbase098TestTable) {
  HFILE_REQUIRE_REAL_DATA();
  std::string dir = test::RealDataDir() +
                    "/hbase-0.98-rootdir/hbase/data/default/test/1c36300ce560a054f2aad4ce3b1afcd9";
  std::string raw = test::ReadFileOrDie(dir + "/.regioninfo");
  EXPECT_EQ(Hex(raw).substr(0, 10 + 14), "5042554620" "08c8aee1a9d129");
  auto ri = ReadRegionInfoFile(dir + "/.regioninfo");
  ASSERT_TRUE(ri.ok()) << ri.status().ToString();
  EXPECT_EQ(ri->table.ToString(), "test");
  EXPECT_EQ(ri->region_id, 1430580123464u);
  EXPECT_TRUE(ri->start_key.empty());
  EXPECT_TRUE(ri->end_key.empty());
  EXPECT_FALSE(ri->has_replica_field);
  EXPECT_EQ(ri->EncodedName(), "1c36300ce560a054f2aad4ce3b1afcd9");
  std::string again;
  ri->EncodeTo(&again);
  EXPECT_EQ(again, raw) << "re-encode must be byte-identical";
}

TEST(RegionInfoReal, MetaRegionInfo) {
  HFILE_REQUIRE_REAL_DATA();
  for (const char* root : {"/hbase-0.98-rootdir/hbase", "/hbase-2.2.3-rootdir",
                           "/hbase-4.0-snapshot-rootdir"}) {
    std::string path = test::RealDataDir() + root + "/data/hbase/meta/1588230740/.regioninfo";
    auto ri = ReadRegionInfoFile(path);
    ASSERT_TRUE(ri.ok()) << ri.status().ToString();
    EXPECT_TRUE(ri->IsMeta());
    EXPECT_EQ(ri->EncodedName(), "1588230740");
    std::string again;
    ri->EncodeTo(&again);
    EXPECT_EQ(again, test::ReadFileOrDie(path)) << root;
  }
}

TEST(RegionInfoReal, WritableForms) {
  HFILE_REQUIRE_REAL_DATA();
  std::string tmp = test::NewTempDir("region_info_writable");
  std::string cmd = "tar xzf " + test::RealDataDir() +
                    "/hbase-upgrade-fixtures/TestNamespaceUpgrade.tgz -C " + tmp + " && tar xzf " +
                    test::RealDataDir() + "/hbase-0.94/hbase-4388-root.dir.tgz -C " + tmp;
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  // 0.94 (Writable version 1).
  auto ri = ReadRegionInfoFile(tmp + "/hbase/ns.two.foo/7112077ccfba8a46c0694ca8c0a4bc2d/.regioninfo");
  ASSERT_TRUE(ri.ok()) << ri.status().ToString();
  EXPECT_TRUE(ri->from_writable);
  EXPECT_EQ(ri->table.qualifier, "ns.two.foo");
  EXPECT_EQ(ri->region_id, 1368467358399u);
  EXPECT_EQ(ri->EncodedName(), "7112077ccfba8a46c0694ca8c0a4bc2d");
  // 0.90 (Writable version 0, with an embedded table descriptor).
  ri = ReadRegionInfoFile(tmp +
                          "/hbase-4388-root.dir/TestTable/7ed11885e8da35078217ba4cb8e5956e/.regioninfo");
  ASSERT_TRUE(ri.ok()) << ri.status().ToString();
  EXPECT_EQ(ri->table.qualifier, "TestTable");
  EXPECT_EQ(ri->start_key, "0000000080");
  EXPECT_EQ(ri->end_key, "0000000090");
  EXPECT_EQ(ri->EncodedName(), "7ed11885e8da35078217ba4cb8e5956e");
}

}  // namespace
}  // namespace hfile::region
