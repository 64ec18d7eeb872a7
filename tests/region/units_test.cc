// Distributed jobs (region/units.h): plan, tasks, commit on a 4-region, 2-family table made by
// the tools themselves. Each job's result equals the single-machine tool's cell for cell; a
// task killed (SIGKILL, the real binary), a unit run twice, a commit killed before and after its
// commit record, and an input changed under a job lose nothing and duplicate nothing.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "cli_common.h"
#include "region/region_info.h"
#include "region/units.h"
#include "units_cli.h"
#include "../testutil.h"

namespace hfile::region {
namespace {

namespace fs = std::filesystem;
using cli::RunToolInProcess;

constexpr int64_t kNow = 1800000000000;

int Tool(std::vector<std::string> argv, std::string* out = nullptr) {
  std::string o, e;
  int code = 0;
  if (argv[0] != "create" && argv[0] != "bulkload" && argv[0] != "dump") {
    code = RunToolInProcess(argv, &o, &e);
  } else {
    using Fn = int (*)(int, const char* const*, std::ostream&, std::ostream&);
    Fn fn = argv[0] == "create" ? cli::RunCreateTool
            : argv[0] == "bulkload" ? cli::RunBulkLoadTool
                                    : cli::RunDumpTool;
    argv[0] = "hfile-" + argv[0];
    std::vector<const char*> c;
    for (const auto& a : argv) c.push_back(a.c_str());
    std::ostringstream os, es;
    code = fn(static_cast<int>(c.size()), c.data(), os, es);
    o = os.str(), e = es.str();
  }
  if (out) *out = o;
  if (code != 0) ADD_FAILURE() << argv[0] << " exited " << code << ": " << e;
  return code;
}

// The cells of a table as `hfile dump --table -p --json` prints them, without file paths
// (the outputs' names differ between runs).
std::string Cells(const std::string& table_dir) {
  std::string out;
  Tool({"dump", "--table", table_dir, "-p", "--json"}, &out);
  std::string s;
  for (size_t i = 0; i < out.size();) {
    size_t p = out.find("\"path\":\"", i);
    if (p == std::string::npos) {
      s += out.substr(i);
      break;
    }
    s += out.substr(i, p - i);
    i = out.find('"', p + 8) + 2;  // past the value and its comma
  }
  return s;
}

std::vector<std::string> Tree(const std::string& dir) {
  std::vector<std::string> v;
  for (auto& e : fs::recursive_directory_iterator(dir))
    v.push_back(fs::relative(e.path(), dir).string() +
                (e.is_directory() ? "/" : ":" + std::to_string(e.file_size())));
  std::sort(v.begin(), v.end());
  return v;
}

std::vector<std::string> RegionNames(const std::string& table_dir) {
  std::vector<std::string> v;
  for (auto& e : fs::directory_iterator(table_dir))
    if (e.path().filename().string()[0] != '.') v.push_back(e.path().filename().string());
  std::sort(v.begin(), v.end());
  return v;
}

std::string Descriptor(const std::string& table_dir) {
  std::string newest;
  for (auto& e : fs::directory_iterator(table_dir + "/.tabledesc"))
    newest = std::max(newest, e.path().string());
  std::ifstream in(newest, std::ios::binary);
  return fs::path(newest).filename().string() + ":" +
         std::string(std::istreambuf_iterator<char>(in), {});
}

std::vector<std::string> Lines(const std::string& path) {
  std::vector<std::string> v;
  std::ifstream in(path);
  for (std::string l; std::getline(in, l);)
    if (!l.empty()) v.push_back(l);
  return v;
}

// The real binary, for the kills (a checkpoint that SIGKILLs it).
int RunBinary(const std::string& env, const std::string& args, const std::string& stdin_file) {
  const std::string cmd = env + " " HFILE_BINARY_DIR "/bin/hfile-task " + args +
                          (stdin_file.empty() ? "" : " < " + stdin_file) + " >/dev/null 2>&1";
  return std::system(cmd.c_str());
}

class UnitsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = test::NewTempDir("units");
    const std::string root = dir_ + "/root";
    ASSERT_EQ(Tool({"create", root,
                    "create 't', {NAME => 'm', VERSIONS => 2}, {NAME => 'b', COMPRESSION => "
                    "'ZSTD'}, {SPLITS => ['3', '6', '9']}"}),
              0);
    const std::string tsv = dir_ + "/in.tsv";
    {
      std::ofstream out(tsv);
      uint32_t x = 7;
      for (int i = 0; i < 3000; ++i) {
        x = x * 1103515245 + 12345;
        char row[8];
        std::snprintf(row, sizeof row, "%04u", (x >> 8) % 10000);
        out << row << "\tv" << i << "\tbody-" << i << std::string((x >> 4) % 150, 'x') << "\n";
      }
    }
    // Twice: two files per store, so a compaction merges and drops versions.
    for (int k = 0; k < 2; ++k)
      ASSERT_EQ(Tool({"bulkload", "--into", "--root", root, "--table", "t", "--columns",
                      "HBASE_ROW_KEY,m:a,b:c", "--no-progress", tsv}),
                0);
    fs::copy(dir_ + "/root", dir_ + "/local", fs::copy_options::recursive);
    table_ = root + "/data/default/t";
    local_ = dir_ + "/local/data/default/t";
  }

