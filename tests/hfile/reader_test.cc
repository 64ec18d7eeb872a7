// The reader against every real HFile in ../shared/testdata/real: contents from MANIFEST.md.
#include "hfile/reader.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <sstream>

#include "hfile/coding.h"
#include "hfile/escape.h"
#include "hfile/verify.h"
#include "reader_internal.h"
#include "test_hfile.h"
#include "testutil.h"

namespace hfile {
namespace {

namespace fs = std::filesystem;

std::string Real(const std::string& rel) { return test::RealDataDir() + "/" + rel; }

std::unique_ptr<Reader> OpenOrDie(const std::string& path) {
  auto r = Reader::Open(path);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? std::move(r).value() : nullptr;
}

struct Scanned {
  std::vector<std::string> rows, values;
  std::vector<Cell> cells_unused;
  uint64_t count = 0;
};

Scanned ScanAll(const Reader& r) {
  Scanned s;
  auto it = r.NewIterator();
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    s.rows.push_back(it->cell().row().ToString());
    s.values.push_back(it->cell().value.ToString());
    ++s.count;
  }
  EXPECT_TRUE(it->status().ok()) << it->status().ToString();
  return s;
}

// ReadBatch (a data block's cells at a time) gives the very cells, in order, of the per-cell
// scan: keys, values, tags and sequence ids.
void ExpectBatchesEqualCells(const Reader& r) {
  auto a = r.NewIterator();
  auto b = r.NewIterator();
  CellBatch batch;
  uint64_t n = 0;
  a->SeekToFirst();
  for (b->SeekToFirst(); b->Valid(); b->Next()) {
    b->ReadBatch(&batch);
    for (const Cell& got : batch) {
      ASSERT_TRUE(a->Valid()) << "batches hold more cells than the scan, at cell " << n;
      const Cell& want = a->cell();
      ASSERT_EQ(got.key, want.key) << n;
      ASSERT_EQ(got.value, want.value) << n;
      ASSERT_EQ(got.tags, want.tags) << n;
      ASSERT_EQ(got.sequence_id, want.sequence_id) << n;
      a->Next();
      ++n;
    }
  }
  EXPECT_FALSE(a->Valid()) << "batches end early, at cell " << n;
  EXPECT_EQ(a->status().ok(), b->status().ok()) << b->status().ToString();
}

// True iff `path` ends with a v2/v3 trailer (magic at the right place).
bool LooksLikeHFile(const std::string& path, int* major) {
  std::string data = test::ReadFileOrDie(path);
  if (data.size() < 4) return false;
  uint32_t v = DecodeFixed32BE(data.data() + data.size() - 4);
  int maj = static_cast<int>(v & 0xFFFFFF);
  if (maj < 1 || maj > 3) return false;
  size_t ts = TrailerSize(maj);
  if (data.size() < ts) return false;
  *major = maj;
  return data.compare(data.size() - ts, 8, kTrailerMagic) == 0;
}

TEST(Reader, HudiFilesReadInFullAndSeek) {
  HFILE_REQUIRE_REAL_DATA();
  struct Case {
    const char* file;
    uint64_t entries;
    uint32_t levels;
  } cases[] = {
      {"hudi_1_0_hbase_2_4_9_16KB_GZ_20000.hfile", 20000, 1},
      {"hudi_1_0_hbase_2_4_9_512KB_GZ_20000.hfile", 20000, 1},
      {"hudi_1_0_hbase_2_4_9_16KB_NONE_5000.hfile", 5000, 1},
      {"hudi_1_0_hbase_2_4_9_64KB_NONE_5000.hfile", 5000, 1},
      {"hudi_1_0_hbase_2_4_13_1KB_GZ_20000_large_keys.hfile", 20000, 2},
      {"hudi_1_0_hbase_2_4_13_1KB_GZ_10000_large_keys_deep_index.hfile", 10000, 3},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.file);
    auto r = OpenOrDie(Real(std::string("hudi-rs/") + c.file));
    ASSERT_TRUE(r);
    EXPECT_EQ(r->trailer().entry_count, c.entries);
    EXPECT_EQ(r->trailer().num_data_index_levels, c.levels);
    EXPECT_TRUE(r->includes_mvcc());
    EXPECT_FALSE(r->includes_tags());
    Scanned s = ScanAll(*r);
    ASSERT_EQ(s.count, c.entries);
    const bool large = std::string(c.file).find("large_keys") != std::string::npos;
    for (uint64_t i = 0; i < c.entries; i += 997) {
      std::string key = large ? fmt::format("hudi-key-{}-{:09d}", std::string(100, 'a'), i)
                              : fmt::format("hudi-key-{:09d}", i);
      EXPECT_EQ(s.rows[i], key);
      EXPECT_EQ(s.values[i], fmt::format("hudi-value-{:09d}", i));
      // Seek to every sampled key lands exactly on it.
      auto it = r->NewIterator();
      it->Seek(FirstOnRowKey(key));
      ASSERT_TRUE(it->Valid()) << key;
      EXPECT_EQ(it->cell().row().ToString(), key);
    }
    auto it = r->NewIterator();
    it->Seek(FirstOnRowKey("hudi-key-zzz"));
    EXPECT_FALSE(it->Valid());
    EXPECT_TRUE(it->status().ok());
    auto mid = r->MidKey();
    ASSERT_TRUE(mid.ok()) << mid.status().ToString();
    EXPECT_TRUE(mid->has_value());
    // Every data block once, in file order, through every index level; the mid key is one
    // of the leaf entries, the first entry is the file's first key.
    auto blocks = r->DataBlockIndex();
    ASSERT_TRUE(blocks.ok()) << blocks.status().ToString();
    ASSERT_FALSE(blocks->empty());
    EXPECT_EQ(blocks->front().offset, 0u);
    EXPECT_EQ(blocks->front().key, r->first_key());
    if (c.levels > 1) EXPECT_GT(blocks->size(), r->rep().data_index.size());
    bool mid_seen = false;
    for (size_t i = 0; i < blocks->size(); ++i) {
      const DataBlockEntry& b = (*blocks)[i];
      mid_seen |= b.key == **mid;
      if (i == 0) continue;
      const DataBlockEntry& prev = (*blocks)[i - 1];
      EXPECT_GE(b.offset, prev.offset + prev.on_disk_size) << i;  // inline blocks between
      EXPECT_LT(CompareKeys(r->comparator(), Slice(prev.key), Slice(b.key)), 0) << i;
    }
    EXPECT_TRUE(mid_seen);
  }
}

