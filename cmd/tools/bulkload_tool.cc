// `hfile bulkload`: ImportTsv's options (-D properties or flags) + --table/--out (or --into)
// -> PlanBulkLoad
// + RunBulkLoad; bad lines on stderr, the counts always, a text or JSON summary. The logic lives
// in region/bulkload.h; the input options in region/import_options.h.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <ostream>

#include "cli_common.h"
#include "json_error.h"
#include "progress.h"
#include "hfile/escape.h"
#include "region/bulkload.h"
#include "region/cell_sorter.h"
#include "region/target.h"
#include "units_cli.h"

namespace hfile::cli {

namespace {

constexpr const char* kTool = "hfile-bulkload";
constexpr size_t kMaxBadLinesPrinted = 100;

std::string Json(const std::string& s) {
  std::string out;
  AppendJsonString(&out, s);
  return out;
}

// "256M", "1G", "65536", "512K": bytes (K, M, G, T are powers of 1024; an optional "iB"/"B").
Result<uint64_t> ParseSize(std::string s) {
  for (const char* suffix : {"iB", "B", "ib", "b"}) {
    const size_t n = std::strlen(suffix);
    if (s.size() > n && s.compare(s.size() - n, n, suffix) == 0) {
      s.resize(s.size() - n);
      break;
    }
  }
  int shift = 0;
  if (!s.empty()) {
    switch (s.back()) {
      case 'k': case 'K': shift = 10; break;
      case 'm': case 'M': shift = 20; break;
      case 'g': case 'G': shift = 30; break;
      case 't': case 'T': shift = 40; break;
      default: break;
    }
    if (shift != 0) s.pop_back();
  }
  if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos || s.size() > 15)
    return Status::InvalidArgument("not a size");
  const uint64_t v = std::stoull(s);
  if (shift > 0 && v > (UINT64_MAX >> shift)) return Status::InvalidArgument("too large");
  return v << shift;
}

std::string Row(const std::string& r) { return ToStringBinary(r); }

void PrintPlan(const region::BulkLoadPlan& p, const region::BulkLoadOptions& o,
               std::ostream& out) {
  const bool splits = o.split_rows.has_value();
  if (p.into) {
    out << fmt::format("bulk load into table {} ({} regions), placed into the regions' family "
                       "dirs\n", p.table, p.regions.size());
  } else if (p.create_splits > 0) {
    out << fmt::format("bulk load into table {} ({} ranges computed from the data) -> {}\n",
                       p.table, p.create_splits, o.out_dir);
  } else {
    out << fmt::format("bulk load into table {} ({} {}) -> {}\n", p.table, p.regions.size(),
                       splits ? "ranges from --splits" : "regions", o.out_dir);
  }
  for (const auto& r : p.regions)
    out << fmt::format("  {} {} [{}, {}){}\n", splits ? "range" : "region", r.encoded_name,
                       Row(r.info.start_key), Row(r.info.end_key),
                       p.into ? fmt::format(" -> _SeqId_{}_", r.sequence_id) : "");
  for (const auto& s : p.skipped) out << "  skipped " << s << "\n";
  for (const auto& s : p.recovery) out << "  to recover first: " << s << "\n";
  for (const auto& s : p.refused) out << "  refused: " << s << "\n";
  for (const auto& f : p.families)
    out << fmt::format("  family {}: COMPRESSION {}, DATA_BLOCK_ENCODING {}, BLOOMFILTER {}, "
                       "BLOCKSIZE {}\n",
                       f.name, CompressionName(f.writer.compression),
                       DataBlockEncodingName(f.writer.encoding), BloomTypeName(f.writer.bloom_type),
                       f.writer.block_size);
  for (const auto& [name, size] : p.inputs)
    out << fmt::format("  input {} ({})\n", name, name == "-" ? "stdin" : std::to_string(size) +
                                                                        " bytes");
  out << fmt::format("  sort: memory {} bytes, temp dir {} (estimated spill at most {} bytes); "
                     "files rolled at {} bytes\n",
                     o.memory_bytes, p.temp_dir, p.estimated_spill_bytes, p.max_file_size);
  for (const auto& w : p.warnings) out << "  note: " << w << "\n";
}

std::string ReportJson(const region::BulkLoadPlan& p, const region::BulkLoadOptions& o,
                       const region::BulkLoadReport& r, const Status& s, bool dry_run) {
  std::string reasons;
  for (const auto& [reason, n] : r.parse.bad_by_reason)
    reasons += fmt::format("{}{}:{}", reasons.empty() ? "" : ",",
                           Json(std::string(region::BadLineReasonName(reason))), n);
  std::string files;
  for (const auto& f : r.files)
    files += fmt::format(
        "{}{{\"region\":{},\"family\":{},\"path\":{},{}\"cells\":{},\"bytes\":{}}}",
        files.empty() ? "" : ",", Json(f.region), Json(f.family), Json(f.path),
        p.into ? fmt::format("\"sequence_id\":{},", JsonInt(f.sequence_id)) : "", f.cells,
        f.file_size);
  std::string regions;
  for (const auto& reg : p.regions)
    regions += fmt::format("{}{{\"region\":{},\"start\":{},\"end\":{}{}}}",
                           regions.empty() ? "" : ",", Json(reg.encoded_name),
                           Json(Row(reg.info.start_key)), Json(Row(reg.info.end_key)),
                           p.into ? fmt::format(",\"sequence_id\":{}", JsonInt(reg.sequence_id))
                                  : "");
  std::string split_rows;
  for (const auto& row : r.split_rows)
    split_rows += (split_rows.empty() ? "" : ",") + Json(Row(row));
  return fmt::format(
      "{{\"kind\":\"bulkload\",\"v\":1,\"path\":{},\"table\":{},\"out\":{},\"into\":{},"
      "\"dry_run\":{},\"ok\":{},{},"
      "\"regions\":[{}],\"split_rows\":[{}],\"lines\":{},\"records\":{},\"bad_lines\":{},"
      "\"bad_by_reason\":{{{}}},\"cells\":{},\"duplicates_dropped\":{},\"cells_written\":{},"
      "\"files\":[{}],\"bytes\":{},\"completed_by_recovery\":{},"
      "\"sort\":{{\"memory\":{},\"runs\":{},\"spilled_bytes\":{}}},\"seconds\":{:.3f}}}\n",
      Json(o.table_dir), Json(p.table), p.into ? "null" : Json(o.out_dir), p.into, dry_run, s.ok(),
      JsonErrorFields(s), regions, split_rows, r.parse.lines, r.parse.records,
      r.parse.bad_lines, reasons, r.cells_sorted, r.duplicates_dropped, r.cells_written, files,
      r.bytes_written, r.completed_by_recovery, o.memory_bytes, r.sort_runs, r.sort_spilled_bytes,
      r.seconds);
}

}  // namespace

