// Target resolution (region/target.h).
#include "region/target.h"

#include <filesystem>

#include "fs_util.h"
#include "region/layout.h"

namespace hfile::region {

namespace fs = std::filesystem;

namespace {

std::string Parent(const std::string& p) { return fs::path(p).parent_path().string(); }
std::string Base(const std::string& p) { return fs::path(p).filename().string(); }
bool HasDescriptor(const std::string& d) { return PathExists(JoinPath(d, ".tabledesc")); }

void FillTable(Target* t) {
  const std::string ns_dir = Parent(t->table_dir);
  t->table = TableName{Base(ns_dir), Base(t->table_dir)};
  if (Base(Parent(ns_dir)) == "data") t->root_dir = Parent(Parent(ns_dir));
}

}  // namespace

std::string Target::encoded_region() const { return region_dir.empty() ? "" : Base(region_dir); }
std::string Target::family() const { return family_dir.empty() ? "" : Base(family_dir); }
const std::string& Target::path() const {
  return kind == Kind::kFamily ? family_dir : kind == Kind::kRegion ? region_dir : table_dir;
}

Result<Target> ResolveTarget(const std::string& path) {
  std::error_code ec;
  const std::string p = fs::weakly_canonical(fs::path(path), ec).string();
  if (ec || !IsDirectory(p)) return Status::InvalidArgument("not a directory", path);
  Target t;
  if (HasDescriptor(p)) {
    t.table_dir = p;
  } else if (HasDescriptor(Parent(p))) {
    if (!IsRegionDirName(Base(p))) return Status::InvalidArgument("not a region directory", path);
    t.kind = Target::Kind::kRegion;
    t.table_dir = Parent(p);
    t.region_dir = p;
  } else if (HasDescriptor(Parent(Parent(p))) && IsFamilyDirName(Base(p)) &&
             IsRegionDirName(Base(Parent(p)))) {
    t.kind = Target::Kind::kFamily;
    t.table_dir = Parent(Parent(p));
    t.region_dir = Parent(p);
    t.family_dir = p;
  } else {
    return Status::InvalidArgument(
        "not a table, region or family directory (no .tabledesc/ here or above)", path);
  }
  FillTable(&t);
  return t;
}

bool IsRootDir(const std::string& path) {
  return IsDirectory(JoinPath(path, "data")) && !HasDescriptor(path);
}

Result<Target> ResolveTableTarget(const std::string& root, const std::string& table) {
  HFILE_ASSIGN_OR_RETURN(TableName name, TableName::Parse(table));
  const std::string dir = JoinPath(JoinPath(JoinPath(root, "data"), name.namespace_name), name.qualifier);
  if (!IsDirectory(dir))
    return Status::NotFound("no such table under " + root + ": " + name.ToString(), dir);
  return ResolveTarget(dir);
}

Result<Target> ResolveTargetArgs(const std::vector<std::string>& args, bool allow_region,
                                 size_t* used) {
  *used = 0;
  if (args.empty()) return Status::InvalidArgument("no target given (a directory, or ROOT TABLE)");
  if (!IsRootDir(args[0])) {
    *used = 1;
    return ResolveTarget(args[0]);
  }
  if (args.size() < 2)
    return Status::InvalidArgument("a root directory needs a table name after it", args[0]);
  HFILE_ASSIGN_OR_RETURN(Target t, ResolveTableTarget(args[0], args[1]));
  *used = 2;
  if (allow_region && args.size() >= 3 && IsRegionDirName(args[2]) &&
      IsDirectory(JoinPath(t.table_dir, args[2]))) {
    t.kind = Target::Kind::kRegion;
    t.region_dir = JoinPath(t.table_dir, args[2]);
    *used = 3;
  }
  return t;
}

}  // namespace hfile::region