  // Plans with the tool's --emit-units (in process), as a driver does.
  std::string Emit(std::vector<std::string> argv, const std::string& job) {
    argv.push_back("--emit-units");
    argv.push_back("--job-id=" + job);
    argv.push_back("--json");
    std::string out;
    EXPECT_EQ(Tool(argv, &out), 0);
    EXPECT_NE(out.find("\"job\":\"" + job + "\""), std::string::npos) << out;
    return table_ + "/.hfile-jobs/" + job;
  }

  void RunUnits(const std::string& job_dir, const std::string& attempt) {
    for (const auto& unit : Lines(job_dir + "/units.jsonl")) {
      TaskSummary sum;
      Status s = RunTask(unit, {.attempt = attempt, .run_tool = RunToolInProcess}, &sum);
      ASSERT_TRUE(s.ok()) << s.ToString() << "\n" << sum.tool_err;
      EXPECT_TRUE(sum.ok);
    }
  }

  void Commit(const std::string& job_dir, JobCommitReport* rep) {
    Status s = CommitJob(job_dir, {}, rep);
    ASSERT_TRUE(s.ok()) << s.ToString() << (rep->problems.empty() ? "" : rep->problems[0]);
  }

  // The job's table equals the local run's: cells, descriptor, region names.
  void ExpectSameAsLocal() {
    EXPECT_TRUE(Cells(table_) == Cells(local_));
    EXPECT_EQ(Descriptor(table_), Descriptor(local_));
    EXPECT_EQ(RegionNames(table_), RegionNames(local_));
    EXPECT_EQ(Dirs(table_), Dirs(local_));
    EXPECT_GT(Cells(table_).size(), 100000u);  // the dump did read the cells
    EXPECT_FALSE(fs::exists(table_ + "/.hfile-journal"));
  }

  // "<region>/<family>/" and the like: the shape, without the store files' names.
  static std::vector<std::string> Dirs(const std::string& table_dir) {
    std::vector<std::string> v;
    for (const auto& e : Tree(table_dir))
      if (e.back() == '/' && e[0] != '.') v.push_back(e);
    return v;
  }

  std::string dir_, table_, local_;
};

struct JobCase {
  const char* name;
  std::vector<std::string> args;  // after the tool and its target
  const char* tool;
};

class UnitsJobTest : public UnitsTest, public ::testing::WithParamInterface<JobCase> {};

