// The tools run in-process: output shapes and the documented exit codes (cmd/cli_common.h).
#include <gtest/gtest.h>

#include <sstream>
#include <vector>

#include "cli_common.h"
#include "testutil.h"

namespace hfile::cli {
namespace {

struct ToolRun {
  int code;
  std::string out, err;
};

ToolRun RunTool(int (*tool)(int, const char* const*, std::ostream&, std::ostream&),
            std::vector<std::string> args) {
  std::vector<const char*> argv{"tool"};
  for (const auto& a : args) argv.push_back(a.c_str());
  std::ostringstream out, err;
  int code = tool(static_cast<int>(argv.size()), argv.data(), out, err);
  return {code, out.str(), err.str()};
}

std::string Simple() { return test::RealDataDir() + "/riverbed/testdata/simple.hfile"; }

TEST(DumpTool, PrintsCellsInHFilePrettyPrinterLayout) {
  HFILE_REQUIRE_REAL_DATA();
  ToolRun r = RunTool(RunDumpTool, {"-p", Simple()});
  EXPECT_EQ(r.code, kExitOk) << r.err;
  EXPECT_NE(r.out.find("K: row-00/cf:q/1700000000000/Put/vlen=6/seqid=0 V: val-00\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("Scanned kv count -> 10\n"), std::string::npos);
}

TEST(DumpTool, SeekToRowAndLimitAndHex) {
  HFILE_REQUIRE_REAL_DATA();
  ToolRun r = RunTool(RunDumpTool, {"-p", "-w", "row-05", Simple()});
  EXPECT_EQ(r.code, kExitOk);
  EXPECT_NE(r.out.find("K: row-05/"), std::string::npos);
  EXPECT_EQ(r.out.find("K: row-04/"), std::string::npos);
  EXPECT_EQ(r.out.find("K: row-06/"), std::string::npos);
  r = RunTool(RunDumpTool, {"-e", "--limit", "3", "--from", "row-02", Simple()});
  EXPECT_NE(r.out.find("Scanned kv count -> 3\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("K: row-02/"), std::string::npos);
  r = RunTool(RunDumpTool, {"-e", "--hex", "--prefix", "726f772d3039", Simple()});  // "row-09"
  EXPECT_NE(r.out.find("K: 726f772d3039/"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Scanned kv count -> 1\n"), std::string::npos);
}

TEST(DumpTool, MetaStatsIndexAndHeaders) {
  HFILE_REQUIRE_REAL_DATA();
  ToolRun r = RunTool(RunDumpTool, {"-m", "-s", "-b", "-h", Simple()});
  EXPECT_EQ(r.code, kExitOk) << r.err;
  for (const char* want : {"Trailer:", "Fileinfo:", "hfile.LASTKEY = row-09/cf:q/1700000000000/Put",
                           "Bloom filter:", "Stats:", "Key length:", "Largest rows (bytes):",
                           "Block Index:", "Block Headers:", "blockType=BLOOM_CHUNK",
                           "blockType=FILE_INFO"}) {
    EXPECT_NE(r.out.find(want), std::string::npos) << want;
  }
}

TEST(DumpTool, JsonLinesAreOneObjectPerLine) {
  HFILE_REQUIRE_REAL_DATA();
  ToolRun r = RunTool(RunDumpTool, {"-p", "--json", Simple()});
  EXPECT_EQ(r.code, kExitOk);
  std::istringstream in(r.out);
  int cells = 0;
  for (std::string line; std::getline(in, line);) {
    ASSERT_EQ(line.front(), '{');
    ASSERT_EQ(line.back(), '}');
    if (line.find("\"kind\":\"cell\"") != std::string::npos) ++cells;
  }
  EXPECT_EQ(cells, 10);
}

TEST(DumpTool, GoesOnPastABadFileAndFailsAtTheEnd) {
  HFILE_REQUIRE_REAL_DATA();
  ToolRun r = RunTool(RunDumpTool, {"-e", "/nonexistent", Simple()});
  EXPECT_EQ(r.code, kExitUnreadable);
  EXPECT_NE(r.err.find("/nonexistent"), std::string::npos);
  EXPECT_NE(r.out.find("Scanned kv count -> 10"), std::string::npos);
  std::string dir = test::NewTempDir("cli");
  std::string bad = dir + "/truncated";
  std::string data = test::ReadFileOrDie(Simple());
  test::WriteFileOrDie(bad, data.substr(0, data.size() - 100));
  r = RunTool(RunDumpTool, {"-m", bad, Simple()});
  EXPECT_EQ(r.code, kExitCorrupt) << r.err;
}

TEST(VerifyTool, ExitCodes) {
  HFILE_REQUIRE_REAL_DATA();
  ToolRun r = RunTool(RunVerifyTool, {Simple()});
  EXPECT_EQ(r.code, kExitOk) << r.out;
  EXPECT_NE(r.out.find(": OK (6 blocks, 1 data blocks, 10 cells)"), std::string::npos) << r.out;

  std::string dir = test::NewTempDir("cli");
  std::string data = test::ReadFileOrDie(Simple());
  std::string flipped = data;
  flipped[100] ^= 0x01;  // inside the data block: its checksum no longer matches
  test::WriteFileOrDie(dir + "/flipped", flipped);
  r = RunTool(RunVerifyTool, {dir + "/flipped"});
  EXPECT_EQ(r.code, kExitCorrupt);
  EXPECT_NE(r.out.find("offset 0"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("CRC32C"), std::string::npos) << r.out;

  r = RunTool(RunVerifyTool, {"--json", dir + "/flipped", "/nonexistent"});
  EXPECT_EQ(r.code, kExitCorrupt);  // corruption outranks unreadable
  EXPECT_NE(r.out.find("\"clean\":false"), std::string::npos);

  r = RunTool(RunVerifyTool, {"/nonexistent"});
  EXPECT_EQ(r.code, kExitUnreadable);
  r = RunTool(RunVerifyTool, {"--bogus-flag"});
  EXPECT_EQ(r.code, kExitUsage);
  r = RunTool(RunVerifyTool, {});
  EXPECT_EQ(r.code, kExitUsage);
  r = RunTool(RunVerifyTool, {"--help"});
  EXPECT_EQ(r.code, kExitOk);
  EXPECT_NE(r.out.find("--jobs"), std::string::npos);
}

TEST(CompactTool, UsageErrorsAndHelp) {
  EXPECT_EQ(RunTool(RunCompactTool, {}).code, kExitUsage);
  EXPECT_EQ(RunTool(RunCompactTool, {"--major", "--minor", "x"}).code, kExitUsage);
  ToolRun nodir = RunTool(RunCompactTool, {test::NewTempDir("compact-cli")});
  EXPECT_EQ(nodir.code, kExitUsage);
  EXPECT_NE(nodir.err.find("not a table, region or family directory"), std::string::npos);
  ToolRun help = RunTool(RunCompactTool, {"--help"});
  EXPECT_EQ(help.code, kExitOk);
  EXPECT_NE(help.out.find("--dry-run"), std::string::npos);
  EXPECT_EQ(help.out.find("--crash-at"), std::string::npos);  // hidden test hook
}

}  // namespace
}  // namespace hfile::cli
