// Reader::io_stats(): every block a read costs is counted once, by kind, with its on-disk size;
// an iterator's upper bound keeps it from reading blocks past the bound; a seek into the block
// an iterator holds reads nothing. On files of one index level and of several.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <string>
#include <vector>

#include "hfile/cell.h"
#include "hfile/reader.h"
#include "hfile/writer.h"
#include "testutil.h"

namespace hfile {
namespace {

std::string Row(int i) { return fmt::format("row-{:05d}", i); }

// 3000 rows of two cells each in 512-byte blocks; an index of one level, or (deep) of three or more.
std::string WriteFile(const std::string& name, bool deep) {
  WriterOptions o;
  o.block_size = 512;
  o.bloom_type = BloomType::kRow;
  o.compression = Compression::kNone;
  if (deep) {
    o.index_block_max_size = 256;
    o.index_min_entries = 2;
  }
  const std::string path = test::NewTempDir(name) + "/f.hfile";
  auto w = Writer::Create(path, o);
  EXPECT_TRUE(w.ok()) << w.status().ToString();
  std::string key, value(40, 'v');
  for (int i = 0; i < 3000; ++i) {
    for (const char* q : {"a", "b"}) {
      key.clear();
      AppendKey(&key, Row(i), "f", q, 1000, static_cast<uint8_t>(KeyType::kPut));
      EXPECT_TRUE((*w)->Append(Cell{key, value, Slice(), 0}).ok());
    }
  }
  EXPECT_TRUE((*w)->Finish().ok());
  return path;
}

class ReaderIoStats : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    path_ = WriteFile(GetParam() ? "io-stats-deep" : "io-stats-flat", GetParam());
    auto r = Reader::Open(path_);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    reader_ = std::move(r).value();
    levels_ = reader_->trailer().num_data_index_levels;
    if (GetParam()) ASSERT_GE(levels_, 3u);
    else ASSERT_EQ(levels_, 1u);
    // The index from a second reader, so that reader_'s counters see only the test's reads.
    auto other = Reader::Open(path_);
    ASSERT_TRUE(other.ok());
    auto index = (*other)->DataBlockIndex();
    ASSERT_TRUE(index.ok());
    index_ = std::move(index).value();
    ASSERT_GT(index_.size(), 100u);
  }

  // The data blocks an index seek to `row` must read: where its first-on-row key falls and
  // each next block whose index key still sorts before the next row.
  uint64_t BlocksHoldingRow(const std::string& row) const {
    const std::string first = FirstOnRowKey(row), bound = FirstOnRowKey(row + std::string(1, '\0'));
    auto cmp = [](const std::string& a, const std::string& b) {
      return CompareKeys(ComparatorKind::kDefault, a, b);
    };
    size_t i = 0;
    while (i + 1 < index_.size() && cmp(index_[i + 1].key, first) <= 0) ++i;
    uint64_t n = 1;
    for (; i + 1 < index_.size() && cmp(index_[i + 1].key, bound) < 0; ++i) ++n;
    return n;
  }

  std::string path_;
  std::unique_ptr<Reader> reader_;
  uint32_t levels_ = 0;
  std::vector<DataBlockEntry> index_;
};

TEST_P(ReaderIoStats, OpenReadsTheTrailerAndTheLoadOnOpenSectionOnly) {
  const IoStats s = reader_->io_stats();
  // The trailer's tail read, the data root, meta root, file info and general bloom meta (no
  // delete-family bloom: the file has no delete-family markers).
  EXPECT_EQ(s.open.count, 1u + 4);
  EXPECT_EQ(s.AfterOpen().count, 0u);
  // Every byte read at open belongs to one of those reads: the tail, one header read alone
  // (the first load-on-open block's size is unknown), and each block with the next header.
  EXPECT_GE(s.bytes_read, s.open.bytes);
  EXPECT_EQ(s.read_calls, 1u + 1 + 4);
  EXPECT_GE(s.seeks, 2u);  // the tail, then back to the load-on-open section
  EXPECT_EQ(s.cache_hits, 0u);
}