TEST_P(UnitsJobTest, EqualsTheSingleMachineRun) {
  const JobCase& c = GetParam();
  std::vector<std::string> local{c.tool, local_}, job{c.tool, table_};
  for (const auto& a : c.args) local.push_back(a), job.push_back(a);
  if (std::string(c.tool) == "split") {  // the local tool splits one region at a time
    for (const auto& r : RegionNames(local_)) {
      std::string out;
      ASSERT_EQ(Tool({"split", local_ + "/" + r, "--skip-unsplittable", "--now=1800000000000"},
                     &out),
                0);
    }
  } else {
    ASSERT_EQ(Tool(local), 0);
  }
  const std::string job_dir = Emit(job, "j1");
  ASSERT_FALSE(Lines(job_dir + "/units.jsonl").empty());
  RunUnits(job_dir, "0-0");
  JobCommitReport rep;
  Commit(job_dir, &rep);
  EXPECT_TRUE(rep.committed);
  EXPECT_GT(rep.puts, 0u);
  ExpectSameAsLocal();
  EXPECT_FALSE(fs::exists(job_dir));
  EXPECT_TRUE(fs::exists(table_ + "/.hfile-jobs/j1.done"));

  // A rerun of the driver and of the commit: nothing to do.
  JobPlan plan;
  ASSERT_TRUE(PlanJob({.tool = c.tool, .target = table_, .job_id = "j1"}, &plan).ok());
  EXPECT_TRUE(plan.already_committed);
  JobCommitReport again;
  Commit(job_dir, &again);
  EXPECT_TRUE(again.already_committed);
  ExpectSameAsLocal();
}

INSTANTIATE_TEST_SUITE_P(
    Tools, UnitsJobTest,
    ::testing::Values(
        JobCase{"compact", {"--now=1800000000000"}, "compact"},
        JobCase{"alter",
                {"--family=m", "--set=VERSIONS=1", "--set=DATA_BLOCK_ENCODING=FAST_DIFF",
                 "--now=1800000000000"},
                "alter"},
        JobCase{"alter_add_family", {"--add-family=n", "--now=1800000000000"}, "alter"},
        JobCase{"copy_family", {"b", "body", "--drop-old", "--now=1800000000000"},
                "copy-family"},
        JobCase{"split", {"--now=1800000000000"}, "split"}),
    [](const auto& info) { return std::string(info.param.name); });

TEST_F(UnitsTest, EveryUnitRunTwiceCommitsOnce) {
  ASSERT_EQ(Tool({"compact", local_, "--now=1800000000000"}), 0);
  const std::string job_dir = Emit({"compact", table_, "--now=1800000000000"}, "twice");
  RunUnits(job_dir, "1-0");
  RunUnits(job_dir, "0-0");
  RunUnits(job_dir, "0-0");  // a complete attempt again: its result, nothing redone
  JobCommitReport rep;
  Commit(job_dir, &rep);
  EXPECT_EQ(rep.attempts_seen, 2 * rep.units);
  EXPECT_EQ(rep.puts, rep.units);  // one output per store, not two
  for (const auto& r : RegionNames(table_))
    for (const char* f : {"m", "b"}) {
      size_t files = 0;
      for (auto& e : fs::directory_iterator(table_ + "/" + r + "/" + f)) files += !e.is_directory();
      EXPECT_EQ(files, 1u) << r << "/" << f;
    }
  ExpectSameAsLocal();
}

