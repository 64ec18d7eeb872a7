// Offline create/alter on disk (see region/schema_writer.h).
//
// Checkpoint names, in the order a descriptor write passes them:
//   mkdir <dir>         a directory was created (and its parent fsynced)
//   stale-tmp-removed   a leftover temp of an interrupted write was removed from .tabledesc/.tmp/
//   tmp-written         the new descriptor is complete (fsynced) in .tabledesc/.tmp/
//   renamed             it is in .tabledesc/ (the commit point)
//   committed           .tabledesc/ was fsynced
//   old-removed         one older .tableinfo file was removed
//   tmp-dir-removed     .tabledesc/.tmp/ was removed
// .regioninfo: mkdir, tmp-written, renamed, committed, tmp-dir-removed.
// Family dirs: mkdir; archive: archived (one file moved or removed), dir-removed.
#include "region/schema_writer.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <optional>
#include <vector>

#include "fs_util.h"
#include "region/layout.h"

namespace hfile::region {

namespace fs = std::filesystem;

namespace {

constexpr char kTableInfoDir[] = ".tabledesc";
constexpr char kTmpDir[] = ".tmp";
constexpr char kRegionInfoFile[] = ".regioninfo";

void Checkpoint(const SchemaWriteOptions& o, const std::string& step) {
  if (o.checkpoint) o.checkpoint(step);
}

// Every new directory is a checkpoint ("mkdir <dir>").
Status CreateDirDurably(const std::string& dir, const SchemaWriteOptions& o,
                        bool* created = nullptr) {
  return region::CreateDirDurably(
      dir, [&o](const std::string& made) { Checkpoint(o, "mkdir " + made); }, created);
}

// Renames without replacing an existing `to` (renameat2 RENAME_NOREPLACE; where the filesystem
// lacks it, a check first, which is enough for a tool that runs alone on the table).
Status RenameNoReplace(const std::string& from, const std::string& to) {
#ifdef RENAME_NOREPLACE
  if (::renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), RENAME_NOREPLACE) == 0) {
    return Status::OK();
  }
  if (errno == EEXIST) return Status::IOError(to, "already exists");
  if (errno != EINVAL && errno != ENOSYS) {
    return ErrnoStatus("cannot rename to " + to + ":", from);
  }
#endif
  if (PathExists(to)) return Status::IOError(to, "already exists");
  return RenameFile(from, to);
}

// Removes `dir` if it is empty; a non-empty or missing dir is left alone.
Status RemoveDirIfEmpty(const std::string& dir, const SchemaWriteOptions& o, const char* step) {
  if (::rmdir(dir.c_str()) != 0) {
    if (errno == ENOENT || errno == ENOTEMPTY || errno == EEXIST) return Status::OK();
    return ErrnoStatus("cannot remove directory", dir);
  }
  HFILE_RETURN_IF_ERROR(SyncDir(ParentDir(dir)));
  Checkpoint(o, step);
  return Status::OK();
}

Status Unlink(const std::string& path) {
  if (::unlink(path.c_str()) != 0 && errno != ENOENT) return ErrnoStatus("cannot remove", path);
  return Status::OK();
}

// Last path component, ignoring trailing slashes.
std::string BaseName(const std::string& path) {
  std::string norm = fs::path(path).lexically_normal().string();
  while (norm.size() > 1 && norm.back() == '/') norm.pop_back();
  return fs::path(norm).filename().string();
}


Result<std::vector<std::string>> RegionDirs(const std::string& table_dir) {
  HFILE_ASSIGN_OR_RETURN(auto entries, ListDir(table_dir));
  std::vector<std::string> out;
  for (const auto& e : entries)
    if (e.is_dir && IsRegionDirName(e.name)) out.push_back(e.name);
  return out;
}

// Same file, by device and inode after resolving symlinks.
bool SameDir(const std::string& a, const std::string& b) {
  std::error_code ec;
  return fs::equivalent(a, b, ec);
}

