// `hfile split`: flags -> options -> SplitFile (--file) or PlanRegionSplit + RunRegionSplit
// (a region); prints a text or JSON summary. Logic lives in region/split.h.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <ostream>

#include "cli_common.h"
#include "hfile/escape.h"
#include "region/split.h"
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

int RunFileSplit(const std::string& file, const std::vector<std::string>& at, bool hex,
                 const std::string& out_dir, bool trust, bool json, std::ostream& out,
                 std::ostream& err) {
  region::FileSplitOptions o;
  for (const auto& a : at) {
    auto b = ParseBytesArg(a, hex);
    if (!b.ok()) return UsageError(err, kTool, b.status().message());
    o.boundaries.push_back(*b);
  }
  o.out_dir = out_dir;
  o.verify_input = !trust;
  o.cancel = InstallInterruptHandlers();
  region::FileSplitResult r;
  Status s = region::SplitFile(file, o, &r);
  if (int sig = InterruptExitCode()) {
    err << kTool << ": interrupted: nothing was written\n";
    return sig;
  }
  if (!s.ok()) return ReportError(err, kTool, s);
  if (json) {
    std::string outs;
    for (const auto& x : r.outputs)
      outs += fmt::format("{}{{\"range\":{},\"path\":{},\"cells\":{},\"file_size\":{}}}",
                          outs.empty() ? "" : ",", x.range, Json(x.path), x.cells, x.file_size);
    out << fmt::format("{{\"kind\":\"file\",\"input\":{},\"cells\":{},\"outputs\":[{}]}}\n",
                       Json(file), r.cells, outs);
  } else {
    out << fmt::format("{}: {} cells -> {} file(s)\n", file, r.cells, r.outputs.size());
    for (const auto& x : r.outputs) {
      const std::string lo = x.range == 0 ? "" : Row(o.boundaries[x.range - 1], hex);
      const std::string hi = x.range == o.boundaries.size() ? "" : Row(o.boundaries[x.range], hex);
      out << fmt::format("  [{}, {})  {} cells, {} bytes  {}\n", lo, hi, x.cells, x.file_size,
                         x.path);
    }
  }
  return kExitOk;
}

void PrintPlanText(const region::RegionSplitPlan& p, bool hex, std::ostream& out) {
  out << fmt::format("region {} [{}, {}) split at {}{}\n", p.encoded_name,
                     Row(p.parent.start_key, hex), Row(p.parent.end_key, hex), Row(p.split_row, hex),
                     p.point.explicit_row ? " (given)" : " (HBase's split point)");
  out << fmt::format("  daughter A {} [{}, {})\n", p.daughter_a.EncodedName(),
                     Row(p.daughter_a.start_key, hex), Row(p.daughter_a.end_key, hex));
  out << fmt::format("  daughter B {} [{}, {})\n", p.daughter_b.EncodedName(),
                     Row(p.daughter_b.start_key, hex), Row(p.daughter_b.end_key, hex));
  for (const auto& f : p.point.families)
    out << fmt::format("  {}: A {} cells {} bytes | B {} cells {} bytes\n", f.family,
                       f.below.cells, f.below.file_bytes, f.above.cells, f.above.file_bytes);
  for (const auto& r : p.recovery) out << "  " << r << "\n";
  for (const auto& r : p.refused) out << "  REFUSED: " << r << "\n";
}

std::string PlanJson(const region::RegionSplitPlan& p) {
  std::string fams;
  for (const auto& f : p.point.families)
    fams += fmt::format(
        "{}{{\"family\":{},\"a\":{{\"cells\":{},\"kv_bytes\":{},\"file_bytes\":{}}},"
        "\"b\":{{\"cells\":{},\"kv_bytes\":{},\"file_bytes\":{}}}}}",
        fams.empty() ? "" : ",", Json(f.family), f.below.cells, f.below.kv_bytes,
        f.below.file_bytes, f.above.cells, f.above.kv_bytes, f.above.file_bytes);
  return fmt::format(
      "\"region\":{},\"split_row\":{},\"explicit_row\":{},\"daughter_a\":{},\"daughter_b\":{},"
      "\"region_id\":{},\"families\":[{}],\"refused\":{}",
      Json(p.encoded_name), Json(ToStringBinary(p.split_row)), p.point.explicit_row,
      Json(p.daughter_a.EncodedName()), Json(p.daughter_b.EncodedName()), p.daughter_a.region_id,
      fams, JsonList(p.refused));
}

}  // namespace