TEST_F(UnitsTest, KilledTaskIsRunAgain) {
  ASSERT_EQ(Tool({"compact", local_, "--now=1800000000000"}), 0);
  const std::string job_dir = Emit({"compact", table_, "--now=1800000000000"}, "kill");
  const auto units = Lines(job_dir + "/units.jsonl");
  const auto before = Tree(table_ + "/" + RegionNames(table_)[0]);
  {
    std::ofstream(dir_ + "/u0.json") << units[0];
  }
  int rc = RunBinary("HFILE_TASK_CRASH_AT=tool-done", "- --attempt 0-0 --json", dir_ + "/u0.json");
  ASSERT_TRUE(WIFSIGNALED(rc) || WEXITSTATUS(rc) == 128 + 9 || WEXITSTATUS(rc) == 137) << rc;
  EXPECT_TRUE(fs::exists(job_dir + "/attempts/00000/0-0"));
  EXPECT_FALSE(fs::exists(job_dir + "/attempts/00000/0-0/result.json"));
  for (size_t i = 1; i < units.size(); ++i) {
    TaskSummary sum;
    ASSERT_TRUE(RunTask(units[i], {.attempt = "0-0", .run_tool = RunToolInProcess}, &sum).ok());
  }
  JobCommitReport rep;
  Status s = CommitJob(job_dir, {}, &rep);
  EXPECT_TRUE(s.IsNotFound()) << s.ToString();
  EXPECT_EQ(rep.missing, std::vector<std::string>{"00000"});
  EXPECT_EQ(Tree(table_ + "/" + RegionNames(table_)[0]), before);  // nothing touched
  // Spark's retry: the same unit under the next attempt number (the killed one is ignored).
  rc = RunBinary("", "- --attempt 0-1 --json", dir_ + "/u0.json");
  ASSERT_EQ(rc, 0);
  Commit(job_dir, &rep);
  EXPECT_TRUE(rep.committed);
  ExpectSameAsLocal();
}

TEST_F(UnitsTest, CommitKilledBeforeAndAfterItsCommitRecord) {
  ASSERT_EQ(Tool({"compact", local_, "--now=1800000000000"}), 0);
  const std::string job_dir = Emit({"compact", table_, "--now=1800000000000"}, "ck");
  RunUnits(job_dir, "0-0");
  const auto before = Tree(table_);
  // Killed after the intent: the table is as it was and the attempts stay.
  int rc = RunBinary("HFILE_TASK_COMMIT_CRASH_AT=journal-written", "--commit " + job_dir, "");
  ASSERT_NE(rc, 0);
  EXPECT_TRUE(fs::exists(table_ + "/.hfile-journal"));
  JobCommitReport dry;
  ASSERT_TRUE(CommitJob(job_dir, {.dry_run = true}, &dry).ok());
  EXPECT_FALSE(dry.recovered.empty());
  // Killed after the commit record: a rerun rolls forward.
  rc = RunBinary("HFILE_TASK_COMMIT_CRASH_AT=commit-written", "--commit " + job_dir, "");
  ASSERT_NE(rc, 0);
  EXPECT_TRUE(fs::exists(table_ + "/.hfile-journal"));
  JobCommitReport rep;
  Commit(job_dir, &rep);
  EXPECT_FALSE(rep.recovered.empty());
  EXPECT_TRUE(rep.already_committed);  // the roll forward was the commit
  EXPECT_FALSE(fs::exists(job_dir));
  ExpectSameAsLocal();
  EXPECT_NE(Tree(table_), before);
}

TEST_F(UnitsTest, AnInputChangedUnderTheJobIsRefused) {
  const std::string job_dir = Emit({"compact", table_, "--now=1800000000000"}, "chg");
  RunUnits(job_dir, "0-0");
  // Someone compacts a region meanwhile: the job's results no longer match the table.
  ASSERT_EQ(Tool({"compact", table_ + "/" + RegionNames(table_)[1], "--now=1800000000000"}), 0);
  const auto before = Tree(table_);
  JobCommitReport rep;
  Status s = CommitJob(job_dir, {}, &rep);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  ASSERT_FALSE(rep.problems.empty());
  EXPECT_NE(rep.problems[0].find("no longer in the table"), std::string::npos) << rep.problems[0];
  EXPECT_EQ(Tree(table_), before);
  EXPECT_FALSE(fs::exists(table_ + "/.hfile-journal"));
}

