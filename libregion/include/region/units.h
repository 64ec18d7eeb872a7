// Distributed runs of the writing tools (doc/distributed.md): a job planned as units, each unit
// run by a task anywhere (any number of times) into an attempt dir of its own, and one commit
// through the table's journal.
//
//   PlanJob({.tool = "compact", .args = {"--major"}, .target = table_dir, ...}, &plan);
//   // on any host, for each line of plan.unit_lines (Spark: one subprocess per unit):
//   RunTask(unit_json, {.attempt = "0-1", .run_tool = <the tool, in process>}, &task);
//   // on the driver, once:
//   CommitJob(job_dir, {}, &report);
//
// A task mirrors its unit (a private root holding only the unit's region: its .regioninfo, the
// unit's store files and what they read through, the descriptor), runs the tool itself on the
// mirror, and records the mirror's diff (paths added and removed) as its result. The table is
// touched only by CommitJob.
#ifndef REGION_UNITS_H_
#define REGION_UNITS_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "hfile/status.h"
#include "region/commit.h"
#include "region/file_system.h"

namespace hfile::region {

// What the tool's unit is: one store (compact, alter, copy-family) or one region (split).
enum class UnitGrain : uint8_t { kStore, kRegion };

struct JobPlanOptions {
  std::string tool;                 // "compact", "alter", "copy-family", "split"
  std::vector<std::string> args;    // the tool's arguments after its target
  std::string target;               // table, region or family dir; local path or hdfs:// URI
  UnitGrain grain = UnitGrain::kStore;
  // Only these families' stores get units (empty: every family of the descriptor).
  std::vector<std::string> families;
  // A unit for every region, with or without files of `families` (copy-family: NEW gets a dir
  // in every region).
  bool every_region = false;
  // The mirror holds every family dir of the region, not only the unit's (split: the split
  // point is the largest store's).
  bool mirror_all_families = false;
  // With no store to work on, one unit for the first region anyway (alter: the descriptor
  // changes even on a table without store files).
  bool at_least_one = false;
  // bulkload: its input files (absolute). The job has two stages: a partition unit per input
  // (its records into a part per region, in its attempt dir), then a write unit per region
  // (every input's part of that region loaded --into it, in input order).
  std::vector<std::string> sources;
  std::string job_id;               // "": "<tool>-<now ms>"
  bool force = false;               // plan a table that looks online (WALs/ not empty)
  int64_t now_ms = 0;               // 0: the clock
};

struct JobPlan {
  std::string job_id;
  std::string job_dir;                   // <table>/.hfile-jobs/<job id>
  std::string table_dir;
  std::vector<std::string> unit_lines;   // one JSON unit each, as in <job dir>/units.jsonl
  uint64_t bytes = 0;                    // the inputs of every unit
  std::vector<std::string> skipped;      // "<region>[/<family>]: why it has no unit"
  bool already_committed = false;        // <job id>.done exists: nothing was planned
  bool reused = false;                   // the job dir held this plan already
};

// Lists the target (over FileSystem: local or HDFS), refuses what no unit may run on (a table
// journal to recover first, WALs of a running server, a table not under <root>/data/<ns>/),
// and writes <job dir>/job.json and units.jsonl. A job dir that already holds a plan is
// reused as it is (a rerun of the driver): its units are returned, nothing is replanned.
Status PlanJob(const JobPlanOptions& options, JobPlan* plan);

// Runs a tool in process: argv[0] is the tool's name ("compact"), then its arguments; the
// tool's standard output and error go to *out and *err; returns its exit code.
using ToolRunner = std::function<int(const std::vector<std::string>& argv, std::string* out,
                                     std::string* err)>;

struct TaskOptions {
  std::string attempt;      // the attempt's id (Spark: "<stage attempt>-<task attempt>")
  std::string work_dir;     // where a remote table's unit is mirrored; "": $TMPDIR or /tmp
  ToolRunner run_tool;
  // Test hook, called at "mirrored", "tool-done", "uploaded" and "result-written".
  std::function<void(const std::string&)> checkpoint;
};

struct TaskSummary {
  std::string result_json;  // the result record (also <attempt dir>/result.json when ok)
  bool ok = false;
  bool reused = false;      // the attempt was already complete: its result, nothing redone
  int tool_exit = 0;
  std::string tool_err;     // the tool's standard error
};

// Runs one unit (its JSON) as one attempt. OK with summary->ok when the tool succeeded and
// the result is written; a failing tool is an error Status of the tool's kind (its message in
// summary->tool_err), with nothing of the attempt taken by a commit.
Status RunTask(const std::string& unit_json, const TaskOptions& options, TaskSummary* summary);

// The units of the planned job in `job_dir` that have no complete attempt yet (no attempt dir
// holding result.json), as their JSON lines in plan order: all of them before any task ran, none
// once the job can be committed. A driver runs these, and only these, after a restart. NotFound
// when the job dir holds no plan (never planned, or committed and removed).
Status PendingUnits(const std::string& job_dir, std::vector<std::string>* unit_lines);

struct JobCommitOptions {
  bool dry_run = false;        // check every result, print the steps, touch nothing
  bool verify_outputs = true;  // open every added store file (trailer, file info, index)
  CommitOptions commit;
};

struct JobCommitReport {
  std::string job_id, table_dir;
  size_t units = 0, attempts_seen = 0;
  std::vector<std::string> missing;      // units without a complete attempt
  std::vector<std::string> problems;     // why a result was refused
  size_t puts = 0, archives = 0, deletes = 0;
  uint64_t bytes_added = 0, bytes_removed = 0;
  std::vector<std::string> recovered;    // what an earlier interrupted commit left, finished
  bool already_committed = false;
  bool committed = false;
};

// Checks every unit's first complete attempt (by name) and commits them all in one
// transaction of the table's journal whose staging dir is the job dir (removed with it);
// <table>/.hfile-jobs/<job id>.done records the commit. Errors: a unit without a complete
// attempt (NotFound, report->missing), a result that does not match the table or another
// result (Corruption, report->problems); nothing is touched then.
Status CommitJob(const std::string& job_dir, const JobCommitOptions& options,
                 JobCommitReport* report);

// <table dir>/.hfile-jobs
std::string JobsDir(const std::string& table_dir);

// The wall clock in ms since the epoch: a job's instant (its units' --now).
int64_t JobPlanNowMs();

}  // namespace hfile::region

#endif  // REGION_UNITS_H_