int RunSplitTool(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  CLI::App app{"Split an HFile at rows (as completebulkload splits a straddling file), or a "
               "region into two daughter regions offline, committing crash-safely.",
               kTool};
  AddStandardFlags(app);
  std::vector<std::string> target;
  std::string file, out_dir, at, crash_at;
  bool hex = false, dry_run = false, force = false, json = false, trust = false;
  std::optional<int64_t> now;
  app.add_option("target", target,
                 "Region dir (<root>/data/<ns>/<table>/<region>), or ROOT TABLE REGION");
  app.add_option("--file", file, "Split this HFile instead of a region");
  app.add_option("--at", at,
                 "Split row(s): with --file a comma-separated list; for a region one row "
                 "(default: HBase's split point). \\xNN escapes, or hex with --hex");
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
  app.add_option("--crash-at", crash_at)->group("");  // hidden: crash-safety tests
  if (auto code = ParseArgs(app, argc, argv, out, err)) return *code;

  if (!file.empty()) {
    if (!target.empty()) return UsageError(err, kTool, "--file takes no region argument");
    if (at.empty() || out_dir.empty())
      return UsageError(err, kTool, "--file needs --at and --out-dir");
    if (dry_run) return UsageError(err, kTool, "--dry-run is for a region split");
    std::vector<std::string> rows;
    size_t start = 0;
    while (true) {
      const size_t comma = at.find(',', start);
      rows.push_back(at.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
    return RunFileSplit(file, rows, hex, out_dir, trust, json, out, err);
  }
  if (target.empty()) return UsageError(err, kTool, "a region (or --file) is required");
  if (!out_dir.empty()) return UsageError(err, kTool, "--out-dir is for --file");
  std::string path = target[0];
  if (target.size() > 1 || region::IsRootDir(target[0])) {
    size_t used = 0;
    auto t = region::ResolveTargetArgs(target, /*allow_region=*/true, &used);
    if (!t.ok()) return ReportError(err, kTool, t.status());
    if (used != target.size()) return UsageError(err, kTool, "unexpected argument: " + target[used]);
    path = t->path();
  }
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
  region::RegionSplitOptions o;
  if (!at.empty()) {
    auto b = ParseBytesArg(at, hex);
    if (!b.ok()) return UsageError(err, kTool, b.status().message());
    o.split_row = *b;
  }
  o.dry_run = dry_run;
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
  Status s = region::RunRegionSplit(*plan, o, &rep);
  if (json) {
    std::string files;
    for (const auto& f : rep.files)
      files += fmt::format("{}{{\"family\":{},\"input\":{},\"a\":{},\"b\":{},\"cells_a\":{},"
                           "\"cells_b\":{}}}",
                           files.empty() ? "" : ",", Json(f.family), Json(f.input),
                           JsonList(f.outputs_a), JsonList(f.outputs_b), f.cells_a, f.cells_b);
    out << fmt::format("{{\"kind\":\"region\",\"dry_run\":{},{},\"committed\":{},\"files\":[{}],"
                       "\"recovered\":{},\"seconds\":{:.3f}}}\n",
                       dry_run, PlanJson(*plan), s.ok() && !dry_run, files,
                       JsonList(rep.recovered), rep.seconds);
  } else {
    for (const auto& r : rep.recovered) out << r << "\n";
    for (const auto& f : rep.files)
      out << fmt::format("  {}/{}: {} cells -> A, {} cells -> B\n", f.family, f.input, f.cells_a,
                         f.cells_b);
    if (s.ok() && !dry_run)
      out << fmt::format("committed: daughters {} and {}; parent {} archived. HBase's "
                         "hbase:meta still names the parent: see hfile-split(1), HBASE:META\n",
                         plan->daughter_a.EncodedName(), plan->daughter_b.EncodedName(),
                         plan->encoded_name);
  }
  if (int sig = InterruptExitCode()) {
    err << kTool << ": interrupted: the split was rolled back\n";
    return sig;
  }
  if (!s.ok()) return ReportError(err, kTool, s);
  return kExitOk;
}

}  // namespace hfile::cli
