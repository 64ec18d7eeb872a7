// The store writer (routing by row, one verification rule, cleanup) and the store rewrite
// (inputs -> merge -> transform -> writer) that every writing tool is built on.
#include "region/store_writer.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <mutex>
#include <set>
#include <thread>

#include "hfile/reader.h"
#include "region/layout.h"
#include "region/store_rewrite.h"
#include "region/tool_threads.h"
#include "store_fixture.h"
#include "testutil.h"

namespace hfile::region {
namespace {

namespace fs = std::filesystem;
using store_fixture::Put;

std::vector<std::string> Rows(const std::string& path) {
  auto r = Reader::Open(path);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  std::vector<std::string> out;
  if (!r.ok()) return out;
  auto it = (*r)->NewIterator();
  for (it->SeekToFirst(); it->Valid(); it->Next())
    out.push_back(it->cell().row().ToString() + "/" + it->cell().family().ToString());
  return out;
}

size_t Entries(const std::string& dir) {
  return static_cast<size_t>(std::distance(fs::directory_iterator(dir), fs::directory_iterator()));
}

TEST(StoreWriter, FamilySettingsMapOnce) {
  FamilyDescriptor f = FamilyDescriptor::WithDefaults("m");
  f.SetValue(family_key::kBlockSize, "8192");
  f.SetValue(family_key::kCompression, "GZ");
  f.SetValue(family_key::kCompressionCompact, "ZSTD");
  f.SetValue(family_key::kDataBlockEncoding, "FAST_DIFF");
  f.SetValue(family_key::kBloomFilter, "ROWCOL");
  WriterOptions flush = WriterOptionsForFamily(f, false, false);
  EXPECT_EQ(flush.block_size, 8192u);
  EXPECT_EQ(flush.compression, Compression::kGz);
  EXPECT_EQ(flush.encoding, DataBlockEncoding::kFastDiff);
  EXPECT_EQ(flush.bloom_type, BloomType::kRowCol);
  EXPECT_EQ(WriterOptionsForFamily(f, true, true).compression, Compression::kZstd);
}

TEST(StoreWriter, RoutesRowsIntoRanges) {
  const std::string dir = test::NewTempDir("store-writer-route");
  StoreWriterOptions o;
  o.dir = dir;
  o.boundaries = {"c", "e"};
  auto w = StoreWriter::Open(o);
  ASSERT_TRUE(w.ok()) << w.status().ToString();
  for (const char* row : {"a", "b", "c", "f", "g"})
    ASSERT_TRUE((*w)->Add(Put(row, "f", "q", 1).view()).ok());
  auto outs = (*w)->Finish();
  ASSERT_TRUE(outs.ok()) << outs.status().ToString();
  ASSERT_EQ(outs->size(), 3u);
  EXPECT_EQ((*outs)[0].range, 0u);
  EXPECT_EQ((*outs)[1].range, 1u);
  EXPECT_EQ((*outs)[2].range, 2u);
  EXPECT_EQ(Rows((*outs)[0].path), (std::vector<std::string>{"a/f", "b/f"}));
  EXPECT_EQ(Rows((*outs)[1].path), (std::vector<std::string>{"c/f"}));
  EXPECT_EQ(Rows((*outs)[2].path), (std::vector<std::string>{"f/f", "g/f"}));
  EXPECT_EQ((*outs)[0].cells + (*outs)[1].cells + (*outs)[2].cells, 5u);
  EXPECT_GT((*outs)[0].file_size, 0u);
}

// The verification's read-back is what the caller sees: every cell of every output, from disk,
// with its range, in file order.
TEST(StoreWriter, VerificationHandsBackEveryCellReadFromDisk) {
  const std::string dir = test::NewTempDir("store-writer-verified");
  StoreWriterOptions o;
  o.dir = dir;
  o.boundaries = {"c"};
  std::vector<std::string> seen;
  o.on_verified_cell = [&seen](size_t range, const Cell& c) {
    seen.push_back(std::to_string(range) + ":" + c.row().ToString() + "/" +
                   std::to_string(c.sequence_id));
  };
  auto w = StoreWriter::Open(o);
  ASSERT_TRUE(w.ok()) << w.status().ToString();
  uint64_t seq = 7;
  for (const char* row : {"a", "b", "d"})
    ASSERT_TRUE((*w)->Add(Put(row, "f", "q", seq++).view()).ok());
  // Range 0 was verified on the writer's worker once "d" started range 1: `seen` is only
  // read after Finish, which returns after the last call.
  auto outs = (*w)->Finish();
  ASSERT_TRUE(outs.ok()) << outs.status().ToString();
  EXPECT_EQ(seen, (std::vector<std::string>{"0:a/7", "0:b/8", "1:d/9"}));
}

// roll_bytes: a new output of the same range at the first row change once an output holds that
// many bytes; a row's cells stay together even past the limit.
TEST(StoreWriter, RollsAtRowChangeAfterRollBytes) {
  const std::string dir = test::NewTempDir("store-writer-roll");
  StoreWriterOptions o;
  o.dir = dir;
  o.boundaries = {"m"};
  const uint64_t one = KeyValueSize(Put("a", "f", "q", 1).view());
  // HFileOutputFormat2's rule: roll before a cell when written + its size >= the limit, so a
  // limit of two cells holds one (the second would reach it), unless the row continues.
  o.roll_bytes = 2 * one;
  auto w = StoreWriter::Open(o);
  ASSERT_TRUE(w.ok());
  for (const char* rq : {"a/1", "b/1", "b/2", "b/3", "c/1", "x/1", "y/1", "z/1"}) {
    std::string row(rq, 1), q(rq + 2);
    ASSERT_TRUE((*w)->Add(Put(row.c_str(), "f", q.c_str(), 1).view()).ok());
  }
  auto outs = (*w)->Finish();
  ASSERT_TRUE(outs.ok()) << outs.status().ToString();
  std::vector<std::string> got;
  for (const auto& out : *outs) {
    std::string rows;
    for (const auto& r : Rows(out.path)) rows += r.substr(0, 1);
    got.push_back(std::to_string(out.range) + ":" + rows);
  }
  // b's three cells stay in one file although the second already reaches the limit.
  EXPECT_EQ(got, (std::vector<std::string>{"0:a", "0:bbb", "0:c", "1:x", "1:y", "1:z"}));
}

TEST(StoreWriter, EmptyRangesWriteNothingUnlessAsked) {
  const std::string dir = test::NewTempDir("store-writer-empty");
  StoreWriterOptions o;
  o.dir = dir;
  o.boundaries = {"m"};
  auto w = StoreWriter::Open(o);
  ASSERT_TRUE(w.ok());
  ASSERT_TRUE((*w)->Add(Put("x", "f", "q", 1).view()).ok());
  auto outs = (*w)->Finish();
  ASSERT_TRUE(outs.ok());
  ASSERT_EQ(outs->size(), 1u);
  EXPECT_EQ((*outs)[0].range, 1u);

  StoreWriterOptions e;
  e.dir = test::NewTempDir("store-writer-empty2");
  e.write_empty = true;
  auto w2 = StoreWriter::Open(e);
  ASSERT_TRUE(w2.ok());
  auto outs2 = (*w2)->Finish();
  ASSERT_TRUE(outs2.ok()) << outs2.status().ToString();
  ASSERT_EQ(outs2->size(), 1u);
  EXPECT_EQ((*outs2)[0].cells, 0u);
  EXPECT_TRUE(Rows((*outs2)[0].path).empty());
}

TEST(StoreWriter, OutOfOrderIsRefusedAndNothingStays) {
  const std::string dir = test::NewTempDir("store-writer-order");
  StoreWriterOptions o;
  o.dir = dir;
  o.boundaries = {"m"};
  {
    auto w = StoreWriter::Open(o);
    ASSERT_TRUE(w.ok());
    ASSERT_TRUE((*w)->Add(Put("x", "f", "q", 1).view()).ok());
    EXPECT_TRUE((*w)->Add(Put("a", "f", "q", 1).view()).IsInvalidArgument());
  }  // abandoned: its files are removed
  EXPECT_EQ(Entries(dir), 0u);
  o.boundaries = {"m", "c"};
  EXPECT_TRUE(StoreWriter::Open(o).status().IsInvalidArgument());
}

TEST(StoreWriter, CancelStops) {
  std::atomic<bool> cancel{true};
  StoreWriterOptions o;
  o.dir = test::NewTempDir("store-writer-cancel");
  o.cancel = &cancel;
  auto w = StoreWriter::Open(o);
  ASSERT_TRUE(w.ok());
  Status s;
  for (int i = 0; i < 10000 && s.ok(); ++i) {
    char row[16];
    snprintf(row, sizeof(row), "r%06d", i);
    s = (*w)->Add(Put(row, "f", "q", 1).view());
  }
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
}

TEST(StoreRewrite, MergesTransformsAndRoutes) {
  store_fixture::Table t("store-rewrite", {"f"});
  store_fixture::WriteStoreFile(t.Family("f") + "aaaa1111", {Put("a", "f", "q", 1), Put("d", "f", "q", 1)}, 1);
  store_fixture::WriteStoreFile(t.Family("f") + "bbbb2222", {Put("b", "f", "q", 2), Put("e", "f", "q", 2)}, 2);
  auto region = ScanRegionDir(t.root, t.region_dir);
  ASSERT_TRUE(region.ok());
  const FamilyDir* fam = region->FindFamily("f");
  ASSERT_NE(fam, nullptr);
  StoreRewriteOptions o;
  o.family = "f";
  o.transform = [](std::unique_ptr<CellIterator> in) {
    return NewFamilyRenameIterator(std::move(in), "g");
  };
  o.writer.dir = test::NewTempDir("store-rewrite-out");
  o.writer.boundaries = {"c"};
  StoreRewriteResult r;
  Status s = RewriteStore(fam->store_files, o, &r);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(r.cells_read, 4u);
  EXPECT_EQ(r.cells_written, 4u);
  ASSERT_EQ(r.outputs.size(), 2u);
  EXPECT_EQ(Rows(r.outputs[0].path), (std::vector<std::string>{"a/g", "b/g"}));
  EXPECT_EQ(Rows(r.outputs[1].path), (std::vector<std::string>{"d/g", "e/g"}));

  // The estimate counts the same cells and writes nothing.
  StoreRewriteOptions e = o;
  e.estimate_only = true;
  e.writer.dir = test::NewTempDir("store-rewrite-estimate");
  StoreRewriteResult er;
  ASSERT_TRUE(RewriteStore(fam->store_files, e, &er).ok());
  EXPECT_EQ(er.cells_written, 4u);
  EXPECT_EQ(er.cell_bytes_out, r.cell_bytes_out);
  EXPECT_GT(er.bytes_out, 0u);
  EXPECT_EQ(Entries(e.writer.dir), 0u);
}

TEST(StoreRewrite, ACellOfAnotherFamilyFailsTheStoreAndLeavesNothing) {
  store_fixture::Table t("store-rewrite-family", {"f"});
  store_fixture::WriteStoreFile(t.Family("f") + "aaaa1111", {Put("a", "x", "q", 1)}, 1);
  auto region = ScanRegionDir(t.root, t.region_dir);
  ASSERT_TRUE(region.ok());
  StoreRewriteOptions o;
  o.family = "f";
  o.writer.dir = test::NewTempDir("store-rewrite-family-out");
  StoreRewriteResult r;
  EXPECT_TRUE(RewriteStore(region->FindFamily("f")->store_files, o, &r).IsCorruption());
  EXPECT_EQ(Entries(o.writer.dir), 0u);
}

// An input whose damage only the full check finds (a bloom chunk: the cells read well) fails
// the rewrite although its cells were rewritten while it was checked, and no output stays;
// with verify_inputs false the same input is rewritten.
TEST(StoreRewrite, AnInputFailingItsConcurrentCheckLeavesNothing) {
  store_fixture::Table t("store-rewrite-check", {"f"});
  std::vector<CellData> cells;
  for (int i = 0; i < 2000; ++i) {
    const std::string row = "r" + std::to_string(10000 + i);
    cells.push_back(Put(row.c_str(), "f", "q", 1));
  }
  const std::string path = t.Family("f") + "aaaa1111";
  store_fixture::WriteStoreFile(path, cells, 1);
  std::string bytes = test::ReadFileOrDie(path);
  const size_t bloom = bytes.find("BLMFBLK2");
  ASSERT_NE(bloom, std::string::npos);
  bytes[bloom + 40] = static_cast<char>(bytes[bloom + 40] ^ 0x5A);  // its checksum fails
  test::WriteFileOrDie(path, bytes);
  auto region = ScanRegionDir(t.root, t.region_dir);
  ASSERT_TRUE(region.ok());
  StoreRewriteOptions o;
  o.family = "f";
  o.writer.dir = test::NewTempDir("store-rewrite-check-out");
  o.writer.boundaries = {"r11000"};  // two outputs: the first verified while the second is written
  StoreRewriteResult r;
  Status s = RewriteStore(region->FindFamily("f")->store_files, o, &r);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(s.ToString().find("the input is refused"), std::string::npos) << s.ToString();
  EXPECT_TRUE(r.outputs.empty());
  EXPECT_EQ(Entries(o.writer.dir), 0u);

  o.verify_inputs = false;
  StoreRewriteResult trusted;
  s = RewriteStore(region->FindFamily("f")->store_files, o, &trusted);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(trusted.cells_written, 2000u);
  EXPECT_EQ(trusted.outputs.size(), 2u);
}

TEST(StoreRewrite, ARowOutsideTheRangeFailsUnlessCarried) {
  store_fixture::Table t("store-rewrite-range", {"f"}, "b", "d");
  store_fixture::WriteStoreFile(t.Family("f") + "aaaa1111", {Put("c", "f", "q", 1), Put("x", "f", "q", 1)}, 1);
  auto region = ScanRegionDir(t.root, t.region_dir);
  ASSERT_TRUE(region.ok());
  StoreRewriteOptions o;
  o.family = "f";
  o.start_key = "b";
  o.end_key = "d";
  o.writer.dir = test::NewTempDir("store-rewrite-range-out");
  StoreRewriteResult r;
  EXPECT_TRUE(RewriteStore(region->FindFamily("f")->store_files, o, &r).IsCorruption());
  o.carry_out_of_range = true;
  StoreRewriteResult carried;
  ASSERT_TRUE(RewriteStore(region->FindFamily("f")->store_files, o, &carried).ok());
  EXPECT_EQ(carried.out_of_range, 1u);
  EXPECT_EQ(carried.cells_written, 2u);
}

// The transform runs on the lighter of the two threads: beside the writer when the output has
// no codec (the writer then only encodes, checksums and writes), on the reading thread when
// the output is compressed. The files are the same wherever it runs, and with one thread.
TEST(StoreRewrite, TheTransformRunsOnTheLighterThread) {
  store_fixture::Table t("store-rewrite-thread", {"f"});
  std::vector<CellData> odd, even;
  for (int i = 0; i < 20000; ++i) {
    const std::string row = "r" + std::to_string(100000 + i);
    (i % 2 ? odd : even).push_back(Put(row.c_str(), "f", "q", 1));
  }
  store_fixture::WriteStoreFile(t.Family("f") + "aaaa1111", odd, 1);
  store_fixture::WriteStoreFile(t.Family("f") + "bbbb2222", even, 2);
  auto region = ScanRegionDir(t.root, t.region_dir);
  ASSERT_TRUE(region.ok());
  const std::vector<StoreFile>& inputs = region->FindFamily("f")->store_files;
  // The output's bytes, and the threads that saw the transform's cells.
  auto rewrite = [&](Compression codec, int threads, std::set<std::thread::id>* where) {
    SetToolThreads(threads);
    std::mutex mu;
    StoreRewriteOptions o;
    o.family = "f";
    o.transform = [&](std::unique_ptr<CellIterator> in) {
      return NewFamilyRenameIterator(std::move(in), "g", [&](const Cell&) {
        std::lock_guard<std::mutex> l(mu);
        where->insert(std::this_thread::get_id());
      });
    };
    o.writer.dir = test::NewTempDir("store-rewrite-thread-out");
    o.writer.writer.compression = codec;
    o.writer.writer.create_time_ms = 1;
    StoreRewriteResult r;
    const Status s = RewriteStore(inputs, o, &r);
    SetToolThreads(2);
    EXPECT_TRUE(s.ok()) << s.ToString();
    EXPECT_EQ(r.cells_written, 20000u);
    return r.outputs.size() == 1 ? test::ReadFileOrDie(r.outputs[0].path) : std::string();
  };
  const std::set<std::thread::id> here = {std::this_thread::get_id()};
  for (Compression codec : {Compression::kNone, Compression::kSnappy}) {
    SCOPED_TRACE(static_cast<int>(codec));
    std::set<std::thread::id> two, one;
    const std::string out2 = rewrite(codec, 2, &two);
    const std::string out1 = rewrite(codec, 1, &one);
    ASSERT_FALSE(out2.empty());
    EXPECT_EQ(out2, out1);
    EXPECT_EQ(one, here);
    ASSERT_EQ(two.size(), 1u);
    if (codec == Compression::kNone) {
      EXPECT_EQ(two, here);
    } else {
      EXPECT_NE(two, here);
    }
  }
}

}  // namespace
}  // namespace hfile::region
