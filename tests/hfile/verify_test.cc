// VerifyFile on damaged files: precise reports.
#include "hfile/verify.h"

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fcntl.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <vector>

#include "block_header.h"
#include "corrupt_gen.h"
#include "hfile/coding.h"
#include "test_hfile.h"
#include "testutil.h"

namespace hfile {
namespace {

// Regression: a data block that failed to read (e.g. a checksum error) was stepped over without
// consuming its data index entry, so every later block was reported as mismatching its index
// entry, and the cell totals as disagreeing with the file info: one flipped byte, ~18 errors.
TEST(Verify, UnreadableDataBlockCascadedIntoIndexMismatches) {
  const std::string intact = test::BuildTestHFile({});
  const std::string dir = test::NewTempDir("verify");
  for (const auto& d : test::MakeDefects(intact)) {
    if (d.name != "flip-sum-DATA") continue;
    const std::string path = dir + "/" + d.name;
    test::WriteFileOrDie(path, d.bytes);
    VerifyReport report = VerifyFile(path, VerifyOptions{});
    ASSERT_TRUE(report.open_status.ok());
    std::string all;
    for (const auto& p : report.problems) all += "\n  " + p.what;
    ASSERT_EQ(report.problem_count, 1u) << all;
    EXPECT_EQ(report.problems[0].offset, d.offset);
    EXPECT_EQ(report.problems[0].block, "DATA");
    EXPECT_NE(report.problems[0].what.find("checksum mismatch"), std::string::npos);
    EXPECT_EQ(report.warning_count, 1u) << all;  // totals not checked
    return;
  }
  FAIL() << "the generator made no flip-sum-DATA defect";
}

// --- Defect reproducers from ../shared/testdata/defects (see its README) -------------------

std::string Defect(const std::string& name) { return test::DefectsDir() + "/" + name; }

std::string Printed(const VerifyReport& r) {
  std::ostringstream out;
  PrintVerifyReport(r, false, out);
  return out.str();
}

// Problems of `severity` whose text contains `needle`.
int CountProblems(const VerifyReport& r, Severity severity, const std::string& needle) {
  int n = 0;
  for (const auto& p : r.problems) n += p.severity == severity && p.what.find(needle) != std::string::npos;
  return n;
}

// The verifier checks each distinct bloom key of the cells against the bloom (a ROW bloom's key
// is the row; the later cells of a row add nothing to check). With every chunk's bits cleared,
// each row is a false negative; intact, the file is clean and the key count agrees.
TEST(Verify, RowBloomChecksEveryRow) {
  test::TestHFileOptions o;
  o.checksum = ChecksumType::kNull;  // so that the cleared bits, not a checksum, are the damage
  o.rows = 60;
  o.cells_per_row = 4;
  const std::string intact = test::BuildTestHFile(o);
  const std::string dir = test::NewTempDir("verify-bloom");
  test::WriteFileOrDie(dir + "/intact", intact);
  VerifyReport clean = VerifyFile(dir + "/intact", VerifyOptions{});
  ASSERT_TRUE(clean.open_status.ok());
  EXPECT_EQ(clean.problem_count, 0u);

  std::string bad = intact;
  int chunks = 0;
  for (size_t at = bad.find("BLMFBLK2"); at != std::string::npos;
       at = bad.find("BLMFBLK2", at + 8)) {
    // Header: magic, on-disk size without header (int32 BE), ...; the body follows the header.
    const size_t body = DecodeFixed32BE(bad.data() + at + 8);
    std::fill(bad.begin() + at + kBlockHeaderSizeWithChecksum,
              bad.begin() + at + kBlockHeaderSizeWithChecksum + body, '\0');
    ++chunks;
  }
  ASSERT_GE(chunks, 1);
  test::WriteFileOrDie(dir + "/cleared", bad);
  VerifyReport report = VerifyFile(dir + "/cleared", VerifyOptions{});
  ASSERT_TRUE(report.open_status.ok());
  size_t false_negatives = 0;
  for (const auto& p : report.problems) {
    if (p.code == ProblemCode::kBloomFalseNegative) ++false_negatives;
  }
  EXPECT_GT(false_negatives, 0u);
  EXPECT_EQ(false_negatives, report.problem_count) << "only false negatives";
}

// Two cells of a row exchanged in a data block (their keys are the same length, so the block
// still parses): the verifier reports the second as out of order, naming both keys.
TEST(Verify, CellsOutOfOrderAreReported) {
  test::TestHFileOptions o;
  o.checksum = ChecksumType::kNull;  // so that the order, not a checksum, is the damage
  std::string bytes = test::BuildTestHFile(o);
  // The first data block starts the file; its cells (NONE) follow the header.
  const size_t c0 = kBlockHeaderSizeWithChecksum;
  auto next_cell = [&](size_t at) {
    const size_t klen = DecodeFixed32BE(bytes.data() + at);
    const size_t vlen = DecodeFixed32BE(bytes.data() + at + 4);
    const size_t mvcc = at + 8 + klen + vlen;
    const int8_t b0 = static_cast<int8_t>(bytes[mvcc]);
    return mvcc + (b0 >= -112 ? 1 : 1 + (b0 < -120 ? -120 - b0 : -112 - b0));
  };
  const size_t c1 = next_cell(c0), c2 = next_cell(c1);
  const size_t klen = DecodeFixed32BE(bytes.data() + c1);
  ASSERT_EQ(klen, DecodeFixed32BE(bytes.data() + c2));
  std::string k1 = bytes.substr(c1 + 8, klen), k2 = bytes.substr(c2 + 8, klen);
  ASSERT_LT(CompareKeys(ComparatorKind::kDefault, k1, k2), 0);
  bytes.replace(c1 + 8, klen, k2);
  bytes.replace(c2 + 8, klen, k1);
  const std::string path = test::NewTempDir("verify-order") + "/f.hfile";
  test::WriteFileOrDie(path, bytes);
  VerifyReport report = VerifyFile(path, VerifyOptions{});
  ASSERT_TRUE(report.open_status.ok());
  std::string all;
  for (const auto& p : report.problems) all += "\n  " + p.what;
  ASSERT_EQ(report.problem_count, 1u) << all;
  EXPECT_EQ(report.problems[0].code, ProblemCode::kCellOutOfOrder) << all;
  EXPECT_EQ(report.problems[0].offset, 0);
  EXPECT_NE(report.problems[0].what.find("cell 2 is out of order"), std::string::npos) << all;
}

TEST(VerifyDefects, C1_HadoopLz4PooledSmallBufferIsClean) {
  HFILE_REQUIRE_DEFECTS();
  VerifyReport r = VerifyFile(Defect("hadoop-lz4codec-pooled-small-buffer.hfile"), {});
  EXPECT_TRUE(r.clean()) << Printed(r);
  EXPECT_EQ(r.warning_count, 0u) << Printed(r);
  EXPECT_EQ(r.cells, 1u);
}

// D2's sibling: the trailer's entry count is 0 while the first data block offset and the index
// still point at four intact data blocks of 100 cells. One error, naming the count and the cells.
TEST(VerifyDefects, D2_EntryCountZeroWithIndexedCellsIsAnError) {
  HFILE_REQUIRE_DEFECTS();
  VerifyReport r = VerifyFile(Defect("entrycount0-100cells.hfile"), {});
  ASSERT_TRUE(r.open_status.ok()) << r.open_status.ToString();
  EXPECT_FALSE(r.clean());
  EXPECT_EQ(r.cells, 100u) << Printed(r);
  EXPECT_EQ(r.problem_count, 1u) << Printed(r);
  EXPECT_EQ(CountProblems(r, Severity::kError, "trailer entry_count is 0, the cells say 100"), 1)
      << Printed(r);
}

TEST(VerifyDefects, D4_BlockClaimsAboveTheFilesOwnTotalsAreRefusedBeforeAllocating) {
  HFILE_REQUIRE_DEFECTS();
  for (const char* name : {"bzip2-bomb-1023MiB.hfile", "bzip2-bomb-256MiB.hfile",
                           "gzhdr-DATA-uncomp-1073741824.hfile"}) {
    SCOPED_TRACE(name);
    rusage before{}, after{};
    getrusage(RUSAGE_SELF, &before);
    VerifyReport r = VerifyFile(Defect(name), {});
    getrusage(RUSAGE_SELF, &after);
    ASSERT_TRUE(r.open_status.ok()) << r.open_status.ToString();
    EXPECT_FALSE(r.clean());
    EXPECT_EQ(CountProblems(r, Severity::kError, "more than the whole file holds"), 1) << Printed(r);
    // The claim names the block; the problem names its offset.
    EXPECT_EQ(r.problems[0].block, "DATA") << Printed(r);
    EXPECT_GE(r.problems[0].offset, 0);
    // Nothing near the claimed size was touched (ru_maxrss is in KiB).
    EXPECT_LT(after.ru_maxrss - before.ru_maxrss, 64 * 1024);
  }
}

TEST(VerifyDefects, D7_DeclaredBloomWithoutBloomMetaIsAWarning) {
  HFILE_REQUIRE_DEFECTS();
  VerifyReport r = VerifyFile(Defect("bloom-meta-block-removed.hfile"), {});
  EXPECT_EQ(r.warning_count, 1u) << Printed(r);
  // The trailer still counts the removed block in totalUncompressedBytes (89 bytes: the bloom
  // meta's 56-byte body and its header): that is the only error.
  EXPECT_EQ(r.problem_count, 1u) << Printed(r);
  EXPECT_EQ(CountProblems(r, Severity::kError, "totalUncompressedBytes is 8153"), 1) << Printed(r);
  EXPECT_EQ(CountProblems(r, Severity::kWarning,
                          "declares BLOOM_FILTER_TYPE=ROW but the file has no general bloom meta block"),
            1)
      << Printed(r);
}

TEST(VerifyDefects, D8_UndefinedCellTypeIsAnError) {
  HFILE_REQUIRE_DEFECTS();
  VerifyReport r = VerifyFile(Defect("v20-cell-type-251.hfile"), {});
  EXPECT_FALSE(r.clean()) << Printed(r);
  EXPECT_GE(CountProblems(r, Severity::kError, "type 251 is not a cell type HBase defines"), 1)
      << Printed(r);
}

TEST(VerifyDefects, D9_TotalUncompressedBytesIsChecked) {
  HFILE_REQUIRE_DEFECTS();
  VerifyReport r = VerifyFile(Defect("trailer-total_uncompressed_bytes-4611686018427387904.hfile"), {});
  EXPECT_FALSE(r.clean()) << Printed(r);
  EXPECT_EQ(r.problem_count, 1u) << Printed(r);
  // 19577: what HBase's writer counted for this file (the bomb reproducers, built from the same
  // file, still carry it).
  EXPECT_EQ(CountProblems(r, Severity::kError,
                          "totalUncompressedBytes is 4611686018427387904, the blocks HBase's "
                          "writer counts"),
            1)
      << Printed(r);
  EXPECT_NE(Printed(r).find("give 19577"), std::string::npos) << Printed(r);
}

// D4: the tools themselves, as a user runs them, on every defect reproducer and fuzz seed:
// never a crash (exit 0, 2 or 3), and a peak RSS of tens of MiB, not the sizes the files claim.
struct ToolRun {
  int rc = -1;          // exit code, or 128 + signal
  long max_rss_kib = 0;
};

ToolRun RunTool(const std::vector<std::string>& argv) {
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
#if !defined(__SANITIZE_ADDRESS__)
    // ASan reserves terabytes of address space; the limit only works without it.
    rlimit as{1ull << 30, 1ull << 30};
    setrlimit(RLIMIT_AS, &as);
#endif
    const int devnull = open("/dev/null", O_WRONLY);
    dup2(devnull, 1);
    dup2(devnull, 2);
    execv(args[0], args.data());
    _exit(127);
  }
  ToolRun run;
  int status = 0;
  rusage ru{};
  if (pid < 0 || wait4(pid, &status, 0, &ru) != pid) return run;
  run.rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  run.max_rss_kib = ru.ru_maxrss;
  return run;
}

TEST(VerifyDefects, D4_ToolsStayUnder64MiBOnEveryDefectAndFuzzSeed) {
  HFILE_REQUIRE_DEFECTS();
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(test::DefectsDir())) {
    if (e.is_regular_file() && e.path().extension() == ".hfile") files.push_back(e.path().string());
  }
  if (!test::FuzzSeedDir().empty()) {
    for (const auto& f : test::ListFilesRecursive(test::FuzzSeedDir())) {
      if (std::filesystem::path(f).filename() != "README.md") files.push_back(f);
    }
  } else {
    std::cout << "SKIPPED LOUDLY: ../shared/testdata/fuzz-seeds is absent; only the defect "
                 "reproducers were run\n";
  }
  std::sort(files.begin(), files.end());
  ASSERT_GE(files.size(), 10u);
  const std::string bin = std::string(HFILE_BINARY_DIR) + "/bin/";
  ASSERT_TRUE(std::filesystem::exists(bin + "hfile-verify")) << bin;
#if defined(__SANITIZE_ADDRESS__)
  const bool check_rss = false;  // ASan's shadow memory and quarantine dominate the RSS
  std::cout << "ASan build: exit codes checked, RSS bound not applied\n";
#else
  const bool check_rss = true;
#endif
  constexpr long kLimitKib = 64 * 1024;
  long worst = 0;
  std::string worst_run;
  auto check = [&](const std::vector<std::string>& argv, const std::string& what) {
    ToolRun r = RunTool(argv);
    EXPECT_TRUE(r.rc == 0 || r.rc == 2 || r.rc == 3) << what << " -> rc " << r.rc;
    if (check_rss) {
      EXPECT_LT(r.max_rss_kib, kLimitKib) << what << ": peak RSS " << r.max_rss_kib << " KiB";
    }
    if (r.max_rss_kib > worst) {
      worst = r.max_rss_kib;
      worst_run = what;
    }
  };
  for (const auto& f : files) {
    check({bin + "hfile-verify", f}, "hfile-verify " + f);
    check({bin + "hfile-dump", "-p", f}, "hfile-dump -p " + f);
  }
  // Two files at once, every pair of neighbours (the bombs are neighbours).
  for (size_t i = 0; i + 1 < files.size(); ++i) {
    check({bin + "hfile-verify", "-j", "2", files[i], files[i + 1]},
          "hfile-verify -j 2 " + files[i] + " " + files[i + 1]);
  }
  std::vector<std::string> all = {bin + "hfile-verify", "-j", "2"};
  all.insert(all.end(), files.begin(), files.end());
  check(all, "hfile-verify -j 2 <all>");
  std::cout << "peak RSS over " << files.size() << " files: " << worst / 1024.0 << " MiB ("
            << worst_run << ")\n";
}

}  // namespace
}  // namespace hfile
