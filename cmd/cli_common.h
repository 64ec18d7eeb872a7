// What every hfile-* tool shares: exit codes, Status to exit code, error printing.
//
// Exit codes (documented in every man page):
//   0  success; for verify: every file clean
//   1  usage error (bad flags or arguments)
//   2  corruption found (a file is damaged or violates the format)
//   3  unreadable (I/O error, missing file, not an HFile, unsupported feature)
#ifndef HFILE_CMD_CLI_COMMON_H_
#define HFILE_CMD_CLI_COMMON_H_

#include <atomic>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "hfile/status.h"
#include "region/region_set.h"

namespace CLI {
class App;
}  // namespace CLI

namespace hfile::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitUsage = 1;
inline constexpr int kExitCorrupt = 2;
inline constexpr int kExitUnreadable = 3;

// The exit code a tool returns for `s`.
int ExitCodeFor(const Status& s);
// The worse of two exit codes (corruption outranks unreadable outranks usage? no: see .cc).
int WorseExitCode(int a, int b);
// Prints "<tool>: <status>" on err.
void PrintError(std::ostream& err, const std::string& tool, const Status& s);
// True iff stderr is a terminal (progress output goes there only then).
bool StderrIsTerminal();

// Writing tools: SIGINT, SIGTERM and SIGHUP set the returned flag, which the library polls to
// stop, remove its temporary output and roll back (a second signal acts as if there were no
// handler). After such a stop the tool exits with InterruptExitCode(): 128 + the signal number.
const std::atomic<bool>* InstallInterruptHandlers();
int InterruptExitCode();

// What --table/--region/--snapshot/--root name. With --root, --table takes "ns:name" and
// --snapshot a snapshot name; without it, both take directories.
struct RegionArgs {
  std::vector<std::string> tables, regions, snapshots;
  std::string root;
  bool empty() const { return tables.empty() && regions.empty() && snapshots.empty(); }
};
// Opens each named table, region and snapshot; a failure is printed on `err` as "<tool>:
// <status>" and worsens `*code`.
std::vector<region::RegionSet> OpenRegionSets(const RegionArgs& args, const std::string& tool,
                                              std::ostream& err, int* code);
// The distinct HFiles the sets' store files read (link targets, referenced parent files).
std::vector<std::string> RegionSetHFiles(const std::vector<region::RegionSet>& sets);

// Parses a row/key given on the command line: hex when `hex`, else HBase's \xNN escapes.
Result<std::string> ParseBytesArg(const std::string& text, bool hex);

// Parses argv into `app`. nullopt: go on. Otherwise the exit code to return at once: 0 after
// printing --help on out, kExitUsage after printing the parse error on err.
std::optional<int> ParseArgs(CLI::App& app, int argc, const char* const* argv, std::ostream& out,
                             std::ostream& err);

// The tools, runnable in-process: each parses argv, does its work, returns its exit code.
int RunDumpTool(int argc, const char* const* argv, std::ostream& out, std::ostream& err);
int RunVerifyTool(int argc, const char* const* argv, std::ostream& out, std::ostream& err);
int RunRewriteTool(int argc, const char* const* argv, std::ostream& out, std::ostream& err);
int RunCompactTool(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

}  // namespace hfile::cli

#endif  // HFILE_CMD_CLI_COMMON_H_
