// Writer round trips over codec x encoding x bloom x checksum x tags x mvcc, with blocks small
// enough for three index levels; plus order checks, crash safety and the empty file.
#include <gtest/gtest.h>

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <random>

#include "compression.h"
#include "hfile/reader.h"
#include "hfile/verify.h"
#include "hfile/writer.h"
#include "testutil.h"

namespace hfile {
namespace {

struct OwnedCell {
  std::string key, value, tags;
  uint64_t seq = 0;
  Cell view() const { return Cell{key, value, tags, seq}; }
};

std::vector<OwnedCell> RandomCells(uint32_t seed, size_t n, bool tags, bool mvcc) {
  std::mt19937 rng(seed);
  auto rnd = [&](uint32_t m) { return static_cast<uint32_t>(rng() % m); };
  const uint8_t types[] = {4, 4, 4, 4, 8, 10, 12, 14};
  std::vector<OwnedCell> cells;
  while (cells.size() < n) {
    std::string row = fmt::format("row{:06d}", rnd(100000));
    if (rnd(20) == 0) row += std::string(rnd(600), 'x');  // long rows
    if (rnd(10) == 0) row = row.substr(0, 3 + rnd(5));    // rows that prefix others
    const int versions = rnd(8) == 0 ? 1 + rnd(12) : 1;   // many versions
    const std::string qual = rnd(5) == 0 ? "" : fmt::format("q{}", rnd(50));
    for (int v = 0; v < versions; ++v) {
      OwnedCell c;
      const uint8_t type = types[rnd(8)];
      AppendKey(&c.key, row, "f", type == 14 || type == 10 ? "" : qual,
                1700000000000 + rnd(1000000), type);
      switch (rnd(10)) {
        case 0: break;                                           // empty value
        case 1: c.value.assign(100 + rnd(400), 'v'); break;      // bigger than a block
        default: c.value = fmt::format("value-{}", rng()); break;
      }
      if (tags && rnd(3) == 0) {
        const std::string t = fmt::format("tag{}", rnd(5));
        c.tags.push_back(0);
        c.tags.push_back(static_cast<char>(t.size() + 1));
        c.tags.push_back(static_cast<char>(1 + rnd(8)));
        c.tags += t;
      }
      if (mvcc) c.seq = rnd(4) == 0 ? 0 : rnd(1u << 30);
      cells.push_back(std::move(c));
    }
  }
  std::stable_sort(cells.begin(), cells.end(), [](const OwnedCell& a, const OwnedCell& b) {
    return CompareKeys(ComparatorKind::kDefault, a.key, b.key) < 0;
  });
  return cells;
}

struct Combo {
  Compression compression;
  DataBlockEncoding encoding;
  BloomType bloom;
  ChecksumType checksum;
  bool tags;
  bool mvcc;
};

std::string ComboName(const Combo& c) {
  return fmt::format("{}_{}_{}_{}_{}_{}", CompressionName(c.compression),
                     DataBlockEncodingName(c.encoding), BloomTypeName(c.bloom),
                     ChecksumTypeName(c.checksum), c.tags ? "tags" : "notags",
                     c.mvcc ? "mvcc" : "nomvcc");
}

std::vector<Combo> Combos() {
  const Compression codecs[] = {Compression::kNone,  Compression::kGz,   Compression::kSnappy,
                                Compression::kLz4,   Compression::kZstd, Compression::kBzip2,
                                Compression::kLzo,   Compression::kLzma, Compression::kBrotli};
  const DataBlockEncoding encodings[] = {DataBlockEncoding::kNone, DataBlockEncoding::kPrefix,
                                         DataBlockEncoding::kDiff, DataBlockEncoding::kFastDiff,
                                         DataBlockEncoding::kRowIndexV1};
  const BloomType blooms[] = {BloomType::kNone, BloomType::kRow, BloomType::kRowCol,
                              BloomType::kRowPrefixFixedLength};
  const ChecksumType sums[] = {ChecksumType::kNull, ChecksumType::kCrc32, ChecksumType::kCrc32c};
  std::vector<Combo> out;
  int i = 0;
  // Every codec x every encoding; the cheap axes rotate.
  for (Compression c : codecs) {
    if (!CompressionAvailable(c)) continue;
    for (DataBlockEncoding e : encodings) {
      out.push_back({c, e, blooms[i % 4], sums[i % 3], (i / 2) % 2 == 0, i % 2 == 0});
      ++i;
    }
  }
  // Full cross product of the cheap axes (bloom x checksum x tags x mvcc), encodings rotating.
  for (BloomType b : blooms)
    for (ChecksumType s : sums)
      for (bool t : {false, true})
        for (bool m : {false, true}) out.push_back({Compression::kNone, encodings[i++ % 5], b, s, t, m});
  return out;
}

class WriterMatrixTest : public ::testing::TestWithParam<Combo> {};

TEST_P(WriterMatrixTest, RoundTrip) {
  const Combo& c = GetParam();
  const auto cells = RandomCells(7 + static_cast<uint32_t>(c.encoding) * 31, 3000, c.tags, c.mvcc);
  WriterOptions o;
  o.block_size = 64;
  o.index_block_max_size = 256;
  o.index_min_entries = 4;
  o.compression = c.compression;
  o.encoding = c.encoding;
  o.bloom_type = c.bloom;
  o.bloom_prefix_length = 5;
  o.bloom_chunk_size = 512;  // several bloom chunks
  o.checksum_type = c.checksum;
  o.bytes_per_checksum = 512;  // several checksum chunks per block
  o.include_tags = c.tags;
  o.include_mvcc = c.mvcc;
  o.max_seq_id = 99;
  o.major_compaction = true;
  const std::string path = test::NewTempDir("writer-matrix") + "/f.hfile";
  {
    auto w = Writer::Create(path, o);
    ASSERT_TRUE(w.ok()) << w.status().ToString();
    for (const auto& cell : cells) ASSERT_TRUE((*w)->Append(cell.view()).ok());
    ASSERT_TRUE((*w)->AppendMetaBlock("meta-b", "bytes-b").ok());
    ASSERT_TRUE((*w)->AppendMetaBlock("meta-a", std::string(300, 'a')).ok());
    WriterStats st;
    Status s = (*w)->Finish(&st);
    ASSERT_TRUE(s.ok()) << s.ToString();
    EXPECT_GE(st.index_levels, 3u);
  }
  WriterStats batch_stats;
  {
    // The same cells through AppendBatch, in batches of irregular sizes: the very same bytes.
    auto w = Writer::Create(path + ".batch", o);
    ASSERT_TRUE(w.ok()) << w.status().ToString();
    CellBatch batch;
    const size_t sizes[] = {1, 7, 300, 2, 64};
    for (size_t i = 0, k = 0; i < cells.size(); ++k) {
      batch.Clear();
      for (size_t n = sizes[k % 5]; n > 0 && i < cells.size(); --n) {
        *batch.Add() = cells[i++].view();
      }
      ASSERT_TRUE((*w)->AppendBatch(batch).ok());
    }
    ASSERT_TRUE((*w)->AppendMetaBlock("meta-b", "bytes-b").ok());
    ASSERT_TRUE((*w)->AppendMetaBlock("meta-a", std::string(300, 'a')).ok());
    ASSERT_TRUE((*w)->Finish(&batch_stats).ok());
  }
  ASSERT_EQ(test::ReadFileOrDie(path + ".batch"), test::ReadFileOrDie(path))
      << "AppendBatch wrote other bytes than Append";
  {
    // The same cells through AppendAfter, told each first difference as a merge knows it: the
    // blooms and block boundaries it decides are the compare's, so the very same bytes.
    auto w = Writer::Create(path + ".after", o);
    ASSERT_TRUE(w.ok()) << w.status().ToString();
    for (size_t i = 0; i < cells.size(); ++i) {
      KeyField d = KeyField::kRow;
      if (i > 0) {
        ASSERT_LE(CompareKeys(ComparatorKind::kDefault, cells[i - 1].key, cells[i].key, &d), 0);
      }
      ASSERT_TRUE((*w)->AppendAfter(cells[i].view(), d).ok()) << i;
    }
    ASSERT_TRUE((*w)->AppendMetaBlock("meta-b", "bytes-b").ok());
    ASSERT_TRUE((*w)->AppendMetaBlock("meta-a", std::string(300, 'a')).ok());
    ASSERT_TRUE((*w)->Finish().ok());
  }
  ASSERT_EQ(test::ReadFileOrDie(path + ".after"), test::ReadFileOrDie(path))
      << "AppendAfter wrote other bytes than Append";
  auto r = Reader::Open(path);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ((*r)->trailer().entry_count, cells.size());
  EXPECT_GE((*r)->trailer().num_data_index_levels, 3u);
  {
    // ReadBatch hands on a data block's cells at a time: one batch per data block, the same
    // cells in the same order as the per-cell scan.
    auto it = (*r)->NewIterator();
    CellBatch batch;
    size_t n = 0, batches = 0;
    for (it->SeekToFirst(); it->Valid(); it->Next(), ++batches) {
      it->ReadBatch(&batch);
      ASSERT_FALSE(batch.empty());
      EXPECT_EQ(it->cell().key, batch.back().key);
      for (const Cell& got : batch) {
        ASSERT_LT(n, cells.size());
        ASSERT_EQ(got.key, Slice(cells[n].key)) << n;
        ASSERT_EQ(got.value, Slice(cells[n].value)) << n;
        ASSERT_EQ(got.tags, Slice(cells[n].tags)) << n;
        ASSERT_EQ(got.sequence_id, cells[n].seq) << n;
        ++n;
      }
    }
    ASSERT_TRUE(it->status().ok()) << it->status().ToString();
    EXPECT_EQ(n, cells.size());
    EXPECT_EQ(batches, batch_stats.data_blocks);
  }
  auto it = (*r)->NewIterator();
  size_t n = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next(), ++n) {
    ASSERT_LT(n, cells.size());
    const Cell& got = it->cell();
    ASSERT_EQ(got.key, Slice(cells[n].key)) << n;
    ASSERT_EQ(got.value, Slice(cells[n].value)) << n;
    ASSERT_EQ(got.tags, Slice(cells[n].tags)) << n;
    ASSERT_EQ(got.sequence_id, cells[n].seq) << n;
  }
  ASSERT_TRUE(it->status().ok()) << it->status().ToString();
  EXPECT_EQ(n, cells.size());
  auto meta = (*r)->ReadMetaBlock("meta-a");
  ASSERT_TRUE(meta.ok());
  EXPECT_EQ(*meta, std::string(300, 'a'));
  // Blooms: no false negatives.
  for (size_t i = 0; i < cells.size(); i += 7) {
    const Slice k = cells[i].key;
    auto in = (*r)->BloomMightContainColumn(KeyRow(k), KeyFamily(k), KeyQualifier(k));
    ASSERT_TRUE(in.ok() && *in) << i;
    if (KeyTypeByte(k) == 14 || KeyTypeByte(k) == 10) {
      auto df = (*r)->DeleteFamilyBloomMightContain(KeyRow(k));
      ASSERT_TRUE(df.ok() && *df) << i;
    }
  }
  // Seeks land where a linear scan says.
  std::mt19937 rng(3);
  for (int i = 0; i < 200; ++i) {
    std::string target;
    if (i % 2 == 0) {
      target = cells[rng() % cells.size()].key;
    } else {
      AppendKey(&target, fmt::format("row{:06d}", rng() % 100000), "f", "q", 1700000500000, 4);
    }
    auto lb = std::lower_bound(cells.begin(), cells.end(), target,
                               [](const OwnedCell& a, const std::string& t) {
                                 return CompareKeys(ComparatorKind::kDefault, a.key, t) < 0;
                               });
    it->Seek(target);
    ASSERT_TRUE(it->status().ok());
    if (lb == cells.end()) {
      EXPECT_FALSE(it->Valid());
    } else {
      ASSERT_TRUE(it->Valid());
      EXPECT_EQ(it->cell().key, Slice(lb->key));
    }
  }
  VerifyReport rep = VerifyFile(path, VerifyOptions());
  std::string problems;
  for (const auto& p : rep.problems) problems += p.what + "\n";
  EXPECT_TRUE(rep.clean()) << problems;
  EXPECT_EQ(rep.warning_count, 0u) << problems;
}

INSTANTIATE_TEST_SUITE_P(Matrix, WriterMatrixTest, ::testing::ValuesIn(Combos()),
                         [](const auto& info) { return ComboName(info.param); });

Cell MakeCell(std::string* key, const std::string& row, int64_t ts = 1) {
  key->clear();
  AppendKey(key, row, "f", "q", ts, 4);
  return Cell{*key, "v", Slice(), 0};
}

TEST(Writer, OutOfOrderRejectedWithBothKeys) {
  const std::string path = test::NewTempDir("writer-order") + "/f.hfile";
  auto w = Writer::Create(path, WriterOptions());
  ASSERT_TRUE(w.ok());
  std::string k1, k2;
  ASSERT_TRUE((*w)->Append(MakeCell(&k1, "b")).ok());
  ASSERT_TRUE((*w)->Append(MakeCell(&k1, "b")).ok());  // duplicate key: allowed
  Status s = (*w)->Append(MakeCell(&k2, "a"));
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.message().find("a/f:q"), std::string::npos) << s.ToString();
  EXPECT_NE(s.message().find("b/f:q"), std::string::npos) << s.ToString();
}

