// --emit-units for the writing tools, and the in-process runner of `hfile task`.
#include "units_cli.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <ostream>
#include <sstream>

#include "cli_common.h"
#include "hfile/escape.h"
#include "json_error.h"

namespace hfile::cli {

namespace {

std::string Json(const std::string& s) {
  std::string out;
  AppendJsonString(&out, s);
  return out;
}

}  // namespace

void AddEmitFlags(CLI::App& app, EmitFlags* flags) {
  app.add_flag("--emit-units", flags->emit_units,
               "Plan the work as units for 'hfile task' (Spark: spark/hfile_spark.py) instead of "
               "doing it: writes <table>/.hfile-jobs/<job id>/units.jsonl");
  app.add_option("--job-id", flags->job_id,
                 "With --emit-units: the job's id (default <tool>-<now ms>); a planned job dir of "
                 "that id is reused");
}

int EmitUnits(const std::string& tool, const region::JobPlanOptions& options, bool json,
              std::ostream& out, std::ostream& err) {
  region::JobPlan plan;
  Status s = region::PlanJob(options, &plan);
  if (!s.ok()) {
    if (json)
      out << fmt::format("{{\"kind\":\"units\",\"v\":1,\"tool\":{},\"path\":{},{}}}\n", Json(tool),
                         Json(options.target), JsonErrorFields(s));
    return ReportError(err, "hfile-" + tool, s);
  }
  const std::string units_file = plan.job_dir + "/units.jsonl";
  if (json) {
    std::string skipped;
    for (const auto& k : plan.skipped) skipped += (skipped.empty() ? "" : ",") + Json(k);
    out << fmt::format(
        "{{\"kind\":\"units\",\"v\":1,\"tool\":{},\"path\":{},\"table\":{},\"job\":{},"
        "\"job_dir\":{},\"units_file\":{},\"units\":{},\"bytes\":{},\"reused\":{},"
        "\"already_committed\":{},\"skipped\":[{}],\"error\":null,\"code\":null}}\n",
        Json(tool), Json(options.target), Json(plan.table_dir), Json(plan.job_id),
        Json(plan.job_dir), Json(units_file), plan.unit_lines.size(), plan.bytes, plan.reused,
        plan.already_committed, skipped);
    return kExitOk;
  }
  if (plan.already_committed) {
    out << fmt::format("job {} of {} was committed already: nothing to do\n", plan.job_id,
                       plan.table_dir);
    return kExitOk;
  }
  out << fmt::format("job {}: {} unit(s), {} bytes{}\n  units: {}\n", plan.job_id,
                     plan.unit_lines.size(), plan.bytes, plan.reused ? " (planned before)" : "",
                     units_file);
  for (const auto& k : plan.skipped) out << "  no unit: " << k << "\n";
  out << fmt::format("run each line with 'hfile task - --attempt ID', then 'hfile task --commit "
                     "{}'\n",
                     plan.job_dir);
  return kExitOk;
}

int RunToolInProcess(const std::vector<std::string>& argv, std::string* out, std::string* err) {
  using Fn = int (*)(int, const char* const*, std::ostream&, std::ostream&);
  static const std::pair<const char*, Fn> kRunners[] = {
      {"compact", RunCompactTool},
      {"alter", RunAlterTool},
      {"copy-family", RunCopyFamilyTool},
      {"split", RunSplitTool},
      {"bulkload", RunBulkLoadTool},
  };
  Fn fn = nullptr;
  for (const auto& [name, f] : kRunners)
    if (!argv.empty() && argv[0] == name) fn = f;
  if (!fn) {
    *err = "hfile-task: '" + (argv.empty() ? std::string() : argv[0]) +
           "' is not a tool a unit runs (compact, alter, copy-family, split, bulkload)\n";
    return kExitUsage;
  }
  std::vector<std::string> args = argv;
  args[0] = "hfile-" + argv[0];
  std::vector<const char*> c;
  for (const auto& a : args) c.push_back(a.c_str());
  std::ostringstream o, e;
  const int code = fn(static_cast<int>(c.size()), c.data(), o, e);
  *out = o.str();
  *err = e.str();
  return code;
}

}  // namespace hfile::cli
