// The commit journal (region/commit.h): records, steps, recovery.
#include "region/commit.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <filesystem>

#include "fs_util.h"
#include "region/file_system.h"
#include "region/schema_writer.h"

namespace hfile::region {

namespace fs = std::filesystem;

namespace {

constexpr char kHeader[] = "hfile journal 2";
constexpr char kTableJournal[] = ".hfile-journal";
constexpr char kRegionJournal[] = "hfile.journal";

std::string Dirname(const std::string& rel) {
  const size_t slash = rel.rfind('/');
  return slash == std::string::npos ? "" : rel.substr(0, slash);
}
std::string Basename(const std::string& rel) {
  const size_t slash = rel.rfind('/');
  return slash == std::string::npos ? rel : rel.substr(slash + 1);
}

std::string Abs(const CommitScope& s, const std::string& rel) { return JoinPath(s.table_dir, rel); }

// The file system of a table on HDFS; null for a local table, whose steps keep their POSIX
// form (fsync of every file and directory touched). On HDFS the same steps go through
// region::FileSystem: a rename, mkdir or delete is durable once the NameNode answers.
using RemoteFs = std::shared_ptr<FileSystem>;
Result<RemoteFs> RemoteFsOf(const CommitScope& scope) {
  if (!IsRemotePath(scope.table_dir)) return RemoteFs();
  return FileSystemFor(scope.table_dir);
}

// Whether `path` is there (and a directory). On HDFS a Stat that fails for another reason than
// absence is an error, not "absent": a step skipped for a network error would leave a removed
// file in the table.
Result<bool> Exists(FileSystem* fs, const std::string& path) {
  if (!fs) return PathExists(path);
  return fs->ExistsOrError(path);
}
Result<bool> IsDir(FileSystem* fs, const std::string& path) {
  if (!fs) return IsDirectory(path);
  auto st = fs->Stat(path);
  if (st.ok()) return st->is_dir;
  if (st.status().IsNotFound()) return false;
  return st.status();
}
// For what only reports: an unanswered question counts as "there".
bool SeemsThere(FileSystem* fs, const std::string& path) {
  auto e = Exists(fs, path);
  return !e.ok() || *e;
}

// DisposeStoreFile's remote form: archive (an already archived name kept as <name>.<millis>,
// as HFileArchiver) or delete. Each rename is one NameNode call, so a rerun redoes only what is
// missing.
Status DisposeRemote(FileSystem* fs, const std::string& dir, const std::string& name,
                     const Disposal& d) {
  const std::string src = JoinPath(dir, name);
  if (d.archive_dir.empty()) return fs->Delete(src, /*recursive=*/false);
  HFILE_RETURN_IF_ERROR(fs->CreateDirs(d.archive_dir));
  const std::string dst = JoinPath(d.archive_dir, name);
  HFILE_ASSIGN_OR_RETURN(const bool taken, Exists(fs, dst));
  if (taken) HFILE_RETURN_IF_ERROR(fs->Rename(dst, fmt::format("{}.{}", dst, d.now_ms)));
  return fs->Rename(src, dst);
}

const char* StateName(JournalState::State st) {
  switch (st) {
    case JournalState::State::kIntent: return "intent";
    case JournalState::State::kCommit: return "commit";
    case JournalState::State::kPending: return "pending";
  }
  return "?";
}

const char* KindName(CommitStep::Kind k) {
  switch (k) {
    case CommitStep::Kind::kPut: return "put";
    case CommitStep::Kind::kMakeDir: return "mkdir";
    case CommitStep::Kind::kArchive: return "archive";
    case CommitStep::Kind::kDelete: return "delete";
    case CommitStep::Kind::kDropFamily: return "drop-family";
    case CommitStep::Kind::kDropFamilyDelete: return "drop-family-delete";
  }
  return "?";
}

void Check(const CommitOptions& o, const char* step) {
  if (o.checkpoint) o.checkpoint(step);
}

// A name that could break the line format is refused before anything is written.
Status CheckName(const std::string& s) {
  if (s.find('\n') != std::string::npos || s.find('\t') != std::string::npos)
    return Status::InvalidArgument("a path with a newline or tab cannot be journaled", s);
  return Status::OK();
}

Status WriteRecord(const CommitScope& scope, JournalState::State st, const Transaction& t) {
  std::string text = std::string(kHeader) + "\ntool " + t.tool + "\nstate " + StateName(st) + "\n";
  HFILE_RETURN_IF_ERROR(CheckName(t.tool));
  if (!t.staging.empty()) {
    HFILE_RETURN_IF_ERROR(CheckName(t.staging));
    text += "staging " + t.staging + "\n";
  }
  if (st == JournalState::State::kCommit) {
    for (const auto& step : t.steps) {
      HFILE_RETURN_IF_ERROR(CheckName(step.path));
      HFILE_RETURN_IF_ERROR(CheckName(step.to));
      text += std::string(KindName(step.kind)) + " " + step.path +
              (step.kind == CommitStep::Kind::kPut ? "\t" + step.to : "") + "\n";
    }
  }
  for (const auto& p : t.pending) {
    HFILE_RETURN_IF_ERROR(CheckName(p));
    text += "pending " + p + "\n";
  }
  text += "end\n";
  const std::string path = scope.JournalPath();
  const std::string dir = Dirname(path);
  HFILE_ASSIGN_OR_RETURN(auto remote, RemoteFsOf(scope));
  if (remote) {
    // Written under a temporary name and renamed over the record (rename2 OVERWRITE).
    HFILE_RETURN_IF_ERROR(remote->CreateDirs(dir));
    return remote->WriteFileAtomically(path, text);
  }
  std::error_code ec;
  if (fs::create_directories(dir, ec)) HFILE_RETURN_IF_ERROR(SyncDir(Dirname(dir)));
  if (ec) return Status::IOError("cannot create " + dir, ec.message());
  Status s = WriteFileDurably(path + ".new", text);
  if (s.ok()) s = RenameFile(path + ".new", path);
  if (!s.ok()) {
    ::unlink((path + ".new").c_str());  // a failed write leaves no half record behind
    return s;
  }
  return SyncDir(dir);
}

Status RemoveJournalFile(const CommitScope& scope) {
  const std::string path = scope.JournalPath();
  HFILE_ASSIGN_OR_RETURN(auto remote, RemoteFsOf(scope));
  if (remote) return remote->Delete(path, /*recursive=*/false);
  if (::unlink(path.c_str()) != 0 && errno != ENOENT) return ErrnoStatus("cannot remove", path);
  return SyncDir(Dirname(path));
}

Status RemoveTree(FileSystem* fs, const std::string& path) {
  if (fs) return fs->Delete(path, /*recursive=*/true);
  if (!PathExists(path)) return Status::OK();
  std::error_code ec;
  fs::remove_all(path, ec);
  if (ec) return Status::IOError("cannot remove " + path, ec.message());
  return SyncDir(Dirname(path));
}

// A torn record write (<journal>.new) was never the journal and is never read: remove it, best
// effort (the next record write truncates and renames it away anyway).
Status RemoveTornRecord(const CommitScope& scope) {
  if (IsRemotePath(scope.table_dir)) return Status::OK();  // no .new there: see WriteRecord
  ::unlink((scope.JournalPath() + ".new").c_str());
  return Status::OK();
}

Status RemoveStaging(const CommitScope& scope, const Transaction& t) {
  if (t.staging.empty()) return Status::OK();
  HFILE_ASSIGN_OR_RETURN(auto remote, RemoteFsOf(scope));
  return RemoveTree(remote.get(), Abs(scope, t.staging));
}

// Archives every file under `dir` (recursively) into the mirror path, then removes `dir`.
Status ArchiveTreeInto(FileSystem* fs, const std::string& dir, const std::string& archive,
                       int64_t now) {
  if (fs) {
    HFILE_ASSIGN_OR_RETURN(auto entries, fs->ListDir(dir));
    for (const auto& e : entries) {
      if (e.is_dir) {
        HFILE_RETURN_IF_ERROR(
            ArchiveTreeInto(fs, JoinPath(dir, e.name), JoinPath(archive, e.name), now));
      } else {
        HFILE_RETURN_IF_ERROR(DisposeRemote(fs, dir, e.name, Disposal{archive, now}));
      }
    }
    // Not recursive: a file that could not be archived keeps its dir.
    return fs->Delete(dir, /*recursive=*/false);
  }
  HFILE_ASSIGN_OR_RETURN(auto entries, ListDir(dir));
  for (const auto& e : entries) {
    if (e.is_dir) {
      HFILE_RETURN_IF_ERROR(
          ArchiveTreeInto(nullptr, JoinPath(dir, e.name), JoinPath(archive, e.name), now));
    } else {
      HFILE_RETURN_IF_ERROR(DisposeStoreFile(dir, e.name, Disposal{archive, now}));
    }
  }
  if (::rmdir(dir.c_str()) != 0 && errno != ENOENT) return ErrnoStatus("cannot remove", dir);
  return SyncDir(Dirname(dir));
}

Status ApplyStep(FileSystem* fs, const CommitScope& scope, const CommitStep& step, int64_t now) {
  const std::string path = Abs(scope, step.path);
  switch (step.kind) {
    case CommitStep::Kind::kPut: {
      const std::string to = Abs(scope, step.to);
      HFILE_ASSIGN_OR_RETURN(const bool from_there, Exists(fs, path));
      HFILE_ASSIGN_OR_RETURN(const bool to_there, Exists(fs, to));
      if (!from_there && to_there) return Status::OK();  // done before
      if (!from_there)
        return Status::Corruption(fmt::format(
            "the committed output {} is missing and {} was never put in place", path, to));
      if (to_there)
        return Status::Corruption(fmt::format("cannot put {}: {} already exists", path, to));
      if (fs) {
        HFILE_RETURN_IF_ERROR(fs->CreateDirs(Dirname(to)));
        return fs->Rename(path, to);
      }
      std::error_code ec;
      if (fs::create_directories(Dirname(to), ec)) HFILE_RETURN_IF_ERROR(SyncDir(Dirname(Dirname(to))));
      if (ec) return Status::IOError("cannot create " + Dirname(to), ec.message());
      HFILE_RETURN_IF_ERROR(RenameFile(path, to));
      HFILE_RETURN_IF_ERROR(SyncDir(Dirname(to)));
      return SyncDir(Dirname(path));
    }
    case CommitStep::Kind::kMakeDir: {
      if (fs) return fs->CreateDirs(path);
      if (IsDirectory(path)) return Status::OK();
      std::error_code ec;
      fs::create_directories(path, ec);
      if (ec) return Status::IOError("cannot create " + path, ec.message());
      return SyncDir(Dirname(path));
    }
    case CommitStep::Kind::kArchive: {
      const std::string archive = scope.ArchiveDir();
      if (archive.empty())
        return Status::InvalidArgument(
            "the table directory is not <root>/data/<ns>/<table>, so the archive cannot be "
            "located", scope.table_dir);
      HFILE_ASSIGN_OR_RETURN(const bool there, Exists(fs, path));
      if (!there) return Status::OK();
      HFILE_ASSIGN_OR_RETURN(const bool dir, IsDir(fs, path));
      if (dir) return ArchiveTreeInto(fs, path, JoinPath(archive, step.path), now);
      const Disposal d{JoinPath(archive, Dirname(step.path)), now};
      if (fs) return DisposeRemote(fs, Dirname(path), Basename(path), d);
      return DisposeStoreFile(Dirname(path), Basename(path), d);
    }
    case CommitStep::Kind::kDelete: {
      HFILE_ASSIGN_OR_RETURN(const bool dir, IsDir(fs, path));
      if (dir) return RemoveTree(fs, path);
      if (fs) return DisposeRemote(fs, Dirname(path), Basename(path), Disposal{"", now});
      return DisposeStoreFile(Dirname(path), Basename(path), Disposal{"", now});
    }
    case CommitStep::Kind::kDropFamily:
    case CommitStep::Kind::kDropFamilyDelete: {
      const std::string archive = scope.ArchiveDir();
      const bool del = step.kind == CommitStep::Kind::kDropFamilyDelete;
      // The schema writer's family drop (every region, the MOB dir) is POSIX only; a job's
      // commit archives dropped family dirs as plain archive steps instead.
      if (fs)
        return Status::NotSupported(scope.table_dir,
                                    "dropping a family of a table on HDFS in one step: not "
                                    "supported (a job's commit archives the family dirs)");
      if (archive.empty() && !del)
        return Status::InvalidArgument(
            "the table directory is not <root>/data/<ns>/<table>, so the archive cannot be "
            "located", scope.table_dir);
      // <root>/archive/data/<ns>/<table> -> <root>
      const std::string root =
          archive.empty() ? "" : fs::path(archive).parent_path().parent_path().parent_path().parent_path().string();
      SchemaWriteOptions so;
      so.now_ms = now;
      return ArchiveFamilyDirs(root, scope.table_dir, step.path, del, so);
    }
  }
  return Status::OK();
}

// Applies a committed transaction's steps (idempotently), then clears staging and journal.
Status Apply(const CommitScope& scope, const Transaction& t, const CommitOptions& o) {
  const int64_t now = o.now_ms ? o.now_ms : NowMs();
  HFILE_ASSIGN_OR_RETURN(auto remote, RemoteFsOf(scope));
  bool first_put = true;
  for (const auto& step : t.steps) {
    HFILE_RETURN_IF_ERROR(ApplyStep(remote.get(), scope, step, now).WithContext(
        fmt::format("{} of the committed {} transaction", KindName(step.kind), t.tool)));
    switch (step.kind) {
      case CommitStep::Kind::kPut:
        Check(o, first_put ? "committed" : "put");
        first_put = false;
        break;
      case CommitStep::Kind::kArchive:
      case CommitStep::Kind::kDelete:
        Check(o, "disposed");
        break;
      default:
        Check(o, "step");
    }
  }
  HFILE_RETURN_IF_ERROR(RemoveStaging(scope, t));
  if (t.pending.empty()) {
    HFILE_RETURN_IF_ERROR(RemoveJournalFile(scope));
  } else {
    Transaction rest;
    rest.tool = t.tool;
    rest.pending = t.pending;
    HFILE_RETURN_IF_ERROR(WriteRecord(scope, JournalState::State::kPending, rest));
  }
  Check(o, "done");
  return Status::OK();
}

// A committed transaction whose first put cannot be done because its staged source vanished
// before anything was put (HBase's region open wipes .tmp/): nothing of it is applied, so the
// old state is whole; it is rolled back rather than half applied.
bool NothingPut(FileSystem* fs, const CommitScope& scope, const Transaction& t) {
  bool any_put = false;
  for (const auto& step : t.steps) {
    if (step.kind != CommitStep::Kind::kPut) continue;
    any_put = true;
    if (SeemsThere(fs, Abs(scope, step.to)) || SeemsThere(fs, Abs(scope, step.path)))
      return false;
  }
  return any_put;
}

}  // namespace

std::string CommitScope::JournalPath() const {
  if (region.empty()) return JoinPath(table_dir, kTableJournal);
  return JoinPath(JoinPath(JoinPath(table_dir, region), ".tmp"), kRegionJournal);
}

std::string CommitScope::ArchiveDir() const {
  fs::path t(table_dir);
  fs::path ns = t.parent_path(), data = ns.parent_path();
  if (data.filename() != "data") return "";
  return (data.parent_path() / "archive" / "data" / ns.filename() / t.filename()).string();
}

Result<std::optional<JournalState>> ReadJournal(const CommitScope& scope) {
  const std::string path = scope.JournalPath();
  HFILE_ASSIGN_OR_RETURN(auto remote, RemoteFsOf(scope));
  auto data = remote ? remote->ReadFile(path) : ReadWholeFile(path);
  if (!data.ok()) {
    if (data.status().IsNotFound()) return std::optional<JournalState>();
    return data.status();
  }
  JournalState js;
  Transaction& t = js.transaction;
  bool header = false, end = false, state = false;
  size_t pos = 0;
  while (pos < data->size() && !end) {
    size_t nl = data->find('\n', pos);
    if (nl == std::string::npos) nl = data->size();
    const std::string line = data->substr(pos, nl - pos);
    pos = nl + 1;
    if (!header) {
      if (line != kHeader) break;
      header = true;
      continue;
    }
    const size_t sp = line.find(' ');
    const std::string key = line.substr(0, sp);
    const std::string val = sp == std::string::npos ? "" : line.substr(sp + 1);
    if (key == "end") {
      end = true;
    } else if (key == "tool") {
      t.tool = val;
    } else if (key == "state") {
      state = true;
      if (val == "intent") js.state = JournalState::State::kIntent;
      else if (val == "commit") js.state = JournalState::State::kCommit;
      else if (val == "pending") js.state = JournalState::State::kPending;
      else return Status::Corruption("unknown state in the journal " + path, val);
    } else if (key == "staging") {
      t.staging = val;
    } else if (key == "pending") {
      t.pending.push_back(val);
    } else if (key == "put") {
      const size_t tab = val.find('\t');
      if (tab == std::string::npos) return Status::Corruption("bad put line in " + path, line);
      t.Put(val.substr(0, tab), val.substr(tab + 1));
    } else if (key == "mkdir") {
      t.MakeDir(val);
    } else if (key == "archive") {
      t.Archive(val);
    } else if (key == "delete") {
      t.Delete(val);
    } else if (key == "drop-family") {
      t.DropFamily(val, false);
    } else if (key == "drop-family-delete") {
      t.DropFamily(val, true);
    } else {
      return Status::Corruption("unknown line in the journal " + path, line);
    }
  }
  // The record is renamed into place only once whole, so a present one ends with "end".
  if (!header || !end || !state || t.tool.empty())
    return Status::Corruption("unreadable journal", path);
  return std::optional<JournalState>(std::move(js));
}

Status BeginTransaction(const CommitScope& scope, const Transaction& intent, const CommitOptions& o) {
  HFILE_ASSIGN_OR_RETURN(auto existing, ReadJournal(scope));
  if (existing && existing->state != JournalState::State::kPending)
    return Status::NotSupported(fmt::format(
        "an interrupted {} run left {}: recover it first", existing->transaction.tool,
        scope.JournalPath()));
  HFILE_RETURN_IF_ERROR(WriteRecord(scope, JournalState::State::kIntent, intent));
  Check(o, "journal-written");
  return Status::OK();
}

Status CommitTransaction(const CommitScope& scope, const Transaction& t, const CommitOptions& o) {
  HFILE_RETURN_IF_ERROR(WriteRecord(scope, JournalState::State::kCommit, t));
  Check(o, "commit-written");
  return Apply(scope, t, o);
}

Status AbortTransaction(const CommitScope& scope) {
  HFILE_RETURN_IF_ERROR(RemoveTornRecord(scope));
  HFILE_ASSIGN_OR_RETURN(auto j, ReadJournal(scope));
  if (!j) return Status::OK();
  if (j->state == JournalState::State::kCommit)
    return Status::NotSupported("a committed transaction is rolled forward, not back",
                                scope.JournalPath());
  if (j->state == JournalState::State::kPending) return Status::OK();
  HFILE_RETURN_IF_ERROR(RemoveStaging(scope, j->transaction));
  if (j->transaction.pending.empty()) return RemoveJournalFile(scope);
  // An intent carries the pending work of the journal it replaced: that stays.
  Transaction rest;
  rest.tool = j->transaction.tool;
  rest.pending = j->transaction.pending;
  return WriteRecord(scope, JournalState::State::kPending, rest);
}

Status RecoverTransaction(const CommitScope& scope, const CommitOptions& o,
                          std::vector<std::string>* log) {
  HFILE_RETURN_IF_ERROR(RemoveTornRecord(scope));
  HFILE_ASSIGN_OR_RETURN(auto j, ReadJournal(scope));
  if (!j) return Status::OK();
  const Transaction& t = j->transaction;
  const std::string where = scope.region.empty() ? scope.table_dir
                                                 : JoinPath(scope.table_dir, scope.region);
  switch (j->state) {
    case JournalState::State::kPending:
      return Status::OK();
    case JournalState::State::kIntent:
      HFILE_RETURN_IF_ERROR(AbortTransaction(scope));
      log->push_back(fmt::format("{}: rolled back an interrupted {} (its output was never "
                                 "committed; the old files are intact)", where, t.tool));
      break;
    case JournalState::State::kCommit: {
      HFILE_ASSIGN_OR_RETURN(auto remote, RemoteFsOf(scope));
      if (NothingPut(remote.get(), scope, t)) {
        HFILE_RETURN_IF_ERROR(RemoveStaging(scope, t));
        HFILE_RETURN_IF_ERROR(RemoveJournalFile(scope));
        log->push_back(fmt::format("{}: dropped an interrupted {} whose staged output is gone "
                                   "(HBase opened the region); the old files are intact",
                                   where, t.tool));
        break;
      }
      HFILE_RETURN_IF_ERROR(Apply(scope, t, o));
      log->push_back(fmt::format("{}: finished an interrupted {} ({} step(s) of its commit)",
                                 where, t.tool, t.steps.size()));
      break;
    }
  }
  Check(o, "recovery-done");
  return Status::OK();
}

std::vector<std::string> DescribeRecovery(const CommitScope& scope) {
  std::vector<std::string> out;
  auto j = ReadJournal(scope);
  if (!j.ok()) {
    out.push_back(j.status().ToString());
    return out;
  }
  if (!*j) return out;
  const Transaction& t = (*j)->transaction;
  switch ((*j)->state) {
    case JournalState::State::kPending:
      break;
    case JournalState::State::kIntent:
      out.push_back(fmt::format("interrupted {}: not committed; roll back", t.tool));
      break;
    case JournalState::State::kCommit: {
      auto remote = RemoteFsOf(scope);
      FileSystem* fs = remote.ok() ? remote->get() : nullptr;
      size_t left = 0;
      for (const auto& s : t.steps) {
        const std::string p = Abs(scope, s.path);
        if (s.kind == CommitStep::Kind::kPut) left += SeemsThere(fs, p);
        if (s.kind == CommitStep::Kind::kArchive || s.kind == CommitStep::Kind::kDelete)
          left += SeemsThere(fs, p);
      }
      out.push_back(fmt::format("interrupted {}: committed; finish {} remaining step(s)", t.tool,
                                left));
      break;
    }
  }
  return out;
}

Status SetPending(const CommitScope& scope, const std::string& tool,
                  const std::vector<std::string>& pending) {
  HFILE_ASSIGN_OR_RETURN(auto j, ReadJournal(scope));
  if (j && j->state != JournalState::State::kPending)
    return Status::NotSupported("an interrupted transaction is recorded", scope.JournalPath());
  if (pending.empty()) return j ? RemoveJournalFile(scope) : Status::OK();
  Transaction t;
  t.tool = tool;
  t.pending = pending;
  return WriteRecord(scope, JournalState::State::kPending, t);
}

bool IsJournalEntry(const CommitScope& scope, const std::string& name) {
  const std::string journal = Basename(scope.JournalPath());
  if (name == journal || name == journal + ".new") return true;
  auto j = ReadJournal(scope);
  if (!j.ok() || !*j || (*j)->transaction.staging.empty()) return false;
  return Basename((*j)->transaction.staging) == name;
}

std::string NewStagingName(const std::string& tool) {
  static std::atomic<uint64_t> n{0};
  return fmt::format("hfile-{}-{}-{}", tool, ::getpid(), n.fetch_add(1));
}

DirLock::~DirLock() {
  if (fd_ >= 0) ::close(fd_);
}

Status DirLock::Acquire(const std::string& dir) {
  fd_ = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd_ < 0) return ErrnoStatus("cannot open", dir);
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0)
    return Status::NotSupported("another hfilekit run holds the lock on", dir);
  return Status::OK();
}

}  // namespace hfile::region
