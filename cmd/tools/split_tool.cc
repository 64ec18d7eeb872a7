// `hfile split`: flags -> options -> SplitFile (--file) or PlanRegionSplit + RunRegionSplit
// (a region); prints a text or JSON summary. Logic lives in region/split.h.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <ostream>

#include "cli_common.h"
#include "units_cli.h"
#include "json_error.h"
#include "progress.h"
#include "hfile/escape.h"
#include "region/split.h"
#include "region/table_descriptor.h"
#include "region/target.h"

namespace hfile::cli {

namespace {

constexpr char kTool[] = "hfile-split";

std::string Json(const std::string& s) {
  std::string out;
  AppendJsonString(&out, s);
  return out;
}

std::string JsonList(const std::vector<std::string>& v) {
  std::string out = "[";
  for (size_t i = 0; i < v.size(); ++i) out += (i ? "," : "") + Json(v[i]);
  return out + "]";
}

std::string Row(const std::string& row, bool hex) { return hex ? ToHex(row) : ToStringBinary(row); }

// `regions` (--table): the region each range goes to, boundaries.size() + 1 names.
int RunFileSplit(const std::string& file, const std::vector<std::string>& boundaries,
                 const std::vector<std::string>& regions,
                 const std::vector<std::string>& families, bool hex, const std::string& out_dir,
                 bool trust, bool json, std::ostream& out, std::ostream& err) {
  region::FileSplitOptions o;
  o.boundaries = boundaries;
  o.families = families;
  o.out_dir = out_dir;
  o.verify_input = !trust;
  o.cancel = InstallInterruptHandlers();
  region::FileSplitResult r;
  Status s = region::SplitFile(file, o, &r);
  if (int sig = InterruptExitCode()) {
    err << kTool << ": interrupted: nothing was written\n";
    return sig;
  }
  if (!s.ok()) {
    if (json) out << JsonErrorRecord(file, s);
    return ReportError(err, kTool, s);
  }
  if (json) {
    std::string outs;
    for (const auto& x : r.outputs)
      outs += fmt::format("{}{{\"range\":{},\"path\":{},\"cells\":{},\"file_size\":{}{}}}",
                          outs.empty() ? "" : ",", x.range, Json(x.path), x.cells, x.file_size,
                          regions.empty() ? "" : ",\"region\":" + Json(regions[x.range]));
    out << fmt::format(
        "{{\"kind\":\"file\",\"v\":1,\"path\":{},\"input\":{},\"cells\":{},\"outputs\":[{}]}}\n",
        Json(file), Json(file), r.cells, outs);
  } else {
    out << fmt::format("{}: {} cells -> {} file(s)\n", file, r.cells, r.outputs.size());
    for (const auto& x : r.outputs) {
      const std::string lo = x.range == 0 ? "" : Row(o.boundaries[x.range - 1], hex);
      const std::string hi = x.range == o.boundaries.size() ? "" : Row(o.boundaries[x.range], hex);
      out << fmt::format("  [{}, {})  {} cells, {} bytes  {}{}\n", lo, hi, x.cells, x.file_size,
                         x.path, regions.empty() ? "" : "  -> region " + regions[x.range]);
    }
  }
  return kExitOk;
}

// Daughters are A, B, C, ... (then numbers past Z).
std::string Letter(size_t i) {
  return i < 26 ? std::string(1, static_cast<char>('A' + i)) : std::to_string(i + 1);
}

void PrintPlanText(const region::RegionSplitPlan& p, bool hex, std::ostream& out) {
  const std::string range =
      fmt::format("[{}, {})", Row(p.parent.start_key, hex), Row(p.parent.end_key, hex));
  if (p.compact_first) {
    out << fmt::format("region {} {}: References in {}: major-compacted first (as hfile "
                       "compact does), the split row(s) then chosen on the compacted region\n",
                       p.encoded_name, range, fmt::join(p.compact_stores, ", "));
  } else if (p.daughters.size() == 2) {
    out << fmt::format("region {} {} split at {}{}\n", p.encoded_name, range,
                       Row(p.split_row, hex),
                       p.point.explicit_row ? " (given)" : " (HBase's split point)");
  } else {
    std::vector<std::string> rows;
    for (const auto& r : p.split_rows) rows.push_back(Row(r, hex));
    out << fmt::format("region {} {} split into {} at {}{}\n", p.encoded_name, range,
                       p.daughters.size(), fmt::join(rows, ", "),
                       p.quantile_family.empty()
                           ? " (given)"
                           : " (size quantiles of " + p.quantile_family + "'s block index)");
  }
  for (size_t i = 0; i < p.daughters.size(); ++i)
    out << fmt::format("  daughter {} {} [{}, {})\n", Letter(i), p.daughters[i].EncodedName(),
                       Row(p.daughters[i].start_key, hex), Row(p.daughters[i].end_key, hex));
  for (const auto& f : p.sides) {
    std::vector<std::string> parts;
    for (size_t i = 0; i < f.daughters.size(); ++i)
      parts.push_back(fmt::format("{} {} cells {} bytes", Letter(i), f.daughters[i].cells,
                                  f.daughters[i].file_bytes));
    out << fmt::format("  {}: {}\n", f.family, fmt::join(parts, " | "));
  }
  for (const auto& r : p.recovery) out << "  " << r << "\n";
  for (const auto& r : p.refused) out << "  REFUSED: " << r << "\n";
}

std::string SideJson(const region::SplitSide& s) {
  return fmt::format("{{\"cells\":{},\"kv_bytes\":{},\"file_bytes\":{}}}", s.cells, s.kv_bytes,
                     s.file_bytes);
}

// Two daughters also as "daughter_a"/"daughter_b" and per family "a"/"b" (the first form).
std::string PlanJson(const region::RegionSplitPlan& p) {
  const bool two = p.daughters.size() == 2;
  std::string fams;
  for (const auto& f : p.sides) {
    std::string each;
    for (const auto& d : f.daughters) each += (each.empty() ? "" : ",") + SideJson(d);
    fams += fmt::format("{}{{\"family\":{},\"daughters\":[{}]{}}}", fams.empty() ? "" : ",",
                        Json(f.family), each,
                        two ? ",\"a\":" + SideJson(f.daughters[0]) + ",\"b\":" +
                                  SideJson(f.daughters[1])
                            : "");
  }
  std::string daughters, rows;
  for (const auto& d : p.daughters)
    daughters += fmt::format("{}{{\"name\":{},\"start\":{},\"end\":{}}}",
                             daughters.empty() ? "" : ",", Json(d.EncodedName()),
                             Json(ToStringBinary(d.start_key)), Json(ToStringBinary(d.end_key)));
  for (const auto& r : p.split_rows) rows += (rows.empty() ? "" : ",") + Json(ToStringBinary(r));
  std::string out = fmt::format(
      "\"region\":{},\"compact_first\":{},\"compact_stores\":{},\"split_row\":{},"
      "\"split_rows\":[{}],\"explicit_row\":{},\"quantile_family\":{},\"daughters\":[{}],",
      Json(p.encoded_name), p.compact_first, JsonList(p.compact_stores),
      Json(ToStringBinary(p.split_row)), rows, p.point.explicit_row, Json(p.quantile_family),
      daughters);
  if (two)
    out += fmt::format("\"daughter_a\":{},\"daughter_b\":{},", Json(p.daughter_a.EncodedName()),
                       Json(p.daughter_b.EncodedName()));
  return out + fmt::format("\"region_id\":{},\"families\":[{}],\"refused\":{}",
                           p.daughters.empty() ? 0 : p.daughters[0].region_id, fams,
                           JsonList(p.refused));
}

std::vector<std::string> SplitCommas(const std::string& at) {
  std::vector<std::string> rows;
  size_t start = 0;
  while (true) {
    const size_t comma = at.find(',', start);
    rows.push_back(
        at.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return rows;
}


// A table on HDFS is worked on as a distributed job: planned here, run by `hfile task`.
int RemoteNeedsUnits(std::ostream& err, const char* tool, const std::string& path) {
  return UsageError(err, tool, path + " is on HDFS: plan it with --emit-units and run the units "
                                      "with 'hfile task' (or spark/hfile_spark.py)");
}

}  // namespace

int RunSplitTool(int argc, const char* const* argv, std::ostream& out_arg, std::ostream& err) {
  CLI::App app{"Split an HFile at rows or at a table's region boundaries (as completebulkload "
               "splits a straddling file), or a region into two or more daughter regions "
               "offline, committing crash-safely.",
               kTool};
  AddStandardFlags(app);
  std::vector<std::string> target, table;
  std::string file, out_dir, at, crash_at;
  bool hex = false, dry_run = false, force = false, json = false, trust = false;
  bool midkey = false, compact_first = false, skip_unsplittable = false;
  std::optional<int64_t> now, into;
  app.add_option("target", target,
                 "Region dir (<root>/data/<ns>/<table>/<region>), or ROOT TABLE REGION");
  app.add_option("--file", file, "Split this HFile instead of a region");
  app.add_option("--at", at,
                 "Split row(s): with --file a comma-separated list; for a region one row "
                 "(default: HBase's split point). \\xNN escapes, or hex with --hex");
  app.add_option("--table", table,
                 "With --file: cut at this table's region boundaries (TABLE_DIR, or ROOT "
                 "[ns:]table)")
      ->expected(1, 2);
  app.add_flag("--midkey", midkey,
               "Split a region at HBase's split point (the default; excludes --at and --into)");
  app.add_option("--into", into,
                 "Split a region into N daughters at size quantiles of its largest store's "
                 "block index")
      ->check(IntegerIn(2, 1000));
  app.add_flag("--compact-first", compact_first,
               "Major-compact a region with References (a daughter of an unfinished split) "
               "first, then split it");
  app.add_flag("--skip-unsplittable", skip_unsplittable,
               "A region HBase would not split at its split point (no store has one) is left as "
               "it is, exit 0 (the units of a table's split, --emit-units on a table dir)");
  app.add_option("--out-dir", out_dir, "With --file: the directory the outputs are written to");
  app.add_flag("--hex", hex, "--at is hex");
  app.add_flag("--dry-run", dry_run,
               "Print the split row, the daughters and each family's cells and bytes per side; "
               "write nothing");
  app.add_flag("--force", force,
               "Split a region that looks online or unclean (recovered.edits, .tmp content)");
  app.add_flag("--trust-inputs", trust,
               "Skip the full verification of each input file (cheap checks still run)");
  app.add_option("--now", now, "Current time in ms since the epoch (the daughters' region id)")
      ->check(IntegerIn(0, INT64_MAX));
  app.add_flag("--json", json, "Print a JSON summary instead of text");
  ProgressFlags progress_flags;
  AddProgressFlags(app, &progress_flags);
  EmitFlags emit;
  AddEmitFlags(app, &emit);
  app.add_option("--crash-at", crash_at)->group("");  // hidden: crash-safety tests
  if (auto code = ParseArgs(app, argc, argv, out_arg, err, {"target"})) return *code;
  std::ostream& out = progress_flags.quiet && !json ? NullStream() : out_arg;

  if (!file.empty()) {
    if (!target.empty()) return UsageError(err, kTool, "--file takes no region argument");
    if (at.empty() == table.empty() || out_dir.empty())
      return UsageError(err, kTool, "--file needs one of --at and --table, and --out-dir");
    if (dry_run) return UsageError(err, kTool, "--dry-run is for a region split");
    if (midkey || into || compact_first)
      return UsageError(err, kTool, "--midkey, --into and --compact-first are for a region split");
    std::vector<std::string> rows, regions, families;
    if (!table.empty()) {
      size_t used = 0;
      auto t = region::ResolveTargetArgs(table, /*allow_region=*/false, &used);
      if (!t.ok()) return ReportError(err, kTool, t.status());
      if (used != table.size() || t->kind != region::Target::Kind::kTable)
        return UsageError(err, kTool, "--table names a table: TABLE_DIR, or ROOT [ns:]table");
      auto b = region::ReadTableBoundaries(t->table_dir);
      if (!b.ok()) return ReportError(err, kTool, b.status());
      rows = std::move(b->boundaries);
      regions = std::move(b->regions);
      auto d = region::ReadTableDescriptor(t->table_dir);
      if (!d.ok()) return ReportError(err, kTool, d.status());
      for (const auto& f : d->descriptor.families()) families.push_back(f.name());
    } else {
      for (const auto& a : SplitCommas(at)) {
        auto b = ParseBytesArg(a, hex);
        if (!b.ok()) return UsageError(err, kTool, b.status().message());
        rows.push_back(*b);
      }
    }
    return RunFileSplit(file, rows, regions, families, hex, out_dir, trust, json, out, err);
  }
  if (!table.empty()) return UsageError(err, kTool, "--table is for --file");
  if (target.empty()) return UsageError(err, kTool, "a region (or --file) is required");
  if (!out_dir.empty()) return UsageError(err, kTool, "--out-dir is for --file");
  if (midkey + !at.empty() + into.has_value() > 1)
    return UsageError(err, kTool, "--midkey, --at and --into exclude each other");
  std::string path = target[0];
  if (target.size() > 1 || region::IsRootDir(target[0])) {
    size_t used = 0;
    auto t = region::ResolveTargetArgs(target, /*allow_region=*/true, &used);
    if (!t.ok()) return ReportError(err, kTool, t.status());
    if (used != target.size()) return UsageError(err, kTool, "unexpected argument: " + target[used]);
    path = t->path();
  }
  if (emit.emit_units) {
    if (dry_run) return UsageError(err, kTool, "--emit-units plans; --dry-run is for a run");
    region::JobPlanOptions jo;
    jo.tool = "split";
    jo.target = path;
    if (std::error_code ec; !at.empty() && std::filesystem::exists(path + "/.tabledesc", ec))
      return UsageError(err, kTool, "--at names one region's row: give that region, not the table");
    jo.grain = region::UnitGrain::kRegion;
    jo.mirror_all_families = true;  // the split point is the largest store's
    jo.job_id = emit.job_id;
    jo.force = force;
    jo.now_ms = now.value_or(0);
    if (!jo.now_ms) jo.now_ms = region::JobPlanNowMs();
    if (!at.empty()) jo.args.push_back("--at=" + at);
    if (hex) jo.args.push_back("--hex");
    if (midkey) jo.args.push_back("--midkey");
    if (into) jo.args.push_back("--into=" + std::to_string(*into));
    if (compact_first) jo.args.push_back("--compact-first");
    // A table's regions: the ones HBase would not split stay as they are.
    if (skip_unsplittable || (at.empty() && !into)) jo.args.push_back("--skip-unsplittable");
    if (force) jo.args.push_back("--force");
    if (trust) jo.args.push_back("--trust-inputs");
    jo.args.push_back("--now=" + std::to_string(jo.now_ms));
    return EmitUnits("split", jo, json, out, err);
  }
  if (region::IsRemotePath(path)) return RemoteNeedsUnits(err, kTool, path);
  if (std::error_code ec; !std::filesystem::exists(path, ec) ||
                           !std::filesystem::exists(path + "/.regioninfo", ec)) {
    // A region an interrupted split already archived (all of it, or its .regioninfo and some
    // of its files): its table's journal finishes the split.
    auto p = std::filesystem::path(path).lexically_normal();
    if (p.filename().empty()) p = p.parent_path();
    const std::string table_dir = p.parent_path().string();
    std::vector<std::string> log;
    if (std::filesystem::exists(table_dir + "/.hfile-journal", ec) &&
        region::FinishInterruptedSplit(table_dir, now.value_or(0), &log).ok()) {
      for (const auto& l : log) out << l << "\n";
      out << "finished the interrupted transaction of " << table_dir << "; " << path
          << " is no longer there\n";
      return kExitOk;
    }
    if (!std::filesystem::exists(path, ec))
      return ReportError(err, kTool, Status::NotFound(path, "No such file or directory"));
  }
  if (skip_unsplittable && at.empty() && !into && !compact_first) {
    auto t = region::ResolveTarget(path);
    if (!t.ok()) return ReportError(err, kTool, t.status());
    auto point = region::ComputeSplitPoint(t->root_dir, t->region_dir, {});
    if (!point.ok()) return ReportError(err, kTool, point.status());
    if (!point->split_row) {
      const std::string why =
          point->no_split_reason.empty() ? "no split point" : point->no_split_reason;
      if (json) {
        out << fmt::format("{{\"kind\":\"split\",\"v\":1,\"path\":{},\"skipped\":{},"
                           "\"committed\":false,\"error\":null,\"code\":null}}\n",
                           Json(path), Json("HBase would not split this region: " + why));
      } else {
        out << path << ": left as it is: HBase would not split this region: " << why << "\n";
      }
      return kExitOk;
    }
  }
  region::RegionSplitOptions o;
  if (!at.empty()) {
    auto b = ParseBytesArg(at, hex);
    if (!b.ok()) return UsageError(err, kTool, b.status().message());
    o.split_row = *b;
  }
  if (into) o.into = static_cast<int>(*into);
  o.compact_first = compact_first;
  o.dry_run = dry_run;
  // A real split reports each side as written (rep.sides), without a read of every cell first.
  o.count_sides = dry_run;
  o.force = force;
  o.verify_inputs = !trust;
  if (now) o.now_ms = *now;
  std::string crash = crash_at;
  if (crash.empty())
    if (const char* env = std::getenv("HFILE_SPLIT_CRASH_AT")) crash = env;
  o.checkpoint = CrashAtCheckpoint(crash);
  auto plan = region::PlanRegionSplit(path, o);
  if (!plan.ok()) return ReportError(err, kTool, plan.status());
  if (!json) PrintPlanText(*plan, hex, out);
  region::RegionSplitReport rep;
  if (!dry_run) o.cancel = InstallInterruptHandlers();
  Progress progress(err, kTool, progress_flags);
  uint64_t phase_total = 0, cells_done = 0;
  if (progress.enabled() && !dry_run) {
    progress.Phase("splitting", 0, 0, path);
    o.progress = [&](const std::string& label, uint64_t cells, uint64_t total) {
      if (total != phase_total) progress.Phase("splitting", 0, phase_total = total, label);
      progress.Update(0, cells_done = cells, label);
    };
    o.verify_progress = [&](const std::string& label, uint64_t cells) {
      progress.Update(0, cells_done,
                      fmt::format("{}: verifying the output, {} cells", label, cells));
    };
  }
  Status s = region::RunRegionSplit(*plan, o, &rep);
  progress.Clear();
  // --compact-first: the rows were chosen after the compaction.
  region::RegionSplitPlan done = rep.replanned ? *rep.replanned : *plan;
  if (done.sides.empty()) done.sides = rep.sides;
  if (json) {
    std::string files;
    for (const auto& f : rep.files) {
      std::string outs, cells;
      for (size_t i = 0; i < f.outputs.size(); ++i) {
        outs += (i ? "," : "") + JsonList(f.outputs[i]);
        cells += fmt::format("{}{}", i ? "," : "", f.cells[i]);
      }
      files += fmt::format("{}{{\"family\":{},\"input\":{},\"outputs\":[{}],\"cells\":[{}]{}}}",
                           files.empty() ? "" : ",", Json(f.family), Json(f.input), outs, cells,
                           f.outputs.size() == 2
                               ? fmt::format(",\"a\":{},\"b\":{},\"cells_a\":{},\"cells_b\":{}",
                                             JsonList(f.outputs[0]), JsonList(f.outputs[1]),
                                             f.cells[0], f.cells[1])
                               : "");
    }
    out << fmt::format(
        "{{\"kind\":\"region\",\"v\":1,\"path\":{},\"dry_run\":{},{},\"compacted\":{},"
        "\"committed\":{},{},\"files\":[{}],\"recovered\":{},\"seconds\":{:.3f}}}\n",
        Json(path), dry_run, PlanJson(done), JsonList(rep.compacted), s.ok() && !dry_run,
        JsonErrorFields(s), files,
        JsonList(rep.recovered), rep.seconds);
  } else {
    for (const auto& r : rep.recovered) out << r << "\n";
    for (const auto& c : rep.compacted) out << "  compacted " << c << "\n";
    if (rep.replanned) PrintPlanText(done, hex, out);
    for (const auto& f : rep.files) {
      std::vector<std::string> parts;
      for (size_t i = 0; i < f.cells.size(); ++i)
        parts.push_back(fmt::format("{} cells -> {}", f.cells[i], Letter(i)));
      out << fmt::format("  {}/{}: {}\n", f.family, f.input, fmt::join(parts, ", "));
    }
    if (s.ok() && !dry_run) {
      std::vector<std::string> names;
      for (const auto& d : done.daughters) names.push_back(d.EncodedName());
      out << fmt::format("committed: daughters {}; parent {} archived. HBase's "
                         "hbase:meta still names the parent: see hfile-split(1), HBASE:META\n",
                         fmt::join(names, names.size() == 2 ? " and " : ", "), done.encoded_name);
    }
  }
  if (int sig = InterruptExitCode()) {
    err << kTool << ": interrupted: the split was rolled back\n";
    return sig;
  }
  if (!s.ok()) return ReportError(err, kTool, s);
  return kExitOk;
}

}  // namespace hfile::cli
