// The corrupt-file suite: every defect tests/corrupt_gen.h derives from intact files (small
// synthetic ones built here, and the real corpus) must leave Open, a scan and VerifyFile
// uncrashed, with memory bounded by the reader's production limits (a block's claim is checked
// against the file's own totals before allocating), and must be reported as the right defect
// class at the right block.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <new>
#include <string>

#include "corrupt_gen.h"
#include "hfile/reader.h"
#include "hfile/verify.h"
#include "test_hfile.h"
#include "testutil.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HFILE_UNDER_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define HFILE_UNDER_ASAN 1
#endif

// The largest single allocation made while `g_track` is set. Under ASan the sanitizer script's
// max_allocation_size_mb does this job instead.
namespace {
std::atomic<bool> g_track{false};
std::atomic<size_t> g_largest{0};
}  // namespace

#ifndef HFILE_UNDER_ASAN
// GCC pairs the replaced operators below wrongly once they are inlined into callers.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
void* operator new(size_t n) {
  if (g_track.load(std::memory_order_relaxed)) {
    size_t cur = g_largest.load(std::memory_order_relaxed);
    while (n > cur && !g_largest.compare_exchange_weak(cur, n)) {
    }
  }
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}
void* operator new[](size_t n) { return operator new(n); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, size_t) noexcept { std::free(p); }
void operator delete[](void* p, size_t) noexcept { std::free(p); }
#endif