// The moves of one directory tree into the archive (or removals), and the collisions HBase
// would refuse (same name, other size).
Status CheckArchiveCollisions(const std::string& src_dir, const std::string& archive_dir,
                              std::vector<std::string>* refused) {
  HFILE_ASSIGN_OR_RETURN(auto entries, ListDir(src_dir));
  for (const auto& e : entries) {
    const std::string src = JoinPath(src_dir, e.name), dst = JoinPath(archive_dir, e.name);
    if (e.is_dir) {
      HFILE_RETURN_IF_ERROR(CheckArchiveCollisions(src, dst, refused));
      continue;
    }
    struct stat st;
    if (::stat(dst.c_str(), &st) == 0 && static_cast<uint64_t>(st.st_size) != e.size)
      refused->push_back(fmt::format("{} ({} bytes; archived {} has {})", src, e.size, dst,
                                     static_cast<uint64_t>(st.st_size)));
  }
  return Status::OK();
}

// HFileArchiver.resolveAndArchive: files one by one, directories recursively into the
// same-named archive sub-directory; each emptied source directory is removed afterwards.
Status ArchiveTree(const std::string& src_dir, const std::string& archive_dir, bool remove,
                   int64_t now_ms, const SchemaWriteOptions& o) {
  HFILE_ASSIGN_OR_RETURN(auto entries, ListDir(src_dir));
  if (!remove && !entries.empty()) HFILE_RETURN_IF_ERROR(CreateDirDurably(archive_dir, o));
  for (const auto& e : entries) {
    const std::string src = JoinPath(src_dir, e.name);
    if (e.is_dir) {
      HFILE_RETURN_IF_ERROR(ArchiveTree(src, JoinPath(archive_dir, e.name), remove, now_ms, o));
      if (::rmdir(src.c_str()) != 0 && errno != ENOENT)
        return ErrnoStatus("cannot remove directory", src);
      HFILE_RETURN_IF_ERROR(SyncDir(src_dir));
      Checkpoint(o, "dir-removed");
      continue;
    }
    Disposal d;
    d.archive_dir = remove ? "" : archive_dir;
    d.now_ms = now_ms;
    HFILE_RETURN_IF_ERROR(DisposeStoreFile(src_dir, e.name, d));
    if (!remove) {
      // HBase's move is renameAndSetModifyTime: the archive cleaners' TTL counts from the
      // archiving, not from the file's creation.
      const std::string dst = JoinPath(archive_dir, e.name);
      if (::utimensat(AT_FDCWD, dst.c_str(), nullptr, 0) != 0 && errno != ENOENT)
        return ErrnoStatus("cannot set the modification time of", dst);
    }
    Checkpoint(o, "archived");
  }
  return Status::OK();
}

// Archives (or removes) one family dir and then removes it.
Status DisposeFamilyDir(const std::string& family_dir, const std::string& archive_dir,
                        bool remove, int64_t now_ms, const SchemaWriteOptions& o) {
  if (!IsDirectory(family_dir)) return Status::OK();
  if (!remove) {
    std::vector<std::string> refused;
    HFILE_RETURN_IF_ERROR(CheckArchiveCollisions(family_dir, archive_dir, &refused));
    if (!refused.empty()) {
      std::string msg = "already archived with a different size (HBase refuses to replace it):";
      for (const auto& r : refused) msg += " " + r;
      return Status::IOError(family_dir, msg);
    }
  }
  HFILE_RETURN_IF_ERROR(ArchiveTree(family_dir, archive_dir, remove, now_ms, o));
  if (::rmdir(family_dir.c_str()) != 0 && errno != ENOENT)
    return ErrnoStatus("cannot remove directory", family_dir);
  HFILE_RETURN_IF_ERROR(SyncDir(ParentDir(family_dir)));
  Checkpoint(o, "dir-removed");
  return Status::OK();
}

}  // namespace

