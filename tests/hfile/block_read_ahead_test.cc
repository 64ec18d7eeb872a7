// BlockReadAhead: a file's block chain read on a worker, handed over as the walk asks for it.
#include "block_read_ahead.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "hfile/reader.h"
#include "reader_internal.h"
#include "test_hfile.h"
#include "testutil.h"

namespace hfile {
namespace {

// `bytes` written to `path` and opened.
std::unique_ptr<Reader> WriteAndOpen(const std::string& path, const std::string& bytes) {
  test::WriteFileOrDie(path, bytes);
  auto r = Reader::Open(path);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? std::move(*r) : nullptr;
}

TEST(BlockReadAhead, HandsOverTheChainAsTheBlockReaderReadsIt) {
  auto r = WriteAndOpen(test::NewTempDir("read-ahead") + "/f", test::BuildTestHFile({}));
  ASSERT_NE(r, nullptr);
  const Reader::Rep& rep = r->rep();
  // The default budget, and one so small that a single block waits at a time and every
  // handed-over buffer is given back.
  for (size_t budget : {size_t{16} << 20, size_t{1}}) {
    SCOPED_TRACE(budget);
    BlockReadAhead ahead(rep.file.get(), rep.block_options, 3, budget);
    BlockReader reader = rep.NewBlockReader();
    Block got, want;
    Status s;
    BlockReader::Fault fault;
    uint64_t offset = 0;
    size_t blocks = 0;
    while (offset < rep.block_options.section_end) {
      ASSERT_EQ(ahead.Take(offset, &got, &s, &fault), BlockReadAhead::Taken::kBlock) << offset;
      ASSERT_TRUE(reader.ReadBlock(offset, 0, &want).ok());
      EXPECT_EQ(got.offset, offset);
      EXPECT_EQ(got.header.type, want.header.type);
      EXPECT_EQ(got.body.ToString(), want.body.ToString());
      offset += got.header.on_disk_size_with_header();
      ++blocks;
    }
    EXPECT_GT(blocks, 3u);
    // Nothing past the last block.
    EXPECT_EQ(ahead.Take(offset, &got, &s, &fault), BlockReadAhead::Taken::kNotAhead);
  }
}

// A block it cannot read is handed over as its failure, as the walk's own read would have met it
// (not read again: a transient I/O error must not pass unseen), and the read-ahead ends there.
TEST(BlockReadAhead, HandsOverAFailedReadAndRefusesAnotherOffset) {
  const std::string dir = test::NewTempDir("read-ahead-bad");
  const std::string intact = test::BuildTestHFile({});
  auto r = WriteAndOpen(dir + "/intact", intact);
  ASSERT_NE(r, nullptr);
  {
    BlockReadAhead ahead(r->rep().file.get(), r->rep().block_options, 4);
    Block b;
    Status s;
    BlockReader::Fault fault;
    // The walk went another way.
    EXPECT_EQ(ahead.Take(1, &b, &s, &fault), BlockReadAhead::Taken::kNotAhead);
  }
  // The first data block's checksum fails: the worker stops there.
  std::string damaged = intact;
  damaged[kBlockHeaderSizeWithChecksum + 7] ^= 0x5A;
  auto d = WriteAndOpen(dir + "/damaged", damaged);
  ASSERT_NE(d, nullptr);
  BlockReadAhead ahead(d->rep().file.get(), d->rep().block_options, 4);
  Block b;
  Status s;
  BlockReader::Fault fault = BlockReader::Fault::kNone;
  ASSERT_EQ(ahead.Take(0, &b, &s, &fault), BlockReadAhead::Taken::kFailed);
  BlockReader reader = d->rep().NewBlockReader();
  const Status direct = reader.ReadBlock(0, 0, &b);
  EXPECT_EQ(s.ToString(), direct.ToString());
  EXPECT_EQ(fault, BlockReader::Fault::kChecksum);
  EXPECT_EQ(fault, reader.last_fault());
  // And nothing after it.
  EXPECT_EQ(ahead.Take(0, &b, &s, &fault), BlockReadAhead::Taken::kNotAhead);
}

}  // namespace
}  // namespace hfile