TEST_F(UnitsTest, PlanRefusesAnOnlineOrUnfinishedTable) {
  // A clean shutdown leaves the server's WAL dir empty: planned as the tools run.
  fs::create_directories(dir_ + "/root/WALs/rs1");
  JobPlan plan;
  EXPECT_TRUE(PlanJob({.tool = "compact", .target = table_, .job_id = "e"}, &plan).ok());
  std::ofstream(dir_ + "/root/WALs/rs1/rs1%2C16020%2C1.1700000000000") << "wal";
  Status s = PlanJob({.tool = "compact", .target = table_}, &plan);
  EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
  EXPECT_NE(s.ToString().find("WALs/rs1: holds WAL files"), std::string::npos) << s.ToString();
  EXPECT_TRUE(PlanJob({.tool = "compact", .target = table_, .job_id = "f", .force = true}, &plan)
                  .ok());
  EXPECT_EQ(plan.unit_lines.size(), 8u);  // 4 regions x 2 families
  EXPECT_FALSE(plan.reused);
  // The same id again: the plan is reused, not redone.
  JobPlan again;
  ASSERT_TRUE(
      PlanJob({.tool = "compact", .target = table_, .job_id = "f", .force = true}, &again).ok());
  EXPECT_TRUE(again.reused);
  EXPECT_EQ(again.unit_lines, plan.unit_lines);
  // Another tool under that id is a mistake.
  EXPECT_TRUE(PlanJob({.tool = "split", .target = table_, .job_id = "f", .force = true}, &again)
                  .IsInvalidArgument());
  std::ofstream(table_ + "/.hfile-journal") << "hfile journal 2\n";
  EXPECT_TRUE(PlanJob({.tool = "compact", .target = table_, .job_id = "g", .force = true}, &plan)
                  .IsNotSupported());
}

TEST_F(UnitsTest, AUnitOfAFamilyDirAndItsRecord) {
  JobPlan plan;
  ASSERT_TRUE(PlanJob({.tool = "compact",
                       .target = table_ + "/" + RegionNames(table_)[2] + "/m",
                       .job_id = "one"},
                      &plan)
                  .ok());
  ASSERT_EQ(plan.unit_lines.size(), 1u);
  const std::string& u = plan.unit_lines[0];
  EXPECT_NE(u.find("\"kind\":\"unit\""), std::string::npos) << u;
  EXPECT_NE(u.find("\"families\":[\"m\"]"), std::string::npos) << u;
  EXPECT_NE(u.find("\"table\":\"" + table_ + "\""), std::string::npos) << u;  // absolute
  EXPECT_NE(u.find("\".tabledesc/.tableinfo.0000000001"), std::string::npos) << u;
  EXPECT_NE(u.find("/.regioninfo\""), std::string::npos) << u;
  EXPECT_EQ(Lines(plan.job_dir + "/units.jsonl"), plan.unit_lines);
  // A bad unit or attempt is refused before anything is written.
  TaskSummary sum;
  EXPECT_TRUE(RunTask("{}", {.attempt = "a", .run_tool = RunToolInProcess}, &sum)
                  .IsInvalidArgument());
  EXPECT_TRUE(RunTask(u, {.attempt = "../x", .run_tool = RunToolInProcess}, &sum)
                  .IsInvalidArgument());
  EXPECT_TRUE(RunTask("not json", {.attempt = "a", .run_tool = RunToolInProcess}, &sum)
                  .IsCorruption());
  EXPECT_FALSE(fs::exists(plan.job_dir + "/attempts"));
}

// The store files' "<region>/<family> _SeqId_<n>_" (their names but the random part).
std::vector<std::string> LoadedFiles(const std::string& table_dir) {
  std::vector<std::string> v;
  for (const auto& e : Tree(table_dir)) {
    const auto at = e.find("_SeqId_");
    if (at == std::string::npos || e[0] == '.') continue;
    const auto slash = e.rfind('/', at);
    v.push_back(e.substr(0, slash) + " " + e.substr(at));
  }
  std::sort(v.begin(), v.end());
  return v;
}