Result<TableDescriptorFile> NextTableDescriptorFile(const std::string& table_dir,
                                                    const TableDescriptor& desc,
                                                    const SchemaWriteOptions& o) {
  HFILE_RETURN_IF_ERROR(desc.Validate());
  const std::string qualifier = BaseName(table_dir);
  const std::string ns = BaseName(ParentDir(table_dir));
  if (qualifier != desc.name().qualifier || ns != desc.name().namespace_name) {
    return Status::InvalidArgument(
        table_dir, fmt::format("is not the directory of table {} (expected .../{}/{})",
                               desc.name().ToString(), desc.name().namespace_name,
                               desc.name().qualifier));
  }
  // The new name must sort before every existing one, so that readers (HBase and ours pick the
  // greatest name that parses) see it as soon as it is renamed in: take the highest sequence of
  // any name, even of a file that does not parse. HBase takes the loaded file's sequence; the
  // master first deletes a broken newer file, so both agree whenever HBase itself could write.
  TableDescriptorFile f;
  uint64_t max_seq = 0;
  if (auto entries = ListDir(JoinPath(table_dir, kTableInfoDir)); entries.ok()) {
    for (const auto& e : *entries) {
      if (e.is_dir) continue;
      auto parsed = ParseTableInfoFileName(e.name);
      if (!parsed) continue;
      max_seq = std::max(max_seq, parsed->sequence);
      f.older.push_back(e.name);
    }
  } else if (!entries.status().IsNotFound()) {
    return entries.status();
  }
  const uint64_t seq = max_seq + 1;
  if (seq > static_cast<uint64_t>(std::numeric_limits<int32_t>::max())) {
    return Status::NotSupported(table_dir, "descriptor sequence beyond HBase's int range");
  }
  desc.EncodeTo(&f.bytes);
  f.name = TableInfoFileNameFor(seq, o.length_in_name ? std::optional<uint64_t>(f.bytes.size())
                                                      : std::nullopt);
  return f;
}

Result<std::string> WriteTableDescriptor(const std::string& table_dir, const TableDescriptor& desc,
                                         const SchemaWriteOptions& o) {
  HFILE_ASSIGN_OR_RETURN(TableDescriptorFile next, NextTableDescriptorFile(table_dir, desc, o));
  const std::string info_dir = JoinPath(table_dir, kTableInfoDir);
  const std::string tmp_dir = JoinPath(info_dir, kTmpDir);
  HFILE_RETURN_IF_ERROR(CreateDirDurably(info_dir, o));
  const std::string& bytes = next.bytes;
  const std::string& name = next.name;
  const std::vector<std::string>& older = next.older;

  // Stage in .tabledesc/.tmp/: HBase lists only ".tableinfo*" names of .tabledesc/ itself, so a
  // half-written temp is never read (2.4 stages in <table>/.tmp/, 2.5+ writes in place and
  // relies on the length in the name; the rename gives both readers a whole file).
  HFILE_RETURN_IF_ERROR(CreateDirDurably(tmp_dir, o));
  if (auto stale = ListDir(tmp_dir); stale.ok()) {
    for (const auto& e : *stale) {
      if (e.is_dir || !ParseTableInfoFileName(e.name)) continue;
      HFILE_RETURN_IF_ERROR(Unlink(JoinPath(tmp_dir, e.name)));
      HFILE_RETURN_IF_ERROR(SyncDir(tmp_dir));
      Checkpoint(o, "stale-tmp-removed");
    }
  }
  const std::string tmp_path = JoinPath(tmp_dir, name);
  const std::string path = JoinPath(info_dir, name);
  Status s = WriteFileDurably(tmp_path, bytes);
  if (s.ok()) {
    Checkpoint(o, "tmp-written");
    s = RenameNoReplace(tmp_path, path);
  }
  if (!s.ok()) {
    ::unlink(tmp_path.c_str());  // leave no temp behind a reported failure
    return s;
  }
  Checkpoint(o, "renamed");
  HFILE_RETURN_IF_ERROR(SyncDir(info_dir));
  Checkpoint(o, "committed");

  // FSTableDescriptors.deleteTableDescriptorFiles(seq - 1): every older name goes, including
  // broken ones (the new file is durable, so none of them is needed any more).
  for (const auto& n : older) {
    HFILE_RETURN_IF_ERROR(Unlink(JoinPath(info_dir, n)));
    HFILE_RETURN_IF_ERROR(SyncDir(info_dir));
    Checkpoint(o, "old-removed");
  }
  HFILE_RETURN_IF_ERROR(RemoveDirIfEmpty(tmp_dir, o, "tmp-dir-removed"));
  return path;
}