// HBase 2.6.4 cannot read a NONE / ROW_INDEX_V1 file holding a cell with more than 32767
// bytes of tags (signed-short tags length; found by tests/hbase's "-edge" matrix), so the
// writer refuses such cells instead of writing a file HBase cannot open.
// AppendAfter trusts the caller's difference inside a block and checks it where a block ends.
TEST(Writer, AppendAfterChecksTheClaimWhereABlockEnds) {
  const std::string dir = test::NewTempDir("writer-after");
  WriterOptions o;
  o.block_size = 1;  // one cell per block: every append after the first ends a block
  std::string k1, k2, k3;
  {
    auto w = Writer::Create(dir + "/order.hfile", o);
    ASSERT_TRUE(w.ok());
    ASSERT_TRUE((*w)->AppendAfter(MakeCell(&k1, "row-b"), KeyField::kRow).ok());
    // Claimed "after, differing in the row", but it sorts before: refused, naming both keys.
    Status s = (*w)->AppendAfter(MakeCell(&k2, "row-a"), KeyField::kRow);
    EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
    EXPECT_NE(s.ToString().find("out of order"), std::string::npos) << s.ToString();
  }
  {
    auto w = Writer::Create(dir + "/field.hfile", o);
    ASSERT_TRUE(w.ok());
    ASSERT_TRUE((*w)->AppendAfter(MakeCell(&k1, "row-a", 2), KeyField::kRow).ok());
    // In order, but it differs in the timestamp, not the row.
    Status s = (*w)->AppendAfter(MakeCell(&k2, "row-a", 1), KeyField::kRow);
    EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
    EXPECT_NE(s.ToString().find("first difference"), std::string::npos) << s.ToString();
  }
  {
    // Right claims write the file Append writes.
    auto w = Writer::Create(dir + "/right.hfile", o);
    ASSERT_TRUE(w.ok());
    ASSERT_TRUE((*w)->AppendAfter(MakeCell(&k1, "row-a", 2), KeyField::kRow).ok());
    ASSERT_TRUE((*w)->AppendAfter(MakeCell(&k2, "row-a", 1), KeyField::kTimestamp).ok());
    ASSERT_TRUE((*w)->AppendAfter(MakeCell(&k3, "row-b", 1), KeyField::kRow).ok());
    ASSERT_TRUE((*w)->Finish().ok());
    auto a = Writer::Create(dir + "/append.hfile", o);
    ASSERT_TRUE(a.ok());
    ASSERT_TRUE((*a)->Append(MakeCell(&k1, "row-a", 2)).ok());
    ASSERT_TRUE((*a)->Append(MakeCell(&k2, "row-a", 1)).ok());
    ASSERT_TRUE((*a)->Append(MakeCell(&k3, "row-b", 1)).ok());
    ASSERT_TRUE((*a)->Finish().ok());
    EXPECT_EQ(test::ReadFileOrDie(dir + "/right.hfile"),
              test::ReadFileOrDie(dir + "/append.hfile"));
  }
}

