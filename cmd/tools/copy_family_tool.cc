// `hfile copy-family`: TABLE OLD NEW -> PlanCopyFamily + RunCopyFamily; prints the plan and a
// text or JSON summary. The logic lives in region/copy_family.h.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <ostream>

#include "cli_common.h"
#include "units_cli.h"
#include "json_error.h"
#include "hfile/escape.h"
#include "progress.h"
#include "region/copy_family.h"
#include "region/target.h"

namespace hfile::cli {

namespace {

constexpr const char* kTool = "hfile-copy-family";

struct CopyFlags {
  std::vector<std::string> args;  // TARGET... OLD NEW
  std::vector<std::string> sets;
  bool drop_old = false, delete_dropped = false, compact = false, dry_run = false;
  bool force = false, trust_inputs = false, json = false;
  std::optional<int64_t> now;
  std::string crash_at;
  ProgressFlags progress;
};

std::string Json(const std::string& s) {
  std::string out;
  AppendJsonString(&out, s);
  return out;
}

void PrintJson(const region::CopyFamilyPlan& p, const region::CopyFamilyOptions& o,
               const region::CopyFamilyReport& r, const Status& s, std::ostream& out) {
  std::string files;
  for (const auto& f : p.files) {
    if (!files.empty()) files += ",";
    files += fmt::format("{{\"region\":{},\"input\":{},\"bytes_in\":{}}}", Json(f.region),
                         Json(f.input.name.name), f.bytes);
  }
  out << fmt::format(
      "{{\"kind\":\"copy-family\",\"v\":1,\"path\":{},\"table\":{},\"table_dir\":{},\"from\":{},\"to\":{},"
      "\"dry_run\":{},\"ok\":{},{},\"descriptor\":{},\"files\":[{}],\"files_in\":{},"
      "\"files_out\":{},\"cells\":{},\"bytes_in\":{},\"bytes_out\":{},\"verified\":{},"
      "\"family_bytes_saved\":{},\"dropped\":{},\"refused\":{},\"seconds\":{:.3f},"
      "\"estimated_seconds\":{}}}\n",
      Json(p.target.table_dir), Json(p.before.name().ToString()), Json(p.target.table_dir),
      Json(o.from), Json(o.to), o.dry_run, s.ok(), JsonErrorFields(s),
      r.descriptor_path.empty() ? "null" : Json(r.descriptor_path), files, r.files_in, r.files_out,
      r.cells, r.bytes_in, r.bytes_out, r.verified, r.family_bytes_saved, r.dropped,
      p.refused.size(), r.seconds, o.dry_run ? fmt::format("{:.1f}", r.estimated_seconds) : "null");
}


// A table on HDFS is worked on as a distributed job: planned here, run by `hfile task`.
int RemoteNeedsUnits(std::ostream& err, const char* tool, const std::string& path) {
  return UsageError(err, tool, path + " is on HDFS: plan it with --emit-units and run the units "
                                      "with 'hfile task' (or spark/hfile_spark.py)");
}

}  // namespace

int RunCopyFamilyTool(int argc, const char* const* argv, std::ostream& out_arg, std::ostream& err) {
  CLI::App app{"Copy a column family under a new name, offline, keeping every cell, version, "
               "delete marker, tag, sequence id and store-file structure (HBase has no rename).",
               kTool};
  AddStandardFlags(app);
  CopyFlags f;
  app.add_option("args", f.args, "TABLE_DIR OLD NEW, or ROOT [ns:]TABLE OLD NEW")->required();
  app.add_option("--set", f.sets, "ATTR=VALUE overriding an attribute of NEW (repeatable)");
  app.add_flag("--drop-old", f.drop_old,
               "Once NEW is committed and verified equal to OLD, drop OLD (archived)");
  app.add_flag("--delete-dropped", f.delete_dropped,
               "With --drop-old: delete OLD's files instead of archiving them")
      ->needs("--drop-old");
  app.add_flag("--compact", f.compact,
               "Then major-compact NEW: one file per store instead of one per OLD file");
  app.add_flag("--dry-run", f.dry_run, "Show the files to copy and the bytes out; write nothing");
  app.add_flag("--force", f.force, "Copy in a table that looks online or unclean");
  app.add_flag("--trust-inputs", f.trust_inputs,
               "Skip the full verification of each store file before it is copied");
  app.add_option("--now", f.now, "Current time in ms since the epoch (archive names, --compact)");
  app.add_flag("--json", f.json, "Print a JSON summary instead of text");
  AddProgressFlags(app, &f.progress);
  EmitFlags emit;
  AddEmitFlags(app, &emit);
  app.add_option("--crash-at", f.crash_at)->group("");  // hidden: crash-safety tests
  if (auto code = ParseArgs(app, argc, argv, out_arg, err, {"args"})) return *code;
  std::ostream& out = f.progress.quiet && !f.json ? NullStream() : out_arg;
  if (f.now && *f.now < 0) return UsageError(err, kTool, "--now must be >= 0");
  if (f.args.size() < 3) return UsageError(err, kTool, "give the table, then OLD and NEW");
  if (emit.emit_units) {
    if (f.dry_run) return UsageError(err, kTool, "--emit-units plans; --dry-run is for a run");
    region::JobPlanOptions jo;
    jo.tool = "copy-family";
    size_t used = 1;
    jo.target = f.args[0];
    if (!region::IsRemotePath(f.args[0])) {
      auto t = region::ResolveTargetArgs(f.args, /*allow_region=*/false, &used);
      if (!t.ok()) return ReportError(err, kTool, t.status());
      jo.target = t->table_dir;
    }
    if (f.args.size() != used + 2)
      return UsageError(err, kTool, "give the table, then exactly two family names: OLD NEW");
    jo.families = {f.args[used]};
    jo.every_region = true;  // NEW gets a dir in every region
    jo.at_least_one = true;
    jo.job_id = emit.job_id;
    jo.force = f.force;
    jo.now_ms = f.now.value_or(0);
    if (!jo.now_ms) jo.now_ms = region::JobPlanNowMs();
    jo.args = {f.args[used], f.args[used + 1]};
    for (const auto& v : f.sets) jo.args.push_back("--set=" + v);
    if (f.drop_old) jo.args.push_back("--drop-old");
    if (f.delete_dropped) jo.args.push_back("--delete-dropped");
    if (f.compact) jo.args.push_back("--compact");
    if (f.force) jo.args.push_back("--force");
    if (f.trust_inputs) jo.args.push_back("--trust-inputs");
    jo.args.push_back("--now=" + std::to_string(jo.now_ms));
    return EmitUnits("copy-family", jo, f.json, out, err);
  }
  if (region::IsRemotePath(f.args[0])) return RemoteNeedsUnits(err, kTool, f.args[0]);
  if (std::error_code ec; !std::filesystem::is_directory(f.args[0], ec))
    return ReportError(err, kTool, Status::NotFound(f.args[0], "no such directory"));
  size_t used = 0;
  auto target = region::ResolveTargetArgs(f.args, /*allow_region=*/false, &used);
  if (!target.ok()) return ReportError(err, kTool, target.status());
  if (f.args.size() != used + 2)
    return UsageError(err, kTool, "give the table, then exactly two family names: OLD NEW");

  region::CopyFamilyOptions o;
  o.from = f.args[used];
  o.to = f.args[used + 1];
  for (const auto& s : f.sets) {
    const size_t eq = s.find('=');
    if (eq == std::string::npos || eq == 0)
      return UsageError(err, kTool, "--set takes ATTR=VALUE, not '" + s + "'");
    o.set.emplace_back(s.substr(0, eq), s.substr(eq + 1));
  }
  o.drop_old = f.drop_old;
  o.delete_dropped = f.delete_dropped;
  o.compact = f.compact;
  o.dry_run = f.dry_run;
  o.force = f.force;
  o.verify_inputs = !f.trust_inputs;
  if (f.now) o.now_ms = *f.now;
  std::string crash = f.crash_at;
  if (crash.empty())
    if (const char* env = std::getenv("HFILE_COPY_FAMILY_CRASH_AT")) crash = env;
  o.checkpoint = CrashAtCheckpoint(crash);
  auto plan = region::PlanCopyFamily(target->table_dir, o);
  if (!plan.ok()) {
    // A bad name or --set value is the caller's mistake; a missing table is not.
    const Status& s = plan.status();
    return s.IsInvalidArgument() ? UsageError(err, kTool, s.ToString()) : ReportError(err, kTool, s);
  }
  for (const auto& why : plan->refused) err << kTool << ": refused: " << why << "\n";
  if (!f.json) {
    out << fmt::format("copy family {} -> {} of table {}: {} file(s), {} bytes{}\n", o.from, o.to,
                       plan->before.name().ToString(), plan->files.size(), plan->bytes,
                       plan->resume_drop ? " (finishing an interrupted --drop-old)" : "");
    for (const auto& s : plan->skipped) out << "  not copied: " << s << "\n";
  }
  Progress progress(err, kTool, f.progress);
  StoreProgress meter(progress, f.dry_run ? "reading" : "copying");
  if (progress.enabled()) {
    meter.AddStore("all", plan->bytes);
    meter.Start();
    o.progress = [&meter](const std::string&, uint64_t n, uint64_t total) {
      meter.OnStore("all", n, total);
    };
  }
  if (!f.dry_run) o.cancel = InstallInterruptHandlers();
  region::CopyFamilyReport rep;
  Status s = region::RunCopyFamily(*plan, o, &rep);
  meter.Clear();
  if (f.json) {
    PrintJson(*plan, o, rep, s, out);
  } else if (s.ok()) {
    out << fmt::format("{} {} file(s), {} cells, {} -> {} bytes{}\n",
                       f.dry_run ? "would copy" : "copied", rep.files_in, rep.cells,
                       rep.bytes_in, rep.bytes_out, f.dry_run ? " (estimated)" : "");
    out << fmt::format("family name: {} -> {} bytes in each of {} cells: {} bytes {} "
                       "uncompressed; on disk {} -> {} bytes\n",
                       o.from.size(), o.to.size(), rep.cells,
                       std::abs(rep.family_bytes_saved),
                       rep.family_bytes_saved >= 0 ? "saved" : "added", rep.bytes_in,
                       rep.bytes_out);
    if (f.dry_run)
      out << fmt::format("estimated time: {:.1f} s (this dry run's reading and a trial write, "
                         "measured here)\n", rep.estimated_seconds);
    if (!rep.descriptor_path.empty()) out << "descriptor written: " << rep.descriptor_path << "\n";
    if (rep.verified) out << "verified: " << o.to << " holds exactly the cells of " << o.from << "\n";
    if (rep.dropped) out << "family " << o.from << ": dropped (dirs archived)\n";
  }
  if (int sig = InterruptExitCode()) {
    err << kTool << ": interrupted: nothing was committed, or rerun the same command to finish\n";
    return sig;
  }
  if (!s.ok()) return ReportError(err, kTool, s);
  return kExitOk;
}

}  // namespace hfile::cli
