#include "cli_common.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <atomic>
#include <charconv>
#include <limits>
#include <set>
#include <memory>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "hfile/escape.h"
#include "hfile/webhdfs.h"

namespace hfile::cli {

int ExitCodeFor(const Status& s) {
  if (s.ok()) return kExitOk;
  if (s.IsCorruption()) return kExitCorrupt;
  if (s.IsInvalidArgument()) return kExitUsage;
  return kExitUnreadable;  // IOError, NotFound, NotSupported
}

int WorseExitCode(int a, int b) {
  // Corruption is the most important finding; then unreadable; then usage.
  auto rank = [](int c) {
    switch (c) {
      case kExitCorrupt: return 3;
      case kExitUnreadable: return 2;
      case kExitUsage: return 1;
      default: return 0;
    }
  };
  return rank(a) >= rank(b) ? a : b;
}

void PrintError(std::ostream& err, const std::string& tool, const Status& s) {
  err << tool << ": " << s.ToString() << "\n";
  if (ExitCodeFor(s) == kExitUsage) err << "Run with --help for usage.\n";  // as UsageError
}

int ReportError(std::ostream& err, const std::string& tool, const Status& s) {
  PrintError(err, tool, s);
  return ExitCodeFor(s);
}

int UsageError(std::ostream& err, const std::string& tool, const std::string& message) {
  err << tool << ": " << message << "\nRun with --help for usage.\n";
  return kExitUsage;
}

const char* Version() { return HFILE_VERSION; }

std::string VersionLine(const std::string& tool) {
  return tool + " (hfilekit) " + Version();
}

void AddStandardFlags(CLI::App& app) {
  app.set_help_flag("--help", "Print this help and exit");
  app.set_version_flag("--version", VersionLine(app.get_name()), "Print the version and exit");
}

CLI::Validator IntegerIn(int64_t lo, int64_t hi) {
  const std::string range = hi == std::numeric_limits<int64_t>::max()
                                ? ">= " + std::to_string(lo)
                                : "in " + std::to_string(lo) + ".." + std::to_string(hi);
  return CLI::Validator(
      [lo, hi, range](std::string& text) -> std::string {
        int64_t v = 0;
        const char* end = text.data() + text.size();
        auto [p, ec] = std::from_chars(text.data(), end, v);
        if (text.empty() || ec != std::errc() || p != end || v < lo || v > hi) {
          return text + " is not an integer " + range;
        }
        return "";
      },
      "");  // the option's help text states the range
}

bool StderrIsTerminal() { return ::isatty(STDERR_FILENO) == 1; }

namespace {
std::atomic<bool> g_interrupted{false};
volatile sig_atomic_t g_signal = 0;

void OnInterrupt(int sig) {
  g_signal = sig;
  g_interrupted.store(true);
}
}  // namespace

const std::atomic<bool>* InstallInterruptHandlers() {
  struct sigaction sa {};
  sa.sa_handler = OnInterrupt;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESETHAND;  // a second signal acts as if there were no handler
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) ::sigaction(sig, &sa, nullptr);
  return &g_interrupted;
}

int InterruptExitCode() { return g_signal ? 128 + g_signal : 0; }

std::function<void(const std::string&)> CrashAtCheckpoint(const std::string& spec) {
  if (spec.empty()) return nullptr;
  auto count = std::make_shared<long>(0);
  const long n = std::strtol(spec.c_str(), nullptr, 10);
  return [spec, n, count](const std::string& step) {
    ++*count;
    if ((n > 0 && *count == n) || step == spec) ::raise(SIGKILL);
  };
}

void AddRegionFlags(CLI::App& app, RegionArgs* args, const std::string& what) {
  app.add_option("-r,--region", args->regions, "A region directory (repeatable): " + what);
  app.add_option("--table", args->tables,
                 "A table directory (or, with --root, a table name ns:name): " + what +
                     ", for every region");
  app.add_option("--snapshot", args->snapshots,
                 "A snapshot directory (or, with --root, a snapshot name): " + what +
                     ", for every region");
  app.add_option("--root", args->root, "The HBase root dir that --table/--snapshot names are in");
}

