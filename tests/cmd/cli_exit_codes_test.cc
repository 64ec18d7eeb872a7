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

// One table of exit codes for every tool (cli_common.h, man/hfile.1.md).
TEST(CliCommon, ExitCodeTable) {
  EXPECT_EQ(ExitCodeFor(Status::OK()), 0);
  EXPECT_EQ(ExitCodeFor(Status::InvalidArgument("x")), 1);
  EXPECT_EQ(ExitCodeFor(Status::Corruption("x")), 2);
  EXPECT_EQ(ExitCodeFor(Status::NotFound("x")), 3);
  EXPECT_EQ(ExitCodeFor(Status::NotSupported("x")), 3);
  EXPECT_EQ(ExitCodeFor(Status::IOError("x")), 3);
  // The worst wins: 2 before 3 before 1 before 0.
  EXPECT_EQ(WorseExitCode(kExitUnreadable, kExitCorrupt), kExitCorrupt);
  EXPECT_EQ(WorseExitCode(kExitCorrupt, kExitUnreadable), kExitCorrupt);
  EXPECT_EQ(WorseExitCode(kExitUsage, kExitUnreadable), kExitUnreadable);
  EXPECT_EQ(WorseExitCode(kExitOk, kExitUsage), kExitUsage);
}

TEST(CliCommon, OneMessageFormat) {
  std::ostringstream err;
  EXPECT_EQ(UsageError(err, "hfile-x", "--limit: -5 is not an integer >= 0"), kExitUsage);
  EXPECT_EQ(err.str(), "hfile-x: --limit: -5 is not an integer >= 0\nRun with --help for usage.\n");
  err.str("");
  EXPECT_EQ(ReportError(err, "hfile-x", Status::NotFound("/a", "No such file or directory")),
            kExitUnreadable);
  EXPECT_EQ(err.str(), "hfile-x: NotFound: /a: No such file or directory\n");
  err.str("");
  EXPECT_EQ(ReportError(err, "hfile-x", Status::InvalidArgument("/t", "not a table")), kExitUsage);
  EXPECT_EQ(err.str(), "hfile-x: Invalid argument: /t: not a table\nRun with --help for usage.\n");
}

TEST(CliCommon, EveryToolHasVersionAndHelp) {
  const std::string version = Version();
  EXPECT_FALSE(version.empty());
  EXPECT_EQ(version.find_first_not_of("0123456789."), std::string::npos) << version;
  const std::pair<const char*, int (*)(int, const char* const*, std::ostream&, std::ostream&)>
      tools[] = {{"hfile-dump", RunDumpTool},
                 {"hfile-verify", RunVerifyTool},
                 {"hfile-rewrite", RunRewriteTool},
                 {"hfile-compact", RunCompactTool},
                 {"hfile-bulkload", RunBulkLoadTool}};
  for (const auto& [name, run] : tools) {
    SCOPED_TRACE(name);
    ToolRun r = RunTool(run, {"--version"});
    EXPECT_EQ(r.code, kExitOk);
    EXPECT_EQ(r.out, std::string(name) + " (hfilekit) " + version + "\n");
    EXPECT_EQ(r.err, "");
    r = RunTool(run, {"--help"});
    EXPECT_EQ(r.code, kExitOk);
    EXPECT_NE(r.out.find("--version"), std::string::npos);
    r = RunTool(run, {"--no-such-flag"});
    EXPECT_EQ(r.code, kExitUsage);
    EXPECT_EQ(r.err.rfind(std::string(name) + ": ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find("\nRun with --help for usage.\n"), std::string::npos) << r.err;
  }
}

// Bad option values are usage errors naming the flag and what is valid; nothing is read.
TEST(CliOptions, BadValuesAreUsageErrors) {
  struct Case {
    int (*run)(int, const char* const*, std::ostream&, std::ostream&);
    std::vector<std::string> args;
    const char* message;
  } cases[] = {
      {RunDumpTool, {"--limit", "-5", "/nonexistent"}, "--limit: -5 is not an integer >= 0"},
      {RunDumpTool, {"-p", "--from", "zzz", "--to", "aaa", "/nonexistent"},
       "--from zzz does not sort before --to aaa"},
      {RunVerifyTool, {"--max-problems", "-1", "/nonexistent"},
       "--max-problems: -1 is not an integer >= 0"},
      {RunRewriteTool, {"--compression", "ZSTD", "--level", "99", "/nonexistent", "/x"},
       "--level 99: ZSTD levels are 1..22"},
      {RunRewriteTool, {"--blocksize", "0", "/nonexistent", "/x"},
       "--blocksize: 0 is not an integer in 1024..16777216"},
      {RunRewriteTool, {"--compression", "ZIP", "/nonexistent", "/x"},
       "--compression ZIP: unknown codec; valid: NONE, GZ"},
      {RunCompactTool, {"--now", "-1", "/nonexistent"}, "--now: -1 is not an integer >= 0"},
  };
  for (const auto& c : cases) {
    ToolRun r = RunTool(c.run, c.args);
    EXPECT_EQ(r.code, kExitUsage) << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << r.err;
  }
}

TEST(CompactTool, MissingPathIsUnreadable) {
  ToolRun r = RunTool(RunCompactTool, {"--dry-run", "/nonexistent/table"});
  EXPECT_EQ(r.code, kExitUnreadable);
  EXPECT_EQ(r.err, "hfile-compact: NotFound: /nonexistent/table: No such file or directory\n");
}

}  // namespace
}  // namespace hfile::cli
