// RewriteFile / CompareRewrites and the hfile-rewrite tool, run in-process.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "cli_common.h"
#include "hfile/reader.h"
#include "hfile/rewrite.h"
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

}  // namespace
}  // namespace hfile
