// PlanCompaction: path -> table/region/family dirs, descriptor, store-file metadata, safety
// checks (REGION_LAYOUT §6.9), whole-file expiry and selection per store.
#include <fmt/format.h>
#include <sys/stat.h>

#include <chrono>
#include <algorithm>
#include <filesystem>

#include "fs_util.h"
#include "hfile/reader.h"
#include "region/commit.h"
#include "region/compact.h"
#include "region/compacted_files.h"
#include "region/layout.h"
#include "region/target.h"
#include "region/store_file_reader.h"

namespace hfile::region {

namespace fs = std::filesystem;

namespace {

std::string Parent(const std::string& p) { return fs::path(p).parent_path().string(); }
std::string Base(const std::string& p) { return fs::path(p).filename().string(); }

int64_t ModificationTimeMs(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return 0;
  return int64_t{st.st_mtim.tv_sec} * 1000 + st.st_mtim.tv_nsec / 1000000;
}

// Opens the entry as HBase does (a Reference's referenced file, a link's target): HStoreFile
// takes the reader's length and the referenced file's status for size and modification time.
Result<CandidateFile> ReadCandidate(const StoreFile& sf) {
  HFILE_ASSIGN_OR_RETURN(auto reader, StoreFileReader::Open(sf));
  CandidateFile c;
  c.name = sf.name.name;
  c.path = sf.path;
  c.size = reader->hfile().file_size();
  c.reference = sf.reference.has_value();
  c.entry = sf;
  c.modification_time_ms = ModificationTimeMs(sf.target_path);
  const FileInfo& fi = reader->hfile().file_info();
  c.sequence_id = reader->sequence().sequence_id;
  c.bulk_loaded = reader->sequence().bulk_loaded;
  c.reset_cell_sequence_ids = reader->sequence().reset_cell_sequence_ids;
  c.bulkload_time = fi.GetInt64(fileinfo::kBulkloadTimestamp);
  if (auto tr = fi.Get(fileinfo::kTimeRange)) {
    if (auto r = DecodeTimeRange(*tr)) c.max_timestamp = r->max;
  }
  c.exclude_from_minor = fi.GetBool(fileinfo::kExcludeFromMinorCompaction).value_or(false);
  c.earliest_put_ts = fi.GetInt64(fileinfo::kEarliestPutTs);
  c.max_memstore_ts = fi.GetInt64(fileinfo::kMaxMemstoreTs).value_or(0);
  c.max_tags_len = fi.GetInt32(fileinfo::kMaxTagsLen).value_or(0);
  if (auto ev = fi.Get(fileinfo::kCompactionEvent)) c.compacted_files = hfile::DecodeCompactionEvent(*ev).value_or(std::vector<std::string>());
  return c;
}

// Why HBase's store code cannot be imitated for this family, or "".
std::string UnsupportedFamily(const FamilyDescriptor& f, const TableDescriptor& t,
                              const FamilyDir& dir) {
  if (Status s = f.Validate(); !s.ok()) return "family settings do not parse: " + s.ToString();
  if (f.new_version_behavior()) return "NEW_VERSION_BEHAVIOR=true has other delete semantics";
  if (f.is_mob()) return "MOB families are not supported";
  if (f.encrypted()) return "ENCRYPTION is set (encrypted HFiles are not supported)";
  std::string tracker = t.store_file_tracker();
  if (auto v = f.GetConfiguration(table_key::kStoreFileTracker)) tracker = *v;
  if (tracker != "DEFAULT" || dir.tracker)
    return "store-file tracker " + tracker + " (only DEFAULT, directory listing, is supported)";
  if (!dir.invalid.empty())
    return fmt::format("{} name(s) HBase cannot open (e.g. '{}'): fix the store first",
                       dir.invalid.size(), dir.invalid[0]);
  return "";
}

bool HoldsFiles(const std::string& dir) {
  std::error_code ec;
  for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (!it->is_directory(ec)) return true;
  return !!ec;
}

// Region-level reasons to think HBase has the region open or did not close it cleanly.
void CheckRegion(const RegionDir& r, const std::string& table_dir, const std::string& root,
                 RegionPlan* plan) {
  if (r.HasPendingEdits())
    plan->refusals.push_back(
        "recovered.edits/ holds edit files HBase has not replayed (unclean close); a compacted "
        "file's larger MAX_SEQ_ID would make HBase skip them. Open and close the region in "
        "HBase first");
  if (r.info && r.info->split)
    plan->refusals.push_back(".regioninfo says split=true (a split parent)");
  if (r.info && r.info->offline)
    plan->refusals.push_back(".regioninfo says offline=true (a split or merge parent)");
  if (auto tmp = ListDir(JoinPath(r.path, ".tmp")); tmp.ok()) {
    const CommitScope scope{table_dir, r.encoded_name};
    size_t foreign = 0;
    for (const auto& e : *tmp) {
      if (IsJournalEntry(scope, e.name)) continue;
      // HBase leaves empty .tmp/<family>/ directories after a clean close: harmless.
      if (e.is_dir && !HoldsFiles(JoinPath(JoinPath(r.path, ".tmp"), e.name))) continue;
      ++foreign;
    }
    if (foreign > 0)
      plan->refusals.push_back(fmt::format(
          ".tmp/ holds {} entr{} (a flush or compaction in progress, or an unclean stop)",
          foreign, foreign == 1 ? "y" : "ies"));
  }
  // Daughters of a split resolve their References in this directory, never in the archive.
  if (auto regions = ListDir(table_dir); regions.ok()) {
    const std::string suffix = "." + r.encoded_name;
    for (const auto& reg : *regions) {
      if (!reg.is_dir || reg.name == r.encoded_name || !IsRegionDirName(reg.name)) continue;
      auto fams = ListDir(JoinPath(table_dir, reg.name));
      if (!fams.ok()) continue;
      for (const auto& fam : *fams) {
        if (!fam.is_dir || !IsFamilyDirName(fam.name)) continue;
        auto files = ListDir(JoinPath(JoinPath(table_dir, reg.name), fam.name));
        if (!files.ok()) continue;
        for (const auto& f : *files) {
          if (!f.name.ends_with(suffix)) continue;
          plan->referenced_split_parent = true;
          plan->blockers.push_back(fmt::format(
              "split parent still referenced by region {} ({}/{}): never compact it", reg.name,
              fam.name, f.name));
        }
      }
    }
  }
  if (!root.empty()) {
    if (auto wals = ListDir(JoinPath(root, "WALs")); wals.ok()) {
      for (const auto& server : *wals) {
        auto files = ListDir(JoinPath(JoinPath(root, "WALs"), server.name));
        if (files.ok() && !files->empty())
          plan->refusals.push_back(fmt::format(
              "WALs/{} holds {} WAL file(s): a RegionServer is running or was not stopped "
              "cleanly", server.name, files->size()));
      }
    }
  }
}

void PlanStore(const FamilyDir& dir, const FamilyDescriptor& family, const TableDescriptor& t,
               const CompactOptions& o, int64_t now, StorePlan* sp) {
  sp->family = dir.name;
  sp->family_dir = dir.path;
  if (std::string why = UnsupportedFamily(family, t, dir); !why.empty()) {
    sp->skip_reason = why;
    return;
  }
  std::vector<CandidateFile> all;
  for (const auto& sf : dir.store_files) {
    auto c = ReadCandidate(sf);
    if (!c.ok()) {
      // Never compact around an unreadable file: its cells would be lost from the output.
      sp->error = c.status().WithContext("cannot read a store file");
      return;
    }
    all.push_back(std::move(*c));
  }
  // Files named in another present file's COMPACTION_EVENT_KEY: HBase drops them on open.
  for (const auto& c : FindCompactedAway(all)) sp->already_compacted.push_back(c.name);
  for (const auto& f : all)
    if (std::find(sp->already_compacted.begin(), sp->already_compacted.end(), f.name) ==
        sp->already_compacted.end())
      sp->files.push_back(f);
  SortBySequenceId(&sp->files);

  std::vector<CandidateFile> live;
  std::vector<size_t> expired;
  if (o.delete_expired_store_files && !o.keep_cells)
    expired = SelectExpiredFiles(sp->files, family.min_versions(), family.ttl_ms(), now);
  for (size_t i = 0; i < sp->files.size(); ++i) {
    if (std::find(expired.begin(), expired.end(), i) != expired.end())
      sp->expired.push_back(sp->files[i]);
    else
      live.push_back(sp->files[i]);
  }
  if (o.request == CompactRequest::kMajor) {
    sp->inputs = live;
    sp->major = true;
  } else {
    for (size_t i : SelectMinorCompaction(live, o.selection)) sp->inputs.push_back(live[i]);
  }
  sp->all_files = !sp->inputs.empty() && sp->inputs.size() == live.size();
  sp->major = sp->major && sp->all_files;
  if (sp->inputs.empty() && sp->expired.empty() && sp->already_compacted.empty())
    sp->skip_reason = sp->files.empty() ? "no store files"
                                        : fmt::format("nothing selected among {} file(s)",
                                                      sp->files.size());
}

}  // namespace

Result<CompactionPlan> PlanCompaction(const std::string& path, const CompactOptions& o) {
  HFILE_ASSIGN_OR_RETURN(Target target, ResolveTarget(path));
  struct {
    std::string table, region, family;
  } dirs{target.table_dir, target.region_dir, target.family_dir};
  CompactionPlan plan;
  plan.table_dir = dirs.table;
  const std::string data_ns = Parent(dirs.table);
  plan.root_dir = target.root_dir;
  if (o.descriptor) {
    plan.descriptor = *o.descriptor;
  } else {
    HFILE_ASSIGN_OR_RETURN(auto loaded, ReadTableDescriptor(dirs.table));
    plan.descriptor = std::move(loaded.descriptor);
  }
  const TableDescriptor& desc = plan.descriptor;
  plan.table = desc.name();
  if (!plan.root_dir.empty() &&
      (Base(dirs.table) != plan.table.qualifier || Base(data_ns) != plan.table.namespace_name)) {
    plan.root_dir.clear();  // the directory names disagree with the descriptor
  }
  const int64_t now = o.now_ms ? o.now_ms : NowMs();
  plan.recovery = DescribeRecovery(CommitScope{dirs.table, ""});

  std::vector<std::string> region_dirs;
  if (!dirs.region.empty()) {
    region_dirs.push_back(dirs.region);
  } else {
    HFILE_ASSIGN_OR_RETURN(auto entries, ListDir(dirs.table));
    for (const auto& e : entries)
      if (e.is_dir && IsRegionDirName(e.name)) region_dirs.push_back(JoinPath(dirs.table, e.name));
  }
  std::vector<std::string> families = o.families;
  if (!dirs.family.empty()) families = {Base(dirs.family)};
  for (const auto& f : families)
    if (!desc.FindFamily(f)) return Status::InvalidArgument("the table has no family", f);

  for (const auto& rd : region_dirs) {
    RegionPlan rp;
    rp.path = rd;
    rp.encoded_name = Base(rd);
    HFILE_ASSIGN_OR_RETURN(RegionDir region, ScanRegionDir(plan.root_dir, rd, &desc));
    CheckRegion(region, dirs.table, plan.root_dir, &rp);
    rp.recovery = DescribeRecovery(CommitScope{dirs.table, rp.encoded_name});
    // Compact() finishes the interrupted run first and plans the region's stores again then;
    // reading them now would only read files that are about to move.
    if (!rp.recovery.empty() && !o.dry_run) {
      plan.regions.push_back(std::move(rp));
      continue;
    }
    for (const auto& fam : desc.families()) {
      if (!families.empty() &&
          std::find(families.begin(), families.end(), fam.name()) == families.end())
        continue;
      const FamilyDir* dir = region.FindFamily(fam.name());
      if (!dir) continue;  // HBase creates it on open; nothing to compact
      StorePlan sp;
      sp.region_dir = rd;
      sp.encoded_region = rp.encoded_name;
      if (region.info) {
        sp.start_key = region.info->start_key;
        sp.end_key = region.info->end_key;
      }
      PlanStore(*dir, fam, desc, o, now, &sp);
      rp.stores.push_back(std::move(sp));
    }
    plan.regions.push_back(std::move(rp));
  }
  return plan;
}

}  // namespace hfile::region
