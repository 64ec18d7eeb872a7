// RunTask: one unit, one attempt (doc/distributed.md). The unit's region is mirrored into a
// private root, the tool runs on the mirror, and the mirror's diff is the result.
//
//   <job dir>/attempts/<unit>/<attempt>/mirror/data/<ns>/<table>/...   a local table's mirror
//                                                                       (hard links)
//   <work dir>/hfile-task-<job>-<unit>-<attempt>-<pid>/data/...          a remote table's
//   <job dir>/attempts/<unit>/<attempt>/files/<path>                     ... and its uploads
//   <job dir>/attempts/<unit>/<attempt>/result.json                      written last
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <system_error>

#include "fs_util.h"
#include "region/units.h"
#include "units.pb.h"
#include "units_internal.h"

namespace hfile::region {

namespace {

namespace stdfs = std::filesystem;

struct Entry {
  bool is_dir = false;
  uint64_t size = 0;
};
using Listing = std::map<std::string, Entry>;  // relative path -> entry

// Paths of the mirror's table dir a tool leaves behind as its own bookkeeping, not as a change:
// its journals and staging dirs, each region's .tmp/, the descriptor's .tmp/.
bool Ignored(const std::string& rel) {
  const auto slash = rel.find('/');
  const std::string first = rel.substr(0, slash);
  if (first.rfind(".hfile-", 0) == 0 || first == ".tmp") return true;
  if (slash == std::string::npos) return false;
  const std::string rest = rel.substr(slash + 1);
  const std::string second = rest.substr(0, rest.find('/'));
  if (first == ".tabledesc") return second == ".tmp";
  return second == ".tmp";
}

Status ListLocal(const std::string& dir, Listing* out) {
  std::error_code ec;
  stdfs::recursive_directory_iterator it(dir, ec), end;
  if (ec) return Status::IOError(dir, ec.message());
  for (; it != end; it.increment(ec)) {
    if (ec) return Status::IOError(dir, ec.message());
    std::string rel = stdfs::relative(it->path(), dir, ec).string();
    if (Ignored(rel)) {
      if (it->is_directory(ec)) it.disable_recursion_pending();
      continue;
    }
    Entry e;
    e.is_dir = it->is_directory(ec);
    if (!e.is_dir) e.size = it->file_size(ec);
    (*out)[rel] = e;
  }
  return Status::OK();
}

// A hard link of a local file (the table is never written through it: every tool writes new
// files and renames), or a copy where links do not work.
Status LinkOrCopy(const std::string& from, const std::string& to) {
  HFILE_RETURN_IF_ERROR(CreateDirDurably(ParentDir(to)));
  if (::link(from.c_str(), to.c_str()) == 0) return Status::OK();
  if (errno == ENOENT) return Status::NotFound(from, "the input is gone: plan again");
  std::error_code ec;
  stdfs::copy_file(from, to, stdfs::copy_options::overwrite_existing, ec);
  if (ec) return Status::IOError("cannot copy " + from + " to " + to, ec.message());
  return Status::OK();
}

Status ToolStatus(int exit_code, const std::string& err) {
  std::string last = err;
  while (!last.empty() && last.back() == '\n') last.pop_back();
  if (auto nl = last.rfind('\n'); nl != std::string::npos) last = last.substr(nl + 1);
  const std::string msg = fmt::format("the tool exited with {}", exit_code);
  switch (exit_code) {
    case 1:
      return Status::InvalidArgument(msg, last);
    case 2:
      return Status::Corruption(msg, last);
    default:
      return Status::IOError(msg, last);
  }
}

// The tool's target in the mirror: what the unit is (doc/distributed.md, "A unit").
std::string ToolTarget(const pb::UnitProto& u, const std::string& mirror_table) {
  const std::string region = JoinPath(mirror_table, u.region());
  if (u.tool() == "compact")
    return u.families_size() == 1 ? JoinPath(region, u.families(0)) : region;
  if (u.tool() == "split") return region;
  return mirror_table;  // alter, copy-family: table-wide tools, on a one-region table
}

uint64_t SizeUnder(const Listing& after, const std::string& dir) {
  uint64_t total = 0;
  const std::string prefix = dir + "/";
  for (auto it = after.lower_bound(prefix); it != after.end() && it->first.rfind(prefix, 0) == 0;
       ++it)
    total += it->second.size;
  return total;
}

bool ParentIn(const Listing& set, const Listing& other, const std::string& path) {
  // True when some ancestor of `path` is in `set` but not in `other` (the change is that
  // ancestor's, whole).
  for (std::string p = path; p.find('/') != std::string::npos;) {
    p = p.substr(0, p.rfind('/'));
    if (set.count(p) && !other.count(p)) return true;
  }
  return false;
}

// The write stage's inputs: the part of `u`'s region that each of its `after` units made, in
// their order (the inputs' order), from each one's first complete attempt by name (any two
// complete attempts of a partition unit hold the same parts). A remote part is downloaded.
Status FindParts(FileSystem* fs, const pb::UnitProto& u, bool remote,
                 const std::string& mirror_root, std::vector<std::string>* parts) {
  for (const auto& id : u.after()) {
    const std::string dir = JoinPath(JoinPath(u.job_dir(), kAttemptsDir), id);
    std::vector<std::string> names;
    if (auto entries = fs->ListDir(dir); entries.ok()) {
      for (const auto& e : *entries)
        if (e.is_dir) names.push_back(e.name);
    }
    std::sort(names.begin(), names.end());
    std::string result_json;
    for (const auto& n : names) {
      if (auto text = fs->ReadFile(JoinPath(JoinPath(dir, n), kResultFile)); text.ok()) {
        result_json = *text;
        break;
      }
    }
    if (result_json.empty())
      return Status::IOError(dir, fmt::format("partition unit {} has no complete attempt: run "
                                              "the partition stage first",
                                              id));
    pb::TaskResultProto r;
    HFILE_RETURN_IF_ERROR(FromJson(result_json, JoinPath(dir, kResultFile), &r));
    for (const auto& part : r.parts()) {
      if (part.path() != u.region()) continue;
      const std::string from = JoinPath(u.table(), part.from());
      auto st = fs->Stat(from);
      if (!st.ok() || st->size != part.size())
        return Status::Corruption(from, fmt::format("the part is not the {} bytes its attempt "
                                                    "recorded",
                                                    part.size()));
      if (!remote) {
        parts->push_back(from);
        continue;
      }
      const std::string local = JoinPath(JoinPath(mirror_root, "parts-in"), id);
      HFILE_RETURN_IF_ERROR(CreateDirDurably(ParentDir(local)));
      HFILE_RETURN_IF_ERROR(fs->CopyToLocal(from, local));
      parts->push_back(local);
    }
  }
  return Status::OK();
}

}  // namespace

Status RunTask(const std::string& unit_json, const TaskOptions& o, TaskSummary* summary) {
  *summary = TaskSummary();
  const auto t0 = std::chrono::steady_clock::now();
  pb::UnitProto u;
  HFILE_RETURN_IF_ERROR(FromJson(unit_json, "the unit", &u));
  if (u.kind() != "unit" || u.id().empty() || u.job_dir().empty() || u.table().empty())
    return Status::InvalidArgument("the unit", "not a unit record (kind, id, job_dir, table)");
  if (o.attempt.empty() || o.attempt.find('/') != std::string::npos || o.attempt[0] == '.')
    return Status::InvalidArgument(o.attempt, "an attempt id is one path component");
  if (!o.run_tool) return Status::InvalidArgument("RunTask", "no tool runner");
  auto checkpoint = [&](const char* step) {
    if (o.checkpoint) o.checkpoint(step);
  };
  HFILE_ASSIGN_OR_RETURN(auto fs_owner, FileSystemFor(u.table()));
  FileSystem* fs = fs_owner.get();
  const bool remote = IsRemotePath(u.table());
  const std::string attempt_dir =
      JoinPath(JoinPath(JoinPath(u.job_dir(), kAttemptsDir), u.id()), o.attempt);
  const std::string result_path = JoinPath(attempt_dir, kResultFile);

  HFILE_ASSIGN_OR_RETURN(const bool complete, fs->ExistsOrError(result_path));
  if (complete) {  // a complete attempt: its result, nothing redone
    HFILE_ASSIGN_OR_RETURN(summary->result_json, fs->ReadFile(result_path));
    while (!summary->result_json.empty() && summary->result_json.back() == '\n')
      summary->result_json.pop_back();
    summary->ok = summary->reused = true;
    return Status::OK();
  }
  std::string table_rel;  // data/<ns>/<table>
  if (!RelativeTo(u.root(), u.table(), &table_rel) || table_rel.empty())
    return Status::InvalidArgument(u.table(), "the unit's table is not under its root");
  // An attempt of this name that did not finish (a killed task): start it over.
  HFILE_RETURN_IF_ERROR(fs->Delete(attempt_dir, /*recursive=*/true));
  HFILE_RETURN_IF_ERROR(fs->CreateDirs(attempt_dir));

  std::string mirror_root;
  if (remote) {
    std::string work = o.work_dir;
    if (work.empty()) work = std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp";
    mirror_root = JoinPath(work, fmt::format("hfile-task-{}-{}-{}-{}", u.job(), u.id(), o.attempt,
                                             ::getpid()));
    std::error_code ec;
    stdfs::remove_all(mirror_root, ec);
  } else {
    mirror_root = JoinPath(attempt_dir, "mirror");
  }
  const std::string mirror_table = JoinPath(mirror_root, table_rel);
  struct Cleanup {  // a remote table's local mirror goes whatever happens
    std::string dir;
    ~Cleanup() {
      std::error_code ec;
      if (!dir.empty()) stdfs::remove_all(dir, ec);
    }
  } cleanup{remote ? mirror_root : ""};

  // Mirror: a file of the table (or root) at the same relative path under the mirror.
  auto fetch = [&](const std::string& from, const std::string& to, uint64_t size) -> Status {
    auto st = fs->Stat(from);
    if (!st.ok()) return Status::NotFound(from, "the unit's input is gone: plan again");
    if (st->size != size)
      return Status::Corruption(from, fmt::format("is {} bytes, {} when the job was planned: "
                                                  "plan again",
                                                  st->size, size));
    if (!remote) return LinkOrCopy(from, to);
    HFILE_RETURN_IF_ERROR(CreateDirDurably(ParentDir(to)));
    return fs->CopyToLocal(from, to);
  };
  HFILE_RETURN_IF_ERROR(CreateDirDurably(JoinPath(mirror_table, u.region())));
  HFILE_RETURN_IF_ERROR(CreateDirDurably(JoinPath(mirror_root, "WALs")));
  for (const auto& m : u.meta()) {
    const std::string to = JoinPath(mirror_table, m.path());
    if (m.dir()) {
      HFILE_RETURN_IF_ERROR(CreateDirDurably(to));
    } else if (m.path().find("/.tmp/") != std::string::npos) {
      // .tmp's content: only its names matter to a tool (an unclean region).
      HFILE_RETURN_IF_ERROR(CreateDirDurably(ParentDir(to)));
      HFILE_RETURN_IF_ERROR(WriteFileDurably(to, ""));
    } else {
      HFILE_RETURN_IF_ERROR(fetch(JoinPath(u.table(), m.path()), to, m.size()));
    }
  }
  for (const auto& f : u.families())
    HFILE_RETURN_IF_ERROR(CreateDirDurably(JoinPath(JoinPath(mirror_table, u.region()), f)));
  for (const auto& in : u.inputs())
    HFILE_RETURN_IF_ERROR(
        fetch(JoinPath(u.table(), in.path()), JoinPath(mirror_table, in.path()), in.size()));
  for (const auto& s : u.support())
    HFILE_RETURN_IF_ERROR(
        fetch(JoinPath(u.root(), s.path()), JoinPath(mirror_root, s.path()), s.size()));
  Listing before;
  HFILE_RETURN_IF_ERROR(ListLocal(mirror_table, &before));
  checkpoint("mirrored");

  // A two-stage job (bulkload): the partition stage writes its parts beside the mirror, the
  // write stage loads its region's parts into the mirror.
  const std::string parts_local = JoinPath(remote ? mirror_root : attempt_dir, "parts");
  std::vector<std::string> argv{u.tool()};
  std::vector<std::string> inputs;
  if (u.tool() == "bulkload") {
    argv.insert(argv.end(), {"--table", mirror_table});
    if (u.stage() == "partition") {
      argv.insert(argv.end(), {"--partition-to", parts_local});
      for (const auto& f : u.sources()) {
        std::error_code ec;
        const auto size = stdfs::file_size(f.path(), ec);
        if (ec) return Status::NotFound(f.path(), "the input is gone: plan again");
        if (size != f.size())
          return Status::Corruption(f.path(), fmt::format("is not the {} bytes it was when the "
                                                          "job was planned: plan again",
                                                          f.size()));
        inputs.push_back(f.path());
      }
    } else {
      HFILE_RETURN_IF_ERROR(FindParts(fs, u, remote, mirror_root, &inputs));
      argv.insert(argv.end(), {"--into", "--region", u.region()});
    }
  } else {
    argv.push_back(ToolTarget(u, mirror_table));
  }
  argv.insert(argv.end(), u.args().begin(), u.args().end());
  argv.push_back("--json");
  argv.push_back("--no-progress");
  argv.insert(argv.end(), inputs.begin(), inputs.end());
  std::string out;
  if (u.stage() == "write" && inputs.empty()) {
    summary->tool_exit = 0;  // no record falls in the region: nothing to load
  } else {
    summary->tool_exit = o.run_tool(argv, &out, &summary->tool_err);
  }
  checkpoint("tool-done");

  pb::TaskResultProto r;
  r.set_v(1);
  r.set_kind("task-result");
  r.set_job(u.job());
  r.set_unit(u.id());
  r.set_attempt(o.attempt);
  r.set_path(attempt_dir);
  r.set_tool_exit(summary->tool_exit);
  while (!out.empty() && out.back() == '\n') out.pop_back();
  r.set_tool_output(out);
  r.set_bytes_in(u.bytes());
  auto finish = [&]() {
    r.set_seconds(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    summary->result_json = ToJsonLine(r);
  };
  if (summary->tool_exit != 0) {
    Status s = ToolStatus(summary->tool_exit, summary->tool_err);
    r.set_status("error");
    r.set_error(s.ToString());
    r.set_code("tool-failed");
    finish();
    return s;
  }

  Listing after;
  HFILE_RETURN_IF_ERROR(ListLocal(mirror_table, &after));
  const std::string archive_table = JoinPath(JoinPath(mirror_root, "archive"), table_rel);
  std::string attempt_rel;  // the attempt dir, relative to the table dir
  if (!RelativeTo(u.table(), attempt_dir, &attempt_rel))
    return Status::InvalidArgument(u.job_dir(), "the job dir is not in the table dir");
  uint64_t bytes_out = 0;
  for (const auto& [path, e] : before) {
    auto it = after.find(path);
    if (it != after.end()) {
      if (it->second.is_dir != e.is_dir || it->second.size != e.size)
        return Status::Corruption(JoinPath(mirror_table, path),
                                  "the tool changed a file in place; tools only add and remove");
      continue;
    }
    if (ParentIn(before, after, path)) continue;
    auto* c = r.add_removed();
    c->set_path(path);
    c->set_dir(e.is_dir);
    c->set_size(e.is_dir ? SizeUnder(before, path) : e.size);
    c->set_archived(stdfs::exists(JoinPath(archive_table, path)));
  }
  for (const auto& [path, e] : after) {
    if (before.count(path) || ParentIn(after, before, path)) continue;
    auto* c = r.add_added();
    c->set_path(path);
    c->set_dir(e.is_dir);
    c->set_size(e.is_dir ? SizeUnder(after, path) : e.size);
    bytes_out += c->size();
    if (!remote) {
      std::string from;
      RelativeTo(u.table(), JoinPath(mirror_table, path), &from);
      c->set_from(from);
      continue;
    }
    // Upload: every file of an added dir (and the dirs, empty ones too) under files/.
    const std::string files_rel = JoinPath(attempt_rel, "files");
    c->set_from(JoinPath(files_rel, path));
    std::vector<std::pair<std::string, Entry>> todo{{path, e}};
    const std::string prefix = path + "/";
    for (auto it = after.lower_bound(prefix);
         it != after.end() && it->first.rfind(prefix, 0) == 0; ++it)
      todo.push_back(*it);
    for (const auto& [p, pe] : todo) {
      const std::string dst = JoinPath(JoinPath(u.table(), files_rel), p);
      if (pe.is_dir) {
        HFILE_RETURN_IF_ERROR(fs->CreateDirs(dst));
      } else {
        HFILE_RETURN_IF_ERROR(fs->CreateDirs(ParentDir(dst)));
        HFILE_RETURN_IF_ERROR(fs->CopyFromLocal(JoinPath(mirror_table, p), dst));
      }
    }
  }
  if (u.stage() == "partition") {
    Listing parts;
    HFILE_RETURN_IF_ERROR(ListLocal(parts_local, &parts));
    for (const auto& [name, e] : parts) {
      auto* c = r.add_parts();
      c->set_path(name);
      c->set_size(e.size);
      bytes_out += e.size;
      const std::string rel = JoinPath(JoinPath(attempt_rel, "parts"), name);
      c->set_from(rel);
      if (!remote) continue;
      HFILE_RETURN_IF_ERROR(fs->CreateDirs(ParentDir(JoinPath(u.table(), rel))));
      HFILE_RETURN_IF_ERROR(
          fs->CopyFromLocal(JoinPath(parts_local, name), JoinPath(u.table(), rel)));
    }
  }
  if (remote) checkpoint("uploaded");
  r.set_bytes_out(bytes_out);
  r.set_status("ok");
  finish();
  HFILE_RETURN_IF_ERROR(fs->WriteFileAtomically(result_path, summary->result_json + "\n"));
  checkpoint("result-written");
  summary->ok = true;
  return Status::OK();
}

}  // namespace hfile::region
