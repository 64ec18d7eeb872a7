// The WebHDFS client and the remote file against a real NameNode and DataNode (MiniDFSCluster
// 3.5.0, 1 MiB blocks): run by check_webhdfs.py with HFILE_TEST_WEBHDFS=HOST:PORT set, never
// alone (it fails without a cluster rather than pass by skipping).
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "hfile/reader.h"
#include "hfile/webhdfs.h"
#include "region/file_system.h"
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

TEST(WebHdfsCluster, StreamedCreateStrictRenameAndBlockLocations) {
  auto c = Client();
  ASSERT_TRUE(c);
  ASSERT_TRUE(c->Mkdirs("/sr/d").ok());
  const std::string data = Random((3 << 20) + 777, 3);  // 4 blocks of 1 MiB
  // The body from a reader handing out 1000 bytes at a time: never the whole file at once.
  size_t pos = 0, calls = 0;
  BodyReader read = [&](char* buf, size_t n) -> Result<size_t> {
    ++calls;
    const size_t k = std::min<size_t>({n, 1000, data.size() - pos});
    std::memcpy(buf, data.data() + pos, k);
    pos += k;
    return k;
  };
  Status s = c->CreateFileStreaming("/sr/f", data.size(), read, false);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_GE(calls, data.size() / 1000);
  std::string back;
  ASSERT_TRUE(c->Open("/sr/f", 0, data.size() + 10, &back).ok());
  EXPECT_TRUE(back == data);
  // A reader that fails: the request fails with its error, naming the URL.
  BodyReader broken = [](char*, size_t) -> Result<size_t> {
    return Status::IOError("disk", "gone");
  };
  s = c->CreateFileStreaming("/sr/g", 10, broken, false);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.ToString().find("disk: gone"), std::string::npos) << s.ToString();

  // Blocks and their DataNode (the launcher's DataNode host is 127.0.0.1).
  auto blocks = c->GetFileBlockLocations("/sr/f", 0, data.size());
  ASSERT_TRUE(blocks.ok()) << blocks.status().ToString();
  ASSERT_EQ(blocks->size(), 4u);
  uint64_t total = 0;
  for (const auto& b : *blocks) {
    total += b.length;
    EXPECT_EQ(b.hosts, std::vector<std::string>{"127.0.0.1"});
  }
  EXPECT_EQ(total, data.size());

  // rename2: never over an existing file or into an existing dir, unless OVERWRITE (files).
  ASSERT_TRUE(c->CreateFile("/sr/h", Slice("new"), false).ok());
  s = c->RenameStrict("/sr/h", "/sr/f", false);
  EXPECT_NE(s.ToString().find("FileAlreadyExistsException"), std::string::npos) << s.ToString();
  s = c->RenameStrict("/sr/h", "/sr/d", false);
  EXPECT_FALSE(s.ok());
  EXPECT_TRUE(c->GetFileStatus("/sr/d/h").status().IsNotFound());
  ASSERT_TRUE(c->RenameStrict("/sr/h", "/sr/f", true).ok());
  std::string f;
  ASSERT_TRUE(c->Open("/sr/f", 0, 100, &f).ok());
  EXPECT_EQ(f, "new");
  EXPECT_TRUE(c->RenameStrict("/sr/missing", "/sr/x", false).IsNotFound());
  ASSERT_TRUE(c->Delete("/sr", true).ok());
}

// region::FileSystem for webhdfs:// paths, as the commit journal and the tasks use it.
TEST(WebHdfsCluster, RegionFileSystemOverWebHdfs) {
  const std::string base = "webhdfs://" + Address() + "/rfs";
  auto fso = region::FileSystemFor(base);
  ASSERT_TRUE(fso.ok()) << fso.status().ToString();
  region::FileSystem* fs = fso->get();
  EXPECT_STREQ(fs->scheme(), "hdfs");
  ASSERT_TRUE(fs->CreateDirs(base + "/d/e").ok());
  ASSERT_TRUE(fs->WriteFileAtomically(base + "/d/b", "one").ok());
  ASSERT_TRUE(fs->WriteFileAtomically(base + "/d/b", "two!").ok());  // replaces
  ASSERT_TRUE(fs->WriteFileAtomically(base + "/d/a", "").ok());
  auto list = fs->ListDir(base + "/d");
  ASSERT_TRUE(list.ok()) << list.status().ToString();
  ASSERT_EQ(list->size(), 3u);  // no temporary names left beside
  EXPECT_EQ((*list)[0].name, "a");
  EXPECT_EQ((*list)[1].name, "b");
  EXPECT_EQ((*list)[1].size, 4u);
  EXPECT_TRUE((*list)[2].is_dir);
  EXPECT_EQ(*fs->ReadFile(base + "/d/b"), "two!");
  EXPECT_EQ(*fs->ReadFile(base + "/d/a"), "");
  EXPECT_TRUE(fs->ReadFile(base + "/d/b", 3).status().IsCorruption());
  EXPECT_TRUE(fs->Stat(base + "/d/none").status().IsNotFound());
  EXPECT_TRUE(fs->IsDirectory(base + "/d/e"));

  // Rename fails over a file and over a dir, and from a missing source; the error names them.
  Status s = fs->Rename(base + "/d/a", base + "/d/b");
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_NE(s.ToString().find("HTTP 4"), std::string::npos) << s.ToString();
  EXPECT_FALSE(fs->Rename(base + "/d/a", base + "/d/e").ok());
  EXPECT_TRUE(fs->Exists(base + "/d/a"));
  s = fs->Rename(base + "/d/none", base + "/d/z");
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  ASSERT_TRUE(fs->Rename(base + "/d/a", base + "/d/e/a").ok());

  // Copies both ways, larger than one 8 MiB download window; no copy over an existing file.
  const std::string dir = test::NewTempDir("rfs");
  const std::string data = Random((17 << 20) + 5, 4);
  {
    std::ofstream(dir + "/big", std::ios::binary) << data;
  }
  ASSERT_TRUE(fs->CopyFromLocal(dir + "/big", base + "/d/big").ok());
  s = fs->CopyFromLocal(dir + "/big", base + "/d/big");
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.ToString().find("exists"), std::string::npos) << s.ToString();
  ASSERT_TRUE(fs->CopyToLocal(base + "/d/big", dir + "/back").ok());
  EXPECT_TRUE(test::ReadFileOrDie(dir + "/back") == data);
  std::map<std::string, uint64_t> hosts;
  ASSERT_TRUE(fs->AddBlockHosts(base + "/d/big", &hosts).ok());
  EXPECT_EQ(hosts, (std::map<std::string, uint64_t>{{"127.0.0.1", data.size()}}));

  EXPECT_FALSE(fs->Delete(base + "/d/e", /*recursive=*/false).ok());  // not empty
  EXPECT_TRUE(fs->Exists(base + "/d/e/a"));
  ASSERT_TRUE(fs->Delete(base, /*recursive=*/true).ok());
  EXPECT_FALSE(fs->Exists(base));
  EXPECT_TRUE(fs->Delete(base, true).ok());  // absent: OK
}

}  // namespace
}  // namespace hfile
