// `hfile verify`: checks every file named, reports each, exits with the worst finding.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <atomic>
#include <ostream>
#include <thread>

#include "cli_common.h"
#include "hfile/verify.h"

namespace hfile::cli {

int RunVerifyTool(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  CLI::App app{"Check HFiles for corruption and format violations.", "hfile-verify"};
  app.set_help_flag("--help", "Print this help and exit");
  VerifyOptions o;
  std::vector<std::string> files, region_dirs;
  bool json = false, quiet = false, no_blooms = false;
  unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
  app.add_option("files", files, "HFiles to check");
  app.add_option("-r,--region", region_dirs, "A region directory: check all its store files");
  app.add_flag("--json", json, "One JSON object per file instead of text");
  app.add_flag("-q,--quiet", quiet, "Print only files with problems");
  app.add_flag("--no-blooms", no_blooms, "Skip the bloom filter checks");
  app.add_option("--max-problems", o.max_problems, "List at most this many problems per file");
  app.add_option("-j,--jobs", jobs, "Check this many files at once (default: one per core)")
      ->check(CLI::Range(1u, 256u));
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) {
      out << app.help();
      return kExitOk;
    }
    err << e.what() << "\nRun with --help for usage.\n";
    return kExitUsage;
  }
  o.check_blooms = !no_blooms;
  int code = kExitOk;
  for (const auto& dir : region_dirs) {
    auto listed = ListRegionStoreFiles(dir);
    if (!listed.ok()) {
      PrintError(err, "hfile-verify", listed.status());
      code = WorseExitCode(code, ExitCodeFor(listed.status()));
      continue;
    }
    files.insert(files.end(), listed->begin(), listed->end());
  }
  if (files.empty()) {
    err << "hfile-verify: no input files\nRun with --help for usage.\n";
    return kExitUsage;
  }
  // Files are independent: check them on `jobs` threads, report in input order.
  std::vector<VerifyReport> reports(files.size());
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i; (i = next++) < files.size();) reports[i] = VerifyFile(files[i], o);
  };
  std::vector<std::thread> threads;
  for (unsigned t = 1; t < std::min<size_t>(jobs, files.size()); ++t) threads.emplace_back(work);
  work();
  for (auto& t : threads) t.join();
  for (const auto& report : reports) {
    if (!quiet || !report.clean()) PrintVerifyReport(report, json, out);
    if (!report.open_status.ok()) {
      code = WorseExitCode(code, ExitCodeFor(report.open_status));
    } else if (!report.clean()) {
      code = WorseExitCode(code, kExitCorrupt);
    }
  }
  return code;
}

}  // namespace hfile::cli
