#include "region/layout.h"

#include <algorithm>
#include <cctype>

#include "fs_util.h"

namespace hfile::region {

bool IsRegionDirName(std::string_view name) {
  if (name.empty()) return false;
  return std::all_of(name.begin(), name.end(),
                     [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

bool IsFamilyDirName(std::string_view name) {
  if (name.empty() || name[0] == '.' || name == "recovered.edits") return false;
  for (char c : name) {
    unsigned char u = static_cast<unsigned char>(c);
    if (u < 0x20 || (u >= 0x7f && u <= 0x9f) || c == ':' || c == '\\' || c == '/') return false;
  }
  return true;
}

const FamilyDir* RegionDir::FindFamily(const std::string& name) const {
  for (const auto& f : families)
    if (f.name == name) return &f;
  return nullptr;
}

bool RegionDir::HasPendingEdits() const {
  for (const auto& e : recovered_edits) {
    bool marker = e.size() > 6 && (e.ends_with(".seqid") || e.ends_with("_seqid"));
    if (!marker) return true;
  }
  return false;
}

namespace {

// "<table dir>/<parent>/<family>/<referenced>", through a link if the referenced name is one.
void ResolveTarget(const std::string& root_dir, const std::string& table_dir,
                   const std::string& family, StoreFile* sf) {
  auto resolve_link = [&](const HFileLinkName& link) {
    auto r = ResolveHFileLink(root_dir, link, family);
    if (r.ok()) sf->target_path = *r;
    else sf->target_status = r.status();
  };
  switch (sf->name.kind) {
    case StoreFileKind::kHFile:
      sf->target_path = sf->path;
      break;
    case StoreFileKind::kLink:
      resolve_link(*sf->name.link);
      break;
    case StoreFileKind::kReference: {
      if (sf->name.link) {
        resolve_link(*sf->name.link);
        break;
      }
      std::string p = JoinPath(JoinPath(JoinPath(table_dir, sf->name.parent_region), family),
                               sf->name.referenced_name);
      if (PathExists(p)) sf->target_path = p;
      else sf->target_status = Status::NotFound("referenced parent file missing", p);
      break;
    }
    default:
      break;
  }
}

}  // namespace

Result<FamilyDir> ScanFamilyDir(const std::string& root_dir, const std::string& table_dir,
                                const std::string& family_dir) {
  FamilyDir out;
  out.path = family_dir;
  size_t slash = family_dir.find_last_of('/');
  out.name = slash == std::string::npos ? family_dir : family_dir.substr(slash + 1);
  HFILE_ASSIGN_OR_RETURN(auto entries, ListDir(family_dir));
  bool has_filelist = false;
  for (const auto& e : entries) {
    if (e.is_dir && e.name == ".filelist") has_filelist = true;
  }
  if (has_filelist) {
    auto list = ReadStoreFileList(family_dir);
    if (list.ok()) out.tracker = std::move(list).value();
    else if (!list.status().IsNotFound()) return list.status();
  }
  auto is_crc_side_file = [&](const std::string& n) {
    if (n.size() < 6 || n[0] != '.' || !n.ends_with(".crc")) return false;
    std::string base = n.substr(1, n.size() - 5);
    return std::any_of(entries.begin(), entries.end(),
                       [&](const DirEntry& x) { return x.name == base; });
  };
  for (const auto& e : entries) {
    if (!e.is_dir && is_crc_side_file(e.name)) {
      out.crc_side_files.push_back(e.name);
      continue;
    }
    StoreFileName name = StoreFileName::Classify(e.name, e.is_dir, e.size);
    if (out.tracker) {
      bool listed = std::any_of(out.tracker->files.begin(), out.tracker->files.end(),
                                [&](const StoreFileList::Entry& t) { return t.name == e.name; });
      if (!listed) {
        if (!e.is_dir) out.untracked.push_back(e.name);
        continue;
      }
    }
    if (name.kind == StoreFileKind::kSkipped) {
      if (!e.is_dir) out.skipped.push_back(e.name);
      continue;
    }
    if (name.kind == StoreFileKind::kInvalid) {
      out.invalid.push_back(e.name);
      continue;
    }
    StoreFile sf;
    sf.path = JoinPath(family_dir, e.name);
    sf.name = std::move(name);
    sf.size = e.size;
    if (sf.name.kind == StoreFileKind::kReference) {
      auto ref = ReadReferenceFile(sf.path);
      if (!ref.ok()) {
        sf.target_status = ref.status();
        out.store_files.push_back(std::move(sf));
        continue;
      }
      sf.reference = std::move(ref).value();
    }
    ResolveTarget(root_dir, table_dir, out.name, &sf);
    out.store_files.push_back(std::move(sf));
  }
  return out;
}

Result<RegionDir> ScanRegionDir(const std::string& root_dir, const std::string& region_dir,
                                const TableDescriptor* descriptor) {
  RegionDir out;
  out.path = region_dir;
  size_t slash = region_dir.find_last_of('/');
  out.encoded_name = slash == std::string::npos ? region_dir : region_dir.substr(slash + 1);
  std::string table_dir = slash == std::string::npos ? "." : region_dir.substr(0, slash);
  HFILE_ASSIGN_OR_RETURN(auto entries, ListDir(region_dir));
  auto info = ReadRegionInfoFile(JoinPath(region_dir, ".regioninfo"));
  if (info.ok()) {
    out.info = std::move(info).value();
    out.name_matches_info = out.info->EncodedName() == out.encoded_name;
  } else {
    out.info_status = info.status();
  }
  for (const auto& e : entries) {
    if (e.name == ".regioninfo") continue;
    if (e.name == ".tmp" && e.is_dir) {
      out.has_tmp = true;
    } else if (e.name == "recovered.edits" && e.is_dir) {
      auto edits = ListDir(JoinPath(region_dir, e.name));
      if (edits.ok())
        for (const auto& x : *edits) out.recovered_edits.push_back(x.name);
    } else if (e.is_dir && IsFamilyDirName(e.name) &&
               (descriptor == nullptr || descriptor->FindFamily(e.name) != nullptr)) {
      HFILE_ASSIGN_OR_RETURN(FamilyDir f,
                             ScanFamilyDir(root_dir, table_dir, JoinPath(region_dir, e.name)));
      out.families.push_back(std::move(f));
    } else {
      out.other_entries.push_back(e.name);
    }
  }
  return out;
}

Result<RootDir> RootDir::Open(const std::string& path) {
  if (!IsDirectory(path)) return Status::NotFound(path, "not a directory");
  // Pre-0.96 roots keep tables at the top level (a user table may even be called "data").
  if (IsDirectory(JoinPath(path, "-ROOT-")) || IsDirectory(JoinPath(path, ".META.")))
    return Status::NotSupported(path, "pre-0.96 root directory layout (-ROOT-, .META.); "
                                      "migrate it with HBase 0.96+ first");
  if (!IsDirectory(JoinPath(path, "data")))
    return Status::NotFound(path, "no data/ directory: not an HBase root directory");
  return RootDir(path);
}

std::string RootDir::TableDirPath(const TableName& t) const {
  return path_ + "/data/" + t.namespace_name + "/" + t.qualifier;
}
std::string RootDir::RegionDirPath(const TableName& t, const std::string& encoded) const {
  return TableDirPath(t) + "/" + encoded;
}
std::string RootDir::ArchiveFamilyDirPath(const TableName& t, const std::string& encoded,
                                          const std::string& family) const {
  return path_ + "/archive/data/" + t.namespace_name + "/" + t.qualifier + "/" + encoded + "/" +
         family;
}
std::string RootDir::SnapshotDirPath(const std::string& snapshot) const {
  return path_ + "/.hbase-snapshot/" + snapshot;
}

Result<std::vector<std::string>> RootDir::ListNamespaces() const {
  HFILE_ASSIGN_OR_RETURN(auto entries, ListDir(JoinPath(path_, "data")));
  std::vector<std::string> out;
  for (const auto& e : entries)
    if (e.is_dir && !e.name.empty() && e.name[0] != '.') out.push_back(e.name);
  return out;
}

Result<std::vector<TableName>> RootDir::ListTables() const {
  HFILE_ASSIGN_OR_RETURN(auto namespaces, ListNamespaces());
  std::vector<TableName> out;
  for (const auto& ns : namespaces) {
    HFILE_ASSIGN_OR_RETURN(auto entries, ListDir(path_ + "/data/" + ns));
    for (const auto& e : entries) {
      if (!e.is_dir || e.name.empty() || e.name[0] == '.') continue;
      out.push_back(TableName{ns, e.name});
    }
  }
  return out;
}

Result<std::vector<std::string>> RootDir::ListSnapshots() const {
  auto entries = ListDir(JoinPath(path_, ".hbase-snapshot"));
  if (!entries.ok()) {
    if (entries.status().IsNotFound()) return std::vector<std::string>{};
    return entries.status();
  }
  std::vector<std::string> out;
  for (const auto& e : *entries)
    if (e.is_dir && !e.name.empty() && e.name[0] != '.') out.push_back(e.name);
  return out;
}

Result<TableDir> RootDir::OpenTable(const TableName& t) const {
  TableDir out;
  out.name = t;
  out.path = TableDirPath(t);
  HFILE_ASSIGN_OR_RETURN(auto entries, ListDir(out.path));
  auto desc = ReadTableDescriptor(out.path);
  if (desc.ok()) out.descriptor = std::move(desc).value();
  else out.descriptor_status = desc.status();
  for (const auto& e : entries)
    if (e.is_dir && IsRegionDirName(e.name)) out.regions.push_back(e.name);
  return out;
}

Result<RegionDir> RootDir::OpenRegion(const TableName& t, const std::string& encoded) const {
  auto desc = ReadTableDescriptor(TableDirPath(t));
  return ScanRegionDir(path_, RegionDirPath(t, encoded), desc.ok() ? &desc->descriptor : nullptr);
}

}  // namespace hfile::region
