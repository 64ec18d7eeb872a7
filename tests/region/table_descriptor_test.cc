#include "region/table_descriptor.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "../testutil.h"

namespace hfile::region {
namespace {

TEST(FamilyDescriptor, DefaultsWhenAbsent) {
  FamilyDescriptor f("cf");
  EXPECT_EQ(f.max_versions(), 1);
  EXPECT_EQ(f.min_versions(), 0);
  EXPECT_EQ(f.ttl_seconds(), kTtlForever);
  EXPECT_TRUE(f.ttl_is_forever());
  EXPECT_EQ(f.ttl_ms(), INT64_MAX);
  EXPECT_EQ(f.keep_deleted_cells(), KeepDeletedCells::kFalse);
  EXPECT_EQ(f.bloom_type(), BloomType::kRow);
  EXPECT_EQ(f.data_block_encoding(), DataBlockEncoding::kNone);
  EXPECT_EQ(f.compression(), Compression::kNone);
  EXPECT_EQ(f.block_size(), 65536);
  EXPECT_TRUE(f.block_cache_enabled());
  EXPECT_FALSE(f.in_memory());
  EXPECT_EQ(f.replication_scope(), 0);
  EXPECT_TRUE(f.compress_tags());
  EXPECT_FALSE(f.is_mob());
  EXPECT_EQ(f.mob_threshold(), 102400);
  EXPECT_TRUE(f.Validate().ok());
}

TEST(FamilyDescriptor, TypedValues) {
  FamilyDescriptor f = FamilyDescriptor::WithDefaults("cf");
  f.SetValue("VERSIONS", "5");
  f.SetValue("MIN_VERSIONS", "2");
  f.SetValue("TTL", "86400");
  f.SetValue("KEEP_DELETED_CELLS", "ttl");
  f.SetValue("COMPRESSION", "snappy");
  f.SetValue("COMPRESSION_COMPACT", "ZSTD");
  f.SetValue("BLOOMFILTER", "ROWCOL");
  f.SetValue("DATA_BLOCK_ENCODING", "FAST_DIFF");
  EXPECT_EQ(f.max_versions(), 5);
  EXPECT_EQ(f.min_versions(), 2);
  EXPECT_EQ(f.ttl_ms(), 86400000);
  EXPECT_EQ(f.keep_deleted_cells(), KeepDeletedCells::kTtl);
  EXPECT_EQ(f.compression(), Compression::kSnappy);
  EXPECT_EQ(f.compaction_compression(true), Compression::kZstd);
  f.SetValue("COMPRESSION_COMPACT_MAJOR", "GZ");
  EXPECT_EQ(f.compaction_compression(true), Compression::kGz);
  EXPECT_EQ(f.compaction_compression(false), Compression::kZstd);
  EXPECT_EQ(f.bloom_type(), BloomType::kRowCol);
  EXPECT_EQ(f.data_block_encoding(), DataBlockEncoding::kFastDiff);
  EXPECT_TRUE(f.Validate().ok());
  f.SetValue("TTL", "-1");
  EXPECT_TRUE(f.ttl_is_forever());
  f.SetValue("VERSIONS", "many");
  EXPECT_TRUE(f.Validate().IsInvalidArgument());
  f.SetValue("VERSIONS", "1");
  EXPECT_TRUE(f.Validate().IsInvalidArgument()) << "MIN_VERSIONS > VERSIONS";
}

// The expected lines are what HBase 2.6.4's shell prints (HColumnDescriptor.toString of the
// shell's copy, run against the hbase-client jar) for the same families.
TEST(FamilyDescriptor, DescribeIsHBase26sShellLine) {
  FamilyDescriptor d = FamilyDescriptor::WithDefaults("d");
  EXPECT_EQ(d.Describe(),
            "{NAME => 'd', INDEX_BLOCK_ENCODING => 'NONE', VERSIONS => '1', KEEP_DELETED_CELLS => "
            "'FALSE', DATA_BLOCK_ENCODING => 'NONE', TTL => 'FOREVER', MIN_VERSIONS => '0', "
            "REPLICATION_SCOPE => '0', BLOOMFILTER => 'ROW', IN_MEMORY => 'false', COMPRESSION "
            "=> 'NONE', BLOCKCACHE => 'true', BLOCKSIZE => '65536 B (64KB)'}");
  FamilyDescriptor b = FamilyDescriptor::WithDefaults("b");
  b.SetValue("VERSIONS", "3");
  b.SetValue("TTL", "7776000");
  b.SetValue("COMPRESSION", "ZSTD");
  b.SetValue("BLOCKSIZE", "131072");
  b.SetValue("BLOCKCACHE", "false");
  EXPECT_EQ(b.Describe(),
            "{NAME => 'b', INDEX_BLOCK_ENCODING => 'NONE', VERSIONS => '3', KEEP_DELETED_CELLS => "
            "'FALSE', DATA_BLOCK_ENCODING => 'NONE', TTL => '7776000 SECONDS (90 DAYS)', "
            "MIN_VERSIONS => '0', REPLICATION_SCOPE => '0', BLOOMFILTER => 'ROW', IN_MEMORY => "
            "'false', COMPRESSION => 'ZSTD', BLOCKCACHE => 'false', BLOCKSIZE => '131072 B "
            "(128KB)'}");
  // Fifteen values (a bigger HashMap), MOB keys reserved, METADATA and CONFIGURATION in their
  // maps' orders.
  FamilyDescriptor c = FamilyDescriptor::WithDefaults("c");
  c.SetValue("IN_MEMORY", "true");
  c.SetValue("IS_MOB", "true");
  c.SetValue("MOB_THRESHOLD", "1000");
  c.SetValue("FOO", "bar");
  c.SetConfiguration("k", "v");
  EXPECT_EQ(c.Describe(),
            "{NAME => 'c', INDEX_BLOCK_ENCODING => 'NONE', MOB_THRESHOLD => '1000', VERSIONS => "
            "'1', KEEP_DELETED_CELLS => 'FALSE', DATA_BLOCK_ENCODING => 'NONE', TTL => 'FOREVER', "
            "MIN_VERSIONS => '0', REPLICATION_SCOPE => '0', BLOOMFILTER => 'ROW', IN_MEMORY => "
            "'true', IS_MOB => 'true', COMPRESSION => 'NONE', BLOCKCACHE => 'true', BLOCKSIZE => "
            "'65536 B (64KB)', METADATA => {'FOO' => 'bar'}, CONFIGURATION => {'k' => 'v'}}");
  FamilyDescriptor e = FamilyDescriptor::WithDefaults("c");
  e.SetValue("zz", "1");
  e.SetValue("aa", "2");
  e.SetValue("FOO", "3");
  e.SetConfiguration("hbase.hstore.blockingStoreFiles", "20");
  e.SetConfiguration("a", "b");
  e.SetConfiguration("zeta", "c");
  const std::string de = e.Describe();
  EXPECT_NE(de.find("BLOCKSIZE => '65536 B (64KB)', METADATA => {'zz' => '1', 'aa' => '2', "
                    "'FOO' => '3'}, CONFIGURATION => {'zeta' => 'c', 'a' => 'b', "
                    "'hbase.hstore.blockingStoreFiles' => '20'}}"),
            std::string::npos)
      << de;
  EXPECT_EQ(HumanReadableTtl(59), "59 SECONDS");
  EXPECT_EQ(HumanReadableTtl(86400), "86400 SECONDS (1 DAY)");
  EXPECT_EQ(HumanReadableTtl(90061), "90061 SECONDS (1 DAY 1 HOUR 1 MINUTE 1 SECOND)");
  // PrettyPrinter BYTE, as HBase 2.6.4 formats these.
  const std::pair<int64_t, const char*> sizes[] = {
      {0, "0 B"},
      {1023, "1023 B"},
      {1024, "1024 B (1KB)"},
      {1025, "1025 B (1KB 1B)"},
      {100000, "100000 B (97KB 672B)"},
      {1048577, "1048577 B (1MB 1B)"},
      {10737418240, "10737418240 B (10GB)"},
      {1099511627777, "1099511627777 B (1TB 1B)"},
      {3000000000000, "3000000000000 B (2TB 745GB 990MB 972KB)"}};
  for (const auto& [n, want] : sizes) EXPECT_EQ(HumanReadableBytes(n), want);
}

TEST(TableDescriptor, DescribeIsHBase26sShellTableLine) {
  TableDescriptor t(*TableName::Parse("t"));
  t.SetValue("IS_META", "false");
  t.SetValue("zz", "1");
  t.SetValue("READONLY", "true");
  t.SetValue("aa", "2");
  t.SetValue("DURABILITY", "ASYNC_WAL");
  t.SetValue("MAX_FILESIZE", "100000");
  t.AddFamily(FamilyDescriptor::WithDefaults("f"));
  const std::string d = t.Describe();
  EXPECT_EQ(d.substr(0, d.find('\n')),
            "t, {TABLE_ATTRIBUTES => {DURABILITY => 'ASYNC_WAL', MAX_FILESIZE => '100000 B (97KB "
            "672B)', READONLY => 'true', METADATA => {'aa' => '2', 'zz' => '1'}}}");
  EXPECT_NE(d.find("\nCOLUMN FAMILIES DESCRIPTION\n{NAME => 'f', INDEX_BLOCK_ENCODING"),
            std::string::npos);
  TableDescriptor bare(*TableName::Parse("ns:u"));
  bare.SetValue("IS_META", "false");
  EXPECT_EQ(bare.Describe(), "ns:u\nCOLUMN FAMILIES DESCRIPTION\n");
}

TEST(TableDescriptor, RoundTripAndFamilyOrder) {
  TableDescriptor t(*TableName::Parse("ns:t"));
  t.SetValue("IS_META", "false");
  t.AddFamily(FamilyDescriptor::WithDefaults("z"));
  t.AddFamily(FamilyDescriptor::WithDefaults("a"));
  ASSERT_EQ(t.families().size(), 2u);
  EXPECT_EQ(t.families()[0].name(), "a");
  std::string enc;
  t.EncodeTo(&enc);
  TableDescriptor back;
  ASSERT_TRUE(back.DecodeFrom(enc).ok());
  EXPECT_EQ(back.name().ToString(), "ns:t");
  EXPECT_EQ(back.families(), t.families());
  std::string enc2;
  back.EncodeTo(&enc2);
  EXPECT_EQ(enc, enc2);
  EXPECT_TRUE(back.DecodeFrom("\x01\x02garbage").IsNotSupported());
  EXPECT_TRUE(back.DecodeFrom("PBUF\xff\xff").IsCorruption());
}

TEST(TableDescriptor, FileNames) {
  auto a = ParseTableInfoFileName(".tableinfo.0000000001");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->sequence, 1u);
  EXPECT_FALSE(a->content_length);
  auto b = ParseTableInfoFileName(".tableinfo.0000000012.1189");
  ASSERT_TRUE(b);
  EXPECT_EQ(b->sequence, 12u);
  EXPECT_EQ(*b->content_length, 1189u);
  EXPECT_TRUE(ParseTableInfoFileName(".tableinfo"));
  EXPECT_FALSE(ParseTableInfoFileName(".tableinfo.12"));
  EXPECT_FALSE(ParseTableInfoFileName(".tableinfo.0000000001.x"));
  EXPECT_FALSE(ParseTableInfoFileName("tableinfo.0000000001"));
  EXPECT_EQ(TableInfoFileNameFor(3), ".tableinfo.0000000003");
  EXPECT_EQ(TableInfoFileNameFor(3, 358), ".tableinfo.0000000003.358");
}

TEST(TableDescriptor, NewestWinsAndHalfWrittenSkipped) {
  std::string dir = test::NewTempDir("tabledesc");
  std::filesystem::create_directories(dir + "/.tabledesc");
  TableDescriptor t1(*TableName::Parse("t"));
  t1.AddFamily(FamilyDescriptor::WithDefaults("one"));
  TableDescriptor t2(*TableName::Parse("t"));
  t2.AddFamily(FamilyDescriptor::WithDefaults("two"));
  std::string e1, e2;
  t1.EncodeTo(&e1);
  t2.EncodeTo(&e2);
  test::WriteFileOrDie(dir + "/.tabledesc/" + TableInfoFileNameFor(1), e1);
  test::WriteFileOrDie(dir + "/.tabledesc/" + TableInfoFileNameFor(2, e2.size()), e2);
  auto got = ReadTableDescriptor(dir);
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  EXPECT_EQ(got->file_name.sequence, 2u);
  EXPECT_NE(got->descriptor.FindFamily("two"), nullptr);
  // A half-written newest file (shorter than its name says) falls back to the older one.
  test::WriteFileOrDie(dir + "/.tabledesc/" + TableInfoFileNameFor(3, e2.size() + 10), e2);
  got = ReadTableDescriptor(dir);
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(got->file_name.sequence, 2u);
  EXPECT_TRUE(ReadTableDescriptor(dir + "/nope").status().IsNotFound());
}

void CheckRealRoundTrip(const std::string& table_dir, const std::string& name,
                        const std::vector<std::string>& families) {
  auto got = ReadTableDescriptor(table_dir);
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  EXPECT_EQ(got->descriptor.name().ToString(), name);
  ASSERT_EQ(got->descriptor.families().size(), families.size());
  for (size_t i = 0; i < families.size(); ++i)
    EXPECT_EQ(got->descriptor.families()[i].name(), families[i]);
  EXPECT_TRUE(got->descriptor.Validate().ok()) << got->descriptor.Validate().ToString();
  std::string again;
  got->descriptor.EncodeTo(&again);
  EXPECT_EQ(again, test::ReadFileOrDie(got->path)) << "re-encode must be byte-identical";
}

TEST(TableDescriptorReal, AllRootDirs) {
  HFILE_REQUIRE_REAL_DATA();
  std::string r = test::RealDataDir();
  CheckRealRoundTrip(r + "/hbase-0.98-rootdir/hbase/data/default/test", "test", {"cf"});
  CheckRealRoundTrip(r + "/hbase-0.98-rootdir/hbase/data/hbase/namespace", "hbase:namespace",
                     {"info"});
  CheckRealRoundTrip(r + "/hbase-2.2.3-rootdir/data/hbase/meta", "hbase:meta",
                     {"info", "rep_barrier", "table"});
  CheckRealRoundTrip(r + "/hbase-4.0-snapshot-rootdir/data/default/my_table", "my_table",
                     {"cf"});
  auto t = ReadTableDescriptor(r + "/hbase-0.98-rootdir/hbase/data/default/test");
  ASSERT_TRUE(t.ok());
  const FamilyDescriptor* cf = t->descriptor.FindFamily("cf");
  ASSERT_NE(cf, nullptr);
  EXPECT_EQ(cf->max_versions(), 1);
  EXPECT_EQ(cf->bloom_type(), BloomType::kRow);
  EXPECT_TRUE(cf->ttl_is_forever());
  EXPECT_EQ(cf->keep_deleted_cells(), KeepDeletedCells::kFalse);
  EXPECT_FALSE(t->descriptor.is_meta());
  auto meta = ReadTableDescriptor(r + "/hbase-4.0-snapshot-rootdir/data/hbase/meta");
  ASSERT_TRUE(meta.ok());
  EXPECT_TRUE(meta->descriptor.is_meta());
  EXPECT_EQ(*meta->file_name.content_length, 1321u);
}

TEST(TableDescriptorReal, PreProtobufIsNotSupported) {
  HFILE_REQUIRE_REAL_DATA();
  std::string tmp = test::NewTempDir("tabledesc_094");
  std::string cmd = "tar xzf " + test::RealDataDir() +
                    "/hbase-upgrade-fixtures/TestNamespaceUpgrade.tgz -C " + tmp;
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  auto got = ReadTableDescriptor(tmp + "/hbase/foo");
  EXPECT_TRUE(got.status().IsNotSupported()) << got.status().ToString();
}

}  // namespace
}  // namespace hfile::region
