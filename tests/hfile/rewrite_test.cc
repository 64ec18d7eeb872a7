// RewriteFile / CompareRewrites and the hfile-rewrite tool, run in-process.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <sstream>

#include "cli_common.h"
#include "hfile/input_check.h"
#include "hfile/reader.h"
#include "hfile/rewrite.h"
#include "hfile/temp_files.h"
#include "hfile/writer.h"
#include "testutil.h"

namespace hfile {
namespace {

std::string Real(const char* p) { return test::RealDataDir() + "/" + p; }

int RunTool(std::vector<std::string> args, std::string* out_text = nullptr) {
  args.insert(args.begin(), "hfile-rewrite");
  std::vector<const char*> argv;
  for (auto& a : args) argv.push_back(a.c_str());
  std::ostringstream out, err;
  int rc = cli::RunRewriteTool(static_cast<int>(argv.size()), argv.data(), out, err);
  if (out_text) *out_text = out.str() + err.str();
  return rc;
}

TEST(Rewrite, KeepsSettingsAndCarriesFileInfo) {
  HFILE_REQUIRE_REAL_DATA();
  const std::string in = Real("hudi-rs/hudi_1_0_hbase_2_4_9_16KB_GZ_20000.hfile");
  const std::string out = test::NewTempDir("rewrite") + "/out.hfile";
  RewriteOptions o;
  o.encoding = DataBlockEncoding::kFastDiff;
  o.compression = Compression::kZstd;
  RewriteResult r;
  Status s = RewriteFile(in, out, o, &r);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(r.cells, 20000u);
  EXPECT_EQ(r.settings.block_size, 16384u);  // inferred
  auto rd = Reader::Open(out);
  ASSERT_TRUE(rd.ok());
  EXPECT_EQ((*rd)->trailer().compression(), Compression::kZstd);
  EXPECT_EQ((*rd)->data_block_encoding(), DataBlockEncoding::kFastDiff);
  EXPECT_EQ((*rd)->file_info().Get("hudi_hfile_testing.custom_key")->ToString(),
            "hudi_custom_value");
  EXPECT_EQ((*rd)->MetaBlockNames(), std::vector<std::string>{"bloomFilter"});
}

TEST(Rewrite, UnchangedSettingsReproduceTheInput) {
  HFILE_REQUIRE_REAL_DATA();
  const std::string in = Real("riverbed/hfile/testdata/seek.hfile");
  const std::string out = test::NewTempDir("rewrite-same") + "/out.hfile";
  ASSERT_TRUE(RewriteFile(in, out, RewriteOptions(), nullptr).ok());
  EXPECT_EQ(test::ReadFileOrDie(in), test::ReadFileOrDie(out));
}

TEST(RewriteTool, ExitCodesAndOutDirNaming) {
  HFILE_REQUIRE_REAL_DATA();
  const std::string dir = test::NewTempDir("rewrite-tool");
  std::string text;
  EXPECT_EQ(RunTool({"--bloom", "ROWPREFIX_FIXED_LENGTH:4", "--checksum", "CRC32", "--json",
                     "--out-dir", dir, Real("riverbed/testdata/simple.hfile")},
                    &text),
            0)
      << text;
  EXPECT_NE(text.find("\"verified\":true"), std::string::npos);
  int files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    EXPECT_EQ(name.size(), 32u);
    EXPECT_EQ(name.find_first_not_of("0123456789abcdef"), std::string::npos) << name;
    ++files;
  }
  EXPECT_EQ(files, 1);
  EXPECT_EQ(RunTool({"--compression", "NOPE", "a", "b"}), 1);
  EXPECT_EQ(RunTool({"--bogus-flag", "a", "b"}), 1);
  EXPECT_EQ(RunTool({"only-one-arg"}), 1);
  EXPECT_EQ(RunTool({dir + "/missing", dir + "/x"}), 3);
  // A damaged input: corruption (exit 2), and no output left behind.
  std::string bytes = test::ReadFileOrDie(Real("riverbed/hfile/testdata/seek.hfile"));
  bytes[100] ^= 0x55;  // inside a data block: checksum mismatch
  test::WriteFileOrDie(dir + "/bad.hfile", bytes);
  EXPECT_EQ(RunTool({dir + "/bad.hfile", dir + "/bad-out.hfile"}, &text), 2) << text;
  EXPECT_FALSE(std::filesystem::exists(dir + "/bad-out.hfile"));
}

TEST(RewriteTool, CompareTable) {
  HFILE_REQUIRE_REAL_DATA();
  std::string text;
  EXPECT_EQ(RunTool({"--compare", "--sample-blocks", "4",
                     Real("hudi-rs/hudi_1_0_hbase_2_4_9_16KB_NONE_5000.hfile")},
                    &text),
            0)
      << text;
  EXPECT_NE(text.find("FAST_DIFF"), std::string::npos);
  EXPECT_NE(text.find("write MB/s"), std::string::npos);
  EXPECT_EQ(RunTool({"--compare", "--json", "--compression", "LZ4",
                     Real("riverbed/testdata/simple.hfile")},
                    &text),
            0);
  EXPECT_NE(text.find("\"compression\":\"LZ4\""), std::string::npos) << text;
}


// --- a rewrite never loses its input (issue 10) ---

std::string Listing(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  std::string out;
  for (const auto& n : names) out += n + "\n";
  return out;
}

// D2: a trailer that denies the file's data blocks (or only counts no cells in them); D1: a
// data index count flipped to 0. The rewrite is refused (exit 2) and nothing is left in the
// output directory, with and without --trust-inputs.
TEST(RewriteInputs, DamagedTrailerIsRefused) {
  HFILE_REQUIRE_DEFECTS();
  for (const char* name :
       {"trailer-says-empty-100cells.hfile", "trailer-says-empty-namespace.hfile",
        "entrycount0-100cells.hfile", "namespace-trailer-byte848-flipped.hfile"}) {
    for (bool trust : {false, true}) {
      const std::string dir = test::NewTempDir("rewrite-damaged");
      std::vector<std::string> args = {test::DefectsDir() + "/" + name, dir + "/out.hfile"};
      if (trust) args.insert(args.begin(), "--trust-inputs");
      std::string text;
      EXPECT_EQ(RunTool(args, &text), cli::kExitCorrupt) << name << "\n" << text;
      EXPECT_NE(text.find("the input is refused"), std::string::npos) << text;
      EXPECT_EQ(Listing(dir), "") << name;
    }
  }
}

// The JSON `code` of a refusal (RefusalCode): the verify code of the defect, also under a
// context; "" for whatever is not a refusal of a damaged input.
TEST(RewriteInputs, RefusalNamesTheVerifyCode) {
  HFILE_REQUIRE_DEFECTS();
  const std::pair<const char*, const char*> cases[] = {
      {"trailer-says-empty-100cells.hfile", "entry-count-mismatch"},
      {"trailer-says-empty-namespace.hfile", "entry-count-mismatch"},
      {"entrycount0-100cells.hfile", "entry-count-mismatch"},
      {"namespace-trailer-byte848-flipped.hfile", "data-block-not-indexed"}};
  for (const auto& [name, code] : cases) {
    const std::string dir = test::NewTempDir("rewrite-refusal-code");
    RewriteResult r;
    Status s = RewriteFile(test::DefectsDir() + "/" + name, dir + "/out.hfile", {}, &r);
    ASSERT_TRUE(s.IsCorruption()) << name << ": " << s.ToString();
    EXPECT_EQ(RefusalCode(s), code) << s.ToString();
    EXPECT_EQ(RefusalCode(s.WithContext("copying x: checksum-mismatch: y")), code);
  }
  EXPECT_EQ(RefusalCode(Status::OK()), "");
  EXPECT_EQ(RefusalCode(Status::IOError("f: checksum-mismatch: the input is refused")), "");
  EXPECT_EQ(RefusalCode(Status::Corruption("f: checksum-mismatch: no refusal")), "");
  EXPECT_EQ(RefusalCode(Status::Corruption(
                "f: does not verify (2 error(s); first: block-size-invalid: offset 0: x)")),
            "block-size-invalid");
}

// D3: OUT naming IN (the same path, or a hard link) is refused unless --in-place, which
// replaces it only after the new file is verified.
TEST(RewriteInputs, OutputThatIsTheInputNeedsInPlace) {
  HFILE_REQUIRE_REAL_DATA();
  const std::string dir = test::NewTempDir("rewrite-inplace");
  const std::string in = dir + "/in.hfile", link = dir + "/link.hfile";
  const std::string original = test::ReadFileOrDie(Real("riverbed/testdata/simple.hfile"));
  test::WriteFileOrDie(in, original);
  std::filesystem::create_hard_link(in, link);
  std::string text;
  EXPECT_EQ(RunTool({in, in}, &text), cli::kExitUsage) << text;
  EXPECT_NE(text.find("--in-place"), std::string::npos) << text;
  EXPECT_EQ(RunTool({"--compression", "GZ", in, link}, &text), cli::kExitUsage) << text;
  EXPECT_EQ(test::ReadFileOrDie(in), original);
  EXPECT_EQ(RunTool({"--in-place", "--compression", "GZ", in, in}, &text), 0) << text;
  auto r = Reader::Open(in);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ((*r)->trailer().compression(), Compression::kGz);
  EXPECT_EQ(test::ReadFileOrDie(link), original);  // the other name keeps the old file
  EXPECT_EQ(Listing(dir), "in.hfile\nlink.hfile\n");
}

// D11: temp files of killed runs (every pid in their name gone) are removed by the next run for
// the same output; a live process's are left alone.
TEST(RewriteInputs, StaleTempFilesOfKilledRunsAreRemoved) {
  HFILE_REQUIRE_REAL_DATA();
  const std::string dir = test::NewTempDir("rewrite-stale");
  const std::string out = dir + "/out.hfile";
  const long dead = 999999999;  // above pid_max: no such process
  const std::string stale1 = TempPathFor(out, "rewrite", dead);
  const std::string stale2 = TempPathFor(stale1, "tmp", dead);
  const std::string stale3 = TempPathFor(out, "tmp", dead);
  const std::string live = TempPathFor(out, "tmp", ::getppid());
  for (const auto& p : {stale1, stale2, stale3, live}) test::WriteFileOrDie(p, "partial");
  RewriteResult r;
  Status s = RewriteFile(Real("riverbed/testdata/simple.hfile"), out, RewriteOptions(), &r);
  ASSERT_TRUE(s.ok()) << s.ToString();
  std::vector<std::string> removed = r.stale_removed;
  std::sort(removed.begin(), removed.end());
  std::vector<std::string> want = {stale1, stale2, stale3};
  std::sort(want.begin(), want.end());
  EXPECT_EQ(removed, want);
  EXPECT_TRUE(std::filesystem::exists(live));
  EXPECT_TRUE(std::filesystem::exists(out));
}

// A cancel request (SIGINT/SIGTERM in the tool) leaves nothing but the input.
TEST(RewriteInputs, CancelLeavesNothing) {
  HFILE_REQUIRE_REAL_DATA();
  const std::string dir = test::NewTempDir("rewrite-cancel");
  std::atomic<bool> cancel{true};
  RewriteOptions o;
  o.cancel = &cancel;
  Status s = RewriteFile(Real("hudi-rs/hudi_1_0_hbase_2_4_9_16KB_GZ_20000.hfile"),
                         dir + "/out.hfile", o, nullptr);
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_NE(s.message().find("interrupted"), std::string::npos) << s.ToString();
  EXPECT_EQ(Listing(dir), "");
}

}  // namespace
}  // namespace hfile