TEST(Writer, AppendBatchStopsAtTheCellOutOfOrder) {
  const std::string path = test::NewTempDir("writer-batch-order") + "/f.hfile";
  auto w = Writer::Create(path, WriterOptions());
  ASSERT_TRUE(w.ok());
  std::string k[4];
  CellBatch batch;
  *batch.Add() = MakeCell(&k[0], "a");
  *batch.Add() = MakeCell(&k[1], "b");
  *batch.Add() = MakeCell(&k[2], "ab");  // sorts before "b"
  *batch.Add() = MakeCell(&k[3], "c");
  Status s = (*w)->AppendBatch(batch);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.ToString().find("cell #2 out of order"), std::string::npos) << s.ToString();
  // The cells before the bad one were appended, and the writer goes on from the last of them.
  std::string k2;
  EXPECT_TRUE((*w)->Append(MakeCell(&k2, "ab")).IsInvalidArgument());
  EXPECT_TRUE((*w)->Append(MakeCell(&k2, "bb")).ok());
  ASSERT_TRUE((*w)->Finish().ok());
  auto r = Reader::Open(path);
  ASSERT_TRUE(r.ok());
  std::vector<std::string> rows;
  auto it = (*r)->NewIterator();
  for (it->SeekToFirst(); it->Valid(); it->Next()) rows.push_back(it->cell().row().ToString());
  EXPECT_EQ(rows, (std::vector<std::string>{"a", "b", "bb"}));
}