// A bulk load as a two-stage job: a partition unit per input, then a write unit per region.
// Inputs with duplicate keys across them (the last line wins over all inputs, as in one run),
// a bad line skipped, and units run out of order and twice.
TEST_F(UnitsTest, BulkLoadJobEqualsTheSingleMachineRun) {
  const size_t files_before = LoadedFiles(table_).size();
  std::vector<std::string> inputs;
  for (int k = 0; k < 3; ++k) {
    inputs.push_back(dir_ + "/load" + std::to_string(k) + ".tsv");
    std::ofstream out(inputs.back());
    for (int i = 0; i < 1500; ++i) {
      char row[8];
      std::snprintf(row, sizeof row, "%04d", (i * 7919 + k * 13) % (k == 1 ? 2500 : 10000));
      out << row << "\tload" << k << "-" << i << "\tc" << i << "\n";
      if (i == 700) out << "a line without tabs\n";
    }
  }
  const std::vector<std::string> opts{"--columns", "HBASE_ROW_KEY,m:a,b:c", "--skip-bad-lines",
                                      "--now=1800000000000", "--no-progress"};
  std::vector<std::string> local{"bulkload", "--into", "--table", local_};
  local.insert(local.end(), opts.begin(), opts.end());
  local.insert(local.end(), inputs.begin(), inputs.end());
  ASSERT_EQ(Tool(local), 0);

  std::vector<std::string> job{"bulkload", "--into", "--table", table_};
  job.insert(job.end(), opts.begin(), opts.end());
  job.insert(job.end(), inputs.begin(), inputs.end());
  const std::string job_dir = Emit(job, "load");
  const auto units = Lines(job_dir + "/units.jsonl");
  ASSERT_EQ(units.size(), 3u + 4u);  // 3 inputs, 4 regions
  auto run = [&](const std::string& unit, const std::string& attempt) {
    TaskSummary sum;
    return RunTask(unit, {.attempt = attempt, .run_tool = RunToolInProcess}, &sum);
  };
  // A write unit before its partition stage: retryable (I/O error), nothing recorded.
  Status early = run(units[3], "0-0");
  EXPECT_TRUE(early.IsIOError()) << early.ToString();
  EXPECT_NE(early.ToString().find("run the partition stage first"), std::string::npos);
  EXPECT_FALSE(fs::exists(job_dir + "/attempts/00003/0-0/result.json"));
  // The partition stage, the middle input twice; then the regions last to first.
  for (size_t i = 0; i < 3; ++i) ASSERT_TRUE(run(units[i], "0-0").ok());
  ASSERT_TRUE(run(units[1], "1-0").ok());
  EXPECT_TRUE(fs::exists(job_dir + "/attempts/00001/1-0/parts"));
  for (size_t i = units.size(); i-- > 3;) ASSERT_TRUE(run(units[i], "0-1").ok()) << i;
  JobCommitReport rep;
  Commit(job_dir, &rep);
  EXPECT_TRUE(rep.committed);
  EXPECT_EQ(rep.puts, LoadedFiles(local_).size() - files_before);
  EXPECT_TRUE(Cells(table_) == Cells(local_));
  EXPECT_EQ(LoadedFiles(table_), LoadedFiles(local_));  // the same files, the same sequence ids
  EXPECT_EQ(Descriptor(table_), Descriptor(local_));
}

