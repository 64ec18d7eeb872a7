// `hfile dump`: flags -> DumpOptions -> DumpFile for each input file; for tables, regions and
// snapshots -> DescribeRegionSet (no -p/-e) or DumpRegionSetCells (-p/-e). Keeps going past
// bad inputs. --locate ROW -> LocateRow.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <cstdint>
#include <filesystem>
#include <ostream>
#include <set>

#include "cli_common.h"
#include "hfile/dump.h"
#include "region/describe.h"
#include "region/region_name.h"
#include "region/region_dump.h"

namespace hfile::cli {

namespace {
constexpr const char* kTool = "hfile-dump";
}  // namespace

int RunDumpTool(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  CLI::App app{"Show an HFile's cells, blocks, index, file info and statistics.", kTool};
  AddStandardFlags(app);
  DumpOptions o;
  std::vector<std::string> files;
  RegionArgs regions;
  region::RegionDumpOptions ro;
  std::string row, from, to, prefix, locate;
  bool hex = false, no_checksums = false, io_stats = false;
  app.add_option("files", files, "HFiles to dump");
  app.add_option("-f,--file", files, "An HFile to dump (repeatable)");
  AddRegionFlags(app, &regions, "describe it, or with -p/-e its cells merged in scan order");
  app.add_option("--family", ro.families, "With --table/--region/--snapshot: only this family "
                                          "(repeatable)");
  app.add_flag("-p,--printkv", o.print_cells, "Print every cell: key, value and tags");
  app.add_flag("-e,--printkey", o.print_keys, "Print every cell's key only");
  app.add_flag("-m,--printmeta", o.print_meta, "Print trailer, file info, mid-key and blooms");
  app.add_flag("-b,--printblocks", o.print_block_index, "Print every level of the block index");
  app.add_flag("-h,--printblockheaders", o.print_block_headers, "Print the header of every block");
  app.add_flag("-k,--checkrow", o.check_row_order, "Report cells out of order");
  app.add_flag("-s,--stats", o.print_stats, "Print size statistics and the largest rows");
  app.add_flag("-d,--details", o.stat_ranges,
               "With --hpp: -s plus the counts per size range (HFilePrettyPrinter -d)");
  app.add_flag("-a,--checkfamily", o.check_family,
               "Warn of cells whose family is not in the file's path or differs from the "
               "previous cell's");
  app.add_flag("--hpp", o.hpp,
               "-m, -s, -b and -h print exactly what HBase 2.6's HFilePrettyPrinter prints");
  app.add_flag("-v,--verbose", o.verbose, "Verbose output");
  app.add_option("-w,--seekToRow", row, "Print only the cells of this row");
  app.add_option("--locate", locate,
                 "With --table/--region/--snapshot: the region that holds this row, the store "
                 "files a Get of it reads (key range, bloom) and where its cells are");
  app.add_option("--from", from, "First row to print (inclusive)");
  app.add_option("--to", to, "Row to stop at (exclusive)");
  app.add_option("--prefix", prefix, "Print only rows with this prefix");
  app.add_option("--limit", o.limit,
                 "Print at most this many cells per file (per table/region/snapshot; 0: all)")
      ->check(IntegerIn(0, INT64_MAX));
  app.add_flag("--hex", hex, "Rows on the command line and bytes in the output are hex");
  app.add_flag("--json", o.json, "Write JSON lines instead of text");
  app.add_flag("--io-stats", io_stats,
               "With --table/--region/--snapshot: after the cells, the files, blocks, bytes and "
               "seeks the read cost per store");
  app.add_flag("--no-verify-checksums", no_checksums, "Do not verify block checksums");
  AddWebHdfsFlag(app, &o.reader.webhdfs.address);
  if (auto code = ParseArgs(app, argc, argv, out, err, {"files", "--file"})) return *code;
  if (o.stat_ranges && !o.hpp) {
    return UsageError(err, kTool,
                      "-d/--details is HFilePrettyPrinter's -s output: use it with --hpp");
  }
  if (o.hpp && o.json) {
    return UsageError(err, kTool, "--hpp is HFilePrettyPrinter's text: not with --json");
  }
  o.byte_format = hex ? ByteFormat::kHex : ByteFormat::kEscaped;
  o.reader.verify_checksums = !no_checksums;
  struct RowArg {
    const char* flag;
    const std::string& text;
    std::optional<std::string>* dst;
  };
  std::optional<std::string> locate_row;
  for (RowArg a : {RowArg{"--locate", locate, &locate_row}, RowArg{"--seekToRow", row, &o.seek_row},
                   RowArg{"--from", from, &o.from_row}, RowArg{"--to", to, &o.to_row},
                   RowArg{"--prefix", prefix, &o.prefix}}) {
    if (a.text.empty()) continue;
    auto bytes = ParseBytesArg(a.text, hex);
    if (!bytes.ok()) {
      return UsageError(err, kTool, fmt::format("{}: {}", a.flag, bytes.status().message()));
    }
    *a.dst = *bytes;
  }
  if (o.from_row && o.to_row && Slice(*o.to_row).compare(Slice(*o.from_row)) <= 0) {
    return UsageError(err, kTool,
                      fmt::format("--from {} does not sort before --to {}: the range is empty",
                                  from, to));
  }
  int code = kExitOk;
  // The HFiles to dump, and (read through a table, region or snapshot) whose they are.
  struct Input {
    std::string path, table, region;
  };
  std::vector<Input> inputs;
  for (const auto& f : files) inputs.push_back({f, "", ""});
  if (!regions.root.empty() && regions.empty()) {
    return UsageError(err, kTool, "--root needs --table, --snapshot or -r REGIONNAME");
  }
  // HFilePrettyPrinter's -r takes a region name and finds the region under the root; ours
  // takes a region directory. With --root, a -r value that is not a directory is a name.
  std::vector<std::string> named_region_dirs;
  if (!regions.root.empty()) {
    for (auto& r : regions.regions) {
      if (std::filesystem::is_directory(r)) continue;
      auto dir = region::RegionDirForName(regions.root, r);
      if (!dir.ok()) {
        return UsageError(err, kTool, fmt::format("-r {}: {}", r, dir.status().message()));
      }
      r = *dir;
      named_region_dirs.push_back(r + "/");
    }
  }
  // --hpp prints the files HPP finds for a region name as it does: qualified local paths.
  auto hpp_path = [&](const std::string& path) -> std::string {
    if (!o.hpp) return "";
    for (const auto& d : named_region_dirs) {
      if (path.rfind(d, 0) == 0) {
        return "file:" + std::filesystem::absolute(path).lexically_normal().string();
      }
    }
    return "";
  };
  if (io_stats && regions.empty()) {
    return UsageError(err, kTool, "--io-stats needs --table, --region or --snapshot");
  }
  if (!ro.families.empty() && regions.empty()) {
    return UsageError(err, kTool, "--family needs --table, --region or --snapshot");
  }
  const bool file_modes = o.print_meta || o.print_block_index || o.print_block_headers ||
                          o.print_stats || o.stat_ranges || o.check_family || o.verbose;
  if (io_stats && file_modes) {
    return UsageError(err, kTool, "--io-stats counts cell reads: not with -m, -b, -h, -s or -v");
  }
  if (!locate.empty()) {
    if (regions.empty())
      return UsageError(err, kTool, "--locate needs --table, --region or --snapshot");
    if (file_modes || o.print_cells || o.print_keys || o.check_row_order || io_stats ||
        o.seek_row || o.from_row || o.to_row || o.prefix || !files.empty()) {
      return UsageError(err, kTool,
                        "--locate is a mode of its own: not with files, -p, -e, -m, -b, -h, -s, "
                        "-v, -k, -w, --from, --to, --prefix or --io-stats");
    }
  }
  std::vector<region::RegionSet> sets = OpenRegionSets(regions, kTool, err, &code);
  if (locate_row) {
    ro.dump = o;
    for (const auto& set : sets) {
      region::LocateResult result;
      Status s = region::LocateRow(set, *locate_row, ro, out, err, &result);
      if (!s.ok()) {
        if (s.IsInvalidArgument()) PrintError(err, kTool, s);
        code = WorseExitCode(code, ExitCodeFor(s));
      }
    }
    return code;
  }
  // --io-stats alone reads the selected cells without printing them.
  const bool cell_modes =
      o.print_cells || o.print_keys || o.seek_row || o.check_row_order || io_stats;
  if (!sets.empty() && !file_modes) {
    // Whole tables, regions, snapshots: describe them, or their cells in scan order.
    ro.dump = o;
    uint64_t scanned = 0;
    std::vector<region::StoreIoStats> stores;
    for (const auto& set : sets) {
      if (!cell_modes) {
        region::DescribeOptions d;
        d.json = o.json;
        d.hex = hex;
        d.reader = o.reader;
        auto summary = region::SummarizeRegionSet(set, o.reader);
        region::DescribeRegionSet(set, summary, d, out);
        for (const auto& p : summary.problems)
          if (p.unreadable) code = WorseExitCode(code, kExitUnreadable);
        continue;
      }
      region::RegionDumpResult result;
      Status s = region::DumpRegionSetCells(set, ro, out, err, &result);
      scanned += result.cells;
      stores.insert(stores.end(), result.stores.begin(), result.stores.end());
      if (!s.ok()) {
        if (s.IsInvalidArgument()) PrintError(err, kTool, s);
        code = WorseExitCode(code, ExitCodeFor(s));
      } else if (result.order_violations > 0) {
        code = WorseExitCode(code, kExitCorrupt);
      }
    }
    if ((o.print_cells || o.print_keys) && !o.json)
      out << "Scanned kv count -> " << scanned << "\n";
    if (io_stats) region::PrintIoStats(stores, o.json, out);
    if (inputs.empty()) return code;
  } else {
    // File-level modes (-m -b -h -s -v) over a table/region/snapshot: each HFile it reads,
    // once (a reference's target may be reached from two daughters), named by the first
    // region that reads it.
    std::set<std::string> seen;
    for (const auto& set : sets) {
      const std::string table = set.table ? set.table->ToString() : "";
      for (const auto& r : set.regions)
        for (const auto& f : r.families)
          for (const auto& sf : f.store_files)
            if (!sf.target_path.empty() && seen.insert(sf.target_path).second)
              inputs.push_back({sf.target_path, table, r.encoded_name});
    }
  }
  if (inputs.empty()) {
    if (!sets.empty() || code != kExitOk) return code;
    return UsageError(err, kTool, "no input files");
  }
  if (!o.print_cells && !o.print_keys && !o.print_meta && !o.print_block_index &&
      !o.print_block_headers && !o.check_row_order && !o.print_stats && !o.stat_ranges &&
      !o.check_family && !o.verbose && !o.seek_row) {
    o.print_meta = true;  // with no mode, show what the file is
  }
  uint64_t scanned = 0;
  for (const auto& in : inputs) {
    DumpResult result;
    DumpOptions fo = o;
    fo.table = in.table;
    fo.region = in.region;
    fo.hpp_path = hpp_path(in.path);
    Status s = DumpFile(in.path, fo, out, err, &result);
    scanned += result.cells_scanned;
    out.flush();
    if (!s.ok()) {
      PrintError(err, kTool, s);
      code = WorseExitCode(code, ExitCodeFor(s));
    } else if (result.order_violations > 0) {
      code = WorseExitCode(code, kExitCorrupt);
    }
  }
  if ((o.verbose || o.print_cells || o.print_keys) && !o.json) {
    out << "Scanned kv count -> " << scanned << "\n";
  }
  return code;
}

}  // namespace hfile::cli