TEST(Writer, RefusesTagsHBaseCannotRead) {
  const std::string path = test::NewTempDir("writer-tags") + "/f.hfile";
  auto w = Writer::Create(path, WriterOptions());
  ASSERT_TRUE(w.ok());
  auto tags_of = [](size_t total) {  // one tag: u16 length, type, value
    std::string t;
    size_t len = total - 2;
    t.push_back(static_cast<char>(len >> 8));
    t.push_back(static_cast<char>(len));
    t.push_back(101);
    t.append(len - 1, 'x');
    return t;
  };
  std::string k1, k2, ok = tags_of(32767), big = tags_of(32768);
  Cell c1 = MakeCell(&k1, "a");
  c1.tags = ok;
  EXPECT_TRUE((*w)->Append(c1).ok());
  Cell c2 = MakeCell(&k2, "b");
  c2.tags = big;
  Status s = (*w)->Append(c2);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.message().find("32767"), std::string::npos) << s.ToString();
}

TEST(Writer, DuplicateKeysStayInOneBlock) {
  const std::string path = test::NewTempDir("writer-dup") + "/f.hfile";
  WriterOptions o;
  o.block_size = 16;
  auto w = Writer::Create(path, o);
  ASSERT_TRUE(w.ok());
  std::string k;
  for (int i = 0; i < 10; ++i) ASSERT_TRUE((*w)->Append(MakeCell(&k, "same")).ok());
  ASSERT_TRUE((*w)->Append(MakeCell(&k, "zz")).ok());
  WriterStats st;
  ASSERT_TRUE((*w)->Finish(&st).ok());
  EXPECT_EQ(st.data_blocks, 2u);
}

