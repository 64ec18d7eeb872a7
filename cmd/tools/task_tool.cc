// `hfile task`: runs one unit of a distributed job (region::RunTask), or commits a job
// (region::CommitJob). doc/distributed.md has the records; the logic lives in region/units.h.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>
#include <ostream>
#include <sstream>

#include "cli_common.h"
#include "hfile/escape.h"
#include "json_error.h"
#include "region/tool_threads.h"
#include "region/units.h"
#include "units_cli.h"

namespace hfile::cli {

namespace {

constexpr const char* kTool = "hfile-task";

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

std::string Env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

// The commit's error code in its JSON record (hfile-task(1)).
std::string CommitCode(const Status& s, const region::JobCommitReport& rep) {
  if (s.ok()) return "null";
  if (!rep.missing.empty()) return Json("job-incomplete");
  if (!rep.problems.empty()) return Json("job-results-mismatch");
  return "null";
}

int RunCommit(const std::string& job_dir, bool dry_run, bool json, std::ostream& out,
              std::ostream& err) {
  region::JobCommitOptions o;
  o.dry_run = dry_run;
  o.commit.checkpoint = CrashAtCheckpoint(Env("HFILE_TASK_COMMIT_CRASH_AT"));
  region::JobCommitReport rep;
  Status s = region::CommitJob(job_dir, o, &rep);
  if (json) {
    out << fmt::format(
        "{{\"kind\":\"task-commit\",\"v\":1,\"path\":{},\"job\":{},\"table\":{},\"dry_run\":{},"
        "\"units\":{},\"attempts\":{},\"missing\":{},\"problems\":{},\"puts\":{},"
        "\"archives\":{},\"deletes\":{},\"bytes_added\":{},\"bytes_removed\":{},"
        "\"recovered\":{},\"already_committed\":{},\"committed\":{},\"error\":{},\"code\":{}}}\n",
        Json(job_dir), Json(rep.job_id), Json(rep.table_dir), dry_run, rep.units,
        rep.attempts_seen, JsonList(rep.missing), JsonList(rep.problems), rep.puts, rep.archives,
        rep.deletes, rep.bytes_added, rep.bytes_removed, JsonList(rep.recovered),
        rep.already_committed, rep.committed, s.ok() ? "null" : Json(s.ToString()),
        CommitCode(s, rep));
  } else {
    for (const auto& r : rep.recovered) out << r << "\n";
    if (rep.already_committed) {
      out << fmt::format("job {} of {} is committed\n", rep.job_id, rep.table_dir);
    } else if (s.ok()) {
      out << fmt::format("job {}: {} unit(s) {}: {} put(s), {} archived, {} deleted; +{} -{} "
                         "bytes\n",
                         rep.job_id, rep.units, dry_run ? "checked (dry run)" : "committed",
                         rep.puts, rep.archives, rep.deletes, rep.bytes_added, rep.bytes_removed);
    }
    for (const auto& m : rep.missing) err << kTool << ": unit " << m << ": no complete attempt\n";
    for (const auto& p : rep.problems) err << kTool << ": " << p << "\n";
  }
  if (!s.ok()) {
    PrintError(err, kTool, s);
    return rep.missing.empty() ? ExitCodeFor(s) : kExitUnreadable;
  }
  return kExitOk;
}

// The units of the job without a complete attempt, one JSON line each (a driver's restart).
int RunPending(const std::string& job_dir, std::ostream& out, std::ostream& err) {
  std::vector<std::string> lines;
  Status s = region::PendingUnits(job_dir, &lines);
  if (!s.ok()) return ReportError(err, kTool, s);
  for (const auto& l : lines) out << l << "\n";
  return kExitOk;
}

}  // namespace

int RunTaskTool(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  CLI::App app{"Run one unit of a distributed job (a line of its units.jsonl, from "
               "--emit-units) into an attempt dir of its own, or commit the job once every unit "
               "has a complete attempt.",
               kTool};
  AddStandardFlags(app);
  std::string unit_file, attempt, work_dir, commit, pending;
  bool json = false, dry_run = false;
  int threads = 1;
  app.add_option("unit", unit_file, "The unit: a file holding its JSON, or - for stdin");
  app.add_option("--attempt", attempt,
                 "The attempt's id, one path component (Spark: <stage attempt>-<task attempt>)");
  app.add_option("--work-dir", work_dir,
                 "Where a unit of a table on HDFS is mirrored (default: $TMPDIR or /tmp)");
  app.add_option("--threads", threads,
                 "Threads the unit's tool keeps busy: 1 (default), the one core a scheduler "
                 "gives a task; 2 overlaps checking, reading and writing as the tools do alone")
      ->check(CLI::Range(1, 2));
  app.add_option("--commit", commit, "Commit the job in this job dir (<table>/.hfile-jobs/<id>)");
  app.add_option("--pending", pending,
                 "Print the units of the job in this job dir that have no complete attempt yet, "
                 "one JSON line each");
  app.add_flag("--dry-run", dry_run, "With --commit: check every result, change nothing");
  app.add_flag("--json", json, "Print the JSON record (task-result, task-commit)");
  if (auto code = ParseArgs(app, argc, argv, out, err, {"--commit", "--pending"})) return *code;
  if (!pending.empty()) {
    if (!unit_file.empty() || !attempt.empty() || !commit.empty() || dry_run)
      return UsageError(err, kTool, "--pending takes no unit, --attempt, --commit or --dry-run");
    return RunPending(pending, out, err);
  }
  if (!commit.empty()) {
    if (!unit_file.empty() || !attempt.empty())
      return UsageError(err, kTool, "--commit takes no unit and no --attempt");
    return RunCommit(commit, dry_run, json, out, err);
  }
  if (dry_run) return UsageError(err, kTool, "--dry-run is for --commit");
  if (unit_file.empty()) return UsageError(err, kTool, "give a unit (a file, or -) or --commit");
  if (attempt.empty()) return UsageError(err, kTool, "--attempt is required with a unit");
  std::string unit;
  Status s;
  if (unit_file == "-") {
    unit.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  } else if (std::ifstream in(unit_file, std::ios::binary); in) {
    unit.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  } else {
    s = Status::NotFound(unit_file, "cannot open");
  }
  region::SetToolThreads(threads);
  region::TaskOptions o;
  o.attempt = attempt;
  o.work_dir = work_dir;
  o.run_tool = RunToolInProcess;
  o.checkpoint = CrashAtCheckpoint(Env("HFILE_TASK_CRASH_AT"));
  region::TaskSummary sum;
  if (s.ok()) s = region::RunTask(unit, o, &sum);
  if (json) {
    if (!sum.result_json.empty()) {
      out << sum.result_json << "\n";
    } else {
      out << fmt::format(
          "{{\"kind\":\"task-result\",\"v\":1,\"path\":{},\"attempt\":{},"
          "\"status\":\"error\",{}}}\n",
          Json(unit_file), Json(attempt), JsonErrorFields(s));
    }
  } else if (s.ok()) {
    out << fmt::format("unit done{}: {}\n", sum.reused ? " (the attempt was complete)" : "",
                       sum.result_json);
  }
  if (!s.ok()) {
    if (!sum.tool_err.empty()) err << sum.tool_err;
    PrintError(err, kTool, s);
    return sum.tool_exit != 0 ? sum.tool_exit : ExitCodeFor(s);
  }
  return kExitOk;
}

}  // namespace hfile::cli
