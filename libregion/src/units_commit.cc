// CommitJob: every unit's first complete attempt, checked, then committed as one transaction of
// the table's journal with the job dir as its staging dir (doc/distributed.md, "The commit").
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "fs_util.h"
#include "hfile/reader.h"
#include "region/commit.h"
#include "region/layout.h"
#include "region/store_file_name.h"
#include "region/units.h"
#include "units.pb.h"
#include "units_internal.h"

namespace hfile::region {

namespace {

bool IsDescriptorPath(const std::string& p) { return p.rfind(".tabledesc/", 0) == 0; }

// "<region>/<family>/<name>" with an HFile's name: a store file the commit opens first.
bool IsStoreFilePath(const std::string& p) {
  const auto a = p.find('/');
  if (a == std::string::npos || p[0] == '.') return false;
  const auto b = p.find('/', a + 1);
  if (b == std::string::npos || p.find('/', b + 1) != std::string::npos) return false;
  const std::string family = p.substr(a + 1, b - a - 1);
  if (!IsFamilyDirName(family)) return false;
  return StoreFileName::Classify(p.substr(b + 1)).kind == StoreFileKind::kHFile;
}

// The files under an added dir, relative to it.
Status FilesUnder(FileSystem* fs, const std::string& dir, const std::string& rel,
                  std::vector<std::pair<std::string, uint64_t>>* out) {
  HFILE_ASSIGN_OR_RETURN(auto entries, fs->ListDir(JoinPath(dir, rel)));
  for (const auto& e : entries) {
    const std::string r = rel.empty() ? e.name : JoinPath(rel, e.name);
    if (e.is_dir) {
      HFILE_RETURN_IF_ERROR(FilesUnder(fs, dir, r, out));
    } else {
      out->emplace_back(r, e.size);
    }
  }
  return Status::OK();
}

struct Taken {
  pb::UnitProto unit;
  pb::TaskResultProto result;
};

}  // namespace

Status CommitJob(const std::string& job_dir_arg, const JobCommitOptions& o,
                 JobCommitReport* report) {
  *report = JobCommitReport();
  std::string job_dir = job_dir_arg;
  while (job_dir.size() > 1 && job_dir.back() == '/') job_dir.pop_back();
  HFILE_ASSIGN_OR_RETURN(auto fs_owner, FileSystemFor(job_dir));
  FileSystem* fs = fs_owner.get();
  // The job dir is <table>/.hfile-jobs/<job id>: its name and table follow from the path, so
  // a commit whose journal already removed the job dir still finds its table.
  const std::string jobs_dir = ParentDir(job_dir), table_dir = ParentDir(jobs_dir);
  report->job_id = job_dir.substr(jobs_dir.size() + 1);
  report->table_dir = table_dir;
  if (jobs_dir.substr(table_dir.size() + 1) != kJobsDirName)
    return Status::InvalidArgument(job_dir, "not a job dir (<table>/.hfile-jobs/<job id>)");
  const std::string done_path = JoinPath(jobs_dir, report->job_id + kDoneSuffix);
  const std::string staging_rel = std::string(kJobsDirName) + "/" + report->job_id;
  const std::string done_rel = std::string(kJobsDirName) + "/" + report->job_id + kDoneSuffix;

  DirLock lock;  // no flock on HDFS: there the driver is the job's only committer
  if (!IsRemotePath(table_dir)) HFILE_RETURN_IF_ERROR(lock.Acquire(table_dir));
  const CommitScope scope{table_dir, ""};
  if (!o.dry_run) {
    HFILE_RETURN_IF_ERROR(RecoverTransaction(scope, o.commit, &report->recovered));
  } else {
    report->recovered = DescribeRecovery(scope);
  }
  HFILE_ASSIGN_OR_RETURN(const bool recorded_done, fs->ExistsOrError(done_path));
  if (recorded_done) {
    report->already_committed = true;
    // A commit killed after its last step leaves the job dir: nothing in it is needed now.
    if (!o.dry_run) HFILE_RETURN_IF_ERROR(fs->Delete(job_dir, /*recursive=*/true));
    return Status::OK();
  }
  HFILE_ASSIGN_OR_RETURN(const bool planned, fs->ExistsOrError(JoinPath(job_dir, kJobFile)));
  if (!planned)
    return Status::NotFound(job_dir, "no job.json: not a planned job (or removed)");

  std::vector<pb::UnitProto> units;
  HFILE_RETURN_IF_ERROR(ReadJobUnits(fs, job_dir, &units));
  report->units = units.size();
  std::vector<Taken> taken;
  for (const auto& u : units) {
    const std::string dir = JoinPath(JoinPath(job_dir, kAttemptsDir), u.id());
    auto attempts = fs->ListDir(dir);
    bool found = false;
    if (attempts.ok()) {
      for (const auto& a : *attempts) {  // by name: the first complete attempt is taken
        if (!a.is_dir) continue;
        ++report->attempts_seen;
        const std::string result_path = JoinPath(JoinPath(dir, a.name), kResultFile);
        if (found) continue;
        HFILE_ASSIGN_OR_RETURN(const bool complete, fs->ExistsOrError(result_path));
        if (!complete) continue;
        HFILE_ASSIGN_OR_RETURN(auto json, fs->ReadFile(result_path));
        Taken t{u, {}};
        HFILE_RETURN_IF_ERROR(FromJson(json, result_path, &t.result));
        if (t.result.status() != "ok" || t.result.unit() != u.id() || t.result.job() != u.job()) {
          report->problems.push_back(result_path + ": not an ok result of this unit");
          continue;
        }
        taken.push_back(std::move(t));
        found = true;
      }
    }
    if (!found) report->missing.push_back(u.id());
  }
  if (!report->missing.empty())
    return Status::NotFound(job_dir, fmt::format("the job is incomplete: {} of {} unit(s) have "
                                                 "no complete attempt (first: {})",
                                                 report->missing.size(), units.size(),
                                                 report->missing.front()));

  // Check every result against the table and the others.
  std::map<std::string, std::pair<const pb::ChangeProto*, std::string>> added;  // -> unit
  std::map<std::string, std::string> added_content;                  // descriptor path -> bytes
  std::set<std::string> removed_seen;
  std::vector<const pb::ChangeProto*> removals;
  std::vector<std::pair<const pb::ChangeProto*, std::string>> puts;  // change, unit
  for (const auto& t : taken) {
    const std::string& unit = t.unit.id();
    for (const auto& c : t.result.removed()) {
      if (!removed_seen.insert(c.path()).second) {
        if (IsDescriptorPath(c.path())) continue;  // every descriptor-changing unit removes it
        report->problems.push_back(
            fmt::format("unit {}: {} is removed by another unit too", unit, c.path()));
        continue;
      }
      auto st = fs->Stat(JoinPath(table_dir, c.path()));
      if (!st.ok()) {
        report->problems.push_back(fmt::format(
            "unit {}: {} is no longer in the table (changed since the job was planned)", unit,
            c.path()));
        continue;
      }
      if (!c.dir() && st->size != c.size())
        report->problems.push_back(fmt::format("unit {}: {} is {} bytes, the unit saw {}", unit,
                                               c.path(), st->size, c.size()));
      removals.push_back(&c);
    }
    for (const auto& c : t.result.added()) {
      const std::string from = JoinPath(table_dir, c.from());
      std::string content;
      if (IsDescriptorPath(c.path()) && !c.dir()) {
        auto bytes = fs->ReadFile(from);
        if (!bytes.ok()) {
          report->problems.push_back(fmt::format("unit {}: {}", unit, bytes.status().ToString()));
          continue;
        }
        content = std::move(*bytes);
      }
      auto [it, fresh] = added.emplace(c.path(), std::make_pair(&c, unit));
      if (!fresh) {
        if (IsDescriptorPath(c.path()) && added_content[c.path()] == content) continue;
        // A new family's empty dir, made in its region by every unit of the region (alter).
        const pb::ChangeProto& first = *it->second.first;
        if (c.dir() && first.dir() && c.size() == 0 && first.size() == 0) {
          std::vector<std::pair<std::string, uint64_t>> a, b;
          if (FilesUnder(fs, from, "", &a).ok() && a.empty() &&
              FilesUnder(fs, JoinPath(table_dir, first.from()), "", &b).ok() && b.empty())
            continue;
        }
        report->problems.push_back(fmt::format("units {} and {} both add {}{}", it->second.second,
                                               unit, c.path(),
                                               IsDescriptorPath(c.path())
                                                   ? " with different descriptors"
                                                   : ""));
        continue;
      }
      if (IsDescriptorPath(c.path())) added_content[c.path()] = content;
      if (fs->Exists(JoinPath(table_dir, c.path()))) {
        report->problems.push_back(
            fmt::format("unit {}: {} exists in the table already", unit, c.path()));
        continue;
      }
      // The content: every file where the result says, with its size; store files open.
      std::vector<std::pair<std::string, uint64_t>> files;  // relative to `from`
      if (c.dir()) {
        if (Status s = FilesUnder(fs, from, "", &files); !s.ok()) {
          report->problems.push_back(fmt::format("unit {}: {}", unit, s.ToString()));
          continue;
        }
        uint64_t total = 0;
        for (const auto& f : files) total += f.second;
        if (total != c.size())
          report->problems.push_back(fmt::format("unit {}: {} holds {} bytes, the result says {}",
                                                 unit, c.from(), total, c.size()));
      } else {
        auto st = fs->Stat(from);
        if (!st.ok() || st->size != c.size()) {
          report->problems.push_back(fmt::format(
              "unit {}: {} is {}, the result says {} bytes", unit, c.from(),
              st.ok() ? std::to_string(st->size) + " bytes" : st.status().ToString(), c.size()));
          continue;
        }
        files.emplace_back("", c.size());
      }
      if (o.verify_outputs) {
        for (const auto& [rel, size] : files) {
          const std::string path = rel.empty() ? c.path() : JoinPath(c.path(), rel);
          if (!IsStoreFilePath(path)) continue;
          auto r = hfile::Reader::Open(rel.empty() ? from : JoinPath(from, rel));
          if (!r.ok())
            report->problems.push_back(fmt::format("unit {}: {}: {}", unit, path,
                                                   r.status().ToString()));
        }
      }
      puts.emplace_back(&c, unit);
      report->bytes_added += c.size();
    }
  }
  if (!report->problems.empty())
    return Status::Corruption(job_dir, fmt::format("{} problem(s) in the results (first: {})",
                                                   report->problems.size(),
                                                   report->problems.front()));

  // One transaction: directories, puts (the descriptor last), the done record, then removals.
  // No staging dir: rolling back an intent must not take the attempts with it (a rerun of the
  // commit uses them); the job dir goes once the transaction is done.
  Transaction t;
  t.tool = "task-commit";
  std::set<std::string> dirs;
  for (const auto& [c, unit] : puts) {
    const std::string parent = ParentDir(c->path());
    if (parent != "." && !fs->Exists(JoinPath(table_dir, parent))) dirs.insert(parent);
  }
  for (const auto& d : dirs) t.MakeDir(d);
  std::stable_partition(puts.begin(), puts.end(),
                        [](const auto& p) { return !IsDescriptorPath(p.first->path()); });
  for (const auto& [c, unit] : puts) t.Put(c->from(), c->path());
  t.Put(staging_rel + "/done.json", done_rel);
  for (const auto* c : removals) {
    const bool archive = c->archived() && !IsDescriptorPath(c->path());
    t.Dispose(c->path(), !archive);
    (archive ? report->archives : report->deletes)++;
    report->bytes_removed += c->size();
  }
  report->puts = puts.size();
  if (o.dry_run) return Status::OK();

  pb::JobProto done;
  done.set_v(1);
  done.set_kind("job-done");
  done.set_job(report->job_id);
  done.set_table(table_dir);
  done.set_units(static_cast<uint32_t>(units.size()));
  done.set_created_ms(o.commit.now_ms ? o.commit.now_ms : NowMs());
  HFILE_RETURN_IF_ERROR(
      fs->WriteFileAtomically(JoinPath(job_dir, "done.json"), ToJsonLine(done) + "\n"));
  HFILE_RETURN_IF_ERROR(BeginTransaction(scope, t, o.commit));
  HFILE_RETURN_IF_ERROR(CommitTransaction(scope, t, o.commit));
  report->committed = true;
  return fs->Delete(job_dir, /*recursive=*/true);
}

}  // namespace hfile::region