TEST(Reader, HudiFakeFirstKeysAndDuplicates) {
  HFILE_REQUIRE_REAL_DATA();
  auto r = OpenOrDie(Real("hudi-rs/hudi_1_0_hbase_2_4_13_16KB_GZ_20000_fake_first_key.hfile"));
  ASSERT_TRUE(r);
  const auto& idx = r->rep().data_index;
  ASSERT_EQ(idx.size(), 86u);
  EXPECT_EQ(KeyRow(idx.entry(2).key).ToString(), "hudi-key-00000047");
  EXPECT_EQ(KeyRow(idx.entry(29).key).ToString(), "hudi-key-000006815");
  Scanned s = ScanAll(*r);
  ASSERT_EQ(s.count, 20000u);
  EXPECT_EQ(s.rows[469], "hudi-key-000000469-abcdefghij");
  auto it = r->NewIterator();
  it->Seek(FirstOnRowKey("hudi-key-000006815-abcdefghij"));
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(it->cell().row().ToString(), "hudi-key-000006815-abcdefghij");

  auto d = OpenOrDie(Real("hudi-rs/hudi_1_0_hbase_2_4_9_16KB_GZ_200_20_non_unique.hfile"));
  ASSERT_TRUE(d);
  Scanned ds = ScanAll(*d);
  ASSERT_EQ(ds.count, 4200u);
  EXPECT_EQ(ds.values[0], "hudi-value-000000000");
  EXPECT_EQ(ds.values[1], "hudi-value-000000000_0");
  EXPECT_EQ(ds.values[20], "hudi-value-000000000_19");
  EXPECT_EQ(ds.rows[21], "hudi-key-000000001");
}