std::vector<region::RegionSet> OpenRegionSets(const RegionArgs& args, const std::string& tool,
                                              std::ostream& err, int* code) {
  std::vector<region::RegionSet> out;
  auto take = [&](Result<region::RegionSet> r) {
    if (r.ok()) {
      out.push_back(std::move(r).value());
    } else {
      PrintError(err, tool, r.status());
      *code = WorseExitCode(*code, ExitCodeFor(r.status()));
    }
  };
  for (const auto& t : args.tables)
    take(args.root.empty() ? region::OpenTableRegions(t) : region::OpenTableRegions(args.root, t));
  for (const auto& r : args.regions) take(region::OpenRegionDirRegions(r));
  for (const auto& s : args.snapshots) {
    bool by_name = !args.root.empty() && s.find('/') == std::string::npos;
    take(region::OpenSnapshotRegions(by_name ? args.root + "/.hbase-snapshot/" + s : s));
  }
  return out;
}

std::vector<std::string> RegionSetHFiles(const std::vector<region::RegionSet>& sets) {
  std::vector<std::string> files;
  std::set<std::string> seen;
  for (const auto& set : sets)
    for (const auto& r : set.regions)
      for (const auto& f : r.families)
        for (const auto& sf : f.store_files)
          if (!sf.target_path.empty() && seen.insert(sf.target_path).second)
            files.push_back(sf.target_path);
  return files;
}

Result<std::string> ParseBytesArg(const std::string& text, bool hex) {
  auto bytes = hex ? FromHex(text) : FromStringBinary(text);
  if (!bytes) {
    return Status::InvalidArgument(
        "cannot parse '" + text + "' as " + (hex ? "hex" : "bytes with \\xNN escapes"));
  }
  return *bytes;
}

Result<std::string> LocalPathArg(const std::string& arg) {
  // Only the file systems' own schemes: other URIs (http://...) are common row keys.
  static constexpr const char* kRemote[] = {"hdfs",  "viewfs", "webhdfs", "s3",      "s3a",
                                            "s3n",   "gs",     "wasb",    "wasbs",   "abfs",
                                            "abfss", "o3fs",   "ofs",     "alluxio", "maprfs"};
  const size_t colon = arg.find("://");
  if (colon == std::string::npos) {
    if (arg.rfind("file:/", 0) == 0) return arg.substr(5);  // file:/x
    return arg;
  }
  const std::string scheme = arg.substr(0, colon);
  if (scheme == "file") {
    std::string rest = arg.substr(colon + 3);
    if (rest.rfind("localhost/", 0) == 0) rest = rest.substr(9);
    if (rest.empty() || rest[0] != '/') {
      return Status::InvalidArgument(arg + ": a file:// URI names a local path (file:///x); " +
                                     "another host's files cannot be read");
    }
    return rest;
  }
  for (const char* remote : kRemote) {
    if (scheme == remote) {
      return Status::InvalidArgument(fmt::format(
          "{}: {}:// paths are not supported yet; copy the files locally (e.g. hdfs dfs -get "
          "{} DIR) and give the local copy; see hfile(1), PATHS",
          arg, scheme, arg));
    }
  }
  return arg;
}

void AddWebHdfsFlag(CLI::App& app, std::string* address) {
  app.add_option("--webhdfs", *address,
                 "HOST:PORT of the NameNode's HTTP server for hdfs:// files (default: "
                 "$HFILE_WEBHDFS, then dfs.namenode.http-address in $HADOOP_CONF_DIR/"
                 "hdfs-site.xml)");
}

std::optional<int> ParseArgs(CLI::App& app, int argc, const char* const* argv, std::ostream& out,
                             std::ostream& err, const std::set<std::string>& hdfs_options) {
  // URIs to local paths (LocalPathArg) in the values of every option and positional, and in
  // the VALUE of NAME=VALUE (-D), but not in options that take row keys: a row key may well
  // look like a URI.
  static const std::set<std::string> kRowKeyOptions = {"--seekToRow", "--from", "--to",
                                                       "--prefix", "--locate", "--at"};
  for (CLI::Option* opt : app.get_options()) {
    if (kRowKeyOptions.count(opt->get_name())) continue;
    const bool hdfs_ok = hdfs_options.count(opt->get_name()) > 0;
    opt->transform([hdfs_ok](std::string v) {
      if (hdfs_ok && IsHdfsUri(v)) return v;
      const size_t eq = v.find('=');
      const bool has_value = eq != std::string::npos && v.find("://") > eq;
      auto p = LocalPathArg(has_value ? v.substr(eq + 1) : v);
      if (!p.ok()) throw CLI::ValidationError(std::string(p.status().message()));
      return has_value ? v.substr(0, eq + 1) + *p : *p;
    });
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForVersion& e) {
    out << e.what() << "\n";
    return kExitOk;
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) {
      out << app.help();
      return kExitOk;
    }
    return UsageError(err, app.get_name(), e.what());
  }
  return std::nullopt;
}

}  // namespace hfile::cli