namespace hfile {
namespace {

// The intact files are small (the largest real one about 1 MiB): no defect may make the reader
// allocate beyond a few MiB, although ReaderOptions' own max_block_size is 1 GiB.
constexpr size_t kAllocationBound = size_t{4} << 20;

std::string Lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

bool Names(const std::string& message, const test::Defect& d) {
  const std::string m = Lower(message);
  if (!d.expect.empty() && m.find(d.expect) == std::string::npos) return false;
  return d.offset < 0 || m.find("offset " + std::to_string(d.offset)) != std::string::npos;
}

// Everything a report says, as text, for comparing two reports.
std::string Describe(const VerifyReport& r) {
  std::string s = r.open_status.ToString() + "|" + r.io_error.ToString() + "|" +
                  std::to_string(r.problem_count) + "/" + std::to_string(r.warning_count) + "/" +
                  std::to_string(r.hbase_bloom_denials) + "|" + std::to_string(r.blocks) + "/" +
                  std::to_string(r.data_blocks) + "/" + std::to_string(r.cells);
  for (const auto& p : r.problems)
    s += "\n" + std::to_string(static_cast<int>(p.code)) + " " +
         std::to_string(static_cast<int>(p.severity)) + " " + std::to_string(p.offset) + " " +
         p.block + " " + p.what;
  return s;
}

// Runs everything a reader does over the damaged file; returns the verify report.
VerifyReport Exercise(const std::string& path, bool* opened) {
  ReaderOptions ro;  // production limits
  g_track = true;
  auto r = Reader::Open(path, ro);
  *opened = r.ok();
  if (r.ok()) {
    auto it = (*r)->NewIterator();
    std::string last;
    for (it->SeekToFirst(); it->Valid(); it->Next()) last = it->cell().key.ToString();
    (void)(*r)->MidKey();
    it->Seek(last);
    for (const auto& name : (*r)->MetaBlockNames()) (void)(*r)->ReadMetaBlock(name);
    (void)(*r)->BloomMightContainRow("row0001");
  }
  VerifyOptions vo;
  vo.reader = ro;
  vo.max_problems = 10000;
  VerifyReport report = VerifyFile(path, vo);
  // With the blocks read ahead on another thread: the very same report.
  vo.read_ahead = true;
  const VerifyReport ahead = VerifyFile(path, vo);
  g_track = false;
  EXPECT_EQ(Describe(ahead), Describe(report)) << "read-ahead changed the report";
  return report;
}

struct Tally {
  size_t defects = 0, checked = 0;
};

void CheckDefects(const std::string& intact, const std::string& label, Tally* tally) {
  std::vector<test::Defect> defects = test::MakeDefects(intact);
  ASSERT_FALSE(defects.empty()) << label << ": the generator could not map the intact file";
  const std::string dir = test::NewTempDir("corrupt");
  for (const auto& d : defects) {
    SCOPED_TRACE(label + " / " + d.name);
    const std::string path = dir + "/" + d.name;
    test::WriteFileOrDie(path, d.bytes);
    g_largest = 0;
    bool opened = false;
    VerifyReport report = Exercise(path, &opened);
    std::filesystem::remove(path);  // thousands of defects of a large file: keep the disk bounded
    EXPECT_LE(g_largest.load(), kAllocationBound) << "allocation beyond the block limit";
    ++tally->defects;
    if (d.at_open) {
      EXPECT_FALSE(opened) << "opened despite the defect";
      ASSERT_FALSE(report.open_status.ok());
    }
    if (d.expect.empty() && d.offset < 0) continue;  // only "does not crash"
    ++tally->checked;
    if (!report.open_status.ok()) {
      const std::string& m = report.open_status.message();
      EXPECT_NE(m.find(path), std::string::npos) << "open error lacks the path: " << m;
      EXPECT_TRUE(Names(m, d)) << "open error does not name \"" << d.expect << "\" at offset "
                               << d.offset << ": " << m;
      continue;
    }
    bool found = false;
    std::string all;
    for (const auto& p : report.problems) {
      all += "\n  [" + std::to_string(p.offset) + " " + p.block + "] " + p.what;
      if (p.severity != Severity::kError) continue;
      if (!d.expect.empty() && Lower(p.what).find(d.expect) == std::string::npos) continue;
      if (d.offset >= 0 && p.offset != d.offset &&
          p.what.find("offset " + std::to_string(d.offset)) == std::string::npos)
        continue;
      found = true;
    }
    EXPECT_TRUE(found) << "no error problem names \"" << d.expect << "\" at offset " << d.offset
                       << "; problems:" << all;
  }
}

struct Synthetic {
  const char* name;
  test::TestHFileOptions options;
};

std::vector<Synthetic> SyntheticFiles() {
  std::vector<Synthetic> v;
  auto add = [&](const char* name, auto edit) {
    test::TestHFileOptions o;
    edit(o);
    v.push_back({name, o});
  };
  add("none-crc32c", [](test::TestHFileOptions&) {});
  add("none-crc32-tags", [](test::TestHFileOptions& o) {
    o.checksum = ChecksumType::kCrc32;
    o.tags = true;
  });
  add("none-nullsum", [](test::TestHFileOptions& o) { o.checksum = ChecksumType::kNull; });
  add("fastdiff-crc32c", [](test::TestHFileOptions& o) { o.encoding = DataBlockEncoding::kFastDiff; });
  add("prefix-nullsum-nomvcc", [](test::TestHFileOptions& o) {
    o.encoding = DataBlockEncoding::kPrefix;
    o.checksum = ChecksumType::kNull;
    o.mvcc = false;
  });
  add("diff-tags", [](test::TestHFileOptions& o) {
    o.encoding = DataBlockEncoding::kDiff;
    o.tags = true;
  });
  add("rowindex", [](test::TestHFileOptions& o) { o.encoding = DataBlockEncoding::kRowIndexV1; });
  add("zstd-fastdiff", [](test::TestHFileOptions& o) {
    o.compression = Compression::kZstd;
    o.encoding = DataBlockEncoding::kFastDiff;
  });
  add("gz-nullsum", [](test::TestHFileOptions& o) {
    o.compression = Compression::kGz;
    o.checksum = ChecksumType::kNull;
  });
  add("snappy-nobloom-nometa", [](test::TestHFileOptions& o) {
    o.compression = Compression::kSnappy;
    o.bloom = false;
    o.meta_block = false;
  });
  return v;
}

TEST(CorruptFile, SyntheticIntactFilesVerifyClean) {
  const std::string dir = test::NewTempDir("intact");
  for (const auto& s : SyntheticFiles()) {
    const std::string path = dir + "/" + s.name;
    test::WriteFileOrDie(path, test::BuildTestHFile(s.options));
    VerifyOptions vo;
    VerifyReport report = VerifyFile(path, vo);
    vo.read_ahead = true;
    EXPECT_EQ(Describe(VerifyFile(path, vo)), Describe(report)) << s.name;
    std::string all;
    for (const auto& p : report.problems) all += "\n  [" + std::to_string(p.offset) + "] " + p.what;
    EXPECT_TRUE(report.open_status.ok()) << s.name << ": " << report.open_status.ToString();
    EXPECT_EQ(report.problem_count + report.warning_count, 0u) << s.name << all;
    EXPECT_GT(report.data_blocks, 1u) << s.name;
  }
}

TEST(CorruptFile, SyntheticDefects) {
  Tally tally;
  for (const auto& s : SyntheticFiles()) CheckDefects(test::BuildTestHFile(s.options), s.name, &tally);
  std::printf("%zu defects, %zu with a named expectation\n", tally.defects, tally.checked);
}

TEST(CorruptFile, RealCorpusDefects) {
  HFILE_REQUIRE_REAL_DATA();
  Tally tally;
  size_t files = 0;
  for (const auto& path : test::ListFilesRecursive(test::RealDataDir())) {
    auto r = Reader::Open(path);
    if (!r.ok() || (*r)->file_size() > (size_t{1} << 20)) continue;
    ++files;
    CheckDefects(test::ReadFileOrDie(path), path, &tally);
  }
  EXPECT_GT(files, 20u);
  std::printf("%zu real files, %zu defects, %zu with a named expectation\n", files, tally.defects,
              tally.checked);
}

}  // namespace
}  // namespace hfile
