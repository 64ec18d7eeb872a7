// `hfile alter`: an HBase shell alter statement (or --family/--set flags) -> new descriptor ->
// PlanAlter + RunAlter; prints the diff, the plan, the rewritten stores and a text or JSON
// summary. The logic lives in region/alter.h and region/shell_statement.h.
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
#include "region/alter.h"
#include "region/shell_statement.h"

namespace hfile::cli {

namespace {

constexpr const char* kTool = "hfile-alter";

using region::AlterEffect;
using region::FamilyAlter;
using region::TableName;

struct AlterFlags {
  std::vector<std::string> args;  // [ROOT|TABLE_DIR] ["alter ..."]
  std::string family, add_family, drop_family;
  std::vector<std::string> sets;
  bool no_compact = false, keep_cells = false, dry_run = false, force = false;
  bool trust_inputs = false;
  bool delete_dropped = false, json = false;
  std::optional<int64_t> now;
  std::string crash_at;
  ProgressFlags progress;
};

std::string Json(const std::string& s) {
  std::string out;
  AppendJsonString(&out, s);
  return out;
}

std::string JsonOpt(const std::optional<std::string>& s) { return s ? Json(*s) : "null"; }

const char* EffectName(AlterEffect e) {
  switch (e) {
    case AlterEffect::kFormat: return "files rewritten (format)";
    case AlterEffect::kCells: return "stores major-compacted (cell rules)";
    default: return "no file changes";
  }
}

const char* KindName(FamilyAlter::Kind k) {
  switch (k) {
    case FamilyAlter::Kind::kAdd: return "add";
    case FamilyAlter::Kind::kDrop: return "drop";
    default: return "modify";
  }
}

// <root>/data/<ns>/<qualifier> when `path` is a root dir (it has data/); else `path` itself.
std::string TableDirFor(const std::string& path, const TableName& table) {
  std::error_code ec;
  if (std::filesystem::is_directory(path + "/data", ec) &&
      !std::filesystem::exists(path + "/.tabledesc", ec))
    return path + "/data/" + table.namespace_name + "/" + table.qualifier;
  return path;
}

// The statement, from the statement text or the flags.
Result<region::AlterStatement> BuildStatement(const AlterFlags& f, const std::string& text,
                                              const TableName& table) {
  if (!text.empty()) {
    if (!f.family.empty() || !f.add_family.empty() || !f.drop_family.empty() || !f.sets.empty())
      return Status::InvalidArgument("give a statement or --family/--add-family/--drop-family, not both");
    return region::ParseAlterStatement(text);
  }
  region::AlterStatement st;
  st.table = table;
  const int forms = !f.family.empty() + !f.add_family.empty() + !f.drop_family.empty();
  if (forms != 1)
    return Status::InvalidArgument(
        "give a statement (\"alter 't', {NAME => 'f', ...}\"), or one of --family, "
        "--add-family, --drop-family");
  if (!f.drop_family.empty()) {
    if (!f.sets.empty()) return Status::InvalidArgument("--drop-family takes no --set");
    region::FamilyChange c;
    c.name = f.drop_family;
    c.drop = true;
    st.families.push_back(std::move(c));
    return st;
  }
  const std::string& name = f.family.empty() ? f.add_family : f.family;
  HFILE_ASSIGN_OR_RETURN(region::FamilyChange c, region::FamilyChangeFromFlags(name, f.sets));
  st.families.push_back(std::move(c));
  return st;
}

void PrintPlan(const region::AlterPlan& p, bool dry_run, std::ostream& out) {
  out << fmt::format("table {} ({}){}\n", p.after.name().ToString(), p.table_dir,
                     dry_run ? " (dry run)" : "");
  for (const auto& c : p.table_changes)
    out << fmt::format("  table {}: {} -> {}\n", c.key, c.before.value_or("(unset)"),
                       c.after.value_or("(unset)"));
  for (const auto& f : p.families) {
    out << fmt::format("  {} family {}: {}{}; {} store file(s), {} bytes{}\n", KindName(f.kind),
                       f.family, f.kind == FamilyAlter::Kind::kModify ? EffectName(f.effect) : "",
                       f.kind == FamilyAlter::Kind::kAdd ? "empty dir in every region"
                       : f.kind == FamilyAlter::Kind::kDrop ? "dirs moved to the archive"
                                                            : "",
                       f.store_files, f.bytes,
                       f.resumed ? " (left by an interrupted alter)" : "");
    for (const auto& c : f.changes)
      out << fmt::format("      {}: {} -> {}\n", c.key, c.before.value_or("(unset)"),
                         c.after.value_or("(unset)"));
  }
  for (const auto& r : p.refused) out << "  REFUSED: " << r << "\n";
  if (!p.changes_descriptor && p.families.empty()) out << "  nothing to change\n";
}

void PrintJson(const region::AlterPlan& p, const region::AlterReport& rep, bool dry_run,
               const Status& s, std::ostream& out) {
  std::string fams;
  for (const auto& f : p.families) {
    std::string changes;
    for (const auto& c : f.changes)
      changes += fmt::format("{}{{\"key\":{},\"before\":{},\"after\":{}}}",
                             changes.empty() ? "" : ",", Json(c.key), JsonOpt(c.before),
                             JsonOpt(c.after));
    fams += fmt::format(
        "{}{{\"family\":{},\"kind\":{},\"rewrite\":{},\"resumed\":{},\"store_files\":{},"
        "\"bytes\":{},\"changes\":[{}]}}",
        fams.empty() ? "" : ",", Json(f.family), Json(KindName(f.kind)), f.rewrite, f.resumed,
        f.store_files, f.bytes, changes);
  }
  uint64_t bin = 0, bout = 0, cin = 0, cout_ = 0, stores = 0, committed = 0;
  for (const auto& st : rep.compaction.stores) {
    if (!st.skipped.empty()) continue;
    ++stores;
    committed += st.committed;
    bin += st.bytes_in, bout += st.bytes_out;
    cin += st.stats.input_cells, cout_ += st.stats.output_cells;
  }
  out << fmt::format(
      "{{\"kind\":\"alter\",\"v\":1,\"path\":{},\"table\":{},\"table_dir\":{},\"dry_run\":{},\"ok\":{},"
      "{},\"descriptor\":{},\"families\":[{}],\"rewritten_stores\":{},"
      "\"committed_stores\":{},\"bytes_in\":{},\"bytes_out\":{},\"cells_in\":{},"
      "\"cells_out\":{},\"refused\":{},\"seconds\":{:.3f}}}\n",
      Json(p.table_dir), Json(p.after.name().ToString()), Json(p.table_dir), dry_run, s.ok(),
      JsonErrorFields(s),
      rep.descriptor_path.empty() ? "null" : Json(rep.descriptor_path), fams, stores, committed,
      bin, bout, cin, cout_, p.refused.size(), rep.seconds);
}


// A table on HDFS is worked on as a distributed job: planned here, run by `hfile task`.
int RemoteNeedsUnits(std::ostream& err, const char* tool, const std::string& path) {
  return UsageError(err, tool, path + " is on HDFS: plan it with --emit-units and run the units "
                                      "with 'hfile task' (or spark/hfile_spark.py)");
}

}  // namespace

int RunAlterTool(int argc, const char* const* argv, std::ostream& out_arg, std::ostream& err) {
  CLI::App app{"Alter a table offline as HBase's alter + major_compact would: the new "
               "descriptor, and every store whose files the change affects rewritten at once.",
               kTool};
  AddStandardFlags(app);
  AlterFlags f;
  app.add_option("args", f.args,
                 "ROOT \"alter 't', {NAME => 'f', ...}\", or TABLE_DIR [statement]")
      ->required();
  app.add_option("--family", f.family, "Modify this family (with --set)");
  app.add_option("--add-family", f.add_family, "Add this family (with --set for its attributes)");
  app.add_option("--drop-family", f.drop_family, "Drop this family (its dirs go to the archive)");
  app.add_option("--set", f.sets, "ATTR=VALUE for --family/--add-family (repeatable)");
  app.add_flag("--no-compact", f.no_compact,
               "Write the descriptor (and add/drop dirs) only, as an online alter leaves it");
  app.add_flag("--keep-cells", f.keep_cells,
               "Re-encode every cell with the new settings, no compaction rules (versions, "
               "deletes, expired cells kept); only format changes rewrite")
      ->excludes("--no-compact");
  app.add_flag("--dry-run", f.dry_run,
               "Show the change, the stores to rewrite and what their rewrite would drop; write "
               "nothing");
  app.add_flag("--force", f.force, "Alter a table that looks online or unclean");
  app.add_flag("--trust-inputs", f.trust_inputs,
               "Skip the full verification of each store file before it is rewritten");
  app.add_flag("--delete-dropped", f.delete_dropped,
               "Delete a dropped family's files instead of archiving them");
  app.add_option("--now", f.now, "Current time in ms since the epoch for TTL decisions");
  app.add_flag("--json", f.json, "Print a JSON summary instead of text");
  AddProgressFlags(app, &f.progress);
  EmitFlags emit;
  AddEmitFlags(app, &emit);
  app.add_option("--crash-at", f.crash_at)->group("");  // hidden: crash-safety tests
  if (auto code = ParseArgs(app, argc, argv, out_arg, err, {"args"})) return *code;
  std::ostream& out = f.progress.quiet && !f.json ? NullStream() : out_arg;
  if (f.args.size() > 2) return UsageError(err, kTool, "give ROOT or TABLE_DIR, then the statement");
  if (f.now && *f.now < 0) return UsageError(err, kTool, "--now must be >= 0");
  const std::string path = f.args[0];
  const std::string text = f.args.size() == 2 ? f.args[1] : "";
  if (emit.emit_units) {
    if (f.dry_run) return UsageError(err, kTool, "--emit-units plans; --dry-run is for a run");
    region::JobPlanOptions jo;
    jo.tool = "alter";
    jo.target = path;
    if (!text.empty() && !region::IsRemotePath(path)) {
      auto st = region::ParseAlterStatement(text);
      if (!st.ok()) return UsageError(err, kTool, st.status().message());
      jo.target = TableDirFor(path, st->table);
    }
    jo.at_least_one = true;  // the descriptor changes even with no store to rewrite
    jo.job_id = emit.job_id;
    jo.force = f.force;
    jo.now_ms = f.now.value_or(0);
    if (!jo.now_ms) jo.now_ms = region::JobPlanNowMs();
    if (!text.empty()) jo.args.push_back(text);
    if (!f.family.empty()) jo.args.push_back("--family=" + f.family);
    if (!f.add_family.empty()) jo.args.push_back("--add-family=" + f.add_family);
    if (!f.drop_family.empty()) jo.args.push_back("--drop-family=" + f.drop_family);
    for (const auto& v : f.sets) jo.args.push_back("--set=" + v);
    if (f.no_compact) jo.args.push_back("--no-compact");
    if (f.keep_cells) jo.args.push_back("--keep-cells");
    if (f.force) jo.args.push_back("--force");
    if (f.trust_inputs) jo.args.push_back("--trust-inputs");
    if (f.delete_dropped) jo.args.push_back("--delete-dropped");
    jo.args.push_back("--now=" + std::to_string(jo.now_ms));
    return EmitUnits("alter", jo, f.json, out, err);
  }
  if (region::IsRemotePath(path)) return RemoteNeedsUnits(err, kTool, path);
  if (std::error_code ec; !std::filesystem::is_directory(path, ec))
    return ReportError(err, kTool, Status::NotFound(path, "no such directory"));

  // The table: named by the statement (with ROOT), or the table dir's own descriptor.
  TableName table;
  std::string table_dir = path;
  if (!text.empty()) {
    auto st = region::ParseAlterStatement(text);
    if (!st.ok()) return UsageError(err, kTool, st.status().message());
    table = st->table;
    table_dir = TableDirFor(path, table);
  } else {
    auto d = region::ReadTableDescriptor(path);
    if (!d.ok()) return ReportError(err, kTool, d.status());
    table = d->descriptor.name();
  }
  auto current = region::ReadTableDescriptor(table_dir);
  if (!current.ok()) return ReportError(err, kTool, current.status());
  auto statement = BuildStatement(f, text, table);
  if (!statement.ok()) return UsageError(err, kTool, statement.status().message());
  auto after = region::ApplyAlter(current->descriptor, *statement);
  if (!after.ok()) return UsageError(err, kTool, after.status().message());

  region::AlterOptions o;
  o.compact = !f.no_compact;
  o.delete_dropped = f.delete_dropped;
  o.compaction.dry_run = f.dry_run;
  o.compaction.keep_cells = f.keep_cells;
  o.compaction.force = f.force;
  o.compaction.verify_inputs = !f.trust_inputs;
  if (f.now) o.compaction.now_ms = *f.now;
  std::string crash = f.crash_at;
  if (crash.empty())
    if (const char* env = std::getenv("HFILE_ALTER_CRASH_AT")) crash = env;
  o.compaction.checkpoint = CrashAtCheckpoint(crash);
  auto plan = region::PlanAlter(table_dir, *after, o);
  if (!plan.ok()) return ReportError(err, kTool, plan.status());
  Progress progress(err, kTool, f.progress);
  StoreProgress meter(progress, f.dry_run ? "merging" : "rewriting");
  if (progress.enabled()) {
    for (const auto& fam : plan->families)
      if (fam.rewrite && o.compact)
        for (const auto& [label, bytes] : fam.stores) meter.AddStore(label, bytes);
    o.compaction.progress = [&meter](const std::string& label, uint64_t n, uint64_t total) {
      meter.OnStore(label, n, total);
    };
    o.compaction.verify_progress = [&meter](const std::string& label, uint64_t n) {
      meter.OnVerify(label, n);
    };
  }
  if (!f.json) PrintPlan(*plan, f.dry_run, out);
  if (progress.enabled()) meter.Start();
  region::AlterReport rep;
  if (!f.dry_run) o.compaction.cancel = InstallInterruptHandlers();
  Status s = region::RunAlter(*plan, o, &rep);
  meter.Clear();
  if (f.json) {
    PrintJson(*plan, rep, f.dry_run, s, out);
  } else {
    if (!rep.descriptor_path.empty()) out << "descriptor written: " << rep.descriptor_path << "\n";
    for (const auto& d : rep.created_dirs) out << "family " << d << ": dir created in every region\n";
    for (const auto& d : rep.archived_dirs) out << "family " << d << ": dirs archived\n";
    for (const auto& st : rep.compaction.stores) {
      if (!st.skipped.empty()) {
        out << fmt::format("{}/{}: skipped: {}\n", st.region, st.family, st.skipped);
        continue;
      }
      out << fmt::format("{}/{}: {}{} file(s), {} -> {} bytes{}, cells {} -> {}{}\n", st.region,
                         st.family, f.dry_run ? "would rewrite " : "rewrote ", st.inputs.size(),
                         st.bytes_in, st.bytes_out, f.dry_run ? " (estimated)" : "",
                         st.stats.input_cells, st.stats.output_cells,
                         st.status.ok() ? "" : "; NOT COMMITTED: " + st.status.ToString());
    }
  }
  if (int sig = InterruptExitCode()) {
    err << "hfile-alter: interrupted: the store being rewritten was rolled back; rerun to finish "
           "(the new descriptor is in place)\n";
    return sig;
  }
  if (!s.ok()) return ReportError(err, kTool, s);
  return kExitOk;
}

}  // namespace hfile::cli
