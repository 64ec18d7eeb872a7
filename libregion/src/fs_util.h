// Small filesystem helpers shared by libregion: whole-file reads, directory listings, and the
// durable-write primitives (temp + fsync + rename + directory fsync) and HBase-style archiving
// that every writing step (compaction, schema changes) uses.
#ifndef REGION_SRC_FS_UTIL_H_
#define REGION_SRC_FS_UTIL_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "hfile/status.h"

namespace hfile::region {

struct DirEntry {
  std::string name;
  bool is_dir = false;
  uint64_t size = 0;  // for regular files
};

// NotFound if absent, IOError otherwise.
Result<std::string> ReadWholeFile(const std::string& path, uint64_t max_size = 64 << 20);
// Entries of `dir` sorted by name (bytes), without "." and "..". NotFound if `dir` is absent.
Result<std::vector<DirEntry>> ListDir(const std::string& dir);
bool PathExists(const std::string& path);
bool IsDirectory(const std::string& path);
std::string JoinPath(const std::string& a, const std::string& b);

// IOError "<what> <path>" carrying strerror(errno).
Status ErrnoStatus(const std::string& what, const std::string& path);
// Creates (truncating) `path`, writes `data`, fsyncs and closes it. The caller renames it into
// place and syncs the directory; a failure may leave a partial `path` for the caller to remove.
Status WriteFileDurably(const std::string& path, const std::string& data);
// rename(2) with an error naming both paths.
Status RenameFile(const std::string& from, const std::string& to);
// fsync(2) of a directory, so that entries created, renamed or removed in it survive a crash.
Status SyncDir(const std::string& dir);
// The parent of `path` once normalized (trailing slashes dropped); "." for a bare name.
std::string ParentDir(const std::string& path);
// Creates `dir` and any missing parents; every created level's parent is fsynced so the new
// entry survives a crash (a file later fsynced inside an unsynced new dir could be lost with it).
// on_created (optional) is called with each level created, outermost first, after its parent's
// fsync (the schema writer's crash checkpoints); *created (optional) tells whether `dir` itself
// was new. IOError if `dir` or a parent exists and is not a directory.
Status CreateDirDurably(const std::string& dir,
                        const std::function<void(const std::string&)>& on_created = nullptr,
                        bool* created = nullptr);

// Where a store file that leaves a family dir goes: archive (with HBase's rename of an already
// archived name to "<name>.<millis>", HFileArchiver.resolveAndArchiveFile) or unlink. Both fsync
// the directories involved.
struct Disposal {
  std::string archive_dir;  // <root>/archive/data/<ns>/<table>/<region>/<family>; "": unlink
  int64_t now_ms = 0;
};
Status DisposeStoreFile(const std::string& family_dir, const std::string& name,
                        const Disposal& d);

// The wall clock in ms since the epoch.
int64_t NowMs();

}  // namespace hfile::region

#endif  // REGION_SRC_FS_UTIL_H_
