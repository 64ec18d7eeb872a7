// What every hfile-* tool shares: the exit codes, Status to exit code, and the messages.
//
// Exit codes, the same for every tool (man/hfile.1.md and each tool's EXIT STATUS):
//   0  success; for verify: every file clean
//   1  usage error: unknown flag, bad option value (out of range, unknown name), bad arguments
//   2  corruption found: an HFile (or store) is damaged or violates the format
//   3  unreadable: I/O error, missing path, not an HFile, unsupported feature
// When inputs differ, a tool returns the worst: 2 before 3 before 1.
//
// Messages: "<tool>: <message>\nRun with --help for usage." for usage errors (UsageError; a
// library's InvalidArgument through PrintError gets the same second line), "<tool>: <Status>"
// for everything else (PrintError).
#ifndef HFILE_CMD_CLI_COMMON_H_
#define HFILE_CMD_CLI_COMMON_H_

#include <atomic>
#include <functional>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "hfile/status.h"
#include "region/region_set.h"

namespace CLI {
class App;
class Validator;
}  // namespace CLI

namespace hfile::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitUsage = 1;
inline constexpr int kExitCorrupt = 2;
inline constexpr int kExitUnreadable = 3;

// The exit code a tool returns for `s`: OK 0, InvalidArgument 1, Corruption 2, else 3.
int ExitCodeFor(const Status& s);
// The worse of two exit codes: corruption (2) outranks unreadable (3) outranks usage (1).
int WorseExitCode(int a, int b);
// Prints "<tool>: <status>" on err, and for a usage error (InvalidArgument) the same
// "Run with --help for usage." line as UsageError.
void PrintError(std::ostream& err, const std::string& tool, const Status& s);
// Prints "<tool>: <status>" on err; returns ExitCodeFor(s).
int ReportError(std::ostream& err, const std::string& tool, const Status& s);
// Prints "<tool>: <message>\nRun with --help for usage." on err; returns kExitUsage.
int UsageError(std::ostream& err, const std::string& tool, const std::string& message);

// hfilekit's version, from CMake's project(VERSION).
const char* Version();
// What --version prints: "<tool> (hfilekit) <version>".
std::string VersionLine(const std::string& tool);
// Gives `app` the flags every tool has: --help and --version.
void AddStandardFlags(CLI::App& app);
// A validator for integer option values in [lo, hi]: "<flag>: <value> is not an integer in
// lo..hi" (or ">= lo" when hi is the maximum).
CLI::Validator IntegerIn(int64_t lo, int64_t hi);
// True iff stderr is a terminal (progress output goes there only then).
bool StderrIsTerminal();

// Writing tools: SIGINT, SIGTERM and SIGHUP set the returned flag, which the library polls to
// stop, remove its temporary output and roll back (a second signal acts as if there were no
// handler). After such a stop the tool exits with InterruptExitCode(): 128 + the signal number.
const std::atomic<bool>* InstallInterruptHandlers();
int InterruptExitCode();

// Crash-safety tests of the writing tools (hidden --crash-at, or an environment variable): a
// checkpoint hook that SIGKILLs the process at the Nth checkpoint (spec "N") or at the first
// checkpoint named `spec`. nullptr for an empty spec.
std::function<void(const std::string&)> CrashAtCheckpoint(const std::string& spec);

// What --table/--region/--snapshot/--root name. With --root, --table takes "ns:name" and
// --snapshot a snapshot name; without it, both take directories.
struct RegionArgs {
  std::vector<std::string> tables, regions, snapshots;
  std::string root;
  bool empty() const { return tables.empty() && regions.empty() && snapshots.empty(); }
};
// The one target flag block of the reading tools: -r/--region, --table, --snapshot, --root.
// `what` says what the tool does with each ("describe it, or with -p/-e its cells").
void AddRegionFlags(CLI::App& app, RegionArgs* args, const std::string& what);
// Opens each named table, region and snapshot; a failure is printed on `err` as "<tool>:
// <status>" and worsens `*code`.
std::vector<region::RegionSet> OpenRegionSets(const RegionArgs& args, const std::string& tool,
                                              std::ostream& err, int* code);
// The distinct HFiles the sets' store files read (link targets, referenced parent files).
std::vector<std::string> RegionSetHFiles(const std::vector<region::RegionSet>& sets);

// Parses a row/key given on the command line: hex when `hex`, else HBase's \xNN escapes.
Result<std::string> ParseBytesArg(const std::string& text, bool hex);

// An argument as a local path: "file:///x", "file://localhost/x" and "file:/x" (Hadoop's local
// URIs, as found in HBase's logs and configuration) are /x; anything else but a remote file
// system's URI (hdfs://, s3a://, ...: InvalidArgument saying so) is returned as it is.
// ParseArgs applies it to every argument, and to the value of --opt=VALUE and NAME=VALUE.
Result<std::string> LocalPathArg(const std::string& arg);

// Parses argv into `app`. nullopt: go on. Otherwise the exit code to return at once: 0 after
// printing --help or --version on out, kExitUsage after printing the parse error on err as
// UsageError does (the tool's name is app's name).
// Options named in `hdfs_options` ("files", "--file") also take hdfs:// and webhdfs:// URIs
// as they are (the tools that read HFiles over WebHDFS); every other remote URI is refused.
std::optional<int> ParseArgs(CLI::App& app, int argc, const char* const* argv, std::ostream& out,
                             std::ostream& err, const std::set<std::string>& hdfs_options = {});
// --webhdfs HOST:PORT into `address` (WebHdfsOptions::address), for the tools that read hdfs://.
void AddWebHdfsFlag(CLI::App& app, std::string* address);

// The tools, runnable in-process: each parses argv, does its work, returns its exit code.
int RunDumpTool(int argc, const char* const* argv, std::ostream& out, std::ostream& err);
int RunVerifyTool(int argc, const char* const* argv, std::ostream& out, std::ostream& err);
int RunRewriteTool(int argc, const char* const* argv, std::ostream& out, std::ostream& err);
int RunCompactTool(int argc, const char* const* argv, std::ostream& out, std::ostream& err);
int RunAlterTool(int argc, const char* const* argv, std::ostream& out, std::ostream& err);
int RunCopyFamilyTool(int argc, const char* const* argv, std::ostream& out, std::ostream& err);
int RunSplitTool(int argc, const char* const* argv, std::ostream& out, std::ostream& err);
int RunBulkLoadTool(int argc, const char* const* argv, std::ostream& out, std::ostream& err);
int RunCreateTool(int argc, const char* const* argv, std::ostream& out, std::ostream& err);
int RunDescribeTool(int argc, const char* const* argv, std::ostream& out, std::ostream& err);
// hfile-task: a unit of a distributed job, or the job's commit (exit 3: job-incomplete).
int RunTaskTool(int argc, const char* const* argv, std::ostream& out, std::ostream& err);
// hfile-advise: exit 4 with --fail-on-warn when a warn or error finding was made.
inline constexpr int kExitFindings = 4;
int RunAdviseTool(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

}  // namespace hfile::cli

#endif  // HFILE_CMD_CLI_COMMON_H_