TEST_P(ReaderIoStats, FullScanReadsEveryDataBlockOnceSequentially) {
  const IoStats before = reader_->io_stats();
  auto it = reader_->NewIterator();
  uint64_t cells = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next()) ++cells;
  ASSERT_TRUE(it->status().ok());
  EXPECT_EQ(cells, 6000u);
  const IoStats s = reader_->io_stats();
  uint64_t bytes = 0;
  for (const auto& e : index_) bytes += e.on_disk_size;
  EXPECT_EQ(s.data.count, index_.size());
  EXPECT_EQ(s.data.bytes, bytes);
  EXPECT_EQ(s.open.count, before.open.count);
  // Deeper files have leaf (and bloom) blocks inline between the data blocks: read on the way.
  if (levels_ == 1) EXPECT_EQ(s.index.count, 0u);
  else EXPECT_GT(s.index.count, 0u);
  // One seek to the first block, then one read per block (the first one's header is read
  // first, its size being unknown): no further seek.
  EXPECT_EQ(s.seeks - before.seeks, 1u);
  EXPECT_EQ(s.read_calls - before.read_calls, 1 + s.AfterOpen().count);
}

TEST_P(ReaderIoStats, BoundedSeekReadsTheRowsBlocksAndNoMore) {
  uint64_t one = 0, two = 0;
  for (int i = 0; i < 3000; i += 37) {
    const std::string row = Row(i);
    SCOPED_TRACE(row);
    const IoStats before = reader_->io_stats();
    IteratorOptions io;
    io.upper_bound = FirstOnRowKey(row + std::string(1, '\0'));
    auto it = reader_->NewIterator(io);
    int cells = 0;
    for (it->Seek(FirstOnRowKey(row)); it->Valid() && it->cell().row() == Slice(row); it->Next())
      ++cells;
    ASSERT_TRUE(it->status().ok());
    EXPECT_EQ(cells, 2);
    const IoStats s = reader_->io_stats();
    const uint64_t want = BlocksHoldingRow(row);
    EXPECT_EQ(s.data.count - before.data.count, want);
    (want == 1 ? one : two) += 1;
    // The index descent: one block per level below the root (none for the first row, whose
    // first-on-row key sorts before the first block's key: that seek starts at the first block);
    // a row that goes on into the next leaf's first block also passes the inline leaf block
    // written between the two, as HBase's sequential read does.
    const uint64_t descent = i == 0 ? 0 : levels_ - 1;
    EXPECT_GE(s.index.count - before.index.count, descent);
    EXPECT_LE(s.index.count - before.index.count, descent + want - 1);
    EXPECT_EQ(s.bloom.count, before.bloom.count);
  }
  EXPECT_GT(one, 0u);
  EXPECT_GT(two, 0u);  // rows straddling two blocks are read from both
}

TEST_P(ReaderIoStats, UnboundedSeekReadsOnToTheNextRowsBlock) {
  // Without a bound the iterator cannot know the row ended with its block: reading on to the
  // first cell after the row costs the next block when the row ends a block.
  const IoStats before = reader_->io_stats();
  auto it = reader_->NewIterator();
  uint64_t extra = 0;
  for (int i = 0; i < 3000; i += 37) {
    const std::string row = Row(i);
    const uint64_t d0 = reader_->io_stats().data.count;
    for (it->Seek(FirstOnRowKey(row)); it->Valid() && it->cell().row() == Slice(row); it->Next()) {
    }
    if (reader_->io_stats().data.count - d0 > BlocksHoldingRow(row)) ++extra;
  }
  EXPECT_GT(reader_->io_stats().data.count, before.data.count);
  EXPECT_GT(extra, 0u);
}

TEST_P(ReaderIoStats, SeekIntoTheHeldBlockReadsNoDataBlock) {
  auto it = reader_->NewIterator();
  it->Seek(FirstOnRowKey(Row(1000)));
  ASSERT_TRUE(it->Valid());
  const IoStats before = reader_->io_stats();
  // Row 1000's second cell is in the same block as its first, or the row is the block's last:
  // seek back to the row's first cell, which is in the held block.
  it->Seek(FirstOnRowKey(Row(1000)));
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(it->cell().row(), Slice(Row(1000)));
  const IoStats s = reader_->io_stats();
  EXPECT_EQ(s.cache_hits - before.cache_hits, 1u);
  EXPECT_EQ(s.data.count, before.data.count);
  EXPECT_EQ(s.index.count - before.index.count, levels_ - 1);  // the descent is not cached
}

INSTANTIATE_TEST_SUITE_P(Levels, ReaderIoStats, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "Deep" : "OneLevel"; });

}  // namespace
}  // namespace hfile
