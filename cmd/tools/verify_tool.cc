// `hfile verify`: checks every file named, and every table, region and snapshot named (their
// store files plus the region-level checks), reports each, exits with the worst finding.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <ostream>
#include <thread>

#include "cli_common.h"
#include "hfile/verify.h"
#include "region/verify_region.h"

namespace hfile::cli {

namespace {
constexpr const char* kTool = "hfile-verify";
}  // namespace

int RunVerifyTool(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  CLI::App app{"Check HFiles, regions, tables and snapshots for corruption and format "
               "violations.", kTool};
  AddStandardFlags(app);
  region::RegionVerifyOptions ro;
  VerifyOptions& o = ro.file;
  std::vector<std::string> files;
  RegionArgs regions;
  bool json = false, quiet = false, no_blooms = false, no_key_ranges = false;
  unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
  app.add_option("files", files, "HFiles to check");
  AddRegionFlags(app, &regions, "check its store files and its layout");
  app.add_flag("--json", json, "One JSON object per file, table, region or snapshot");
  app.add_flag("-q,--quiet", quiet, "Print only files with problems (and no info findings)");
  app.add_flag("--no-blooms", no_blooms, "Skip the bloom filter checks");
  app.add_flag("--no-key-ranges", no_key_ranges,
               "Skip the check that cells lie in their region's key range");
  app.add_option("--max-problems", o.max_problems,
                 "List at most this many problems per file (default: 100)")
      ->check(IntegerIn(0, INT64_MAX));
  app.add_option("-j,--jobs", jobs, "Check this many files at once, 1..256 (default: one per core)")
      ->check(IntegerIn(1, 256));
  if (auto code = ParseArgs(app, argc, argv, out, err)) return *code;
  o.check_blooms = !no_blooms;
  ro.check_key_ranges = !no_key_ranges;
  ro.check_meta = !regions.root.empty();  // a table named under its root: meta describes it
  if (!regions.root.empty() && regions.tables.empty() && regions.snapshots.empty()) {
    return UsageError(err, kTool, "--root needs --table or --snapshot");
  }
  if (files.empty() && regions.empty()) {
    return UsageError(err, kTool, "no input files");
  }
  int code = kExitOk;
  for (const auto& set : OpenRegionSets(regions, kTool, err, &code)) {
    region::RegionVerifyReport report = region::VerifyRegionSet(set, ro);
    PrintRegionVerifyReport(report, json, quiet, out);
    if (report.corrupt()) code = WorseExitCode(code, kExitCorrupt);
    else if (report.unreadable()) code = WorseExitCode(code, kExitUnreadable);
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