TEST(Reader, HudiEmptyFileAndMetaBlock) {
  HFILE_REQUIRE_REAL_DATA();
  auto r = OpenOrDie(Real("hudi-rs/hudi_1_0_hbase_2_4_9_no_entry.hfile"));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->trailer().entry_count, 0u);
  EXPECT_FALSE(r->first_key().has_value());
  auto it = r->NewIterator();
  it->SeekToFirst();
  EXPECT_FALSE(it->Valid());
  it->Seek(FirstOnRowKey("a"));
  EXPECT_FALSE(it->Valid());
  EXPECT_TRUE(it->status().ok());
  ASSERT_EQ(r->MetaBlockNames(), std::vector<std::string>{"bloomFilter"});

  auto g = OpenOrDie(Real("hudi-rs/hudi_1_0_hbase_2_4_9_16KB_NONE_5000.hfile"));
  ASSERT_TRUE(g);
  auto meta = g->ReadMetaBlock("bloomFilter");
  ASSERT_TRUE(meta.ok()) << meta.status().ToString();
  EXPECT_EQ(*meta, "/////wAAABQBAAABID797Rg6cC9QEnS/mT3C01cdQGaLYH2jbOCLtMA0RWppEH1HQg==");
  EXPECT_EQ(g->file_info().Get("hudi_hfile_testing.custom_key")->ToString(), "hudi_custom_value");
  EXPECT_TRUE(g->ReadMetaBlock("nope").status().IsNotFound());
}

TEST(Reader, RiverbedSimpleFile) {
  HFILE_REQUIRE_REAL_DATA();
  auto r = OpenOrDie(Real("riverbed/testdata/simple.hfile"));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->trailer().major_version, 3);
  EXPECT_EQ(r->trailer().compression(), Compression::kNone);
  EXPECT_EQ(r->file_info().GetInt32(fileinfo::kAvgKeyLen), 21);
  EXPECT_EQ(r->file_info().GetInt32(fileinfo::kAvgValueLen), 6);
  EXPECT_EQ(r->bloom_type(), BloomType::kRow);
  auto it = r->NewIterator();
  int i = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next(), ++i) {
    const Cell& c = it->cell();
    EXPECT_EQ(c.row().ToString(), fmt::format("row-{:02d}", i));
    EXPECT_EQ(c.family().ToString(), "cf");
    EXPECT_EQ(c.qualifier().ToString(), "q");
    EXPECT_EQ(c.timestamp(), 1700000000000);
    EXPECT_EQ(c.type(), static_cast<uint8_t>(KeyType::kPut));
    EXPECT_EQ(c.value.ToString(), fmt::format("val-{:02d}", i));
  }
  EXPECT_EQ(i, 10);
  for (int k = 0; k < 10; ++k) {
    auto b = r->BloomMightContainRow(fmt::format("row-{:02d}", k));
    ASSERT_TRUE(b.ok()) << b.status().ToString();
    EXPECT_TRUE(*b);
  }
  // Past LAST_BLOOM_KEY the answer is certain.
  EXPECT_FALSE(*r->BloomMightContainRow("row-10"));
}

TEST(Reader, RiverbedSeekFile) {
  HFILE_REQUIRE_REAL_DATA();
  auto r = OpenOrDie(Real("riverbed/hfile/testdata/seek.hfile"));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->trailer().data_index_count, 15u);
  auto it = r->NewIterator();
  for (int k : {0, 1, 50, 98, 99}) {
    it->Seek(FirstOnRowKey(fmt::format("row-{:03d}", k)));
    ASSERT_TRUE(it->Valid());
    EXPECT_EQ(it->cell().value.ToString(), fmt::format("val-{:03d}", k));
  }
  it->Seek(FirstOnRowKey("row-0505"));  // between row-050 and row-051
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(it->cell().row().ToString(), "row-051");
  it->Seek(FirstOnRowKey("row-100"));
  EXPECT_FALSE(it->Valid());
  it->Seek(FirstOnRowKey(""));
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(it->cell().row().ToString(), "row-000");
}

