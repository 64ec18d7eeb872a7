// hfile: the front end. `hfile <tool> ARGS...` runs hfile-<tool> ARGS..., found next to this
// binary or on PATH, the way git runs its subcommands; `hfile help [TOOL]` lists the tools or
// shows one tool's --help; `hfile --version`. Exit codes and messages are the tools' own
// (cli_common.h).
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "cli_common.h"

namespace {

using hfile::cli::UsageError;

constexpr const char* kTool = "hfile";

const char* const kTools[][2] = {
    {"dump", "show an HFile's cells, blocks, index, file info and statistics"},
    {"verify", "check HFiles for corruption and format violations"},
    {"rewrite", "rewrite HFiles with other codec, encoding, bloom or block settings"},
    {"compact", "compact a region's store files offline, as HBase would"},
    {"alter", "alter a table offline: new descriptor, affected stores rewritten at once"},
    {"copy-family", "copy a family under a new name offline (HBase has no rename)"},
    {"split", "split an HFile at rows, or a region into two daughters, offline"},
    {"bulkload", "turn TSV/CSV/JSON lines into sorted HFiles per region for completebulkload"},
    {"create", "create a table offline from the HBase shell's create statement"},
    {"describe", "a table's descriptor as the shell's describe prints it, then its regions"},
    {"advise", "measure a table's families against the design rules, with the fixes"},
    {"task", "run one unit of a distributed job (--emit-units), or commit the job"},
};

bool IsTool(const std::string& name) {
  for (const auto& t : kTools)
    if (name == t[0]) return true;
  return false;
}

std::string ToolList() {
  std::string s;
  for (const auto& t : kTools) s += std::string(s.empty() ? "" : ", ") + t[0];
  return s;
}

void Usage(std::ostream& out) {
  out << "usage: hfile <tool> [ARGS...]\n"
         "       hfile help [<tool>]\n"
         "       hfile --help | --version\n\n"
         "tools:\n";
  for (const auto& t : kTools) {
    std::string name = t[0];
    out << "  " << name << std::string(13 - name.size(), ' ') << t[1] << "\n";
  }
  out << "\n'hfile help <tool>' shows a tool's options. Exit codes: 0 ok, 1 usage error, "
         "2 corruption found, 3 unreadable (see hfile(1)).\n";
}

std::string SelfDir() {
  char buf[4096];
  ssize_t n = ::readlink("/proc/self/exe", buf, sizeof(buf) - 1);
  if (n <= 0) return "";
  std::string p(buf, static_cast<size_t>(n));
  auto slash = p.rfind('/');
  return slash == std::string::npos ? "" : p.substr(0, slash);
}

// Runs hfile-<name> with `args` in place of this process; returns only when it cannot.
int Exec(const std::string& name, const std::vector<std::string>& args) {
  std::string tool = "hfile-" + name;
  std::vector<char*> argv;
  argv.push_back(tool.data());
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  std::string local = SelfDir() + "/" + tool;
  if (::access(local.c_str(), X_OK) == 0) ::execv(local.c_str(), argv.data());
  ::execvp(tool.c_str(), argv.data());
  const int e = errno;
  if (!IsTool(name)) {
    return UsageError(std::cerr, kTool,
                      "'" + name + "' is not an hfile tool; tools: " + ToolList());
  }
  // A tool of this kit whose binary is missing or not executable: unreadable.
  std::cerr << kTool << ": cannot run " << tool << ": " << std::strerror(e) << "\n";
  return hfile::cli::kExitUnreadable;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) return UsageError(std::cerr, kTool, "no tool given; tools: " + ToolList());
  const std::string& first = args[0];
  if (first == "--help" || first == "-h") {
    Usage(std::cout);
    return hfile::cli::kExitOk;
  }
  if (first == "--version") {
    std::cout << hfile::cli::VersionLine(kTool) << "\n";
    return hfile::cli::kExitOk;
  }
  if (first == "help") {
    if (args.size() == 1) {
      Usage(std::cout);
      return hfile::cli::kExitOk;
    }
    if (args.size() > 2) return UsageError(std::cerr, kTool, "help takes at most one tool");
    return Exec(args[1], {"--help"});
  }
  if (!first.empty() && first[0] == '-') {
    return UsageError(std::cerr, kTool, "unknown option " + first + "; give a tool first");
  }
  return Exec(first, std::vector<std::string>(args.begin() + 1, args.end()));
}
