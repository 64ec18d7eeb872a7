// The WebHDFS client and the remote file against a real NameNode and DataNode (MiniDFSCluster
// 3.5.0, 1 MiB blocks): run by check_webhdfs.py with HFILE_TEST_WEBHDFS=HOST:PORT set, never
// alone (it fails without a cluster rather than pass by skipping).
#include <gtest/gtest.h>

#include <cstdlib>
#include <random>
#include <string>

#include "hfile/reader.h"
#include "hfile/webhdfs.h"
#include "testutil.h"
#include "webhdfs_file.h"

namespace hfile {
namespace {

std::string Address() {
  const char* a = std::getenv("HFILE_TEST_WEBHDFS");
  return a ? a : "";
}

std::unique_ptr<WebHdfsClient> Client() {
  EXPECT_FALSE(Address().empty()) << "HFILE_TEST_WEBHDFS is not set: run check_webhdfs.py";
  auto c = WebHdfsClient::Create(Address(), {});
  EXPECT_TRUE(c.ok());
  return c.ok() ? std::move(c).value() : nullptr;
}

std::string Random(size_t n, uint32_t seed) {
  std::mt19937 g(seed);
  std::string s(n, '\0');
  for (auto& c : s) c = static_cast<char>(g());
  return s;
}

TEST(WebHdfsCluster, WriteListReadRenameDelete) {
  auto c = Client();
  ASSERT_TRUE(c);
  ASSERT_TRUE(c->Mkdirs("/ct/dir").ok());
  const std::string data = Random((3 << 20) + 12345, 1);  // 4 blocks of 1 MiB
  Status s = c->CreateFile("/ct/dir/a,b=c", Slice(data), false);
  ASSERT_TRUE(s.ok()) << s.ToString();
  // Not over an existing file without overwrite: the NameNode's exception, decoded.
  s = c->CreateFile("/ct/dir/a,b=c", Slice("x"), false);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.ToString().find("HTTP 403: FileAlreadyExistsException"), std::string::npos)
      << s.ToString();

  auto st = c->GetFileStatus("/ct/dir/a,b=c");
  ASSERT_TRUE(st.ok()) << st.status().ToString();
  EXPECT_EQ(st->length, data.size());
  EXPECT_EQ(st->block_size, 1u << 20);
  auto list = c->ListStatus("/ct/dir");
  ASSERT_TRUE(list.ok()) << list.status().ToString();
  ASSERT_EQ(list->size(), 1u);
  EXPECT_EQ((*list)[0].name, "a,b=c");

  // Ranges at the start, across a block boundary, and at the end.
  for (auto [off, len] : {std::pair<uint64_t, uint64_t>{0, 100}, {(1 << 20) - 50, 100},
                          {data.size() - 10, 10}, {5, (2 << 20) + 7}}) {
    std::string out;
    ASSERT_TRUE(c->Open("/ct/dir/a,b=c", off, len, &out).ok());
    EXPECT_EQ(out, data.substr(off, len)) << off;
  }
  std::string tail;
  ASSERT_TRUE(c->Open("/ct/dir/a,b=c", data.size() - 4, 100, &tail).ok());
  EXPECT_EQ(tail, data.substr(data.size() - 4));  // fewer only at the end

  ASSERT_TRUE(c->Rename("/ct/dir/a,b=c", "/ct/dir/b").ok());
  EXPECT_TRUE(c->GetFileStatus("/ct/dir/a,b=c").status().IsNotFound());
  // A missing source: the NameNode answers {"boolean":false}, not an exception.
  s = c->Rename("/ct/dir/a,b=c", "/ct/dir/b2");
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_NE(s.ToString().find("refused by the NameNode"), std::string::npos) << s.ToString();
  bool existed = false;
  ASSERT_TRUE(c->Delete("/ct", true, &existed).ok());
  EXPECT_TRUE(existed);
  ASSERT_TRUE(c->Delete("/ct", true, &existed).ok());
  EXPECT_FALSE(existed);
  auto gone = c->GetFileStatus("/ct/dir/b");
  EXPECT_TRUE(gone.status().IsNotFound()) << gone.status().ToString();
  EXPECT_NE(gone.status().ToString().find("FileNotFoundException"), std::string::npos);
}

TEST(WebHdfsCluster, CachedFileReadsAcrossBlocks) {
  auto c = Client();
  ASSERT_TRUE(c);
  const std::string data = Random((2 << 20) + 999, 2);
  ASSERT_TRUE(c->CreateFile("/cf/f", Slice(data), true).ok());
  WebHdfsOptions o;
  o.address = Address();
  o.cache_bytes = 256 << 10;
  o.read_ahead_bytes = 64 << 10;
  auto f = WebHdfsFile::Open("hdfs://127.0.0.1:1/cf/f", o);  // the RPC port is not used
  ASSERT_TRUE(f.ok()) << f.status().ToString();
  ASSERT_EQ((*f)->size(), data.size());
  std::mt19937 g(7);
  std::string buf;
  for (int i = 0; i < 300; ++i) {
    const uint64_t off = g() % data.size();
    const size_t n = std::min<uint64_t>(g() % 5000 + 1, data.size() - off);
    buf.assign(n, '\0');
    ASSERT_TRUE((*f)->Read(off, n, &buf[0]).ok()) << off;
    ASSERT_EQ(buf, data.substr(off, n)) << off;
    ASSERT_LE((*f)->cached_bytes(), o.cache_bytes);
  }
  ASSERT_TRUE(c->Delete("/cf", true).ok());
}

TEST(WebHdfsCluster, ReaderOverHdfsEqualsLocal) {
  auto c = Client();
  ASSERT_TRUE(c);
  const std::string local =
      test::ProjectTestDataDir() + "/hbase/none-none-row-crc32c-notags-3level.hfile";
  ASSERT_TRUE(c->CreateFile("/rf/f.hfile", Slice(test::ReadFileOrDie(local)), true).ok());
  ReaderOptions ro;
  ro.webhdfs.address = Address();
  ro.webhdfs.cache_bytes = 8 << 10;
  ro.webhdfs.read_ahead_bytes = 4 << 10;
  auto remote = Reader::Open("hdfs://localhost/rf/f.hfile", ro);
  ASSERT_TRUE(remote.ok()) << remote.status().ToString();
  auto mine = Reader::Open(local);
  ASSERT_TRUE(mine.ok());
  auto a = (*remote)->NewIterator();
  auto b = (*mine)->NewIterator();
  uint64_t n = 0;
  for (a->SeekToFirst(), b->SeekToFirst(); b->Valid(); a->Next(), b->Next(), ++n) {
    ASSERT_TRUE(a->Valid()) << n;
    ASSERT_EQ(a->cell().key.ToString(), b->cell().key.ToString()) << n;
    ASSERT_EQ(a->cell().value.ToString(), b->cell().value.ToString()) << n;
  }
  EXPECT_FALSE(a->Valid());
  EXPECT_TRUE(a->status().ok()) << a->status().ToString();
  EXPECT_EQ(n, (*mine)->trailer().entry_count);
  EXPECT_GT(n, 0u);
}

}  // namespace
}  // namespace hfile
