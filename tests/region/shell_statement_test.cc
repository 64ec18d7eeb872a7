#include "region/shell_statement.h"

#include <gtest/gtest.h>

#include <map>

#include "../testutil.h"

namespace hfile::region {
namespace {

using Pairs = std::vector<std::pair<std::string, std::string>>;

TableDescriptor DocsTable() {
  TableDescriptor td(TableName{"default", "docs"});
  td.SetValue("IS_META", "false");
  td.AddFamily(FamilyDescriptor::WithDefaults("m"));
  FamilyDescriptor t = FamilyDescriptor::WithDefaults("t");
  t.SetValue("VERSIONS", "3");
  td.AddFamily(t);
  return td;
}

// Encodes, decodes, validates: what hfile alter will write must read back the same.
TableDescriptor RoundTrip(const TableDescriptor& td) {
  std::string bytes;
  td.EncodeTo(&bytes);
  TableDescriptor back;
  EXPECT_TRUE(back.DecodeFrom(bytes).ok());
  EXPECT_TRUE(back.Validate().ok()) << back.Validate().ToString();
  std::string again;
  back.EncodeTo(&again);
  EXPECT_EQ(bytes, again);
  return back;
}

std::string Val(const FamilyDescriptor* f, const char* key) {
  if (!f) return "<no family>";
  return f->GetValue(key).value_or("<absent>");
}

Result<TableDescriptor> Alter(const TableDescriptor& td, std::string_view text) {
  auto st = ParseAlterStatement(text);
  if (!st.ok()) return st.status();
  return ApplyAlter(td, *st);
}

// Expects an InvalidArgument whose message mentions every one of `words`.
void ExpectInvalid(const Status& s, std::initializer_list<const char*> words) {
  ASSERT_TRUE(s.IsInvalidArgument()) << s.ToString();
  for (const char* w : words) EXPECT_NE(s.message().find(w), std::string::npos) << s.ToString();
}

// ---------------------------------------------------------------------------------------------
// The examples of issue 11, verbatim.

TEST(ShellAlter, FamilyAttributesInPlace) {
  auto td = Alter(DocsTable(),
                  "alter 'docs', {NAME => 'm', BLOCKSIZE => 8192, COMPRESSION => 'ZSTD'}");
  ASSERT_TRUE(td.ok()) << td.status().ToString();
  TableDescriptor back = RoundTrip(*td);
  const FamilyDescriptor* m = back.FindFamily("m");
  EXPECT_EQ(Val(m, "BLOCKSIZE"), "8192");
  EXPECT_EQ(Val(m, "COMPRESSION"), "ZSTD");
  EXPECT_EQ(Val(m, "BLOOMFILTER"), "ROW");  // not named: kept
  EXPECT_EQ(Val(back.FindFamily("t"), "VERSIONS"), "3");
  // In place: the key order of the stored map does not change.
  EXPECT_EQ(m->values().size(), FamilyDescriptor::WithDefaults("m").values().size());
}

// A real HBase 0.98 descriptor: the altered family changes in place, everything else keeps its
// bytes.
TEST(ShellAlter, RealDescriptor) {
  if (test::RealDataDir().empty()) GTEST_SKIP() << "no ../shared/testdata";
  std::string path = test::RealDataDir() +
                     "/hbase-0.98-rootdir/hbase/data/default/test/.tabledesc/.tableinfo.0000000001";
  std::string bytes = test::ReadFileOrDie(path);
  TableDescriptor cur;
  ASSERT_TRUE(cur.DecodeFrom(bytes).ok());
  ASSERT_NE(cur.FindFamily("cf"), nullptr);
  auto td = Alter(cur, "alter 'test', {NAME => 'cf', COMPRESSION => 'GZ', TTL => '7 DAYS'}");
  ASSERT_TRUE(td.ok()) << td.status().ToString();
  TableDescriptor back = RoundTrip(*td);
  EXPECT_EQ(back.values(), cur.values());
  const FamilyDescriptor* before = cur.FindFamily("cf");
  const FamilyDescriptor* after = back.FindFamily("cf");
  ASSERT_EQ(after->values().size(), before->values().size());
  for (size_t i = 0; i < before->values().size(); ++i) {
    const auto& [k, v] = before->values()[i];
    EXPECT_EQ(after->values()[i].first, k);
    if (k == "COMPRESSION") EXPECT_EQ(after->values()[i].second, "GZ");
    else if (k == "TTL") EXPECT_EQ(after->values()[i].second, "604800");
    else EXPECT_EQ(after->values()[i].second, v) << k;
  }
  // A no-op statement re-encodes to the very bytes HBase wrote.
  td = Alter(cur, "alter 'test', 'cf'");
  ASSERT_TRUE(td.ok()) << td.status().ToString();
  std::string again;
  td->EncodeTo(&again);
  EXPECT_EQ(again, bytes);
}

TEST(ShellAlter, SeveralFamiliesInOneStatement) {
  auto td = Alter(DocsTable(),
                  "alter 'docs', {NAME => 'm', VERSIONS => 2}, {NAME => 't', TTL => '1 DAY'},\n"
                  "  {NAME => 'x', IN_MEMORY => true}");
  ASSERT_TRUE(td.ok()) << td.status().ToString();
  TableDescriptor back = RoundTrip(*td);
  EXPECT_EQ(Val(back.FindFamily("m"), "VERSIONS"), "2");
  EXPECT_EQ(Val(back.FindFamily("t"), "TTL"), "86400");
  EXPECT_EQ(Val(back.FindFamily("t"), "VERSIONS"), "3");
  EXPECT_EQ(Val(back.FindFamily("x"), "IN_MEMORY"), "true");
  ASSERT_EQ(back.families().size(), 3u);
  EXPECT_EQ(back.families()[2].name(), "x");  // name order
}

TEST(ShellAlter, AddsFamilyWithDefaults) {
  TableDescriptor cur(TableName{"ns", "t"});
  cur.SetValue("IS_META", "false");
  cur.AddFamily(FamilyDescriptor::WithDefaults("a"));
  auto td = Alter(cur, "alter 'ns:t', {NAME => 't', VERSIONS => 1, TTL => 86400}");
  ASSERT_TRUE(td.ok()) << td.status().ToString();
  TableDescriptor back = RoundTrip(*td);
  const FamilyDescriptor* t = back.FindFamily("t");
  ASSERT_NE(t, nullptr);
  FamilyDescriptor expected = FamilyDescriptor::WithDefaults("t");
  expected.SetValue("TTL", "86400");
  EXPECT_EQ(*t, expected);
}

TEST(ShellAlter, DeleteShorthandAndMethod) {
  for (const char* text : {"alter 'docs', 'delete' => 't'",
                           "alter 'docs', {NAME => 't', METHOD => 'delete'}",
                           "alter 'docs', NAME => 't', METHOD => 'delete'"}) {
    auto td = Alter(DocsTable(), text);
    ASSERT_TRUE(td.ok()) << text << ": " << td.status().ToString();
    TableDescriptor back = RoundTrip(*td);
    EXPECT_EQ(back.FindFamily("t"), nullptr) << text;
    EXPECT_NE(back.FindFamily("m"), nullptr) << text;
  }
  ExpectInvalid(Alter(DocsTable(), "alter 'docs', 'delete' => 'zz'").status(), {"zz"});
  // Ruby would keep the last of two equal keys (with a warning); we refuse the ambiguity.
  ExpectInvalid(Alter(DocsTable(), "alter 'docs', 'delete' => 'm', 'delete' => 't'").status(),
                {"twice"});
  ExpectInvalid(Alter(DocsTable(), "alter 'docs', {'delete' => 'm'}, {'delete' => 't'}").status(),
                {"at least one column family"});
}

TEST(ShellAlter, TableAttributes) {
  struct Case {
    const char* text;
    const char* key;
    const char* stored;
  } cases[] = {
      {"alter 't', MAX_FILESIZE => '134217728'", "MAX_FILESIZE", "134217728"},
      {"alter 't', {DURABILITY => 'ASYNC_WAL'}", "DURABILITY", "ASYNC_WAL"},
      {"alter 't', READONLY => true", "READONLY", "true"},
      {"alter 't', {COMPACTION_ENABLED => false}", "COMPACTION_ENABLED", "false"},
      {"alter 't', SPLIT_ENABLED => 'false'", "SPLIT_ENABLED", "false"},
      {"alter 't', MERGE_ENABLED => false", "MERGE_ENABLED", "false"},
      {"alter 't', REGION_REPLICATION => 2", "REGION_REPLICATION", "2"},
      {"alter 't', NORMALIZATION_ENABLED => true", "NORMALIZATION_ENABLED", "true"},
      {"alter 't', MEMSTORE_FLUSHSIZE => 268435456", "MEMSTORE_FLUSHSIZE", "268435456"},
      {"alter 't', MEMSTORE_FLUSHSIZE => '256MB'", "MEMSTORE_FLUSHSIZE", "268435456"},
      {"alter 't', MAX_FILESIZE => '10GB'", "MAX_FILESIZE", "10737418240"},
      {"alter 't', PRIORITY => 5", "PRIORITY", "5"},
      {"alter 't', NORMALIZER_TARGET_REGION_COUNT => 4", "NORMALIZER_TARGET_REGION_COUNT", "4"},
      {"alter 't', NORMALIZER_TARGET_REGION_SIZE_MB => 1024", "NORMALIZER_TARGET_REGION_SIZE_MB",
       "1024"},
      {"alter 't', OWNER => 'bob'", "OWNER", "bob"},
      {"alter 't', SPLIT_POLICY => 'org.apache.hadoop.hbase.regionserver."
       "ConstantSizeRegionSplitPolicy'",
       "SPLIT_POLICY", "org.apache.hadoop.hbase.regionserver.ConstantSizeRegionSplitPolicy"},
      {"alter 't', FLUSH_POLICY => 'x.Y'", "FLUSH_POLICY", "x.Y"},
      {"alter 't', REGION_MEMSTORE_REPLICATION => false", "REGION_MEMSTORE_REPLICATION", "false"},
      {"alter 't', CONFIGURATION => {'hbase.hstore.blockingStoreFiles' => '20'}",
       "hbase.hstore.blockingStoreFiles", "20"},
      {"alter 't', METADATA => {'owner.team' => 'search', 'n' => 3}", "owner.team", "search"},
      {"alter 't', METHOD => 'table_att', MAX_FILESIZE => 4194304", "MAX_FILESIZE", "4194304"},
  };
  TableDescriptor cur(TableName{"default", "t"});
  cur.SetValue("IS_META", "false");
  cur.AddFamily(FamilyDescriptor::WithDefaults("f"));
  for (const Case& c : cases) {
    auto td = Alter(cur, c.text);
    ASSERT_TRUE(td.ok()) << c.text << ": " << td.status().ToString();
    TableDescriptor back = RoundTrip(*td);
    EXPECT_EQ(back.GetValue(c.key).value_or("<absent>"), c.stored) << c.text;
    EXPECT_EQ(back.GetValue("IS_META").value_or(""), "false");
  }
  auto st = ParseAlterStatement("alter 't', METADATA => {'owner.team' => 'search', 'n' => 3}");
  ASSERT_TRUE(st.ok());
  EXPECT_EQ(st->table_values, (Pairs{{"owner.team", "search"}, {"n", "3"}}));
}

TEST(ShellAlter, TableAttUnset) {
  TableDescriptor cur = DocsTable();
  cur.SetValue("MAX_FILESIZE", "134217728");
  cur.SetValue("OWNER", "bob");
  auto td = Alter(cur, "alter 'docs', METHOD => 'table_att_unset', NAME => 'MAX_FILESIZE'");
  ASSERT_TRUE(td.ok()) << td.status().ToString();
  EXPECT_FALSE(RoundTrip(*td).GetValue("MAX_FILESIZE"));
  EXPECT_EQ(td->GetValue("OWNER").value_or(""), "bob");
  td = Alter(cur, "alter 'docs', {METHOD => 'table_att_unset', NAME => ['MAX_FILESIZE', 'OWNER']}");
  ASSERT_TRUE(td.ok()) << td.status().ToString();
  EXPECT_FALSE(td->GetValue("OWNER"));
  ExpectInvalid(
      Alter(cur, "alter 'docs', METHOD => 'table_att_unset', NAME => 'READONLY'").status(),
                {"could not find attribute", "READONLY"});
}

// ---------------------------------------------------------------------------------------------
// Every family attribute, in its stored form.

TEST(ShellAlter, EveryFamilyAttribute) {
  struct Case {
    const char* attr;  // KEY => value as written
    const char* key;
    const char* stored;
  } cases[] = {
      {"BLOCKCACHE => false", "BLOCKCACHE", "false"},
      {"BLOCKCACHE => 'TRUE'", "BLOCKCACHE", "true"},
      {"REPLICATION_SCOPE => 1", "REPLICATION_SCOPE", "1"},
      {"CACHE_DATA_ON_WRITE => true", "CACHE_DATA_ON_WRITE", "true"},
      {"CACHE_INDEX_ON_WRITE => true", "CACHE_INDEX_ON_WRITE", "true"},
      {"CACHE_BLOOMS_ON_WRITE => true", "CACHE_BLOOMS_ON_WRITE", "true"},
      {"EVICT_BLOCKS_ON_CLOSE => true", "EVICT_BLOCKS_ON_CLOSE", "true"},
      {"IN_MEMORY => true", "IN_MEMORY", "true"},
      {"IN_MEMORY_COMPACTION => 'BASIC'", "IN_MEMORY_COMPACTION", "BASIC"},
      {"TTL => 86400", "TTL", "86400"},
      {"TTL => '86400'", "TTL", "86400"},
      {"TTL => 'FOREVER'", "TTL", "2147483647"},
      {"TTL => '1 DAY'", "TTL", "86400"},
      {"TTL => '2 hours 30 minutes'", "TTL", "9000"},
      {"TTL => '86400 SECONDS (1 DAY)'", "TTL", "86400"},
      {"TTL => '1 DAY 1 HOUR 1 MINUTE 1 SECOND'", "TTL", "90061"},
      {"TTL => '90061 SECONDS (1 DAY 1 HOUR 1 MINUTE 1 SECOND)'", "TTL", "90061"},
      {"TTL => '59 seconds'", "TTL", "59"},
      {"TTL => 'forever'", "TTL", "2147483647"},
      {"DATA_BLOCK_ENCODING => 'FAST_DIFF'", "DATA_BLOCK_ENCODING", "FAST_DIFF"},
      {"DATA_BLOCK_ENCODING => 'ROW_INDEX_V1'", "DATA_BLOCK_ENCODING", "ROW_INDEX_V1"},
      {"INDEX_BLOCK_ENCODING => 'NONE'", "INDEX_BLOCK_ENCODING", "NONE"},
      {"BLOCKSIZE => 131072", "BLOCKSIZE", "131072"},
      {"BLOCKSIZE => '131072'", "BLOCKSIZE", "131072"},
      {"BLOCKSIZE => '64KB'", "BLOCKSIZE", "65536"},
      {"BLOCKSIZE => '1 MB'", "BLOCKSIZE", "1048576"},
      {"BLOCKSIZE => '64k'", "BLOCKSIZE", "65536"},
      {"BLOCKSIZE => '65536 B (64KB)'", "BLOCKSIZE", "65536"},
      {"BLOCKSIZE => '1MB 512KB'", "BLOCKSIZE", "1572864"},
      {"VERSIONS => 5", "VERSIONS", "5"},
      {"MIN_VERSIONS => 1", "MIN_VERSIONS", "1"},
      {"KEEP_DELETED_CELLS => true", "KEEP_DELETED_CELLS", "TRUE"},
      {"KEEP_DELETED_CELLS => 'ttl'", "KEEP_DELETED_CELLS", "TTL"},
      {"KEEP_DELETED_CELLS => false", "KEEP_DELETED_CELLS", "FALSE"},
      {"KEEP_DELETED_CELLS => TTL", "KEEP_DELETED_CELLS", "TTL"},  // the shell constant TTL
      {"BLOOMFILTER => NONE", "BLOOMFILTER", "NONE"},             // the shell constant NONE
      {"COMPRESS_TAGS => false", "COMPRESS_TAGS", "false"},
      {"PREFETCH_BLOCKS_ON_OPEN => true", "PREFETCH_BLOCKS_ON_OPEN", "true"},
      {"IS_MOB => true", "IS_MOB", "true"},
      {"MOB_THRESHOLD => 1048576", "MOB_THRESHOLD", "1048576"},
      {"NEW_VERSION_BEHAVIOR => true", "NEW_VERSION_BEHAVIOR", "true"},
      {"BLOOMFILTER => 'ROWCOL'", "BLOOMFILTER", "ROWCOL"},
      {"BLOOMFILTER => 'none'", "BLOOMFILTER", "NONE"},
      {"COMPRESSION => 'snappy'", "COMPRESSION", "SNAPPY"},
      {"COMPRESSION => 'GZ'", "COMPRESSION", "GZ"},
      {"COMPRESSION => 'LZ4'", "COMPRESSION", "LZ4"},
      {"COMPRESSION => 'ZSTD'", "COMPRESSION", "ZSTD"},
      {"COMPRESSION_COMPACT => 'ZSTD'", "COMPRESSION_COMPACT", "ZSTD"},
      {"COMPRESSION_COMPACT_MAJOR => 'GZ'", "COMPRESSION_COMPACT_MAJOR", "GZ"},
      {"COMPRESSION_COMPACT_MINOR => 'LZ4'", "COMPRESSION_COMPACT_MINOR", "LZ4"},
      {"ENCRYPTION => 'aes'", "ENCRYPTION", "AES"},
      {"STORAGE_POLICY => 'all_ssd'", "STORAGE_POLICY", "ALL_SSD"},
      {"MOB_COMPACT_PARTITION_POLICY => 'weekly'", "MOB_COMPACT_PARTITION_POLICY", "WEEKLY"},
      {"DFS_REPLICATION => 2", "DFS_REPLICATION", "2"},
      {"METADATA => {'mykey' => 'myvalue'}", "mykey", "myvalue"},
  };
  for (const Case& c : cases) {
    std::string text = std::string("alter 'docs', {NAME => 'm', ") + c.attr + "}";
    auto td = Alter(DocsTable(), text);
    ASSERT_TRUE(td.ok()) << text << ": " << td.status().ToString();
    TableDescriptor back = RoundTrip(*td);
    EXPECT_EQ(Val(back.FindFamily("m"), c.key), c.stored) << text;
  }
  // Every attribute the shell knows has a case above or below.
  EXPECT_EQ(ShellFamilyAttributes().size(), 32u);
}

TEST(ShellAlter, FamilyConfiguration) {
  auto td = Alter(DocsTable(),
                  "alter 'docs', {NAME => 'm', BLOOMFILTER => 'ROWPREFIX_FIXED_LENGTH', "
                  "CONFIGURATION => {'RowPrefixBloomFilter.prefix_length' => '10', "
                  "'hbase.hstore.compaction.max' => 8}}");
  ASSERT_TRUE(td.ok()) << td.status().ToString();
  TableDescriptor back = RoundTrip(*td);
  const FamilyDescriptor* m = back.FindFamily("m");
  EXPECT_EQ(m->bloom_type(), BloomType::kRowPrefixFixedLength);
  EXPECT_EQ(m->bloom_prefix_length(), 10);
  EXPECT_EQ(m->GetConfiguration("hbase.hstore.compaction.max").value_or(""), "8");
}

TEST(ShellAlter, MetadataAppliesAfterTypedAttributes) {
  auto st = ParseAlterStatement(
      "alter 'docs', {NAME => 'm', METADATA => {'VERSIONS' => '7'}, VERSIONS => 3}");
  ASSERT_TRUE(st.ok()) << st.status().ToString();
  EXPECT_EQ(st->families[0].values, (Pairs{{"VERSIONS", "7"}}));
}

TEST(ShellAlter, StringArgumentNamesAFamily) {
  auto td = Alter(DocsTable(), "alter 'docs', 'n'");
  ASSERT_TRUE(td.ok()) << td.status().ToString();
  EXPECT_EQ(*td->FindFamily("n"), FamilyDescriptor::WithDefaults("n"));
}

// ---------------------------------------------------------------------------------------------
// Errors.

TEST(ShellAlter, BadValues) {
  struct Case {
    const char* attr;
    std::initializer_list<const char*> words;
  } cases[] = {
      {"COMPRESSION => 'ZSTX'", {"COMPRESSION", "ZSTX", "ZSTD", "SNAPPY"}},
      {"COMPRESSION_COMPACT => 'LZ5'", {"COMPRESSION_COMPACT", "GZ"}},
      {"VERSIONS => 0", {"VERSIONS", "positive"}},
      {"VERSIONS => 'many'", {"VERSIONS", "integer"}},
      {"BLOCKSIZE => 512", {"BLOCKSIZE", "1K", "16MB"}},
      {"BLOCKSIZE => 33554432", {"BLOCKSIZE", "16MB"}},
      {"MIN_VERSIONS => 4", {"MIN_VERSIONS", "VERSIONS"}},
      {"MIN_VERSIONS => -1", {"MIN_VERSIONS", "negative"}},
      {"TTL => 0", {"TTL", "positive"}},
      {"TTL => -5", {"TTL", "positive"}},
      {"TTL => 'soon'", {"TTL", "FOREVER", "1 DAY"}},
      {"TTL => '100 SECONDS (1 DAY)'", {"TTL", "86400"}},
      {"TTL => 4294967296", {"TTL", "2147483647"}},
      {"TTL => '1 DAY, 1 HOUR'", {"TTL", "1 DAY"}},
      {"TTL => ''", {"TTL", "FOREVER"}},
      {"BLOCKSIZE => '64 KiB'", {"BLOCKSIZE", "64KB"}},
      {"BLOCKSIZE => '1000 B (64KB)'", {"BLOCKSIZE", "65536"}},
      {"BLOCKSIZE => '4GB'", {"BLOCKSIZE", "2147483647"}},
      {"BLOOMFILTER => 'ROWPREFIX_FIXED_LENGTH'",
       {"BLOOMFILTER", "RowPrefixBloomFilter.prefix_length"}},
      {"BLOOMFILTER => 'BLOOM'", {"BLOOMFILTER", "ROWCOL", "ROWPREFIX_FIXED_LENGTH"}},
      {"DATA_BLOCK_ENCODING => 'PREFIX_TREE'", {"DATA_BLOCK_ENCODING", "FAST_DIFF"}},
      {"KEEP_DELETED_CELLS => 'maybe'", {"KEEP_DELETED_CELLS", "TTL"}},
      {"IN_MEMORY => 'yes'", {"IN_MEMORY", "true or false"}},
      {"IN_MEMORY => 1", {"IN_MEMORY", "true or false"}},
      {"REPLICATION_SCOPE => 2", {"REPLICATION_SCOPE", "0", "1"}},
      {"DFS_REPLICATION => -1", {"DFS_REPLICATION"}},
      {"IN_MEMORY_COMPACTION => 'LAZY'", {"IN_MEMORY_COMPACTION", "ADAPTIVE"}},
      {"MOB_COMPACT_PARTITION_POLICY => 'HOURLY'", {"MOB_COMPACT_PARTITION_POLICY", "DAILY"}},
      {"ENCRYPTION_KEY => 'secret'", {"ENCRYPTION_KEY", "offline"}},
      {"COLOR => 'blue'", {"COLOR", "valid:", "BLOCKSIZE", "TTL"}},
      {"versions => 3", {"VERSIONS"}},
      {"'versions' => 3", {"case-sensitive", "VERSIONS"}},
      {"METADATA => 'x'", {"METADATA", "hash"}},
  };
  for (const Case& c : cases) {
    std::string text = std::string("alter 'docs', {NAME => 'm', ") + c.attr + "}";
    ExpectInvalid(Alter(DocsTable(), text).status(), c.words);
  }
}

TEST(ShellAlter, BadTableValues) {
  ExpectInvalid(Alter(DocsTable(), "alter 'docs', MAX_FILESIZE => 1024").status(),
                {"MAX_FILESIZE", "too small"});
  ExpectInvalid(Alter(DocsTable(), "alter 'docs', MEMSTORE_FLUSHSIZE => '1000'").status(),
                {"MEMSTORE_FLUSHSIZE", "too small"});
  ExpectInvalid(Alter(DocsTable(), "alter 'docs', REGION_REPLICATION => 0").status(),
                {"REGION_REPLICATION"});
  ExpectInvalid(Alter(DocsTable(), "alter 'docs', DURABILITY => 'FAST'").status(),
                {"DURABILITY", "ASYNC_WAL", "SKIP_WAL"});
  ExpectInvalid(Alter(DocsTable(), "alter 'docs', READONLY => 'yes'").status(), {"READONLY"});
  ExpectInvalid(Alter(DocsTable(), "alter 'docs', MAX_FILESIZ => 1").status(),
                {"MAX_FILESIZ", "valid:", "MAX_FILESIZE"});
  ExpectInvalid(Alter(DocsTable(), "alter 'docs', METHOD => 'rename', NAME => 'm'").status(),
                {"rename", "table_att_unset"});
  ExpectInvalid(Alter(DocsTable(), "alter 'docs', METHOD => 'table_att', NAME => 'm'").status(),
                {"NAME"});
  ExpectInvalid(Alter(DocsTable(), "alter 'other', {NAME => 'm'}").status(), {"other", "docs"});
  ExpectInvalid(
      Alter(DocsTable(), "alter 'docs', 'coprocessor' => 'hdfs:///x.jar|a.B|1001|'").status(),
      {"coprocessor"});
  // A table may opt out of the master's checks; setter checks still apply.
  TableDescriptor relaxed = DocsTable();
  relaxed.SetValue("hbase.table.sanity.checks", "false");
  EXPECT_TRUE(Alter(relaxed, "alter 'docs', MAX_FILESIZE => 1024").ok());
  EXPECT_FALSE(Alter(relaxed, "alter 'docs', {NAME => 'm', VERSIONS => 0}").ok());
  EXPECT_TRUE(Alter(relaxed, "alter 'docs', {NAME => 'm', BLOCKSIZE => 512}").ok());
  // ... and these TableDescriptorChecker checks are never bypassed.
  ExpectInvalid(Alter(relaxed, "alter 'docs', {NAME => 'm', REPLICATION_SCOPE => 3}").status(),
                {"REPLICATION_SCOPE"});
  ExpectInvalid(
      Alter(relaxed, "alter 'docs', {NAME => 'm', BLOOMFILTER => 'ROWPREFIX_FIXED_LENGTH'}")
          .status(),
      {"prefix_length"});
  // The bloom parameter must be in the family CONFIGURATION (checkBloomFilterType).
  ExpectInvalid(Alter(DocsTable(), "alter 'docs', {NAME => 'm', BLOOMFILTER => "
                                   "'ROWPREFIX_FIXED_LENGTH', METADATA => "
                                   "{'RowPrefixBloomFilter.prefix_length' => '4'}}")
                    .status(),
                {"CONFIGURATION"});
  ExpectInvalid(Alter(DocsTable(), "alter 'docs', {NAME => 'm', BLOOMFILTER => "
                                   "'ROWPREFIX_FIXED_LENGTH', CONFIGURATION => "
                                   "{'RowPrefixBloomFilter.prefix_length' => '0'}}")
                    .status(),
                {"positive"});
}

TEST(ShellAlter, StoreFileTrackerChangesGoThroughMigration) {
  TableDescriptor cur = DocsTable();
  cur.SetValue("hbase.store.file-tracker.impl", "DEFAULT");
  ExpectInvalid(
      Alter(cur, "alter 'docs', CONFIGURATION => {'hbase.store.file-tracker.impl' => 'FILE'}")
          .status(),
      {"DEFAULT to FILE", "MIGRATION"});
  auto td = Alter(cur,
                  "alter 'docs', CONFIGURATION => {'hbase.store.file-tracker.impl' => 'MIGRATION', "
                  "'hbase.store.file-tracker.migration.src.impl' => 'DEFAULT', "
                  "'hbase.store.file-tracker.migration.dst.impl' => 'FILE'}");
  ASSERT_TRUE(td.ok()) << td.status().ToString();
  ExpectInvalid(Alter(*td, "alter 'docs', METADATA => {'hbase.store.file-tracker.impl' => "
                           "'DEFAULT'}")
                    .status(),
                {"dst (FILE)"});
  EXPECT_TRUE(
      Alter(*td, "alter 'docs', METADATA => {'hbase.store.file-tracker.impl' => 'FILE'}").ok());
  // A descriptor without the key (2.4) reads as DEFAULT.
  EXPECT_TRUE(Alter(DocsTable(), "alter 'docs', METADATA => {'hbase.store.file-tracker.impl' "
                                 "=> 'DEFAULT'}")
                  .ok());
}

TEST(ShellAlter, FifoCompactionRequirements) {
  const char* fifo =
      "alter 'docs', {NAME => 'm', CONFIGURATION => {'hbase.hstore.defaultengine.compactionpolicy"
      ".class' => 'org.apache.hadoop.hbase.regionserver.compactions.FIFOCompactionPolicy'";
  ExpectInvalid(Alter(DocsTable(), std::string(fifo) + "}}").status(), {"FIFO", "TTL"});
  ExpectInvalid(Alter(DocsTable(), std::string(fifo) + "}, TTL => 3600}").status(),
                {"FIFO", "1000"});
  auto td = Alter(DocsTable(), std::string(fifo) +
                                   ", 'hbase.hstore.blockingStoreFiles' => 1000}, TTL => 3600}");
  ASSERT_TRUE(td.ok()) << td.status().ToString();
  RoundTrip(*td);
}

TEST(ShellParse, SyntaxErrorsNameTheColumn) {
  struct Case {
    const char* text;
    std::initializer_list<const char*> words;
  } cases[] = {
      {"alter 'docs', {NAME => 'm' VERSIONS => 1}", {"column 28", "expected ',' or '}'"}},
      {"alter 'docs', {NAME 'm'}", {"column 21", "'=>'"}},
      {"alter 'docs', {NAME => 'm}", {"column 24", "unterminated"}},
      {"alter docs, {NAME => 'm'}", {"column 7", "table name"}},
      {"alter 'docs', {NAME => m}", {"column 24", "quote"}},
      {"alter 'docs', {NAME => 'm'} extra", {"column 29", "end of statement"}},
      {"alter 'docs', {NAME => 'm', VERSIONS => 1, VERSIONS => 2}", {"column 44", "twice"}},
      {"alter 'docs', {NAME => 'm', TTL => 12abc}", {"column 36", "digits"}},
      {"alter 'docs',\n  {NAME => 'm', @}", {"line 2, column 17", "unexpected character"}},
      {"create 'docs', 'f'", {"'alter'", "create"}},
      {"alter 'docs'", {"at least one argument"}},
      {"alter 'docs', {NAME => \"#{x}\"}", {"interpolation"}},
      {"alter '', 'f'", {"table name"}},
  };
  for (const Case& c : cases) {
    auto st = ParseAlterStatement(c.text);
    ExpectInvalid(st.status(), c.words);
  }
}

TEST(ShellParse, Lexical) {
  // Optional command word, parentheses, trailing comma, comments, both quote styles.
  auto st = ParseAlterStatement(
      "  alter('ns:docs', {NAME => \"m\\x41\", 'VERSIONS' => +2, BLOCKSIZE => 65_536,},)  \n");
  ASSERT_FALSE(st.ok());  // a trailing ',' before ')' needs an argument
  st = ParseAlterStatement(
      "  alter('ns:docs', {NAME => \"m\\x41\", 'VERSIONS' => +2, BLOCKSIZE => 65_536,})  # c\n");
  ASSERT_TRUE(st.ok()) << st.status().ToString();
  EXPECT_EQ(st->table.namespace_name, "ns");
  EXPECT_EQ(st->table.qualifier, "docs");
  ASSERT_EQ(st->families.size(), 1u);
  EXPECT_EQ(st->families[0].name, "mA");
  EXPECT_EQ(st->families[0].values, (Pairs{{"VERSIONS", "2"}, {"BLOCKSIZE", "65536"}}));
  st = ParseAlterStatement("'docs', {NAME => 'it\\'s'};");
  ASSERT_TRUE(st.ok()) << st.status().ToString();
  EXPECT_EQ(st->families[0].name, "it's");
  EXPECT_EQ(st->table.namespace_name, "default");
}

// ---------------------------------------------------------------------------------------------
// create

TEST(ShellCreate, DesignGuideStatement) {
  auto st = ParseCreateStatement(
      "create 'docs', {NAME => 'm', VERSIONS => 1, BLOOMFILTER => 'ROW', DATA_BLOCK_ENCODING => "
      "'FAST_DIFF', COMPRESSION => 'SNAPPY', BLOCKSIZE => 16384}, {NAME => 'b', VERSIONS => 3, "
      "TTL => 7776000, COMPRESSION => 'ZSTD', BLOCKSIZE => 131072, BLOCKCACHE => false}, "
      "{SPLITS => ['2', '4', '6', '8', 'a', 'c', 'e']}");
  ASSERT_TRUE(st.ok()) << st.status().ToString();
  EXPECT_EQ(st->split_keys, (std::vector<std::string>{"2", "4", "6", "8", "a", "c", "e"}));
  ASSERT_EQ(st->families.size(), 2u);
  auto td = DescriptorForCreate(*st);
  ASSERT_TRUE(td.ok()) << td.status().ToString();
  TableDescriptor back = RoundTrip(*td);
  EXPECT_EQ(back.name().ToString(), "docs");
  EXPECT_EQ(back.GetValue("IS_META").value_or(""), "false");
  EXPECT_EQ(back.store_file_tracker(), "DEFAULT");
  ASSERT_EQ(back.families().size(), 2u);
  EXPECT_EQ(back.families()[0].name(), "b");  // name order, as HBase writes them
  const FamilyDescriptor* m = back.FindFamily("m");
  const FamilyDescriptor* b = back.FindFamily("b");
  EXPECT_EQ(m->data_block_encoding(), DataBlockEncoding::kFastDiff);
  EXPECT_EQ(m->compression(), Compression::kSnappy);
  EXPECT_EQ(m->block_size(), 16384);
  EXPECT_EQ(m->bloom_type(), BloomType::kRow);
  EXPECT_EQ(m->max_versions(), 1);
  EXPECT_EQ(b->max_versions(), 3);
  EXPECT_EQ(b->ttl_seconds(), 7776000);
  EXPECT_EQ(b->compression(), Compression::kZstd);
  EXPECT_EQ(b->block_size(), 131072);
  EXPECT_FALSE(b->block_cache_enabled());
  EXPECT_EQ(Val(b, "KEEP_DELETED_CELLS"), "FALSE");  // defaults present
  EXPECT_EQ(b->values().size(), FamilyDescriptor::WithDefaults("b").values().size());
}

TEST(ShellCreate, Forms) {
  auto st = ParseCreateStatement("create 'ns:t', 'f1', 'f2'");
  ASSERT_TRUE(st.ok()) << st.status().ToString();
  EXPECT_EQ(st->table.ToString(), "ns:t");
  ASSERT_EQ(st->families.size(), 2u);

  st = ParseCreateStatement(
      "create 't', 'f', SPLITS_FILE => 'splits.txt', MAX_FILESIZE => 4194304, OWNER => 'x'");
  ASSERT_TRUE(st.ok()) << st.status().ToString();
  EXPECT_EQ(st->splits_file, "splits.txt");
  EXPECT_EQ(st->table_values, (Pairs{{"MAX_FILESIZE", "4194304"}, {"OWNER", "x"}}));

  st = ParseCreateStatement("create 't', 'f', {NUMREGIONS => 15, SPLITALGO => 'HexStringSplit'}");
  ASSERT_TRUE(st.ok()) << st.status().ToString();
  EXPECT_EQ(st->num_regions, 15);
  EXPECT_EQ(st->split_algorithm, "HexStringSplit");

  st = ParseCreateStatement(
      "create 't', {NAME => 'f'}, {SPLITS => ['\\x00\\x01', \"\\x02\"], REGION_REPLICATION => 2, "
      "METHOD => 'table_att'}");
  ASSERT_TRUE(st.ok()) << st.status().ToString();
  EXPECT_EQ(st->split_keys, (std::vector<std::string>{std::string("\x00\x01", 2), "\x02"}));
  auto td = DescriptorForCreate(*st);
  ASSERT_TRUE(td.ok()) << td.status().ToString();
  EXPECT_EQ(td->region_replication(), 2);

  // A repeated family replaces the earlier one; arrays are flattened.
  st = ParseCreateStatement("create 't', ['f', {NAME => 'f', VERSIONS => 4}]");
  ASSERT_TRUE(st.ok()) << st.status().ToString();
  ASSERT_EQ(st->families.size(), 1u);
  EXPECT_EQ(st->families[0].values, (Pairs{{"VERSIONS", "4"}}));
}

TEST(ShellCreate, SplitKeys) {
  auto st = ParseCreateStatement("create 't', 'f', SPLITS => ['b', 'a', '\\x00']");
  ASSERT_TRUE(st.ok()) << st.status().ToString();
  auto keys = SplitKeysForCreate(*st);
  ASSERT_TRUE(keys.ok()) << keys.status().ToString();
  EXPECT_EQ(*keys, (std::vector<std::string>{std::string(1, '\0'), "a", "b"}));

  st = ParseCreateStatement("create 't', 'f', {NUMREGIONS => 15, SPLITALGO => 'HexStringSplit'}");
  ASSERT_TRUE(st.ok());
  keys = SplitKeysForCreate(*st);
  ASSERT_TRUE(keys.ok()) << keys.status().ToString();
  ASSERT_EQ(keys->size(), 14u);
  EXPECT_EQ(keys->front(), "11111111");
  EXPECT_EQ((*keys)[9], "aaaaaaaa");
  EXPECT_EQ(keys->back(), "eeeeeeee");

  st = ParseCreateStatement("create 't', 'f', {NUMREGIONS => 4, SPLITALGO => "
                            "'org.apache.hadoop.hbase.util.RegionSplitter$DecimalStringSplit'}");
  ASSERT_TRUE(st.ok());
  keys = SplitKeysForCreate(*st);
  ASSERT_TRUE(keys.ok()) << keys.status().ToString();
  EXPECT_EQ(*keys, (std::vector<std::string>{"25000000", "50000000", "75000000"}));

  st = ParseCreateStatement("create 't', 'f', {NUMREGIONS => 4, SPLITALGO => 'UniformSplit'}");
  ASSERT_TRUE(st.ok());
  keys = SplitKeysForCreate(*st);
  ASSERT_TRUE(keys.ok()) << keys.status().ToString();
  EXPECT_EQ(*keys, (std::vector<std::string>{std::string("\x40\0\0\0\0\0\0\0", 8),
                                             std::string("\x80\0\0\0\0\0\0\0", 8),
                                             std::string("\xc0\0\0\0\0\0\0\0", 8)}));
  st = ParseCreateStatement("create 't', 'f', {NUMREGIONS => 3, SPLITALGO => 'UniformSplit'}");
  ASSERT_TRUE(st.ok());
  keys = SplitKeysForCreate(*st);
  ASSERT_TRUE(keys.ok());
  EXPECT_EQ(*keys, (std::vector<std::string>{std::string(8, '\x55'), std::string(8, '\xaa')}));
  st = ParseCreateStatement("create 't', 'f', {NUMREGIONS => 4, SPLITALGO => 'my.Split'}");
  ASSERT_TRUE(st.ok());
  EXPECT_TRUE(SplitKeysForCreate(*st).status().IsNotSupported());

  std::string dir = test::NewTempDir("shell_splits");
  test::WriteFileOrDie(dir + "/splits.txt", "m\r\nc\n\\x41\n");
  st = ParseCreateStatement("create 't', 'f', SPLITS_FILE => '" + dir + "/splits.txt'");
  ASSERT_TRUE(st.ok()) << st.status().ToString();
  keys = SplitKeysForCreate(*st);
  ASSERT_TRUE(keys.ok()) << keys.status().ToString();
  EXPECT_EQ(*keys, (std::vector<std::string>{"A", "c", "m"}));

  st = ParseCreateStatement("create 't', 'f', SPLITS => ['a', 'a']");
  ASSERT_TRUE(st.ok());
  ExpectInvalid(SplitKeysForCreate(*st).status(), {"duplicate"});
  st = ParseCreateStatement("create 't', 'f', SPLITS => ['a', '']");
  ASSERT_TRUE(st.ok());
  ExpectInvalid(SplitKeysForCreate(*st).status(), {"empty split key"});
}

TEST(ShellCreate, Errors) {
  ExpectInvalid(ParseCreateStatement("create 't', {SPLITS => ['1']}").status(),
                {"at least one column family"});
  ExpectInvalid(
      ParseCreateStatement("create 't', 'f', {NUMREGIONS => 1, SPLITALGO => 'X'}").status(),
                {"NUMREGIONS", "greater than 1"});
  ExpectInvalid(ParseCreateStatement("create 't', 'f', {NUMREGIONS => 4}").status(),
                {"SPLITALGO"});
  ExpectInvalid(ParseCreateStatement("create 't', 'f', {METHOD => 'delete'}").status(),
                {"table_att"});
  ExpectInvalid(ParseCreateStatement("create 't', 'f', {SPLIT => ['1']}").status(),
                {"SPLIT", "SPLITS"});
  ExpectInvalid(ParseCreateStatement("create 't', '.f'").status(), {"period"});
  ExpectInvalid(ParseCreateStatement("create '.t', 'f'").status(), {"must start with"});
  ExpectInvalid(ParseCreateStatement("create 't/x', 'f'").status(), {"may only contain"});
  ExpectInvalid(ParseCreateStatement("create 'n-s:t', 'f'").status(), {"namespace"});
  EXPECT_TRUE(ParseCreateStatement("create 'ns_1:t-2.x', 'f'").ok());
  ExpectInvalid(ParseCreateStatement("create 't', 'a:b'").status(), {"':'"});
  ExpectInvalid(ParseCreateStatement("create 't', {NAME => 'f', TTL => 'x'}").status(), {"TTL"});
  auto st = ParseCreateStatement("create 't', {NAME => 'f', BLOCKSIZE => 100}");
  ASSERT_TRUE(st.ok());
  ExpectInvalid(DescriptorForCreate(*st).status(), {"BLOCKSIZE"});
}

// ---------------------------------------------------------------------------------------------
// Flag form.

TEST(ShellFlags, SetsLikeTheStatement) {
  auto fc = FamilyChangeFromFlags(
      "m", {"compression=zstd", "BLOCKSIZE=8192", "ttl=1 DAY", "blockcache=false",
            "CONFIGURATION:RowPrefixBloomFilter.prefix_length=4",
            "bloomfilter=rowprefix_fixed_length",
            "METADATA:k=v", "KEEP_DELETED_CELLS=true"});
  ASSERT_TRUE(fc.ok()) << fc.status().ToString();
  EXPECT_EQ(fc->values, (Pairs{{"COMPRESSION", "ZSTD"}, {"BLOCKSIZE", "8192"}, {"TTL", "86400"},
                               {"BLOCKCACHE", "false"}, {"BLOOMFILTER", "ROWPREFIX_FIXED_LENGTH"},
                               {"k", "v"}, {"KEEP_DELETED_CELLS", "TRUE"}}));
  EXPECT_EQ(fc->configuration, (Pairs{{"RowPrefixBloomFilter.prefix_length", "4"}}));
  AlterStatement st;
  st.table = TableName{"default", "docs"};
  st.families.push_back(*fc);
  auto td = ApplyAlter(DocsTable(), st);
  ASSERT_TRUE(td.ok()) << td.status().ToString();
  EXPECT_EQ(RoundTrip(*td).FindFamily("m")->bloom_prefix_length(), 4);

  ExpectInvalid(FamilyChangeFromFlags("m", {"COLOR=red"}).status(), {"COLOR", "valid:", "TTL"});
  ExpectInvalid(FamilyChangeFromFlags("m", {"VERSIONS"}).status(), {"ATTR=VALUE"});
  ExpectInvalid(FamilyChangeFromFlags("m", {"VERSIONS=0"}).status(), {"VERSIONS"});
  ExpectInvalid(FamilyChangeFromFlags("m", {"COMPRESSION=ZSTX"}).status(), {"ZSTX", "ZSTD"});
  ExpectInvalid(FamilyChangeFromFlags("", {}).status(), {"empty"});
}

}  // namespace
}  // namespace hfile::region