TEST(Reader, DeleteMarkersAndDeleteFamilyBloom) {
  HFILE_REQUIRE_REAL_DATA();
  auto r = OpenOrDie(Real("riverbed/snapshot/testdata/test_snapshot_v1/data/test_snapshot/"
                          "3efacbde293c7a0a735dd9a803dc058e/cf/daff862e92b7485d9b34c23b65e4304a"));
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->has_delete_family_bloom());
  bool saw_delete_family = false;
  auto it = r->NewIterator();
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    if (it->cell().type() == static_cast<uint8_t>(KeyType::kDeleteFamily)) {
      EXPECT_EQ(it->cell().row().ToString(), "orange");
      saw_delete_family = true;
    }
  }
  EXPECT_TRUE(saw_delete_family);
  EXPECT_TRUE(*r->DeleteFamilyBloomMightContain("orange"));
}

TEST(Reader, MetaFilesWithRowIndexAndRowColBloom) {
  HFILE_REQUIRE_REAL_DATA();
  const std::string dir = Real("hbase-4.0-snapshot-rootdir/data/hbase/meta/1588230740/info");
  for (const auto& path : test::ListFilesRecursive(dir)) {
    if (fs::path(path).filename().string()[0] == '.') continue;
    auto r = OpenOrDie(path);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->comparator(), ComparatorKind::kMeta);
    EXPECT_EQ(r->data_block_encoding(), DataBlockEncoding::kRowIndexV1);
    EXPECT_EQ(r->bloom_type(), BloomType::kRowCol);
    Scanned s = ScanAll(*r);
    EXPECT_EQ(s.count, 10u);
    auto it = r->NewIterator();
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      auto b = r->BloomMightContainColumn(it->cell().row(), it->cell().family(),
                                          it->cell().qualifier());
      ASSERT_TRUE(b.ok()) << b.status().ToString();
      EXPECT_TRUE(*b);
    }
  }
}

TEST(Reader, V1FilesAreIdentified) {
  HFILE_REQUIRE_REAL_DATA();
  for (const char* f : {"hbase-0.94/8e8ab58dcf39412da19833fcd8f687ac", "quiver/pairs.hfile"}) {
    auto r = Reader::Open(Real(f));
    ASSERT_FALSE(r.ok());
    EXPECT_TRUE(r.status().IsNotSupported()) << r.status().ToString();
    EXPECT_NE(r.status().message().find("v1"), std::string::npos) << r.status().ToString();
  }
}

TEST(Reader, NotAnHFile) {
  HFILE_REQUIRE_REAL_DATA();
  auto r = Reader::Open(Real("hbase-0.98-cdh/a6a6562b777440fd9c34885428f5cb61.21e75333ada3d5bafb34bb918f29576c"));
  ASSERT_FALSE(r.ok());
  // Not an HFile at all (no block magic at its start, no trailer at its end): NotSupported,
  // which the tools report as unreadable (exit 3), not Corruption of an HFile.
  EXPECT_TRUE(r.status().IsNotSupported()) << r.status().ToString();
  EXPECT_NE(r.status().message().find("not an HFile"), std::string::npos);
  EXPECT_TRUE(Reader::Open("/nonexistent/file").status().IsNotFound());
}

// A file that neither starts with an HFile block nor ends with an HFile trailer is not an HFile:
// NotSupported (the tools' "unreadable", exit 3). An HFile whose trailer is damaged or cut off
// stays Corruption (exit 2).
TEST(Reader, NotAnHFileIsNotSupportedADamagedTrailerIsCorruption) {
  const std::string dir = test::NewTempDir("not-hfile");
  const std::string good = test::BuildTestHFile({});
  std::string random(65536, '\0');
  for (size_t i = 0; i < random.size(); ++i) {
    random[i] = static_cast<char>((i * 2654435761u) >> 13);
  }
  const std::pair<const char*, std::string> not_hfiles[] = {
      {"empty", ""},
      {"short", "not hfile\n"},
      {"png", std::string("\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR\0\0\0\x01\0\0\0\x01\x08\0\0\0\0",
                          29)},
      {"random", random},
      {"trailer-only-tail", "xxxxxxxx" + good.substr(good.size() - 4)},  // a version, no magic
  };
  for (const auto& [name, bytes] : not_hfiles) {
    SCOPED_TRACE(name);
    const std::string path = dir + "/" + name;
    test::WriteFileOrDie(path, bytes);
    Status s = Reader::Open(path).status();
    EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
    EXPECT_NE(s.message().find("not an HFile"), std::string::npos) << s.ToString();
    EXPECT_NE(s.message().find(path), std::string::npos) << s.ToString();
  }
  const std::pair<const char*, std::string> damaged[] = {
      {"truncated", good.substr(0, good.size() - 100)},
      {"version-flipped", good.substr(0, good.size() - 1) + std::string(1, good.back() ^ 0x40)},
      {"magic-flipped", [&] {
         std::string b = good;
         b[b.size() - TrailerSize(3)] ^= 1;
         return b;
       }()},
  };
  for (const auto& [name, bytes] : damaged) {
    SCOPED_TRACE(name);
    const std::string path = dir + "/" + name;
    test::WriteFileOrDie(path, bytes);
    Status s = Reader::Open(path).status();
    EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  }
}