TEST(Writer, DestroyedWithoutFinishLeavesNoFile) {
  const std::string dir = test::NewTempDir("writer-crash");
  const std::string path = dir + "/f.hfile";
  {
    auto w = Writer::Create(path, WriterOptions());
    ASSERT_TRUE(w.ok());
    std::string k;
    for (int i = 0; i < 1000; ++i) ASSERT_TRUE((*w)->Append(MakeCell(&k, fmt::format("r{:05d}", i))).ok());
  }
  EXPECT_FALSE(std::filesystem::exists(path));
  EXPECT_TRUE(std::filesystem::is_empty(dir));  // no temp file left either
}

TEST(Writer, ErrorLeavesNoFile) {
  const std::string dir = test::NewTempDir("writer-err");
  const std::string path = dir + "/f.hfile";
  auto w = Writer::Create(path, WriterOptions());
  ASSERT_TRUE(w.ok());
  std::string k;
  ASSERT_TRUE((*w)->Append(MakeCell(&k, "b")).ok());
  EXPECT_FALSE((*w)->Append(MakeCell(&k, "a")).ok());
  w->reset();
  EXPECT_TRUE(std::filesystem::is_empty(dir));
}

TEST(Writer, EmptyFileReadsBackAndVerifies) {
  for (Compression c : {Compression::kNone, Compression::kGz}) {
    const std::string path = test::NewTempDir("writer-empty") + "/f.hfile";
    WriterOptions o;
    o.compression = c;
    auto w = Writer::Create(path, o);
    ASSERT_TRUE(w.ok());
    ASSERT_TRUE((*w)->Finish().ok());
    auto r = Reader::Open(path);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_EQ((*r)->trailer().entry_count, 0u);
    EXPECT_EQ((*r)->trailer().first_data_block_offset, -1);
    auto it = (*r)->NewIterator();
    it->SeekToFirst();
    EXPECT_FALSE(it->Valid());
    VerifyReport rep = VerifyFile(path, VerifyOptions());
    EXPECT_TRUE(rep.clean());
    EXPECT_EQ(rep.warning_count, 0u);
  }
}

