// PlanJob: a writing tool's work over a table as units (doc/distributed.md), listed through
// FileSystem so that a table on HDFS plans as one on a local disk.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <system_error>

#include "fs_util.h"
#include "region/layout.h"
#include "region/store_file_name.h"
#include "region/table_name.h"
#include "region/units.h"
#include "units.pb.h"
#include "units_internal.h"

namespace hfile::region {

std::string JobsDir(const std::string& table_dir) { return JoinPath(table_dir, kJobsDirName); }

int64_t JobPlanNowMs() { return NowMs(); }

namespace {

std::string StripSlashes(std::string p) {
  while (p.size() > 1 && p.back() == '/') p.pop_back();
  return p;
}

std::string BaseName(const std::string& p) {
  auto slash = p.rfind('/');
  return slash == std::string::npos ? p : p.substr(slash + 1);
}

bool ValidJobId(const std::string& id) {
  if (id.empty() || id.size() > 200 || id[0] == '.') return false;
  return std::all_of(id.begin(), id.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
  });
}

struct Located {
  std::string table_dir, root_dir, ns, table;
  std::string region, family;  // when the target is a region or family dir
};

// The table dir is the target, its parent or its grandparent: the one holding .tabledesc/.
Result<Located> Locate(FileSystem* fs, const std::string& target) {
  Located l;
  std::string p = StripSlashes(target);
  std::vector<std::string> below;
  for (int up = 0; up < 3; ++up) {
    if (fs->IsDirectory(JoinPath(p, ".tabledesc"))) {
      l.table_dir = p;
      if (below.size() >= 1) l.region = below.back();
      if (below.size() >= 2) l.family = below.front();
      break;
    }
    below.push_back(BaseName(p));
    p = ParentDir(p);
  }
  if (l.table_dir.empty())
    return Status::InvalidArgument(target, "not a table, region or family dir (no .tabledesc/ "
                                           "in it or above it)");
  const std::string ns_dir = ParentDir(l.table_dir), data_dir = ParentDir(ns_dir);
  if (BaseName(data_dir) != "data")
    return Status::InvalidArgument(l.table_dir, "the table dir is not under <root>/data/<ns>/");
  l.root_dir = ParentDir(data_dir);
  l.ns = BaseName(ns_dir);
  l.table = BaseName(l.table_dir);
  return l;
}

// Every file under `dir` (relative to `base`), directories recursed into.
Status ListFilesUnder(FileSystem* fs, const std::string& base, const std::string& rel,
                      std::vector<pb::UnitFileProto>* out) {
  HFILE_ASSIGN_OR_RETURN(auto entries, fs->ListDir(JoinPath(base, rel)));
  for (const auto& e : entries) {
    const std::string r = JoinPath(rel, e.name);
    if (e.is_dir) {
      HFILE_RETURN_IF_ERROR(ListFilesUnder(fs, base, r, out));
      continue;
    }
    pb::UnitFileProto f;
    f.set_path(r);
    f.set_size(e.size);
    out->push_back(std::move(f));
  }
  return Status::OK();
}

// What a store file reads through, relative to the root: a Reference's parent file (and, when
// that is an HFileLink, its target), an HFileLink's target.
Status AddSupport(FileSystem* fs, const Located& l, const std::string& family,
                  const std::string& name, pb::UnitProto* unit) {
  const StoreFileName sf = StoreFileName::Classify(name);
  auto add = [&](const std::string& rel) -> Status {
    for (const auto& s : unit->support())
      if (s.path() == rel) return Status::OK();
    HFILE_ASSIGN_OR_RETURN(auto st, fs->Stat(JoinPath(l.root_dir, rel)));
    auto* f = unit->add_support();
    f->set_path(rel);
    f->set_size(st.size);
    return Status::OK();
  };
  auto add_link_target = [&](const HFileLinkName& link) -> Status {
    for (const auto& candidate : HFileLinkCandidates("", link, family)) {
      std::string rel = candidate;
      while (!rel.empty() && rel[0] == '/') rel.erase(0, 1);
      if (fs->Exists(JoinPath(l.root_dir, rel))) return add(rel);
    }
    return Status::OK();  // unresolved: the tool reports it, as on the table
  };
  const std::string table_rel = fmt::format("data/{}/{}", l.ns, l.table);
  if (sf.kind == StoreFileKind::kReference) {
    const std::string parent =
        fmt::format("{}/{}/{}/{}", table_rel, sf.parent_region, family, sf.referenced_name);
    if (fs->Exists(JoinPath(l.root_dir, parent))) HFILE_RETURN_IF_ERROR(add(parent));
    if (sf.link) HFILE_RETURN_IF_ERROR(add_link_target(*sf.link));
  } else if (sf.kind == StoreFileKind::kLink && sf.link) {
    HFILE_RETURN_IF_ERROR(add_link_target(*sf.link));
  }
  return Status::OK();
}

// The DataNodes holding the unit's inputs (and what they read through), the most bytes first:
// a scheduler's locality hint. Best effort: a server without block locations leaves it empty.
void FillHosts(FileSystem* fs, const Located& l, pb::UnitProto* u) {
  std::map<std::string, uint64_t> bytes;
  for (const auto& in : u->inputs())
    if (!fs->AddBlockHosts(JoinPath(l.table_dir, in.path()), &bytes).ok()) return;
  for (const auto& s : u->support())
    if (!fs->AddBlockHosts(JoinPath(l.root_dir, s.path()), &bytes).ok()) return;
  std::vector<std::pair<std::string, uint64_t>> hosts(bytes.begin(), bytes.end());
  std::stable_sort(hosts.begin(), hosts.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  for (const auto& h : hosts) u->add_hosts(h.first);
}

struct RegionListing {
  std::string name;
  std::vector<std::string> families;     // family dirs present
  std::vector<pb::UnitFileProto> meta;   // .regioninfo, recovered.edits/*, other entries
  bool has_info = false;
};

Result<RegionListing> ListRegion(FileSystem* fs, const std::string& table_dir,
                                 const std::string& region) {
  RegionListing r;
  r.name = region;
  const std::string dir = JoinPath(table_dir, region);
  HFILE_ASSIGN_OR_RETURN(auto entries, fs->ListDir(dir));
  for (const auto& e : entries) {
    const std::string rel = JoinPath(region, e.name);
    if (e.name == ".regioninfo" && !e.is_dir) r.has_info = true;
    if (e.is_dir && IsFamilyDirName(e.name)) {
      r.families.push_back(e.name);
      continue;
    }
    if (e.name == ".tmp" && e.is_dir) {
      HFILE_ASSIGN_OR_RETURN(auto tmp, fs->ListDir(JoinPath(dir, ".tmp")));
      for (const auto& t : tmp)
        if (t.name == "hfile.journal" || t.name == "hfile.journal.new")
          return Status::NotSupported(
              JoinPath(dir, ".tmp/" + t.name),
              "the region has an unfinished transaction: run any tool on it to finish it, "
              "then plan again");
    }
    if (e.is_dir && (e.name == "recovered.edits")) {
      pb::UnitFileProto d;
      d.set_path(rel);
      d.set_dir(true);
      r.meta.push_back(d);
      HFILE_RETURN_IF_ERROR(ListFilesUnder(fs, table_dir, rel, &r.meta));
      continue;
    }
    // .regioninfo, and the rest as the tool would see it (.tmp, split flags, strays): files
    // are mirrored whole (.tmp's content: empty, only its names matter to a tool).
    pb::UnitFileProto f;
    f.set_path(rel);
    f.set_dir(e.is_dir);
    f.set_size(e.is_dir ? 0 : e.size);
    r.meta.push_back(f);
    if (e.is_dir && e.name != ".tmp")
      HFILE_RETURN_IF_ERROR(ListFilesUnder(fs, table_dir, rel, &r.meta));
  }
  return r;
}

Status ReadExistingPlan(FileSystem* fs, const JobPlanOptions& o, JobPlan* plan) {
  HFILE_ASSIGN_OR_RETURN(auto job_json, fs->ReadFile(JoinPath(plan->job_dir, kJobFile)));
  pb::JobProto job;
  HFILE_RETURN_IF_ERROR(FromJson(job_json, JoinPath(plan->job_dir, kJobFile), &job));
  if (job.tool() != o.tool)
    return Status::InvalidArgument(plan->job_dir,
                                   fmt::format("the job dir holds a job of {}, not {}: give "
                                               "another --job-id",
                                               job.tool(), o.tool));
  std::vector<pb::UnitProto> units;
  HFILE_RETURN_IF_ERROR(ReadJobUnits(fs, plan->job_dir, &units, &plan->unit_lines));
  for (const auto& u : units) plan->bytes += u.bytes();
  if (plan->unit_lines.size() != job.units())
    return Status::Corruption(JoinPath(plan->job_dir, kUnitsFile),
                              fmt::format("{} units, job.json says {}", plan->unit_lines.size(),
                                          job.units()));
  plan->skipped.assign(job.skipped().begin(), job.skipped().end());
  plan->reused = true;
  return Status::OK();
}

}  // namespace

Status PlanJob(const JobPlanOptions& o, JobPlan* plan) {
  *plan = JobPlan();
  HFILE_ASSIGN_OR_RETURN(auto fs_owner, FileSystemFor(o.target));
  FileSystem* fs = fs_owner.get();
  // Units run anywhere, from any working directory: their paths are absolute.
  std::string target = o.target;
  if (!IsRemotePath(target)) {
    std::error_code ec;
    auto abs = std::filesystem::absolute(target, ec);
    if (ec) return Status::IOError(target, ec.message());
    target = abs.lexically_normal().string();
  }
  HFILE_ASSIGN_OR_RETURN(auto l, Locate(fs, target));
  const int64_t now = o.now_ms ? o.now_ms : NowMs();
  plan->job_id = o.job_id.empty() ? fmt::format("{}-{}", o.tool, now) : o.job_id;
  if (!ValidJobId(plan->job_id))
    return Status::InvalidArgument(plan->job_id, "a job id is letters, digits, '-', '_', '.'");
  plan->table_dir = l.table_dir;
  plan->job_dir = JoinPath(JobsDir(l.table_dir), plan->job_id);
  HFILE_ASSIGN_OR_RETURN(const bool done, fs->ExistsOrError(JoinPath(JobsDir(l.table_dir),
                                                                    plan->job_id + kDoneSuffix)));
  if (done) {
    plan->already_committed = true;
    return Status::OK();
  }
  HFILE_ASSIGN_OR_RETURN(const bool planned,
                         fs->ExistsOrError(JoinPath(plan->job_dir, kJobFile)));
  if (planned) return ReadExistingPlan(fs, o, plan);

  HFILE_ASSIGN_OR_RETURN(const bool journal,
                         fs->ExistsOrError(JoinPath(l.table_dir, ".hfile-journal")));
  if (journal)
    return Status::NotSupported(JoinPath(l.table_dir, ".hfile-journal"),
                                "the table has an unfinished transaction: commit its job "
                                "(hfile task --commit) or run any tool on the table first");
  if (!o.force) {
    // As the tools decide: a clean shutdown leaves each server's WAL dir, empty.
    const std::string wal_root = JoinPath(l.root_dir, "WALs");
    if (auto servers = fs->ListDir(wal_root); servers.ok()) {
      for (const auto& server : *servers) {
        auto files = fs->ListDir(JoinPath(wal_root, server.name));
        if (!server.is_dir || (files.ok() && !files->empty()))
          return Status::NotSupported(
              JoinPath(wal_root, server.name),
              "holds WAL files: HBase looks online or was not stopped cleanly (stop it; "
              "--force plans anyway)");
      }
    }
  }

  // The descriptor: every .tableinfo file (the tool picks the newest, as HBase).
  std::vector<pb::UnitFileProto> desc;
  {
    HFILE_ASSIGN_OR_RETURN(auto entries, fs->ListDir(JoinPath(l.table_dir, ".tabledesc")));
    for (const auto& e : entries) {
      if (e.is_dir || !ParseTableInfoFileName(e.name)) continue;
      pb::UnitFileProto f;
      f.set_path(".tabledesc/" + e.name);
      f.set_size(e.size);
      desc.push_back(f);
    }
    if (desc.empty())
      return Status::NotFound(JoinPath(l.table_dir, ".tabledesc"), "no .tableinfo file");
  }

  std::vector<std::string> regions;
  if (!l.region.empty()) {
    regions.push_back(l.region);
  } else {
    HFILE_ASSIGN_OR_RETURN(auto entries, fs->ListDir(l.table_dir));
    for (const auto& e : entries)
      if (e.is_dir && IsRegionDirName(e.name)) regions.push_back(e.name);
  }
  std::vector<std::string> wanted = o.families;
  if (!l.family.empty()) wanted = {l.family};
  auto want = [&](const std::string& f) {
    return wanted.empty() || std::find(wanted.begin(), wanted.end(), f) != wanted.end();
  };

  pb::JobProto job;
  job.set_v(1);
  job.set_kind("job");
  job.set_job(plan->job_id);
  job.set_tool(o.tool);
  for (const auto& a : o.args) job.add_args(a);
  job.set_table(l.table_dir);
  job.set_root(l.root_dir);
  job.set_job_dir(plan->job_dir);
  job.set_created_ms(now);

  size_t next_id = 0;
  auto new_unit = [&](const RegionListing& r) {
    pb::UnitProto u;
    u.set_v(1);
    u.set_kind("unit");
    u.set_job(plan->job_id);
    u.set_id(fmt::format("{:05d}", next_id++));
    u.set_tool(o.tool);
    for (const auto& a : o.args) u.add_args(a);
    u.set_table(l.table_dir);
    u.set_root(l.root_dir);
    u.set_job_dir(plan->job_dir);
    u.set_region(r.name);
    for (const auto& m : desc) *u.add_meta() = m;
    for (const auto& m : r.meta) *u.add_meta() = m;
    return u;
  };
  auto add_family = [&](const std::string& family, pb::UnitProto* u) -> Status {
    u->add_families(family);
    std::vector<pb::UnitFileProto> files;
    HFILE_RETURN_IF_ERROR(ListFilesUnder(fs, l.table_dir, JoinPath(u->region(), family), &files));
    for (auto& f : files) {
      u->set_bytes(u->bytes() + f.size());
      const std::string name = BaseName(f.path());
      *u->add_inputs() = std::move(f);
      HFILE_RETURN_IF_ERROR(AddSupport(fs, l, family, name, u));
    }
    for (const auto& s : u->support()) u->set_bytes(u->bytes() + s.size());
    return Status::OK();
  };
  std::vector<pb::UnitProto> units;
  std::string first_region_with_info;
  // A two-stage job: a partition unit per input first, with every region's .regioninfo (its
  // tool routes the records by the table's regions, as one run does).
  std::vector<std::string> partition_ids;
  if (!o.sources.empty()) {
    std::vector<pb::UnitFileProto> infos;
    for (const auto& name : regions) {
      const std::string rel = JoinPath(name, ".regioninfo");
      if (auto st = fs->Stat(JoinPath(l.table_dir, rel)); st.ok()) {
        pb::UnitFileProto f;
        f.set_path(rel);
        f.set_size(st->size);
        infos.push_back(std::move(f));
      }
    }
    for (const auto& source : o.sources) {
      std::error_code ec;
      const auto size = std::filesystem::file_size(source, ec);
      if (ec) return Status::NotFound(source, "the input: " + ec.message());
      pb::UnitProto u = new_unit(RegionListing{});
      u.clear_meta();
      for (const auto& m : desc) *u.add_meta() = m;
      for (const auto& m : infos) *u.add_meta() = m;
      u.set_stage("partition");
      auto* f = u.add_sources();
      f->set_path(source);
      f->set_size(size);
      u.set_bytes(size);
      partition_ids.push_back(u.id());
      units.push_back(std::move(u));
    }
  }
  for (const auto& name : regions) {
    HFILE_ASSIGN_OR_RETURN(auto r, ListRegion(fs, l.table_dir, name));
    if (!r.has_info) {
      plan->skipped.push_back(name + ": no .regioninfo (HBase does not open it)");
      continue;
    }
    if (first_region_with_info.empty()) first_region_with_info = name;
    if (o.grain == UnitGrain::kRegion) {
      pb::UnitProto u = new_unit(r);
      for (const auto& f : r.families)
        if (o.mirror_all_families || want(f)) HFILE_RETURN_IF_ERROR(add_family(f, &u));
      if (!o.sources.empty()) {
        u.set_stage("write");
        for (const auto& id : partition_ids) u.add_after(id);
      }
      units.push_back(std::move(u));
      continue;
    }
    bool any = false;
    for (const auto& f : r.families) {
      if (!want(f)) continue;
      pb::UnitProto u = new_unit(r);
      HFILE_RETURN_IF_ERROR(add_family(f, &u));
      if (u.inputs_size() == 0 && !o.every_region) {
        plan->skipped.push_back(name + "/" + f + ": no store files");
        --next_id;
        continue;
      }
      units.push_back(std::move(u));
      any = true;
    }
    if (!any && o.every_region) units.push_back(new_unit(r));  // the region, no store of it
  }
  // A job that changes the descriptor changes it even when no store needs rewriting.
  if (units.empty() && o.at_least_one && !first_region_with_info.empty()) {
    HFILE_ASSIGN_OR_RETURN(auto r, ListRegion(fs, l.table_dir, first_region_with_info));
    units.push_back(new_unit(r));
  }

  if (IsRemotePath(l.table_dir))
    for (auto& u : units) FillHosts(fs, l, &u);
  std::string lines;
  for (const auto& u : units) {
    plan->bytes += u.bytes();
    plan->unit_lines.push_back(ToJsonLine(u));
    lines += plan->unit_lines.back() + "\n";
  }
  job.set_units(static_cast<uint32_t>(units.size()));
  for (const auto& s : plan->skipped) job.add_skipped(s);
  // units.jsonl first, job.json last: a job dir is a plan once job.json exists.
  HFILE_RETURN_IF_ERROR(fs->CreateDirs(plan->job_dir));
  HFILE_RETURN_IF_ERROR(fs->WriteFileAtomically(JoinPath(plan->job_dir, kUnitsFile), lines));
  HFILE_RETURN_IF_ERROR(
      fs->WriteFileAtomically(JoinPath(plan->job_dir, kJobFile), ToJsonLine(job) + "\n"));
  return Status::OK();
}

}  // namespace hfile::region
