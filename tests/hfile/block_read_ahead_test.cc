// BlockReadAhead: a file's block chain read on a worker, handed over as the walk asks for it.
#include "block_read_ahead.h"

#include <gtest/gtest.h>

#include <string>

#include "hfile/reader.h"
#include "reader_internal.h"
#include "test_hfile.h"
#include "testutil.h"

namespace hfile {
namespace {

TEST(BlockReadAhead, HandsOverTheChainAsTheBlockReaderReadsIt) {
  const std::string path = test::NewTempDir("read-ahead") + "/f";
  test::WriteFileOrDie(path, test::BuildTestHFile({}));
  auto r = Reader::Open(path);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const Reader::Rep& rep = (*r)->rep();
  BlockReadAhead ahead(rep.file.get(), rep.block_options, 2);
  BlockReader reader = rep.NewBlockReader();
  Block got, want;
  uint64_t offset = 0;
  size_t blocks = 0;
  while (offset < rep.block_options.section_end) {
    ASSERT_TRUE(ahead.Take(offset, &got)) << "offset " << offset;
    ASSERT_TRUE(reader.ReadBlock(offset, 0, &want).ok());
    EXPECT_EQ(got.offset, offset);
    EXPECT_EQ(got.header.type, want.header.type);
    EXPECT_EQ(got.body.ToString(), want.body.ToString());
    offset += got.header.on_disk_size_with_header();
    ++blocks;
  }
  EXPECT_GT(blocks, 3u);
  EXPECT_FALSE(ahead.Take(offset, &got));  // nothing past the last block
}

TEST(BlockReadAhead, RefusesAnotherOffsetAndABlockItCannotRead) {
  const std::string dir = test::NewTempDir("read-ahead-bad");
  const std::string intact = test::BuildTestHFile({});
  test::WriteFileOrDie(dir + "/intact", intact);
  auto r = Reader::Open(dir + "/intact");
  ASSERT_TRUE(r.ok());
  {
    BlockReadAhead ahead((*r)->rep().file.get(), (*r)->rep().block_options, 4);
    Block b;
    EXPECT_FALSE(ahead.Take(1, &b));  // the walk went another way
  }
  // The first data block's checksum fails: the worker stops there and hands nothing over.
  std::string damaged = intact;
  damaged[kBlockHeaderSizeWithChecksum + 7] ^= 0x5A;
  test::WriteFileOrDie(dir + "/damaged", damaged);
  auto d = Reader::Open(dir + "/damaged");
  ASSERT_TRUE(d.ok());
  BlockReadAhead ahead((*d)->rep().file.get(), (*d)->rep().block_options, 4);
  Block b;
  EXPECT_FALSE(ahead.Take(0, &b));
  EXPECT_FALSE(ahead.Take(0, &b));  // and nothing after it either
}

}  // namespace
}  // namespace hfile