std::string BadReasonsJson(const region::ParseStats& p) {
  std::string s = "{";
  for (const auto& [reason, n] : p.bad_by_reason)
    s += fmt::format("{}{}:{}", s.size() > 1 ? "," : "",
                     Json(std::string(region::BadLineReasonName(reason))), n);
  return s + "}";
}

// --partition-to: the records into one file per region (region::PartitionBulkLoadInput).
int RunPartition(const region::BulkLoadPlan& plan, region::BulkLoadOptions& o, bool json,
                 std::ostream& out, std::ostream& err) {
  const auto t0 = std::chrono::steady_clock::now();
  size_t bad_printed = 0;
  o.on_bad_line = [&](const region::BadLine& b) {
    if (bad_printed++ < kMaxBadLinesPrinted)
      err << kTool << (o.import.skip_bad_lines ? ": bad line (skipped): " : ": bad line: ")
          << b.ToString() << "\n";
  };
  o.cancel = InstallInterruptHandlers();
  region::BulkPartitionReport rep;
  Status s = region::PartitionBulkLoadInput(plan, o, o.out_dir, &rep);
  if (json) {
    std::string parts;
    for (const auto& [name, bytes] : rep.parts)
      parts += fmt::format("{}{{\"region\":{},\"bytes\":{}}}", parts.empty() ? "" : ",",
                           Json(name), bytes);
    out << fmt::format(
        "{{\"kind\":\"bulkload-partition\",\"v\":1,\"path\":{},\"table\":{},\"ok\":{},{},"
        "\"lines\":{},\"records\":{},\"bad_lines\":{},\"bad_by_reason\":{},"
        "\"records_written\":{},\"parts\":[{}],\"seconds\":{:.3f}}}\n",
        Json(o.out_dir), Json(plan.table), s.ok(), JsonErrorFields(s), rep.parse.lines,
        rep.parse.records, rep.parse.bad_lines, BadReasonsJson(rep.parse), rep.records_written,
        parts,
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  } else {
    out << rep.parse.ToString() << "\n";
    if (s.ok())
      out << fmt::format("{} records -> {} part(s) in {}\n", rep.records_written,
                         rep.parts.size(), o.out_dir);
  }
  if (int sig = InterruptExitCode(); sig != 0) return sig;
  if (!s.ok()) return ReportError(err, kTool, s);
  return kExitOk;
}

int RunBulkLoadTool(int argc, const char* const* argv, std::ostream& out_arg, std::ostream& err) {
  CLI::App app{"Turn delimited text (TSV as ImportTsv reads it, CSV, JSON lines) into sorted "
               "HFiles, one per region per family of a table, offline, for completebulkload.",
               kTool};
  AddStandardFlags(app);
  std::string table, root, out_dir, temp_dir, memory = "256M", max_file_size, splits, crash_at;
  std::string partition_to, region;
  EmitFlags emit;
  bool dry_run = false, json = false, into = false, force = false;
  ProgressFlags progress_flags;
  std::optional<int64_t> now;
  size_t create_splits = 0;
  app.add_option("--table", table,
                 "The table: its directory (<root>/data/<ns>/<table>), or [ns:]name with --root")
      ->required();
  app.add_option("--root", root, "HBase root dir, for --table [ns:]name");
  app.add_option("--out", out_dir,
                 "Output dir for completebulkload: <DIR>/<family>/<file>; absent or empty");
  app.add_flag("--into", into,
               "HBase stopped: place the files into the table's regions as completebulkload "
               "would (<uuid>_SeqId_<n>_), committed through the table's journal");
  app.add_flag("--force", force, "--into: load a table that looks online or unclean");
  app.add_option("--splits", splits,
                 "Cut the output at the rows of this file (one per line, \\xNN escapes) instead "
                 "of at the table's regions");
  app.add_option("--create-splits", create_splits,
                 "Cut the output into N ranges of about equal size computed from the data; "
                 "prints the split rows (for creating the table)")
      ->check(CLI::Range(1, 100000));
  app.add_option("--memory", memory, "Sort memory budget, e.g. 512M, 2G (default 256M)");
  app.add_option("--max-file-size", max_file_size,
                 "Roll a region's file at this size of cells, e.g. 1G (default: the table's "
                 "MAX_FILESIZE)");
  app.add_option("--temp-dir", temp_dir, "Where sorted runs spill (default $TMPDIR or /tmp)");
  app.add_flag("--dry-run", dry_run, "Print the plan (regions, families, inputs); write nothing");
  app.add_option("--now", now, "Current time in ms since the epoch (default timestamp, "
                               "BULKLOAD_TIMESTAMP)")
      ->check(IntegerIn(1, INT64_MAX));
  app.add_flag("--json", json, "Print a JSON summary instead of text");
  AddProgressFlags(app, &progress_flags);
  app.add_option("--region", region,
                 "--into: load only this region (encoded name); a row outside its key range "
                 "is an error");
  app.add_option("--partition-to", partition_to,
                 "Write each record, as read, to DIR/<region> of the table's region it falls "
                 "in (the first stage of a distributed load)");
  AddEmitFlags(app, &emit);
  app.add_option("--crash-at", crash_at)->group("");  // hidden: crash-safety tests
  app.allow_extras();
  app.footer(
      "Input options (ImportTsv's -D properties, or the same as flags; see hfile-bulkload(1)):\n"
      "  -D importtsv.columns=SPEC | --columns SPEC   HBASE_ROW_KEY,fam:qual,... (required "
      "for TSV)\n"
      "  -D importtsv.separator=C | --separator C     field separator (TSV: TAB, CSV: ',')\n"
      "  -D importtsv.skip.bad.lines | --skip-bad-lines   skip bad lines (default: fail)\n"
      "  -D importtsv.log.bad.lines | --log-bad-lines     print each bad line's text\n"
      "  -D importtsv.timestamp=MS | --timestamp MS   the cells' timestamp without "
      "HBASE_TS_KEY\n"
      "  -D importtsv.skip.empty.columns | --skip-empty-columns   no cell for an empty field\n"
      "  -D attributes.seperator=S | --attributes-separator S\n"
      "  -D importtsv.bulk.output=DIR | --bulk-output DIR   same as --out\n"
      "  --format tsv|csv|json  --row-encoding, --qualifier-encoding, --value-encoding "
      "raw|escaped|hex\n"
      "  --ttl-format auto|raw|decimal  --csv-header auto|use|skip|none  --max-line-bytes N\n"
      "Inputs: files (gzip, bzip2, xz, zstd read transparently), or - for stdin (the default).");
  if (auto code = ParseArgs(app, argc, argv, out_arg, err, {"--table"})) return *code;
  // A table on HDFS is loaded only as a distributed job: its units run on local mirrors.
  if (region::IsRemotePath(table) && !(emit.emit_units && into && root.empty())) {
    return UsageError(err, kTool,
                      table + " is on HDFS: load it --into the table with --emit-units (a "
                              "distributed job, see hfile-task(1)); --root takes a local root");
  }
  std::ostream& out = progress_flags.quiet && !json ? NullStream() : out_arg;

  auto im = region::ParseImportArgs(app.remaining());
  if (!im.ok()) return UsageError(err, kTool, im.status().message());
  for (const auto& w : im->warnings) err << kTool << ": warning: " << w << "\n";
  region::BulkLoadOptions o;
  o.import = *im;
  o.inputs = im->positional;
  if (!im->bulk_output.empty()) {
    if (!out_dir.empty() && out_dir != im->bulk_output)
      return UsageError(err, kTool, "--out and importtsv.bulk.output name different dirs");
    out_dir = im->bulk_output;
  }
  if (!partition_to.empty()) {
    if (into || !out_dir.empty() || !splits.empty() || create_splits > 0 || dry_run ||
        emit.emit_units)
      return UsageError(err, kTool,
                        "--partition-to takes the table's regions: no --into, --out, --splits, "
                        "--create-splits, --dry-run or --emit-units");
    out_dir = partition_to;  // the plan's checks of an output dir apply to it
  } else if (emit.emit_units && !into) {
    return UsageError(err, kTool,
                      "--emit-units plans a load --into the table (HBase stopped); a load "
                      "--out a dir is not planned as units");
  }
  if (!region.empty() && !into)
    return UsageError(err, kTool, "--region is for --into");
  if (into) {
    if (!out_dir.empty())
      return UsageError(err, kTool, "--into and --out (importtsv.bulk.output) exclude each other");
    if (!splits.empty() || create_splits > 0)
      return UsageError(err, kTool,
                        "--into loads at the table's regions: --splits and --create-splits do "
                        "not apply");
  } else if (out_dir.empty()) {
    return UsageError(err, kTool, "--out DIR (or --into) is required");
  } else if (force) {
    return UsageError(err, kTool, "--force applies to --into only");
  }
  o.out_dir = out_dir;
  o.into = into;
  o.force = force;
  o.only_region = region;
  o.temp_dir = temp_dir;
  auto mem = ParseSize(memory);
  if (!mem.ok() || *mem < region::kMinSorterMemory) {
    return UsageError(err, kTool,
                      fmt::format("--memory: {} is not a size of at least {}K", memory,
                                  region::kMinSorterMemory >> 10));
  }
  o.memory_bytes = static_cast<size_t>(*mem);
  if (!max_file_size.empty()) {
    auto m = ParseSize(max_file_size);
    if (!m.ok() || *m == 0)
      return UsageError(err, kTool, "--max-file-size: " + max_file_size + " is not a size > 0");
    o.max_file_size = *m;
  }
  if (now) o.now_ms = *now;
  o.create_splits = create_splits;
  if (!splits.empty()) {
    auto rows = region::ReadSplitsFile(splits);
    if (!rows.ok()) return ReportError(err, kTool, rows.status());
    o.split_rows = std::move(rows).value();
  }
  if (!root.empty()) {
    auto t = region::ResolveTableTarget(root, table);
    if (!t.ok()) return ReportError(err, kTool, t.status());
    o.table_dir = t->path();
  } else {
    std::error_code ec;
    if (!region::IsRemotePath(table) && !std::filesystem::is_directory(table, ec))
      return ReportError(err, kTool, Status::NotFound(table, "no such table directory"));
    o.table_dir = table;  // on HDFS: the plan finds whether it is a table
  }

  if (emit.emit_units) {
    if (dry_run) return UsageError(err, kTool, "--emit-units plans; --dry-run is for a run");
    if (!region.empty()) return UsageError(err, kTool, "--emit-units plans every region");
    region::JobPlanOptions jo;
    jo.tool = "bulkload";
    jo.target = o.table_dir;
    jo.grain = region::UnitGrain::kRegion;
    jo.mirror_all_families = true;  // the files' sequence id is above every store's
    jo.job_id = emit.job_id;
    jo.force = force;
    jo.now_ms = o.now_ms ? o.now_ms : region::JobPlanNowMs();
    if (o.inputs.empty())
      return UsageError(err, kTool, "--emit-units: the units read files: name the inputs");
    for (const auto& in : o.inputs) {
      std::error_code ec;
      if (in == "-") return UsageError(err, kTool, "--emit-units: stdin cannot be split");
      jo.sources.push_back(std::filesystem::absolute(in, ec).lexically_normal().string());
    }
    // The input options as given (every unit parses as this run would), then the run's own.
    const auto& rest = app.remaining();
    for (size_t i = 0, k = 0; i < rest.size(); ++i) {
      if (k < im->positional_index.size() && im->positional_index[k] == i) {
        ++k;
        continue;
      }
      jo.args.push_back(rest[i]);
    }
    jo.args.push_back("--memory=" + memory);
    if (!max_file_size.empty()) jo.args.push_back("--max-file-size=" + max_file_size);
    if (force) jo.args.push_back("--force");
    jo.args.push_back("--now=" + std::to_string(jo.now_ms));
    return EmitUnits("bulkload", jo, json, out, err);
  }
  auto plan = region::PlanBulkLoad(o);
  if (!plan.ok()) return ReportError(err, kTool, plan.status());
  if (!partition_to.empty()) return RunPartition(*plan, o, json, out, err);
  region::BulkLoadReport rep;
  if (dry_run) {
    if (json)
      out << ReportJson(*plan, o, rep, Status::OK(), true);
    else
      PrintPlan(*plan, o, out);
    return kExitOk;
  }
  if (!json) PrintPlan(*plan, o, out);

  size_t bad_printed = 0;
  Progress progress(err, kTool, progress_flags);
  const bool show_progress = progress.enabled();
  o.on_bad_line = [&](const region::BadLine& b) {
    if (bad_printed++ >= kMaxBadLinesPrinted) {
      if (bad_printed == kMaxBadLinesPrinted + 1)
        err << kTool << ": more bad lines; only the counts follow\n";
      return;
    }
    if (show_progress) progress.Clear();
    err << kTool << (o.import.skip_bad_lines ? ": bad line (skipped): " : ": bad line: ")
        << b.ToString() << "\n";
    if (o.import.log_bad_lines) err << "  " << b.text << "\n";
  };
  // Two phases: parsing (input bytes read, cells added), then writing (cells written).
  std::string phase;
  if (show_progress) {
    uint64_t input_bytes = 0;
    for (const auto& [name, size] : plan->inputs) input_bytes += size;
    progress.Phase("parsing", input_bytes);
    phase = "parse";
    o.progress = [&](const region::BulkLoadProgress& p) {
      if (p.phase != phase) {
        phase = p.phase;
        if (phase == "parse")
          progress.Phase("parsing", p.input_bytes);
        else
          progress.Phase("writing", 0, p.total_cells);
      }
      progress.Update(p.phase == "parse" ? p.bytes_read : 0, p.cells);
    };
  }
  o.cancel = InstallInterruptHandlers();
  std::string crash = crash_at;
  if (crash.empty())
    if (const char* env = std::getenv("HFILE_BULKLOAD_CRASH_AT")) crash = env;
  o.checkpoint = CrashAtCheckpoint(crash);
  Status s = region::RunBulkLoad(*plan, o, &rep);
  progress.Clear();
  if (json) {
    out << ReportJson(*plan, o, rep, s, false);
  } else {
    for (const auto& d : rep.removed_stale) out << "removed a killed run's " << d << "\n";
    for (const auto& d : rep.recovered) out << "recovered: " << d << "\n";
    if (rep.completed_by_recovery)
      out << "a killed run's load had committed: the recovery above finished it, nothing more "
             "was loaded (run again to load the input once more)\n";
    out << rep.parse.ToString() << "\n";
    if (s.ok() && !rep.completed_by_recovery) {
      for (const auto& f : rep.files)
        out << fmt::format("  {}/{}: {} cells, {} bytes  {}\n", f.region, f.family, f.cells,
                           f.file_size, f.path);
      if (!rep.split_rows.empty()) {
        std::string rows;
        for (const auto& row : rep.split_rows) rows += (rows.empty() ? "'" : "', '") + Row(row);
        out << "split rows: [" << rows << "'] (create the table with SPLITS => these)\n";
      }
      out << fmt::format("{} cells ({} duplicates dropped, the last line kept) -> {} files, "
                         "{} bytes {}; sort: {} runs spilled ({} bytes)\n",
                         rep.cells_written, rep.duplicates_dropped, rep.files.size(),
                         rep.bytes_written,
                         o.into ? "placed into the table (committed, verified)" : "in " + o.out_dir,
                         rep.sort_runs, rep.sort_spilled_bytes);
    }
  }
  // --into: a signal after the commit record does not undo the load; it is reported as done.
  if (int sig = InterruptExitCode(); sig != 0 && !(o.into && s.ok())) {
    err << kTool << ": interrupted: nothing was written to "
        << (o.into ? "the table" : o.out_dir) << "\n";
    return sig;
  }
  if (!s.ok()) return ReportError(err, kTool, s);
  return kExitOk;
}

}  // namespace hfile::cli
