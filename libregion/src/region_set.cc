#include "region/region_set.h"

#include <algorithm>
#include <set>
#include <tuple>

#include "fs_util.h"
#include "region/compacted_files.h"

namespace hfile::region {

namespace {

std::string StripSlashes(std::string p) {
  while (p.size() > 1 && p.back() == '/') p.pop_back();
  return p;
}
std::string BaseName(const std::string& p) {
  size_t s = p.find_last_of('/');
  return s == std::string::npos ? p : p.substr(s + 1);
}
std::string DirName(const std::string& p) {
  size_t s = p.find_last_of('/');
  if (s == std::string::npos) return ".";
  if (s == 0) return "/";
  return p.substr(0, s);
}

bool IsPreNamespaceRoot(const std::string& root) {
  return IsDirectory(JoinPath(root, "-ROOT-")) || IsDirectory(JoinPath(root, ".META.")) ||
         IsDirectory(JoinPath(root, "-META-"));
}

constexpr char kPreNamespaceNote[] =
    "pre-0.96 layout (HBase 0.90-0.94: tables at the top of the root dir, no namespaces, "
    "Writable .regioninfo and .tableinfo): HBase 2 cannot open it until HBase 0.96's "
    "namespace migration has run; its v2 HFiles are readable here (v1 HFiles of 0.90 are not)";

// Fills table, root_dir, descriptor and the layout notes for a table directory.
void ReadTableContext(const std::string& table_dir, RegionSet* set) {
  std::string parent = DirName(table_dir), grand = DirName(parent);
  if (BaseName(grand) == "data") {
    set->root_dir = DirName(grand);
    set->table = TableName{BaseName(parent), BaseName(table_dir)};
  } else {
    set->root_dir = parent;
    set->table = TableName{kDefaultNamespace, BaseName(table_dir)};
    set->pre_namespace_layout = true;
    if (IsPreNamespaceRoot(parent)) {
      set->notes.push_back(kPreNamespaceNote);
    } else {
      set->notes.push_back("table dir is not under <root>/data/<ns>/: read as a pre-0.96 "
                           "(namespace-less) table dir; HFileLinks may not resolve");
    }
  }
  auto desc = ReadTableDescriptor(table_dir);
  if (desc.ok()) {
    set->descriptor = std::move(desc->descriptor);
    set->descriptor_path = desc->path;
  } else {
    set->descriptor_status = desc.status();
    if (desc.status().IsNotSupported())
      set->notes.push_back("the table descriptor is in the pre-protobuf (Writable) form of "
                           "HBase <= 0.94; families are taken from the region dirs");
  }
}

// HBase reads a store without the files its other files' COMPACTION_EVENT_KEY names.
void DropCompactedAway(RegionDir* r) {
  for (auto& f : r->families) SeparateCompactedAway(&f);
}

}  // namespace

std::vector<std::string> RegionSet::FamilyNames() const {
  std::vector<std::string> out;
  if (descriptor) {
    for (const auto& f : descriptor->families()) out.push_back(f.name());
    return out;
  }
  std::set<std::string> seen;
  for (const auto& r : regions)
    for (const auto& f : r.families) seen.insert(f.name);
  return {seen.begin(), seen.end()};
}

bool RegionSet::IsSplitParent(const RegionDir& r) const {
  return std::find(split_parents.begin(), split_parents.end(), r.encoded_name) !=
         split_parents.end();
}

void FindSplitParents(RegionSet* set) {
  set->split_parents.clear();
  for (const auto& p : set->regions) {
    if (!p.info) continue;
    const RegionInfo& pi = *p.info;
    if (pi.split || pi.offline) {
      set->split_parents.push_back(p.encoded_name);
      continue;
    }
    const RegionDir* daughters[2] = {nullptr, nullptr};
    for (const auto& a : set->regions) {
      if (!a.info || a.info->region_id <= pi.region_id || a.info->start_key != pi.start_key ||
          a.info->end_key.empty() || a.info->table.ToString() != pi.table.ToString())
        continue;
      for (const auto& b : set->regions) {
        if (b.info && b.info->region_id == a.info->region_id &&
            b.info->start_key == a.info->end_key && b.info->end_key == pi.end_key) {
          daughters[0] = &a;
          daughters[1] = &b;
        }
      }
    }
    if (!daughters[0]) continue;
    set->split_parents.push_back(p.encoded_name);
    set->notes.push_back("region " + p.encoded_name + " is a split parent: daughters " +
                         daughters[0]->encoded_name + " and " + daughters[1]->encoded_name +
                         " (split recorded in hbase:meta only; its .regioninfo was left as is)");
  }
}

std::string_view RegionSetKindName(RegionSet::Kind k) {
  switch (k) {
    case RegionSet::Kind::kTable: return "table";
    case RegionSet::Kind::kRegion: return "region";
    case RegionSet::Kind::kSnapshot: return "snapshot";
  }
  return "?";
}

void SortRegions(std::vector<RegionDir>* regions) {
  std::stable_sort(regions->begin(), regions->end(), [](const RegionDir& a, const RegionDir& b) {
    if (a.info.has_value() != b.info.has_value()) return a.info.has_value();
    if (!a.info) return a.encoded_name < b.encoded_name;
    const RegionInfo& x = *a.info;
    const RegionInfo& y = *b.info;
    // Split parents (offline/split) sort before the daughter that shares their start key.
    bool x_live = !(x.split || x.offline), y_live = !(y.split || y.offline);
    return std::tie(x.start_key, x_live, x.region_id, a.encoded_name) <
           std::tie(y.start_key, y_live, y.region_id, b.encoded_name);
  });
}

Result<RegionSet> OpenTableRegions(const std::string& path) {
  std::string table_dir = StripSlashes(path);
  if (!IsDirectory(table_dir)) return Status::NotFound(table_dir, "not a table directory");
  RegionSet set;
  set.kind = RegionSet::Kind::kTable;
  set.path = table_dir;
  ReadTableContext(table_dir, &set);
  HFILE_ASSIGN_OR_RETURN(auto entries, ListDir(table_dir));
  for (const auto& e : entries) {
    if (!e.is_dir || !IsRegionDirName(e.name)) continue;
    HFILE_ASSIGN_OR_RETURN(RegionDir r,
                           ScanRegionDir(set.root_dir, JoinPath(table_dir, e.name), nullptr));
    DropCompactedAway(&r);
    set.regions.push_back(std::move(r));
  }
  if (set.regions.empty() && !set.descriptor && !set.descriptor_status.IsNotSupported())
    return Status::NotFound(table_dir, "no region directories and no table descriptor: not a "
                                       "table directory");
  SortRegions(&set.regions);
  FindSplitParents(&set);
  return set;
}

Result<RegionSet> OpenTableRegions(const std::string& root_dir, const std::string& table) {
  HFILE_ASSIGN_OR_RETURN(TableName name, TableName::Parse(table));
  std::string root = StripSlashes(root_dir);
  auto r = RootDir::Open(root);
  std::string table_dir;
  if (r.ok()) {
    table_dir = r->TableDirPath(name);
    if (!IsDirectory(table_dir)) {
      std::string known;
      if (auto tables = r->ListTables(); tables.ok())
        for (const auto& t : *tables) known += (known.empty() ? "" : ", ") + t.ToString();
      return Status::NotFound("no table " + name.ToString() + " in " + root,
                              "tables: " + (known.empty() ? "(none)" : known));
    }
  } else if (r.status().IsNotSupported()) {
    if (name.namespace_name != kDefaultNamespace)
      return Status::InvalidArgument(root, "a pre-0.96 root dir has no namespaces");
    table_dir = JoinPath(root, name.qualifier);
    if (!IsDirectory(table_dir))
      return Status::NotFound("no table " + name.qualifier + " in pre-0.96 root " + root);
  } else {
    return r.status();
  }
  return OpenTableRegions(table_dir);
}

Result<RegionSet> OpenRegionDirRegions(const std::string& path) {
  std::string region_dir = StripSlashes(path);
  if (!IsDirectory(region_dir)) return Status::NotFound(region_dir, "not a region directory");
  RegionSet set;
  set.kind = RegionSet::Kind::kRegion;
  set.path = region_dir;
  ReadTableContext(DirName(region_dir), &set);
  HFILE_ASSIGN_OR_RETURN(RegionDir r, ScanRegionDir(set.root_dir, region_dir, nullptr));
  if (!r.info && r.families.empty())
    return Status::NotFound(region_dir, "no .regioninfo and no family dirs: not a region "
                                        "directory");
  DropCompactedAway(&r);
  set.regions.push_back(std::move(r));
  return set;
}

Result<RegionSet> OpenSnapshotRegions(const std::string& path, const SnapshotOptions& options) {
  std::string snapshot_dir = StripSlashes(path);
  SnapshotOptions opt = options;
  if (opt.root_dir.empty()) opt.root_dir = DirName(DirName(snapshot_dir));
  if (IsDirectory(JoinPath(snapshot_dir, "data")))
    opt.extra_data_dirs.push_back(JoinPath(snapshot_dir, "data"));
  auto snap = Snapshot::Open(snapshot_dir, opt);
  if (!snap.ok()) {
    if (snap.status().IsNotSupported() || snap.status().IsNotFound()) {
      if (BaseName(DirName(snapshot_dir)) == ".snapshot")
        return Status::NotSupported(snapshot_dir, "HBase 0.94 (.snapshot/) v1 snapshot: only "
                                                  "v2 (data.manifest) snapshots are read");
    }
    return snap.status();
  }
  RegionSet set;
  set.kind = RegionSet::Kind::kSnapshot;
  set.path = snapshot_dir;
  set.root_dir = opt.root_dir;
  set.snapshot = snap->info();
  set.descriptor = snap->descriptor();
  set.descriptor_path = JoinPath(snapshot_dir, "data.manifest");
  set.table = snap->descriptor().name();
  for (const auto& sr : snap->regions()) {
    RegionDir r;
    r.encoded_name = sr.info.EncodedName();
    r.info = sr.info;
    r.name_matches_info = true;
    for (const auto& sf : sr.families) {
      FamilyDir f;
      f.name = sf.name;
      for (const auto& x : sf.files) {
        StoreFile s;
        s.name = x.name;
        s.size = x.size;
        s.reference = x.reference;
        s.target_path = x.path;
        s.path = x.path.empty() ? r.encoded_name + "/" + sf.name + "/" + x.name.name : x.path;
        if (x.path.empty()) {
          std::string tried;
          for (const auto& c : x.candidates) tried += (tried.empty() ? "" : ", ") + c;
          s.target_status = Status::NotFound("snapshot file " + x.name.name + " not found",
                                             "tried " + tried);
        }
        f.store_files.push_back(std::move(s));
      }
      r.families.push_back(std::move(f));
    }
    set.regions.push_back(std::move(r));
  }
  SortRegions(&set.regions);
  FindSplitParents(&set);
  return set;
}

}  // namespace hfile::region