// Every v2/v3 HFile in the corpus, loose or inside its archives, opens, scans to its trailer's
// entry count, and verifies clean.
// A damaged cell in the middle of a data block: the batch ends before it, and the Next() after
// the batch reports it with the block's offset, as the per-cell scan does.
TEST(Reader, ReadBatchEndsBeforeADamagedCell) {
  test::TestHFileOptions o;
  o.checksum = ChecksumType::kNull;  // so that the cell parser, not the checksum, sees the damage
  o.block_size = 4096;
  std::string bytes = test::BuildTestHFile(o);
  // The first data block starts the file; its cells follow the 33-byte header.
  const size_t first = kBlockHeaderSizeWithChecksum;
  const size_t klen = DecodeFixed32BE(bytes.data() + first);
  const size_t vlen = DecodeFixed32BE(bytes.data() + first + 4);
  const size_t mvcc = first + 8 + klen + vlen;
  const int8_t b0 = static_cast<int8_t>(bytes[mvcc]);
  const size_t vlong = b0 >= -112 ? 1 : 1 + (b0 < -120 ? -120 - b0 : -112 - b0);
  const size_t second = mvcc + vlong;
  EncodeFixed32BE(bytes.data() + second, 0x7fffffff);  // the second cell's key length
  const std::string path = test::NewTempDir("reader-batch-damage") + "/f.hfile";
  test::WriteFileOrDie(path, bytes);
  auto r = OpenOrDie(path);
  ASSERT_NE(r, nullptr);
  auto it = r->NewIterator();
  it->SeekToFirst();
  ASSERT_TRUE(it->Valid());
  CellBatch batch;
  it->ReadBatch(&batch);
  EXPECT_EQ(batch.size(), 1u);
  it->Next();
  EXPECT_FALSE(it->Valid());
  EXPECT_TRUE(it->status().IsCorruption()) << it->status().ToString();
  EXPECT_NE(it->status().ToString().find("data block at offset 0"), std::string::npos)
      << it->status().ToString();
  EXPECT_NE(it->status().ToString().find("extend past the end of the block"), std::string::npos)
      << it->status().ToString();
}

TEST(Reader, EveryRealFileReadsAndVerifies) {
  HFILE_REQUIRE_REAL_DATA();
  const std::string extracted = test::ExtractRealArchives();
  int v2v3 = 0, v1 = 0;
  std::vector<std::string> files = test::ListFilesRecursive(test::RealDataDir());
  auto more = test::ListFilesRecursive(extracted);
  files.insert(files.end(), more.begin(), more.end());
  for (const auto& path : files) {
    int major = 0;
    if (!LooksLikeHFile(path, &major)) continue;
    SCOPED_TRACE(path);
    if (major == 1) {
      ++v1;
      EXPECT_TRUE(Reader::Open(path).status().IsNotSupported());
      continue;
    }
    ++v2v3;
    auto r = OpenOrDie(path);
    if (!r) continue;
    Scanned s = ScanAll(*r);
    EXPECT_EQ(s.count, r->trailer().entry_count);
    ExpectBatchesEqualCells(*r);
    VerifyReport rep = VerifyFile(path, {});
    std::ostringstream out;
    PrintVerifyReport(rep, false, out);
    EXPECT_TRUE(rep.clean()) << out.str();
  }
  std::cout << "real corpus: " << v2v3 << " v2/v3 HFiles read and verified, " << v1
            << " v1 files identified\n";
  EXPECT_GE(v2v3, 100);
  EXPECT_GE(v1, 3);
}

}  // namespace
}  // namespace hfile
