#include "region/store_file_name.h"

#include <gtest/gtest.h>

#include "hfile/escape.h"
#include "region/store_file_list.h"
#include "region/store_file_sequence.h"
#include "../testutil.h"

namespace hfile::region {
namespace {

TEST(StoreFileName, PlainAndBulkLoaded) {
  auto a = StoreFileName::Classify("0123456789abcdef0123456789abcdef", false, 100);
  EXPECT_EQ(a.kind, StoreFileKind::kHFile);
  EXPECT_FALSE(a.bulk_load_seq_id);
  auto b = StoreFileName::Classify("abc_SeqId_42_", false, 100);
  EXPECT_EQ(b.kind, StoreFileKind::kHFile);
  EXPECT_EQ(*b.bulk_load_seq_id, 42u);
  auto c = StoreFileName::Classify("abc_del", false, 100);
  EXPECT_TRUE(c.mob_del_file);
  EXPECT_EQ(StoreFileName::Classify("ABC", false, 1).kind, StoreFileKind::kInvalid);
  EXPECT_EQ(StoreFileName::Classify("foo.hfile", false, 1).kind, StoreFileKind::kInvalid);
  EXPECT_EQ(StoreFileName::Classify(".x.crc", false, 1).kind, StoreFileKind::kInvalid);
  EXPECT_EQ(StoreFileName::Classify("some-thing", false, 1).kind, StoreFileKind::kSkipped);
  EXPECT_EQ(StoreFileName::Classify("abc", false, 0).kind, StoreFileKind::kSkipped);
  EXPECT_EQ(StoreFileName::Classify("abc", true).kind, StoreFileKind::kSkipped);
  EXPECT_EQ(StoreFileName::Classify("abc_SeqId_x_", false, 1).kind, StoreFileKind::kInvalid);
}

TEST(StoreFileName, LinksAndReferences) {
  auto l = StoreFileName::Classify("t1=43ae7364b4a555b93267937f9bc49ec1-abcdef", false, 0);
  ASSERT_EQ(l.kind, StoreFileKind::kLink);
  EXPECT_EQ(l.link->table.ToString(), "t1");
  EXPECT_EQ(l.link->region, "43ae7364b4a555b93267937f9bc49ec1");
  EXPECT_EQ(l.link->hfile, "abcdef");
  EXPECT_EQ(l.link->ToString(), "t1=43ae7364b4a555b93267937f9bc49ec1-abcdef");
  EXPECT_EQ(l.link->RelativePath("cf"), "data/default/t1/43ae7364b4a555b93267937f9bc49ec1/cf/abcdef");
  auto n = ParseHFileLinkName("ns1=my-table.x=0a1b-ff_SeqId_7_");
  ASSERT_TRUE(n);
  EXPECT_EQ(n->table.ToString(), "ns1:my-table.x");
  EXPECT_EQ(n->hfile, "ff_SeqId_7_");
  EXPECT_FALSE(ParseHFileLinkName("t1=XYZ-abc"));
  EXPECT_FALSE(ParseHFileLinkName("t1=abc-notHex"));

  auto r = StoreFileName::Classify("a6a6562b777440fd9c34885428f5cb61.21e75333ada3d5bafb34bb918f29576c",
                                   false, 24);
  ASSERT_EQ(r.kind, StoreFileKind::kReference);
  EXPECT_EQ(r.referenced_name, "a6a6562b777440fd9c34885428f5cb61");
  EXPECT_EQ(r.parent_region, "21e75333ada3d5bafb34bb918f29576c");
  auto rl = StoreFileName::Classify("t1=0a1b-ff.21e7", false, 10);
  ASSERT_EQ(rl.kind, StoreFileKind::kReference);
  ASSERT_TRUE(rl.link);
  EXPECT_EQ(rl.link->hfile, "ff");
}

TEST(Reference, ProtobufExampleBytes) {
  Reference r = Reference::ForRow("m", Reference::Range::kBottom);
  std::string out;
  r.EncodeTo(&out);
  EXPECT_EQ(ToHex(out), "50425546" "0a0d" "0001" "6d" "00" "7fffffffffffffff" "ff" "1001");
  Reference back;
  ASSERT_TRUE(back.DecodeFrom(out).ok());
  EXPECT_EQ(back.SplitRow(), "m");
  EXPECT_FALSE(back.top());
  EXPECT_FALSE(back.legacy_writable);
}

TEST(ReferenceReal, WritableReference) {
  HFILE_REQUIRE_REAL_DATA();
  auto r = ReadReferenceFile(test::RealDataDir() +
                             "/hbase-0.98-cdh/a6a6562b777440fd9c34885428f5cb61."
                             "21e75333ada3d5bafb34bb918f29576c");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_TRUE(r->legacy_writable);
  EXPECT_FALSE(r->top());
  EXPECT_EQ(r->SplitRow(), "0001049952");
  EXPECT_EQ(r->split_key.size(), 22u);
}

TEST(StoreFileList, RoundTripAndNames) {
  StoreFileList l;
  l.timestamp = 1700000000000;
  l.files = {{"abc", 10}, {"def", 20}};
  std::string enc;
  l.EncodeTo(&enc);
  StoreFileList back;
  ASSERT_TRUE(back.DecodeFrom(enc).ok());
  EXPECT_EQ(back.files.size(), 2u);
  EXPECT_EQ(back.files[1].name, "def");
  enc[6] ^= 1;
  EXPECT_TRUE(back.DecodeFrom(enc).IsCorruption());
  EXPECT_EQ(ParseStoreFileListName("f1")->which, 1);
  EXPECT_EQ(ParseStoreFileListName("f2.1700")->suffix, 1700u);
  EXPECT_FALSE(ParseStoreFileListName("f3"));
  EXPECT_FALSE(ParseStoreFileListName("f1."));
}

TEST(StoreFileSequence, Rules) {
  FileInfo fi;
  fi.SetInt64(fileinfo::kMaxSeqId, 100);
  auto plain = StoreFileName::Classify("abc", false, 1);
  EXPECT_EQ(ComputeStoreFileSequence(plain, false, fi).sequence_id, 100);
  EXPECT_EQ(ComputeStoreFileSequence(plain, true, fi).sequence_id, 101);
  EXPECT_FALSE(ComputeStoreFileSequence(plain, false, fi).reset_cell_sequence_ids);
  auto bulk = StoreFileName::Classify("abc_SeqId_7_", false, 1);
  auto s = ComputeStoreFileSequence(bulk, false, fi);
  EXPECT_TRUE(s.bulk_loaded);
  EXPECT_EQ(s.sequence_id, 7);
  EXPECT_TRUE(s.reset_cell_sequence_ids);
  EXPECT_EQ(ComputeStoreFileSequence(bulk, true, fi).sequence_id, 8);
  fi.SetBool(fileinfo::kSkipResetSeqId, true);
  s = ComputeStoreFileSequence(bulk, true, fi);
  EXPECT_EQ(s.sequence_id, 9);
  EXPECT_FALSE(s.reset_cell_sequence_ids);
  EXPECT_EQ(ComputeStoreFileSequence(plain, false, FileInfo()).sequence_id, -1);
}

}  // namespace
}  // namespace hfile::region