TEST(Writer, RejectsBadOptions) {
  const std::string dir = test::NewTempDir("writer-opts");
  WriterOptions o;
  o.extra_file_info.emplace_back("hfile.MINE", "x");
  EXPECT_TRUE(Writer::Create(dir + "/a", o).status().IsInvalidArgument());
  WriterOptions p;
  p.bloom_type = BloomType::kRowPrefixFixedLength;
  EXPECT_TRUE(Writer::Create(dir + "/b", p).status().IsInvalidArgument());
  WriterOptions q;
  q.block_size = 0;
  EXPECT_TRUE(Writer::Create(dir + "/c", q).status().IsInvalidArgument());
}

TEST(Writer, FileInfoAsHBaseWritesIt) {
  const std::string path = test::NewTempDir("writer-fi") + "/f.hfile";
  WriterOptions o;
  o.create_time_ms = 1234;
  o.max_seq_id = 7;
  o.major_compaction = false;
  o.encoding = DataBlockEncoding::kRowIndexV1;
  o.extra_file_info.emplace_back("caller.key", "v");
  auto w = Writer::Create(path, o);
  ASSERT_TRUE(w.ok());
  std::string k;
  k.clear();
  AppendKey(&k, "r", "f", "q", 500, static_cast<uint8_t>(KeyType::kDeleteColumn));
  ASSERT_TRUE((*w)->Append(Cell{k, "", Slice(), 3}).ok());
  ASSERT_TRUE((*w)->Finish().ok());
  auto r = Reader::Open(path);
  ASSERT_TRUE(r.ok());
  const FileInfo& fi = (*r)->file_info();
  auto tr = DecodeTimeRange(*fi.Get(fileinfo::kTimeRange));
  EXPECT_EQ(tr->min, 0);  // DeleteColumn extends the range to 0
  EXPECT_EQ(tr->max, 500);
  EXPECT_EQ(fi.GetInt64(fileinfo::kEarliestPutTs), INT64_MAX);
  EXPECT_EQ(fi.GetInt64(fileinfo::kMaxSeqId), 7);
  EXPECT_EQ(fi.GetInt64(fileinfo::kCreateTimeTs), 1234);
  EXPECT_EQ(fi.GetInt64(fileinfo::kMaxMemstoreTs), 3);
  EXPECT_EQ(fi.GetBool(fileinfo::kTagsCompressed), true);  // encoding != NONE && COMPRESS_TAGS
  EXPECT_EQ(fi.GetBool(fileinfo::kHistorical), false);
  EXPECT_EQ(fi.GetInt64(fileinfo::kLenOfBiggestCell), 4 + 8 + static_cast<int64_t>(k.size()));
  EXPECT_EQ(fi.Get("caller.key")->ToString(), "v");
  EXPECT_EQ(fi.Get(fileinfo::kDataBlockEncoding)->ToString(), "ROW_INDEX_V1");
}

}  // namespace
}  // namespace hfile
