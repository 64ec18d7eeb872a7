// The one commit journal of every writing tool (compact, alter, copy-family, split, bulk-load):
// a change to a table is staged, verified, then committed by one durable record and applied
// step by step, so that a crash at any moment leaves the old state or, after a rerun, the new.
//
//   CommitScope scope{table_dir, encoded_region_or_empty};
//   Transaction t;  t.tool = "compact";  t.staging = ".../.tmp/hfile-<id>";
//   BeginTransaction(scope, t);          // 1. intent record: what to remove on roll back
//   ... write and verify every new file under t.staging ...
//   t.Put(staged, final); t.Archive(replaced); ...
//   CommitTransaction(scope, t, opts);   // 2. commit record (THE COMMIT POINT), 3. the steps,
//                                        // 4. staging removed, journal removed (or kept with
//                                        //    only the tool's pending follow-up work)
//
// Journal (text; written as <journal>.new, fsynced, renamed, directory fsynced):
//   hfile journal 2
//   tool <name>
//   state intent | commit | pending
//   staging <dir>                 removed on roll back and once the steps are done
//   put <from>\t<to>              rename a staged file or dir into place (never over a file)
//   mkdir <dir>                   create a directory (and its parents)
//   archive <path>                move a store file (or a whole dir's files) into the archive
//                                 (<root>/archive/data/<ns>/<table>/<same relative path>), as
//                                 HFileArchiver does; an already archived name is kept as
//                                 <name>.<now millis>
//   delete <path>                 unlink a file (or remove a dir tree)
//   drop-family <family>          ArchiveFamilyDirs (every region, and the MOB dir)
//   drop-family-delete <family>   the same, deleting instead of archiving
//   pending <text>                the tool's follow-up work; survives the commit
//   end
// Every path is relative to the table dir, so a root dir copied or moved with a journal in it
// still recovers. The table's journal is <table>/.hfile-journal (HBase lists only region dirs
// and .tabledesc/ there); a region's is <table>/<region>/.tmp/hfile.journal (HBase wipes .tmp/
// when it opens the region, which only ever loses an uncommitted or an applied transaction).
//
// Recovery (RecoverTransaction; every tool runs it before it plans): an intent record rolls
// back (the staging dir is removed; nothing else was touched), a commit record rolls forward
// (each step is idempotent and done again only where its effect is missing), a pending-only
// journal is left for its tool.
#ifndef REGION_COMMIT_H_
#define REGION_COMMIT_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "hfile/status.h"

namespace hfile::region {

// Whose journal: a table's, or (for per-store work such as compaction) one region's.
struct CommitScope {
  std::string table_dir;    // <root>/data/<ns>/<table>
  std::string region;       // encoded region name; "": the table's own journal
  std::string JournalPath() const;
  // <root>/archive/data/<ns>/<table>; "" when table_dir is not under <root>/data/<ns>/.
  std::string ArchiveDir() const;
};

struct CommitStep {
  enum class Kind : uint8_t { kPut, kMakeDir, kArchive, kDelete, kDropFamily, kDropFamilyDelete };
  Kind kind = Kind::kPut;
  std::string path;  // relative to the table dir (a family name for the drop kinds)
  std::string to;    // kPut only
};

struct Transaction {
  std::string tool;
  std::string staging;                  // relative to the table dir; "" when nothing is staged
  std::vector<CommitStep> steps;        // applied in this order
  std::vector<std::string> pending;     // follow-up work of the tool (one line each)

  void Put(std::string from, std::string to) {
    steps.push_back({CommitStep::Kind::kPut, std::move(from), std::move(to)});
  }
  void MakeDir(std::string dir) { steps.push_back({CommitStep::Kind::kMakeDir, std::move(dir), {}}); }
  void Archive(std::string path) { steps.push_back({CommitStep::Kind::kArchive, std::move(path), {}}); }
  void Delete(std::string path) { steps.push_back({CommitStep::Kind::kDelete, std::move(path), {}}); }
  // Archive (or, with `delete_instead`, remove) a replaced store file.
  void Dispose(std::string path, bool delete_instead) {
    delete_instead ? Delete(std::move(path)) : Archive(std::move(path));
  }
  void DropFamily(std::string family, bool delete_instead) {
    steps.push_back({delete_instead ? CommitStep::Kind::kDropFamilyDelete
                                    : CommitStep::Kind::kDropFamily,
                     std::move(family), {}});
  }
};

struct CommitOptions {
  int64_t now_ms = 0;  // the archive's "<name>.<millis>" for an already archived name; 0: clock
  // Test hook, called after every durable step: "journal-written" (intent), "commit-written",
  // "committed" (after the first put), "put", "disposed", "step", "done".
  std::function<void(const std::string&)> checkpoint;
};

// What is recorded now: nullopt when there is no journal. Corruption when it does not parse.
struct JournalState {
  enum class State : uint8_t { kIntent, kCommit, kPending };
  State state = State::kIntent;
  Transaction transaction;
};
Result<std::optional<JournalState>> ReadJournal(const CommitScope& scope);

// Writes the intent record (tool, staging dir, pending). Refuses (NotSupported) when the scope
// already has a journal that is not pending-only: recover it first.
Status BeginTransaction(const CommitScope& scope, const Transaction& intent,
                        const CommitOptions& o = {});

// Writes the commit record, applies every step, removes the staging dir, then removes the
// journal (or rewrites it with only the pending lines). Once the commit record is durable the
// transaction is committed: an error after it leaves a journal that RecoverTransaction (or a
// rerun of any tool) finishes.
Status CommitTransaction(const CommitScope& scope, const Transaction& t, const CommitOptions& o = {});

// Rolls an uncommitted transaction back: its staging dir and the journal are removed.
Status AbortTransaction(const CommitScope& scope);

// Finishes what a journal records (roll back an intent, roll forward a commit); a pending-only
// journal stays. One line per action in `log`. OK when there is no journal.
Status RecoverTransaction(const CommitScope& scope, const CommitOptions& o,
                          std::vector<std::string>* log);

// Lines saying what RecoverTransaction would do (empty: nothing).
std::vector<std::string> DescribeRecovery(const CommitScope& scope);

// Replaces the pending work (empty: the journal is removed). Only on a pending-only journal.
Status SetPending(const CommitScope& scope, const std::string& tool,
                  const std::vector<std::string>& pending);

// True for names a journal of `scope` owns in the directory holding it (the journal, its .new
// and, for a region's .tmp/, the staging dir it names): not a sign of an unclean stop.
bool IsJournalEntry(const CommitScope& scope, const std::string& name);

// A fresh staging dir name for a transaction of this process: "hfile-<tool>-<pid>-<n>".
std::string NewStagingName(const std::string& tool);

// Holds an exclusive flock on a directory (a region or table dir) so that two runs of the
// tools never interleave on it; released on destruction.
class DirLock {
 public:
  DirLock() = default;
  DirLock(const DirLock&) = delete;
  DirLock& operator=(const DirLock&) = delete;
  ~DirLock();
  // NotSupported when another process holds it.
  Status Acquire(const std::string& dir);

 private:
  int fd_ = -1;
};

}  // namespace hfile::region

#endif  // REGION_COMMIT_H_
