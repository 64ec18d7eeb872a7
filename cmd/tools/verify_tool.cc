// `hfile verify`: checks every file named, and every table, region and snapshot named (their
// store files plus the region-level checks), reports each, exits with the worst finding.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <ostream>
#include <string>
#include <thread>
#include <vector>

#include "cli_common.h"
#include "progress.h"
#include "hfile/reader.h"
#include "hfile/verify.h"
#include "region/layout.h"
#include "region/target.h"
#include "region/verify_region.h"

namespace hfile::cli {

namespace {
constexpr const char* kTool = "hfile-verify";

// The cells and bytes `path` holds, for progress (0, 0 when it does not open: the check says
// why).
std::pair<uint64_t, uint64_t> CellsAndBytes(const std::string& path,
                                            const ReaderOptions& options) {
  auto r = Reader::Open(path, options);
  if (!r.ok()) return {0, 0};
  return {(*r)->trailer().entry_count, (*r)->file_size()};
}

// Counts the cells VerifyFile walks into `progress`: bytes in proportion to the file's size.
// Shared by the threads checking files at once.
struct VerifyMeter {
  Progress& progress;
  std::atomic<uint64_t> bytes{0}, cells{0};

  // on_cell for one file of `entries` cells and `size` bytes; `*reported` is what it added.
  std::function<void(const Cell&)> ForFile(uint64_t entries, uint64_t size, uint64_t* reported) {
    return [this, entries, size, reported, n = uint64_t{0}](const Cell&) mutable {
      if ((++n & 0xFFF) != 0) return;
      Add(entries ? static_cast<uint64_t>(size * std::min(1.0, double(n) / entries)) : 0, 0x1000,
          reported);
    };
  }
  // Adds `new_cells`, and the file's bytes done up to `est`.
  void Add(uint64_t est, uint64_t new_cells, uint64_t* reported) {
    uint64_t b = bytes;
    if (est > *reported) b = bytes += est - *reported, *reported = est;
    progress.Update(b, cells += new_cells);
  }
};

// A region set to check, and whether hbase:meta under its root describes it (a table named
// under a root).
struct SetToCheck {
  region::RegionSet set;
  bool check_meta = false;
};

// Every table and snapshot under `root`, for --root alone or a root dir given as an argument.
void OpenRoot(const std::string& root, std::ostream& err, int* code, std::vector<SetToCheck>* out) {
  auto fail = [&](const Status& s) {
    PrintError(err, kTool, s);
    *code = WorseExitCode(*code, ExitCodeFor(s));
  };
  auto dir = region::RootDir::Open(root);
  const auto snapshot_dir = std::filesystem::path(root) / ".hbase-snapshot";
  std::error_code ec;
  if (!dir.ok() && std::filesystem::is_directory(snapshot_dir, ec)) {
    // An exported snapshot (archive/ and .hbase-snapshot/, no data/): its snapshots.
    std::vector<std::string> names;
    for (const auto& e : std::filesystem::directory_iterator(snapshot_dir, ec))
      if (std::filesystem::exists(e.path() / ".snapshotinfo", ec)) names.push_back(e.path());
    std::sort(names.begin(), names.end());
    for (const auto& name : names) {
      auto set = region::OpenSnapshotRegions(name);
      if (set.ok())
        out->push_back({std::move(set).value(), false});
      else
        fail(set.status());
    }
    return;
  }
  if (!dir.ok()) return fail(dir.status());
  auto tables = dir->ListTables();
  if (!tables.ok()) return fail(tables.status());
  for (const auto& t : *tables) {
    auto set = region::OpenTableRegions(root, t.ToString());
    if (set.ok())
      out->push_back({std::move(set).value(), true});
    else
      fail(set.status());
  }
  auto snapshots = dir->ListSnapshots();
  if (!snapshots.ok()) return fail(snapshots.status());
  for (const auto& name : *snapshots) {
    auto set = region::OpenSnapshotRegions(dir->SnapshotDirPath(name));
    if (set.ok())
      out->push_back({std::move(set).value(), false});
    else
      fail(set.status());
  }
}

// A directory given as an argument, read as what it is: a root, a snapshot, a table, a region
// or a family dir (its region's set with that family only).
void OpenDirArg(const std::string& path, std::ostream& err, int* code,
                std::vector<SetToCheck>* out) {
  auto fail = [&](const Status& s) {
    PrintError(err, kTool, s);
    *code = WorseExitCode(*code, ExitCodeFor(s));
  };
  std::error_code ec;
  if (region::IsRootDir(path) ||
      std::filesystem::is_directory(std::filesystem::path(path) / ".hbase-snapshot", ec))
    return OpenRoot(path, err, code, out);
  if (std::filesystem::exists(std::filesystem::path(path) / ".snapshotinfo", ec)) {
    auto set = region::OpenSnapshotRegions(path);
    if (set.ok())
      out->push_back({std::move(set).value(), false});
    else
      fail(set.status());
    return;
  }
  auto t = region::ResolveTarget(path);
  if (!t.ok()) {
    return fail(Status::InvalidArgument(
        path, "a directory that is no root, snapshot, table, region or family directory"));
  }
  Result<region::RegionSet> set = t->kind == region::Target::Kind::kTable
                                      ? region::OpenTableRegions(t->table_dir)
                                      : region::OpenRegionDirRegions(t->region_dir);
  if (!set.ok()) return fail(set.status());
  if (t->kind == region::Target::Kind::kFamily) {
    for (auto& r : set->regions) {
      std::erase_if(r.families, [&](const region::FamilyDir& f) { return f.name != t->family(); });
    }
  }
  set->path = path;  // as given (ResolveTarget made it absolute)
  out->push_back({std::move(set).value(), false});
}

}  // namespace

int RunVerifyTool(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  CLI::App app{"Check HFiles, regions, tables and snapshots for corruption and format "
               "violations.", kTool};
  AddStandardFlags(app);
  region::RegionVerifyOptions ro;
  VerifyOptions& o = ro.file;
  std::vector<std::string> files;
  RegionArgs regions;
  bool json = false, no_blooms = false, no_key_ranges = false;
  ProgressFlags progress_flags;
  bool& quiet = progress_flags.quiet;
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
  AddProgressFlags(app, &progress_flags, /*add_quiet=*/false);
  AddWebHdfsFlag(app, &o.reader.webhdfs.address);
  if (auto code = ParseArgs(app, argc, argv, out, err, {"files"})) return *code;
  o.check_blooms = !no_blooms;
  ro.check_key_ranges = !no_key_ranges;
  ro.check_meta = !regions.root.empty();  // a table named under its root: meta describes it
  const bool whole_root =
      !regions.root.empty() && regions.tables.empty() && regions.snapshots.empty();
  if (files.empty() && regions.empty() && !whole_root) {
    return UsageError(err, kTool, "no input files");
  }
  int code = kExitOk;
  // What to check as region sets: the flags' targets, every table and snapshot of --root
  // alone, and the directories among the arguments (the rest are HFiles).
  std::vector<SetToCheck> sets;
  for (auto& set : OpenRegionSets(regions, kTool, err, &code))
    sets.push_back({std::move(set), ro.check_meta});
  if (whole_root) OpenRoot(regions.root, err, &code, &sets);
  {
    std::vector<std::string> hfiles;
    for (const auto& f : files) {
      std::error_code ec;
      if (std::filesystem::is_directory(f, ec))
        OpenDirArg(f, err, &code, &sets);
      else
        hfiles.push_back(f);
    }
    files = std::move(hfiles);
  }
  Progress progress(err, kTool, progress_flags);
  VerifyMeter meter{progress};
  for (const auto& [set, check_meta] : sets) {
    region::RegionVerifyOptions so = ro;
    so.check_meta = check_meta;
    if (progress.enabled()) {
      // Cells are what a set's check walks: count them against the files' entry counts.
      uint64_t cells = 0, bytes = 0;
      for (const auto& f : RegionSetHFiles({set})) {
        auto [c, b] = CellsAndBytes(f, o.reader);
        cells += c, bytes += b;
      }
      progress.Phase("verifying", 0, cells, set.path);
      so.file.on_cell = [&progress, n = uint64_t{0}](const Cell&) mutable {
        if ((++n & 0xFFF) == 0) progress.Update(0, n);
      };
    }
    region::RegionVerifyReport report = region::VerifyRegionSet(set, so);
    progress.Clear();
    PrintRegionVerifyReport(report, json, quiet, out);
    if (report.corrupt()) code = WorseExitCode(code, kExitCorrupt);
    else if (report.unreadable()) code = WorseExitCode(code, kExitUnreadable);
  }
  // Files are independent: check them on `jobs` threads, report in input order.
  std::vector<VerifyReport> reports(files.size());
  if (progress.enabled() && !files.empty()) {
    uint64_t total = 0;
    for (const auto& f : files) {
      std::error_code ec;
      const uint64_t size = std::filesystem::file_size(f, ec);
      if (!ec) total += size;
    }
    progress.Phase("verifying", total);
  }
  // Fewer files than jobs: each file's blocks are read on a thread of the jobs left over.
  o.read_ahead = jobs > files.size();
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i; (i = next++) < files.size();) {
      if (!progress.enabled()) {
        reports[i] = VerifyFile(files[i], o);
        continue;
      }
      auto [entries, size] = CellsAndBytes(files[i], o.reader);
      uint64_t reported = 0;
      VerifyOptions fo = o;
      fo.on_cell = meter.ForFile(entries, size, &reported);
      progress.Update(meter.bytes, meter.cells, files[i]);
      reports[i] = VerifyFile(files[i], fo);
      meter.Add(size, reports[i].cells % 0x1000, &reported);
    }
  };
  std::vector<std::thread> threads;
  for (unsigned t = 1; t < std::min<size_t>(jobs, files.size()); ++t) threads.emplace_back(work);
  work();
  for (auto& t : threads) t.join();
  progress.Clear();
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
