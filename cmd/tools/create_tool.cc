// `hfile create`: ROOT + an HBase shell create statement -> region::CreateTable; prints the plan
// (descriptor as the shell describes it, regions with their keys) and a text or JSON summary.
// The logic lives in region/create_table.h.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cstdlib>
#include <ostream>

#include "cli_common.h"
#include "progress.h"
#include "hfile/escape.h"
#include "region/create_table.h"
#include "region/shell_statement.h"

namespace hfile::cli {

namespace {

constexpr const char* kTool = "hfile-create";

struct CreateFlags {
  std::vector<std::string> args;  // ROOT ["create ..."]
  std::string file;
  bool dry_run = false, create_namespace = false, json = false;
  std::optional<int64_t> now;
  std::string crash_at;
  ProgressFlags progress;
};

std::string Json(const std::string& s) {
  std::string out;
  AppendJsonString(&out, s);
  return out;
}

std::string JsonMap(const std::vector<std::pair<std::string, std::string>>& entries) {
  std::string out = "{";
  for (const auto& [k, v] : entries) out += (out.size() > 1 ? "," : "") + Json(k) + ":" + Json(v);
  return out + "}";
}

std::string Key(const std::string& k) { return "'" + ToStringBinary(k) + "'"; }

void PrintText(const region::CreateTableResult& r, const std::string& root, bool dry_run,
               std::ostream& out) {
  const auto& d = r.descriptor;
  out << fmt::format("{} table {} in {}{}\n", dry_run ? "would create" : "create",
                     d.name().ToString(), r.table_dir, dry_run ? " (dry run)" : "");
  if (r.root_initialised)
    out << fmt::format("  new root dir {}: hbase.version (layout 8) and data/default/ {}\n", root,
                       dry_run ? "would be written" : "written");
  if (r.namespace_created)
    out << fmt::format("  namespace {}: dir {}; run create_namespace '{}' once HBase is up\n",
                       d.name().namespace_name, dry_run ? "would be created" : "created",
                       d.name().namespace_name);
  for (const auto& line : r.recovered) out << "  recovered: " << line << "\n";
  out << "  descriptor .tabledesc/" << r.descriptor_file << "\n";
  out << d.Describe();
  out << fmt::format("{} region(s), region id {}:\n", r.regions.size(),
                     r.regions.empty() ? 0 : r.regions[0].region_id);
  for (const auto& info : r.regions)
    out << fmt::format("  {}  STARTKEY => {}, ENDKEY => {}\n", info.EncodedName(),
                       Key(info.start_key), Key(info.end_key));
}

void PrintJson(const region::CreateTableResult* r, const std::string& table, bool dry_run,
               const Status& s, std::ostream& out) {
  std::string families, regions, values;
  if (r) {
    for (const auto& f : r->descriptor.families()) {
      if (!families.empty()) families += ",";
      families += fmt::format("{{\"name\":{},\"values\":{},\"configuration\":{},\"describe\":{}}}",
                              Json(f.name()), JsonMap(f.values()), JsonMap(f.configuration()),
                              Json(f.Describe()));
    }
    for (const auto& info : r->regions) {
      if (!regions.empty()) regions += ",";
      regions += fmt::format(
          "{{\"encoded\":{},\"name\":{},\"start_key\":{},\"end_key\":{},\"region_id\":{}}}",
          Json(info.EncodedName()), Json(ToStringBinary(info.RegionName())),
          Json(ToStringBinary(info.start_key)), Json(ToStringBinary(info.end_key)), info.region_id);
    }
    values = JsonMap(r->descriptor.values());
  }
  out << fmt::format(
      "{{\"kind\":\"create\",\"v\":1,\"table\":{},\"table_dir\":{},\"dry_run\":{},\"ok\":{},"
      "\"error\":{},\"root_initialised\":{},\"namespace_created\":{},"
      "\"finished_interrupted\":{},\"descriptor\":{},\"table_values\":{},\"families\":[{}],"
      "\"regions\":[{}]}}\n",
      Json(r ? r->descriptor.name().ToString() : table), r ? Json(r->table_dir) : "null", dry_run,
      s.ok(), s.ok() ? "null" : Json(s.ToString()), r && r->root_initialised,
      r && r->namespace_created, r && r->finished_interrupted,
      r && !r->descriptor_file.empty() ? Json(r->descriptor_file) : "null", r ? values : "null",
      families, regions);
}

}  // namespace

int RunCreateTool(int argc, const char* const* argv, std::ostream& out_arg, std::ostream& err) {
  CLI::App app{
      "Create an HBase table offline from the shell's create statement: the "
      "descriptor and one region per range, as HBase's create-table lays them out.",
      kTool};
  AddStandardFlags(app);
  CreateFlags f;
  app.add_option("args", f.args,
                 "ROOT \"create 't', {NAME => 'f', ...}, {SPLITS => [...]}\" (or ROOT --file F)")
      ->required();
  app.add_option("--file", f.file, "Read the statement from file F instead");
  app.add_flag("--create-namespace", f.create_namespace,
               "Create the dir of a namespace other than default when it is missing");
  app.add_flag("--dry-run", f.dry_run,
               "Print the descriptor and the regions with their keys; write nothing");
  app.add_option("--now", f.now, "The regions' id (creation time), in ms since the epoch");
  app.add_flag("--json", f.json, "Print a JSON summary instead of text");
  AddProgressFlags(app, &f.progress);
  app.add_option("--crash-at", f.crash_at)->group("");  // hidden: crash-safety tests
  if (auto code = ParseArgs(app, argc, argv, out_arg, err)) return *code;
  std::ostream& out = f.progress.quiet && !f.json ? NullStream() : out_arg;
  if (f.now && *f.now <= 0) return UsageError(err, kTool, "--now must be > 0");
  if (f.args.size() > 2)
    return UsageError(err, kTool, "give ROOT, then the statement in one argument");
  if (f.args.size() == 2 && !f.file.empty())
    return UsageError(err, kTool, "give the statement or --file, not both");
  if (f.args.size() == 1 && f.file.empty())
    return UsageError(err, kTool, "give the create statement after ROOT, or --file");

  region::CreateTableOptions o;
  o.root = f.args[0];
  if (f.args.size() == 2) o.statement = f.args[1];
  o.statement_file = f.file;
  o.create_namespace = f.create_namespace;
  o.dry_run = f.dry_run;
  if (f.now) o.now_ms = *f.now;
  std::string crash = f.crash_at;
  if (crash.empty())
    if (const char* env = std::getenv("HFILE_CREATE_CRASH_AT")) crash = env;
  o.checkpoint = CrashAtCheckpoint(crash);
  // No signal handlers: a signal that kills a create mid-way leaves no table or the whole table
  // (the journal), which the next run finishes. Progress: 1000 regions took 17.9 s (a region's
  // .regioninfo and family dirs are each made durably).
  Progress progress(err, kTool, f.progress);
  std::string unit;
  if (progress.enabled() && !f.dry_run) {
    o.progress = [&progress, &unit](const char* what, uint64_t done, uint64_t total) {
      if (unit != what) {
        progress.SetUnit(unit = what);
        progress.Phase(unit == "regions" ? "writing .regioninfo" : "creating family dirs", 0,
                       total);
      }
      progress.Update(0, done);
    };
  }
  auto r = region::CreateTable(o);
  progress.Clear();
  if (f.json) {
    // On a failure the record still names the table, when the statement parses.
    std::string table;
    if (!r.ok() && !o.statement.empty())
      if (auto st = region::ParseCreateStatement(o.statement); st.ok())
        table = st->table.ToString();
    PrintJson(r.ok() ? &*r : nullptr, table, f.dry_run, r.status(), out);
  }
  if (!r.ok()) return ReportError(err, kTool, r.status());  // also after the JSON: say why
  if (!f.json) {
    PrintText(*r, o.root, f.dry_run, out);
    if (r->finished_interrupted)
      out << "finished an interrupted create of this table (nothing else written)\n";
    else if (!f.dry_run)
      out << fmt::format(
          "created table {}: {} region(s), {} famil{}; hbase:meta does not list "
          "them yet (see hfile-create(1))\n",
          r->descriptor.name().ToString(), r->regions.size(), r->descriptor.families().size(),
          r->descriptor.families().size() == 1 ? "y" : "ies");
  }
  return kExitOk;
}

}  // namespace hfile::cli
