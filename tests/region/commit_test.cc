// The commit journal (region/commit.h): the records, roll back of an intent, roll forward of a
// commit at every point of its application, idempotent steps, the archive layout, pending work,
// relocation of a root dir with a journal in it, and the lock.
#include "region/commit.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <set>

#include "fs_util.h"
#include "region/file_system.h"
#include "testutil.h"

namespace hfile::region {
namespace {

namespace fs = std::filesystem;

struct Fixture {
  std::string root, table;
  CommitScope scope;
  explicit Fixture(const std::string& name) {
    root = test::NewTempDir(name);
    table = root + "/data/default/t";
    fs::create_directories(table + "/r1/f");
    fs::create_directories(table + "/r1/.tmp");
    test::WriteFileOrDie(table + "/r1/f/old1", "old-1");
    test::WriteFileOrDie(table + "/r1/f/old2", "old-2");
    scope = CommitScope{table, "r1"};
  }
  std::string Staging() const { return "r1/.tmp/" + std::string("hfile-test-1"); }
  // Stages "new" and returns the transaction replacing old1 and old2 by it.
  Transaction Stage() const {
    Transaction t;
    t.tool = "test";
    t.staging = Staging();
    fs::create_directories(table + "/" + t.staging);
    test::WriteFileOrDie(table + "/" + t.staging + "/new", "new");
    return t;
  }
  static void Finish(Transaction* t) {
    t->Put(t->staging + "/new", "r1/f/new");
    t->Archive("r1/f/old1");
    t->Archive("r1/f/old2");
  }
  std::set<std::string> Family() const {
    std::set<std::string> out;
    for (const auto& e : fs::directory_iterator(table + "/r1/f")) out.insert(e.path().filename());
    return out;
  }
  std::string Archived(const std::string& name) const {
    return root + "/archive/data/default/t/r1/f/" + name;
  }
};

TEST(Commit, ScopesAndArchive) {
  CommitScope table{"/h/data/ns/t", ""};
  EXPECT_EQ(table.JournalPath(), "/h/data/ns/t/.hfile-journal");
  EXPECT_EQ(table.ArchiveDir(), "/h/archive/data/ns/t");
  CommitScope region{"/h/data/ns/t", "abc"};
  EXPECT_EQ(region.JournalPath(), "/h/data/ns/t/abc/.tmp/hfile.journal");
  EXPECT_EQ((CommitScope{"/somewhere/t", ""}.ArchiveDir()), "");
}

TEST(Commit, CommitPutsArchivesAndCleansUp) {
  Fixture f("commit-basic");
  Transaction t = f.Stage();
  ASSERT_TRUE(BeginTransaction(f.scope, t).ok());
  Fixture::Finish(&t);
  std::vector<std::string> steps;
  CommitOptions o;
  o.now_ms = 42;
  o.checkpoint = [&](const std::string& s) { steps.push_back(s); };
  ASSERT_TRUE(CommitTransaction(f.scope, t, o).ok());
  EXPECT_EQ(f.Family(), std::set<std::string>{"new"});
  EXPECT_EQ(test::ReadFileOrDie(f.Archived("old1")), "old-1");
  EXPECT_EQ(test::ReadFileOrDie(f.Archived("old2")), "old-2");
  EXPECT_FALSE(fs::exists(f.table + "/" + t.staging));
  EXPECT_FALSE(fs::exists(f.scope.JournalPath()));
  EXPECT_EQ(steps, (std::vector<std::string>{"commit-written", "committed", "disposed",
                                             "disposed", "done"}));
}

TEST(Commit, AnArchivedNameIsKeptWithTheMillis) {
  Fixture f("commit-archive-collision");
  fs::create_directories(fs::path(f.Archived("old1")).parent_path());
  test::WriteFileOrDie(f.Archived("old1"), "earlier");
  Transaction t = f.Stage();
  Fixture::Finish(&t);
  CommitOptions o;
  o.now_ms = 1234;
  ASSERT_TRUE(CommitTransaction(f.scope, t, o).ok());
  EXPECT_EQ(test::ReadFileOrDie(f.Archived("old1")), "old-1");
  EXPECT_EQ(test::ReadFileOrDie(f.Archived("old1.1234")), "earlier");
}

TEST(Commit, AnIntentRollsBack) {
  Fixture f("commit-intent");
  Transaction t = f.Stage();
  ASSERT_TRUE(BeginTransaction(f.scope, t).ok());
  auto j = ReadJournal(f.scope);
  ASSERT_TRUE(j.ok() && *j);
  EXPECT_EQ((*j)->state, JournalState::State::kIntent);
  EXPECT_EQ((*j)->transaction.staging, t.staging);
  EXPECT_TRUE(IsJournalEntry(f.scope, "hfile.journal"));
  EXPECT_TRUE(IsJournalEntry(f.scope, "hfile-test-1"));
  EXPECT_FALSE(IsJournalEntry(f.scope, "f"));
  EXPECT_EQ(DescribeRecovery(f.scope).size(), 1u);
  // A second transaction must not start over an unfinished one.
  EXPECT_TRUE(BeginTransaction(f.scope, t).IsNotSupported());
  std::vector<std::string> log;
  ASSERT_TRUE(RecoverTransaction(f.scope, {}, &log).ok());
  EXPECT_EQ(log.size(), 1u);
  EXPECT_EQ(f.Family(), (std::set<std::string>{"old1", "old2"}));
  EXPECT_FALSE(fs::exists(f.table + "/" + t.staging));
  EXPECT_FALSE(fs::exists(f.scope.JournalPath()));
  EXPECT_TRUE(DescribeRecovery(f.scope).empty());
}

TEST(Commit, ATornRecordIsNotAJournal) {
  Fixture f("commit-torn");
  test::WriteFileOrDie(f.scope.JournalPath() + ".new", "hfile journal 2\ntool x\nstate com");
  std::vector<std::string> log;
  ASSERT_TRUE(RecoverTransaction(f.scope, {}, &log).ok());
  EXPECT_FALSE(fs::exists(f.scope.JournalPath() + ".new"));
  EXPECT_TRUE(log.empty());
}

TEST(Commit, AnUnreadableJournalIsCorruption) {
  Fixture f("commit-bad");
  test::WriteFileOrDie(f.scope.JournalPath(), "hfile journal 2\ntool x\nstate commit\n");
  EXPECT_TRUE(ReadJournal(f.scope).status().IsCorruption());
  std::vector<std::string> log;
  EXPECT_TRUE(RecoverTransaction(f.scope, {}, &log).IsCorruption());
  EXPECT_EQ(f.Family(), (std::set<std::string>{"old1", "old2"}));  // nothing touched
}

// SIGKILL after every durable step of a commit: the family holds the old files, or the new one
// (with perhaps some old ones still beside it); recovery always ends with the new one only.
TEST(Commit, KilledAtEveryStepRecoveryRollsForward) {
  int kills = 0;
  for (int n = 1; n < 12; ++n) {
    Fixture f("commit-kill");
    pid_t pid = ::fork();
    if (pid == 0) {
      Transaction t = f.Stage();
      int count = 0;
      CommitOptions o;
      o.checkpoint = [&](const std::string&) {
        if (++count == n) ::raise(SIGKILL);
      };
      if (!BeginTransaction(f.scope, t, o).ok()) ::_exit(1);
      Fixture::Finish(&t);
      ::_exit(CommitTransaction(f.scope, t, o).ok() ? 0 : 1);
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    const bool killed = WIFSIGNALED(status);
    if (!killed) ASSERT_EQ(WEXITSTATUS(status), 0);
    const auto fam = f.Family();
    EXPECT_TRUE(fam == (std::set<std::string>{"old1", "old2"}) || fam.count("new")) << n;
    std::vector<std::string> log;
    ASSERT_TRUE(RecoverTransaction(f.scope, {}, &log).ok()) << n;
    const auto after = f.Family();
    // Killed at the intent: rolled back; from the commit record on: rolled forward.
    if (n == 1) {
      EXPECT_EQ(after, (std::set<std::string>{"old1", "old2"}));
    } else {
      EXPECT_EQ(after, std::set<std::string>{"new"}) << n;
      EXPECT_EQ(test::ReadFileOrDie(f.Archived("old1")), "old-1") << n;
      EXPECT_EQ(test::ReadFileOrDie(f.Archived("old2")), "old-2") << n;
    }
    EXPECT_FALSE(fs::exists(f.scope.JournalPath())) << n;
    EXPECT_FALSE(fs::exists(f.table + "/" + f.Staging())) << n;
    if (!killed) break;
    ++kills;
  }
  EXPECT_EQ(kills, 6);  // intent, commit record, put, 2 disposals, done
}

TEST(Commit, ACommitWhoseStagingHBaseWipedIsDropped) {
  Fixture f("commit-wiped");
  Transaction t = f.Stage();
  Fixture::Finish(&t);
  CommitOptions o;
  o.checkpoint = [&](const std::string& s) {
    if (s == "commit-written") throw std::runtime_error("stop");
  };
  EXPECT_THROW((void)CommitTransaction(f.scope, t, o), std::runtime_error);
  fs::remove_all(f.table + "/" + t.staging);  // what HBase's region open does to .tmp/
  std::vector<std::string> log;
  ASSERT_TRUE(RecoverTransaction(f.scope, {}, &log).ok());
  EXPECT_EQ(f.Family(), (std::set<std::string>{"old1", "old2"}));  // nothing half applied
  EXPECT_FALSE(fs::exists(f.scope.JournalPath()));
}

TEST(Commit, PathsAreRelativeSoACopiedRootRecovers) {
  Fixture f("commit-copy");
  Transaction t = f.Stage();
  Fixture::Finish(&t);
  CommitOptions o;
  o.checkpoint = [&](const std::string& s) {
    if (s == "commit-written") throw std::runtime_error("stop");
  };
  EXPECT_THROW((void)CommitTransaction(f.scope, t, o), std::runtime_error);
  const std::string copy = test::NewTempDir("commit-copy-dst") + "/hbase";
  fs::copy(f.root, copy, fs::copy_options::recursive);
  CommitScope moved{copy + "/data/default/t", "r1"};
  std::vector<std::string> log;
  ASSERT_TRUE(RecoverTransaction(moved, {}, &log).ok());
  EXPECT_TRUE(fs::exists(copy + "/data/default/t/r1/f/new"));
  EXPECT_TRUE(fs::exists(copy + "/archive/data/default/t/r1/f/old1"));
  EXPECT_TRUE(fs::exists(f.table + "/r1/f/old1"));  // the original is untouched
}

TEST(Commit, PendingWorkSurvivesTheCommitUntilCleared) {
  Fixture f("commit-pending");
  CommitScope table{f.table, ""};
  Transaction t;
  t.tool = "alter";
  t.MakeDir("r1/g");
  t.pending = {"rewrite f"};
  ASSERT_TRUE(CommitTransaction(table, t).ok());
  EXPECT_TRUE(fs::is_directory(f.table + "/r1/g"));
  auto j = ReadJournal(table);
  ASSERT_TRUE(j.ok() && *j);
  EXPECT_EQ((*j)->state, JournalState::State::kPending);
  EXPECT_EQ((*j)->transaction.pending, std::vector<std::string>{"rewrite f"});
  EXPECT_TRUE(DescribeRecovery(table).empty());  // nothing for recovery to do
  std::vector<std::string> log;
  ASSERT_TRUE(RecoverTransaction(table, {}, &log).ok());
  EXPECT_TRUE(fs::exists(table.JournalPath()));
  // A new transaction may start over pending work, and carries it.
  Transaction next;
  next.tool = "alter";
  next.pending = {"rewrite f"};
  ASSERT_TRUE(BeginTransaction(table, next).ok());
  ASSERT_TRUE(AbortTransaction(table).ok());
  j = ReadJournal(table);
  ASSERT_TRUE(j.ok() && *j);
  EXPECT_EQ((*j)->state, JournalState::State::kPending);
  ASSERT_TRUE(SetPending(table, "alter", {}).ok());
  EXPECT_FALSE(fs::exists(table.JournalPath()));
}

TEST(Commit, PutNeverOverwrites) {
  Fixture f("commit-no-overwrite");
  Transaction t = f.Stage();
  test::WriteFileOrDie(f.table + "/r1/f/new", "someone else's");
  t.Put(t.staging + "/new", "r1/f/new");
  t.Archive("r1/f/old1");
  Status s = CommitTransaction(f.scope, t);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_EQ(test::ReadFileOrDie(f.table + "/r1/f/new"), "someone else's");
  EXPECT_TRUE(fs::exists(f.table + "/r1/f/old1"));  // no disposal after a failed put
}

TEST(Commit, ADirectoryIsArchivedFileByFile) {
  Fixture f("commit-archive-dir");
  Transaction t;
  t.tool = "split";
  t.Archive("r1");
  ASSERT_TRUE(CommitTransaction(CommitScope{f.table, ""}, t).ok());
  EXPECT_FALSE(fs::exists(f.table + "/r1"));
  EXPECT_EQ(test::ReadFileOrDie(f.Archived("old1")), "old-1");
}

TEST(Commit, TheLockIsExclusive) {
  Fixture f("commit-lock");
  DirLock a;
  ASSERT_TRUE(a.Acquire(f.table).ok());
  DirLock b;
  EXPECT_TRUE(b.Acquire(f.table).IsNotSupported());
}

// A table on HDFS: its paths keep scheme and authority, and its journal is read through the
// NameNode, whose failure is an error (never "no journal"). The steps themselves run against a
// real HDFS in tests/hdfs (hdfs_units).
TEST(Commit, HdfsTablePathsAndAnUnreachableNameNode) {
  const std::string table = "hdfs://nn:8020/hbase/data/default/t";
  EXPECT_EQ(ParentDir(table), "hdfs://nn:8020/hbase/data/default");
  EXPECT_EQ(ParentDir("hdfs://nn:8020/hbase"), "hdfs://nn:8020/");
  EXPECT_EQ(ParentDir("webhdfs://h:9870/a/b/"), "webhdfs://h:9870/a");
  EXPECT_EQ(ParentDir("/a/b"), "/a");
  const CommitScope scope{table, ""};
  EXPECT_EQ(scope.ArchiveDir(), "hdfs://nn:8020/hbase/archive/data/default/t");
  EXPECT_EQ(scope.JournalPath(), table + "/.hfile-journal");
  EXPECT_TRUE(IsRemotePath(table));

  const char* was = std::getenv("HFILE_WEBHDFS");
  const std::string saved = was ? was : "";
  ::setenv("HFILE_WEBHDFS", "127.0.0.1:1", 1);  // nothing listens there
  auto fs = FileSystemFor(table);
  auto j = ReadJournal(scope);
  if (was) {
    ::setenv("HFILE_WEBHDFS", saved.c_str(), 1);
  } else {
    ::unsetenv("HFILE_WEBHDFS");
  }
  ASSERT_TRUE(fs.ok()) << fs.status().ToString();
  EXPECT_STREQ((*fs)->scheme(), "hdfs");
  ASSERT_FALSE(j.ok());
  EXPECT_TRUE(j.status().IsIOError()) << j.status().ToString();
  EXPECT_NE(j.status().ToString().find(
                "http://127.0.0.1:1/webhdfs/v1/hbase/data/default/t/.hfile-journal"),
            std::string::npos)
      << j.status().ToString();
}

}  // namespace
}  // namespace hfile::region
