// `hfile describe`: a table (TABLE_DIR, or ROOT [ns:]table) -> its descriptor as HBase 2.6's
// shell `describe` prints it, then its regions and stores (region/describe.h, as `hfile dump
// --table` summarises them). Text, or one JSON object.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <filesystem>
#include <ostream>
#include <sstream>

#include "cli_common.h"
#include "progress.h"
#include "hfile/escape.h"
#include "region/describe.h"
#include "region/meta_table.h"
#include "region/region_set.h"
#include "region/target.h"

namespace hfile::cli {

namespace {

constexpr const char* kTool = "hfile-describe";

std::string Json(const std::string& s) {
  std::string out;
  AppendJsonString(&out, s);
  return out;
}

std::string JsonMap(const std::vector<std::pair<std::string, std::string>>& entries) {
  std::string out = "{";
  for (const auto& [k, v] : entries)
    out += (out.size() > 1 ? "," : "") + Json(ToStringBinary(k)) + ":" + Json(ToStringBinary(v));
  return out + "}";
}

// The shell's describe block. Its first line comes from hbase:meta's table:state (the shell's
// `enabled?`: ENABLED, anything else DISABLED), read from meta's store files when the table is
// under a root dir; without it the line says why the state is unknown.
std::string ShellDescribe(const region::TableDescriptor& d, const std::optional<std::string>& state,
                          const std::string& unknown_why) {
  std::string out =
      state ? fmt::format("Table {} is {}\n", d.name().ToString(),
                          *state == "ENABLED" ? "ENABLED" : "DISABLED")
            : fmt::format("Table {} is UNKNOWN ({})\n", d.name().ToString(), unknown_why);
  const std::string body = d.Describe();  // "<table line>\nCOLUMN FAMILIES DESCRIPTION\n..."
  const size_t header = body.find("COLUMN FAMILIES DESCRIPTION\n");
  out += body.substr(0, header + 28);
  for (const auto& f : d.families()) out += f.Describe() + "\n\n";
  out += fmt::format("{} row(s)\n", d.families().size());
  return out;
}

}  // namespace

int RunDescribeTool(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  CLI::App app{
      "Describe a table offline: its descriptor as the HBase shell's describe prints "
      "it, then its regions (key ranges) and stores (files, bytes, cells).",
      kTool};
  AddStandardFlags(app);
  std::vector<std::string> args;
  bool json = false, hex = false;
  app.add_option("args", args, "TABLE_DIR, or ROOT [ns:]TABLE")->required();
  app.add_flag("--json", json, "Print one JSON object instead of text");
  app.add_flag("--hex", hex, "Show row keys as hex instead of \\xNN escapes");
  ProgressFlags progress_flags;
  AddProgressFlags(app, &progress_flags, /*add_quiet=*/false);
  if (auto code = ParseArgs(app, argc, argv, out, err)) return *code;
  Progress progress(err, kTool, progress_flags);
  if (std::error_code ec; !std::filesystem::is_directory(args[0], ec))
    return ReportError(err, kTool, Status::NotFound(args[0], "no such directory"));
  size_t used = 0;
  auto target = region::ResolveTargetArgs(args, /*allow_region=*/false, &used);
  if (!target.ok()) return ReportError(err, kTool, target.status());
  if (used != args.size() || target->kind != region::Target::Kind::kTable)
    return UsageError(err, kTool, "give one table: TABLE_DIR, or ROOT [ns:]TABLE");
  auto set = region::OpenTableRegions(target->table_dir);
  if (!set.ok()) return ReportError(err, kTool, set.status());
  if (!set->descriptor)
    return ReportError(err, kTool, set->descriptor_status.WithContext(target->table_dir));

  // The table state, when hbase:meta is at hand (a clean stop flushes it; edits still in its
  // WALs are not read).
  std::optional<std::string> state;
  std::string unknown_why = "no hbase:meta: the table is not under an HBase root dir";
  if (target->table.namespace_name == region::kSystemNamespace &&
      target->table.qualifier == "meta") {
    state = "ENABLED";  // TableStateManager: hbase:meta is always enabled, and has no state row
  } else if (!target->root_dir.empty()) {
    progress.Phase("reading hbase:meta", 0);
    auto st = region::ReadMetaTableState(target->root_dir, target->table);
    if (st.ok() && *st) {
      state = **st;
    } else if (st.ok()) {
      unknown_why = "hbase:meta has no table state for it";
    } else if (st.status().IsNotFound()) {
      unknown_why = "the root has no hbase:meta yet";
    } else {
      unknown_why = "hbase:meta unreadable: " + st.status().ToString();
    }
  }

  region::DescribeOptions o;
  o.json = json;
  o.hex = hex;
  o.regions_only = true;
  progress.Phase("reading store files", 0);
  const auto summary = region::SummarizeRegionSet(
      *set, o.reader, /*check_family_bounds=*/true, [&progress](uint64_t done, uint64_t total) {
        progress.Update(0, 0, fmt::format("{} of {} store files", done, total));
      });
  progress.Clear();
  const auto& d = *set->descriptor;
  if (json) {
    std::ostringstream layout;
    region::DescribeRegionSet(*set, summary, o, layout);
    std::string l = layout.str();
    while (!l.empty() && l.back() == '\n') l.pop_back();
    std::string families;
    for (const auto& f : d.families()) {
      if (!families.empty()) families += ",";
      families += fmt::format("{{\"name\":{},\"values\":{},\"configuration\":{},\"describe\":{}}}",
                              Json(ToStringBinary(f.name())), JsonMap(f.values()),
                              JsonMap(f.configuration()), Json(f.Describe()));
    }
    const std::string table_line = d.Describe().substr(0, d.Describe().find('\n'));
    out << fmt::format(
        "{{\"kind\":\"describe\",\"v\":1,\"table\":{},\"table_dir\":{},\"descriptor_path\":{},"
        "\"state\":{},\"table_line\":{},\"table_values\":{},\"families\":[{}],\"shell\":{},"
        "\"layout\":{}}}\n",
        Json(d.name().ToString()), Json(target->table_dir), Json(set->descriptor_path),
        state ? Json(*state) : "null", Json(table_line), JsonMap(d.values()), families,
        Json(ShellDescribe(d, state, unknown_why)), l);
  } else {
    out << ShellDescribe(d, state, unknown_why);
    out << "\ndescriptor " << set->descriptor_path << "\n";
    region::DescribeRegionSet(*set, summary, o, out);
  }
  int code = kExitOk;
  for (const auto& p : summary.problems)
    if (p.unreadable) code = WorseExitCode(code, kExitUnreadable);
  return code;
}

}  // namespace hfile::cli