Status WriteRegionInfo(const std::string& region_dir, const RegionInfo& info,
                       const SchemaWriteOptions& o) {
  if (info.replica_id != 0) {
    return Status::InvalidArgument(
        info.ToString(), "is a replica: HBase writes no .regioninfo for replicas (they share the "
                         "primary's directory)");
  }
  const std::string encoded = info.EncodedName();
  if (BaseName(region_dir) != encoded) {
    return Status::InvalidArgument(region_dir,
                                   "is not the directory of region " + encoded);
  }
  HFILE_RETURN_IF_ERROR(CreateDirDurably(region_dir, o));
  const std::string tmp_dir = JoinPath(region_dir, kTmpDir);
  bool tmp_created = false;
  HFILE_RETURN_IF_ERROR(CreateDirDurably(tmp_dir, o, &tmp_created));
  std::string bytes;
  info.EncodeTo(&bytes);
  const std::string tmp_path = JoinPath(tmp_dir, kRegionInfoFile);
  Status s = WriteFileDurably(tmp_path, bytes);
  if (s.ok()) {
    Checkpoint(o, "tmp-written");
    // Over the old file: POSIX rename replaces atomically (HBase deletes first, because an HDFS
    // rename does not replace; that leaves a window without the file that we do not need).
    s = RenameFile(tmp_path, JoinPath(region_dir, kRegionInfoFile));
  }
  if (!s.ok()) {
    ::unlink(tmp_path.c_str());
    return s;
  }
  Checkpoint(o, "renamed");
  HFILE_RETURN_IF_ERROR(SyncDir(region_dir));
  Checkpoint(o, "committed");
  // HBase deletes <region>/.tmp/ on every writable open; ours goes now unless something else
  // (a compaction journal) lives there.
  if (tmp_created) HFILE_RETURN_IF_ERROR(RemoveDirIfEmpty(tmp_dir, o, "tmp-dir-removed"));
  return Status::OK();
}

Status CreateFamilyDirs(const std::string& table_dir, const std::string& family,
                        const SchemaWriteOptions& o) {
  if (!IsFamilyDirName(family)) {
    return Status::InvalidArgument(family, "is not a valid column family name");
  }
  HFILE_ASSIGN_OR_RETURN(auto regions, RegionDirs(table_dir));
  for (const auto& r : regions) {
    HFILE_RETURN_IF_ERROR(CreateDirDurably(JoinPath(JoinPath(table_dir, r), family), o));
  }
  return Status::OK();
}

Status ArchiveFamilyDirs(const std::string& root, const std::string& table_dir,
                         const std::string& family, bool delete_instead,
                         const SchemaWriteOptions& o) {
  if (!IsFamilyDirName(family)) {
    return Status::InvalidArgument(family, "is not a valid column family name");
  }
  TableName table;
  table.qualifier = BaseName(table_dir);
  table.namespace_name = BaseName(ParentDir(table_dir));
  const std::string expected =
      fmt::format("{}/data/{}/{}", root, table.namespace_name, table.qualifier);
  if (!SameDir(table_dir, expected)) {
    return Status::InvalidArgument(table_dir, "is not a table directory under " + root +
                                                  "/data/<namespace>/<table>");
  }
  const int64_t now_ms = o.now_ms ? o.now_ms : NowMs();
  const std::string archive_table =
      fmt::format("{}/archive/data/{}/{}", root, table.namespace_name, table.qualifier);
  HFILE_ASSIGN_OR_RETURN(auto regions, RegionDirs(table_dir));
  for (const auto& r : regions) {
    HFILE_RETURN_IF_ERROR(DisposeFamilyDir(JoinPath(JoinPath(table_dir, r), family),
                                           fmt::format("{}/{}/{}", archive_table, r, family),
                                           delete_instead, now_ms, o));
  }
  // MOB families keep their files in the table's synthetic MOB region (MobUtils); HBase's
  // family deletion archives that family dir too.
  RegionInfo mob;
  mob.table = table;
  mob.start_key = ".mob";
  mob.region_id = 0;
  const std::string mob_enc = mob.EncodedName();
  const std::string mob_family_dir = fmt::format("{}/mobdir/data/{}/{}/{}/{}", root,
                                                 table.namespace_name, table.qualifier, mob_enc,
                                                 family);
  HFILE_RETURN_IF_ERROR(DisposeFamilyDir(mob_family_dir,
                                         fmt::format("{}/{}/{}", archive_table, mob_enc, family),
                                         delete_instead, now_ms, o));
  return Status::OK();
}

}  // namespace hfile::region
