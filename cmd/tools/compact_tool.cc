// `hfile compact`: flags -> CompactOptions -> PlanCompaction + Compact; prints the plan (dry
// run), progress (terminal only) and a text or JSON summary. Logic lives in region/compact.h.
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <signal.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <ostream>

#include "cli_common.h"
#include "json_error.h"
#include "progress.h"
#include "hfile/escape.h"
#include "region/compact.h"
#include "region/target.h"
#include "region/units.h"
#include "units_cli.h"

namespace hfile::cli {

namespace {

using region::CompactReport;
using region::CompactionPlan;
using region::StoreResult;

struct CompactFlags {
  std::string path;
  bool major = false, minor = false, dry_run = false, delete_replaced = false, force = false;
  bool json = false, trust_inputs = false;
  std::vector<std::string> families;
  std::optional<int64_t> now;
  std::string crash_at;  // hidden: kill -9 ourselves at the Nth checkpoint or a named one
  ProgressFlags progress;
};

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

void PrintPlan(const CompactionPlan& plan, std::ostream& out) {
  out << fmt::format("table {} ({}), {} region(s)\n", plan.table.ToString(), plan.table_dir,
                     plan.regions.size());
  for (const auto& r : plan.regions) {
    for (const auto& why : r.blockers) out << fmt::format("  {}: REFUSED: {}\n", r.encoded_name, why);
    for (const auto& why : r.refusals) out << fmt::format("  {}: REFUSED: {}\n", r.encoded_name, why);
    for (const auto& rec : r.recovery) out << fmt::format("  {}: {}\n", r.encoded_name, rec);
  }
}

// "committed", "not committed" or, for a store whose commit is done but whose disposal of the
// replaced files failed, "committed; a rerun finishes archiving".
std::string Outcome(const StoreResult& s) {
  if (s.status.ok()) return "committed";
  return s.committed ? "committed; a rerun finishes archiving" : "NOT COMMITTED";
}

void PrintStore(const StoreResult& s, bool dry_run, std::ostream& out) {
  if (!s.skipped.empty()) {
    out << fmt::format("{}/{}: skipped: {}\n", s.region, s.family, s.skipped);
    return;
  }
  if (!s.status.ok()) {
    out << fmt::format("{}/{}: {}: {}\n", s.region, s.family, Outcome(s), s.status.ToString());
    if (!s.committed) return;
  }
  const auto& st = s.stats;
  out << fmt::format(
      "{}/{}: {} {} file(s) -> {}{}; {} -> {} bytes{}; cells {} -> {} (dropped: {} versions, {} "
      "TTL, {} cell TTL, {} deleted, {} delete markers){}{}\n",
      s.region, s.family, s.all_files ? (s.major ? "major" : "all-files") : "minor",
      s.inputs.size(), s.output.empty() ? (dry_run ? "(dry run)" : "(no output)") : s.output,
      s.expired.empty() ? "" : fmt::format(", {} expired file(s) removed whole", s.expired.size()),
      s.bytes_in, s.bytes_out, dry_run ? " (estimated)" : "", st.input_cells, st.output_cells,
      st.dropped_versions, st.dropped_ttl, st.dropped_cell_ttl, st.dropped_deleted,
      st.dropped_delete_markers,
      st.zeroed_sequence_ids ? fmt::format(", {} sequence ids zeroed", st.zeroed_sequence_ids)
                             : "",
      s.out_of_range ? fmt::format("; {} cell(s) outside the region's range carried (--force)",
                                   s.out_of_range)
                     : "");
  for (const auto& in : s.inputs) out << "    input   " << in << "\n";
  for (const auto& e : s.expired) out << "    expired " << e << "\n";
}

// Every record names what it is about: the run ("compact", the target and its table) and each
// store ("store", its family dir, region, family).
void PrintJson(const CompactionPlan& plan, const std::string& path, const CompactReport& rep,
               bool dry_run, std::ostream& out) {
  const std::string table = Json(plan.table.ToString());
  uint64_t files = 0, cin = 0, cout_ = 0, bin = 0, bout = 0;
  std::string stores;
  for (const auto& s : rep.stores) {
    const auto& st = s.stats;
    files += s.inputs.size() + s.expired.size();
    cin += st.input_cells, cout_ += st.output_cells, bin += s.bytes_in, bout += s.bytes_out;
    stores += fmt::format(
        "{}{{\"kind\":\"store\",\"v\":1,\"path\":{},\"table\":{},\"region\":{},\"family\":{},"
        "\"skipped\":{},\"all_files\":{},\"major\":{},"
        "\"inputs\":{},\"expired\":{},\"output\":{},\"cells_in\":{},\"cells_out\":{},"
        "\"dropped\":{{\"versions\":{},\"ttl\":{},\"cell_ttl\":{},\"deleted\":{},"
        "\"delete_markers\":{}}},\"zeroed_sequence_ids\":{},\"bytes_in\":{},\"bytes_out\":{},"
        "\"archived\":{},\"deleted\":{},\"out_of_range\":{},\"committed\":{},{},"
        "\"seconds\":{:.3f}}}",
        stores.empty() ? "" : ",", Json(plan.table_dir + "/" + s.region + "/" + s.family), table,
        Json(s.region), Json(s.family), s.skipped.empty() ? "null" : Json(s.skipped), s.all_files,
        s.major, JsonList(s.inputs), JsonList(s.expired),
        s.output.empty() ? "null" : Json(s.output), st.input_cells, st.output_cells,
        st.dropped_versions, st.dropped_ttl, st.dropped_cell_ttl, st.dropped_deleted,
        st.dropped_delete_markers, st.zeroed_sequence_ids, s.bytes_in, s.bytes_out, s.archived,
        s.deleted, s.out_of_range, s.skipped.empty() && !dry_run && s.committed,
        JsonErrorFields(s.status), s.seconds);
  }
  out << fmt::format(
      "{{\"kind\":\"compact\",\"v\":1,\"path\":{},\"table\":{},\"dry_run\":{},\"files\":{},"
      "\"cells_in\":{},\"cells_out\":{},\"bytes_in\":{},\"bytes_out\":{},\"seconds\":{:.3f},"
      "\"refused\":{},\"recovered\":{},\"stores\":[{}]}}\n",
      Json(path), table, dry_run, files, cin, cout_, bin, bout, rep.seconds, JsonList(rep.refused),
      JsonList(rep.recovered), stores);
}


// A table on HDFS is worked on as a distributed job: planned here, run by `hfile task`.
int RemoteNeedsUnits(std::ostream& err, const char* tool, const std::string& path) {
  return UsageError(err, tool, path + " is on HDFS: plan it with --emit-units and run the units "
                                      "with 'hfile task' (or spark/hfile_spark.py)");
}

}  // namespace

int RunCompactTool(int argc, const char* const* argv, std::ostream& out_arg, std::ostream& err) {
  CLI::App app{"Compact the store files of a table, region or family directory offline, as "
               "HBase's own compaction would, committing crash-safely.",
               "hfile-compact"};
  AddStandardFlags(app);
  CompactFlags f;
  std::vector<std::string> target;
  app.add_option("target", target,
                 "Table dir (<root>/data/<ns>/<table>), region dir or family dir; or ROOT TABLE "
                 "[REGION] (a root dir, [ns:]table, an encoded region name)")
      ->required();
  auto* major = app.add_flag("--major", f.major, "Compact every store file (the default)");
  app.add_flag("--minor", f.minor,
               "Select files as HBase's ExploringCompactionPolicy does (min 3, max 10, ratio 1.2, "
               "min size 128 MB); keeps delete markers unless every file is selected")
      ->excludes(major);
  app.add_option("--family", f.families, "Only this family (repeatable)");
  app.add_flag("--dry-run", f.dry_run,
               "Plan and run the merge without writing: files, bytes, cells dropped by reason");
  app.add_option("--now", f.now, "Current time in ms since the epoch for TTL decisions "
                                 "(default: the wall clock)")
      ->check(IntegerIn(0, INT64_MAX));
  app.add_flag("--delete-replaced", f.delete_replaced,
               "Delete replaced files instead of moving them to <root>/archive/");
  app.add_flag("--force", f.force,
               "Compact regions that look online or unclean (recovered.edits, .tmp content, "
               "WALs, split flags)");
  app.add_flag("--trust-inputs", f.trust_inputs,
               "Skip the full verification of each input store file (the cheap trailer/block "
               "checks, cell counts, family and range checks still run)");
  app.add_flag("--json", f.json, "Print a JSON summary instead of text");
  AddProgressFlags(app, &f.progress);
  EmitFlags emit;
  AddEmitFlags(app, &emit);
  app.add_option("--crash-at", f.crash_at)->group("");  // hidden: crash-safety tests
  if (auto code = ParseArgs(app, argc, argv, out_arg, err, {"target"})) return *code;
  std::ostream& out = f.progress.quiet && !f.json ? NullStream() : out_arg;
  f.path = target[0];
  if (target.size() > 1 || region::IsRootDir(target[0])) {
    size_t used = 0;
    auto t = region::ResolveTargetArgs(target, /*allow_region=*/true, &used);
    if (!t.ok()) return ReportError(err, "hfile-compact", t.status());
    if (used != target.size())
      return UsageError(err, "hfile-compact", "unexpected argument: " + target[used]);
    f.path = t->path();
  }
  if (emit.emit_units) {
    if (f.dry_run) return UsageError(err, "hfile-compact", "--emit-units plans; --dry-run is for a run");
    region::JobPlanOptions jo;
    jo.tool = "compact";
    jo.target = f.path;
    jo.families = f.families;
    jo.job_id = emit.job_id;
    jo.force = f.force;
    jo.now_ms = f.now.value_or(0);
    if (!jo.now_ms) jo.now_ms = region::JobPlanNowMs();
    // Every unit decides TTLs at the same instant, the plan's.
    if (f.minor) jo.args.push_back("--minor");
    if (f.delete_replaced) jo.args.push_back("--delete-replaced");
    if (f.force) jo.args.push_back("--force");
    if (f.trust_inputs) jo.args.push_back("--trust-inputs");
    jo.args.push_back("--now=" + std::to_string(jo.now_ms));
    return EmitUnits("compact", jo, f.json, out, err);
  }
  if (region::IsRemotePath(f.path)) return RemoteNeedsUnits(err, "hfile-compact", f.path);
  if (std::error_code ec; !std::filesystem::exists(f.path, ec)) {  // missing: unreadable (3)
    return ReportError(err, "hfile-compact",
                       ec ? Status::IOError(f.path, ec.message())
                          : Status::NotFound(f.path, "No such file or directory"));
  }
  region::CompactOptions o;
  o.request = f.minor ? region::CompactRequest::kMinor : region::CompactRequest::kMajor;
  o.families = f.families;
  o.dry_run = f.dry_run;
  o.delete_replaced = f.delete_replaced;
  o.force = f.force;
  o.verify_inputs = !f.trust_inputs;
  if (f.now) o.now_ms = *f.now;
  std::string crash = f.crash_at;
  if (crash.empty()) {
    if (const char* env = std::getenv("HFILE_COMPACT_CRASH_AT")) crash = env;
  }
  o.checkpoint = CrashAtCheckpoint(crash);
  auto plan = region::PlanCompaction(f.path, o);
  if (!plan.ok()) {
    PrintError(err, "hfile-compact", plan.status());
    return ExitCodeFor(plan.status());
  }
  Progress progress(err, "hfile-compact", f.progress);
  StoreProgress meter(progress, f.dry_run ? "merging" : "compacting");
  if (progress.enabled()) {
    for (const auto& r : plan->regions)
      for (const auto& st : r.stores) {
        uint64_t bytes = 0;
        for (const auto& in : st.inputs) bytes += in.size;
        meter.AddStore(r.encoded_name + "/" + st.family, bytes);
      }
    o.progress = [&meter](const std::string& label, uint64_t n, uint64_t total) {
      meter.OnStore(label, n, total);
    };
    o.verify_progress = [&meter](const std::string& label, uint64_t n) {
      meter.OnVerify(label, n);
    };
  }
  if (!f.json) PrintPlan(*plan, out);
  if (progress.enabled()) meter.Start();
  CompactReport rep;
  if (!f.dry_run) o.cancel = InstallInterruptHandlers();
  Status s = region::Compact(*plan, o, &rep);
  meter.Clear();
  if (f.json) {
    PrintJson(*plan, f.path, rep, f.dry_run, out);
  } else {
    for (const auto& r : rep.recovered) out << r << "\n";
    for (const auto& st : rep.stores) PrintStore(st, f.dry_run, out);
    for (const auto& r : rep.refused) err << "hfile-compact: refused " << r << "\n";
  }
  if (int sig = InterruptExitCode()) {
    err << "hfile-compact: interrupted: the store being written was rolled back; stores listed "
           "above as committed stay committed\n";
    return sig;
  }
  if (!s.ok()) {
    PrintError(err, "hfile-compact", s);
    return ExitCodeFor(s);
  }
  return kExitOk;
}

}  // namespace hfile::cli