// The partition stage passes records on as it read them: a CSV header starts every part, a
// quoted value over two lines (CRLF inside) stays one record, and the load of the parts equals
// the load of the input.
TEST_F(UnitsTest, BulkLoadJobOfCsvWithHeaderAndMultiLineRecords) {
  const std::string csv = dir_ + "/in.csv";
  {
    std::ofstream out(csv, std::ios::binary);
    out << "HBASE_ROW_KEY,m:a,b:c\r\n";
    for (int i = 0; i < 400; ++i) {
      char row[8];
      std::snprintf(row, sizeof row, "%04d", (i * 37) % 10000);
      out << row << ",\"two\r\nlines " << i << "\",\"a, b\"\"q\"\"\"\r\n";
    }
  }
  const std::vector<std::string> opts{"--format", "csv", "--now=1800000000000", "--no-progress"};
  std::vector<std::string> local{"bulkload", "--into", "--table", local_};
  local.insert(local.end(), opts.begin(), opts.end());
  local.push_back(csv);
  ASSERT_EQ(Tool(local), 0);
  std::vector<std::string> job{"bulkload", "--into", "--table", table_};
  job.insert(job.end(), opts.begin(), opts.end());
  job.push_back(csv);
  const std::string job_dir = Emit(job, "csv");
  RunUnits(job_dir, "0-0");
  size_t parts = 0;
  for (auto& e : fs::directory_iterator(job_dir + "/attempts/00000/0-0/parts")) {
    std::ifstream in(e.path(), std::ios::binary);
    std::string first;
    std::getline(in, first);
    EXPECT_EQ(first, "HBASE_ROW_KEY,m:a,b:c") << e.path();
    ++parts;
  }
  EXPECT_EQ(parts, 4u);
  JobCommitReport rep;
  Commit(job_dir, &rep);
  const std::string cells = Cells(table_);
  EXPECT_TRUE(cells == Cells(local_));
  EXPECT_NE(cells.find("two\\\\x0D\\\\x0Alines 7"), std::string::npos);
}

// Bad lines without --skip-bad-lines fail their partition unit as they fail one run (data
// error, exit 2: not worth a retry), and nothing can be committed.
TEST_F(UnitsTest, BulkLoadJobWithBadLinesFails) {
  const std::string tsv = dir_ + "/bad.tsv";
  std::ofstream(tsv) << "0001\tx\ty\nno tabs here\n";
  const std::string job_dir =
      Emit({"bulkload", "--into", "--table", table_, "--columns", "HBASE_ROW_KEY,m:a,b:c",
            "--now=1800000000000", tsv},
           "bad");
  const auto units = Lines(job_dir + "/units.jsonl");
  TaskSummary sum;
  Status s = RunTask(units[0], {.attempt = "0-0", .run_tool = RunToolInProcess}, &sum);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_EQ(sum.tool_exit, 2);
  EXPECT_NE(sum.tool_err.find("bad.tsv:2"), std::string::npos) << sum.tool_err;
  JobCommitReport rep;
  EXPECT_TRUE(CommitJob(job_dir, {}, &rep).IsNotFound());
  EXPECT_FALSE(rep.missing.empty());
}

// --region loads one region; a row beyond its key range (here '7' in ['', '3')) is refused and
// nothing is loaded.
TEST_F(UnitsTest, BulkLoadOfOneRegionRefusesARowOutsideIt) {
  std::string region;
  for (const auto& r : RegionNames(table_)) {
    auto info = ReadRegionInfoFile(table_ + "/" + r + "/.regioninfo");
    ASSERT_TRUE(info.ok()) << info.status().ToString();
    if (info->start_key.empty()) region = r;
  }
  ASSERT_FALSE(region.empty());
  const std::string tsv = dir_ + "/two.tsv";
  std::ofstream(tsv) << "0001\tx\ty\n7000\tx\ty\n";
  const auto before = Tree(table_);
  std::vector<std::string> argv{"hfile-bulkload", "--into", "--table", table_, "--region", region,
                                "--columns", "HBASE_ROW_KEY,m:a,b:c", "--no-progress", tsv};
  std::vector<const char*> c;
  for (const auto& a : argv) c.push_back(a.c_str());
  std::ostringstream out, err;
  EXPECT_EQ(cli::RunBulkLoadTool(static_cast<int>(c.size()), c.data(), out, err), 2);
  EXPECT_NE(err.str().find("row '7000' is outside the region loaded"), std::string::npos)
      << err.str();
  EXPECT_EQ(Tree(table_), before);
}

}  // namespace
}  // namespace hfile::region
