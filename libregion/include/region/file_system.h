// The file systems a table can live on: local (POSIX, with fsync) and HDFS (WebHDFS, no JVM).
// The commit journal and the distributed units (region/units.h) work through this interface, so
// that the same protocol commits a table under /hbase on a local disk and one on hdfs://.
//
//   HFILE_ASSIGN_OR_RETURN(auto fs, FileSystemFor(table_dir));   // by the path's scheme
//   HFILE_ASSIGN_OR_RETURN(auto entries, fs->ListDir(table_dir));
//
// Paths are strings as the user gave them: "/a/b" (local) or "hdfs://nn:8020/a/b" and
// "webhdfs://host:9870/a/b" (HDFS); JoinPath and ParentDir keep the scheme and authority.
// Durability: on a local disk every change is fsynced (file, then its directory); on HDFS a
// rename, mkdir or delete is durable once the NameNode answers, and a file once it is closed.
// Atomic replacement on HDFS is WebHDFS's RENAME with renameoptions=OVERWRITE (rename2).
#ifndef REGION_FILE_SYSTEM_H_
#define REGION_FILE_SYSTEM_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "hfile/status.h"

namespace hfile::region {

struct FileStatus {
  std::string name;       // the entry's name (ListDir); the last path component (Stat)
  bool is_dir = false;
  uint64_t size = 0;      // regular files
  int64_t modification_time_ms = 0;
};

class FileSystem {
 public:
  virtual ~FileSystem();

  // "file" or "hdfs".
  virtual const char* scheme() const = 0;

  // The entries of `dir` sorted by name (bytes), without "." and "..". NotFound if absent.
  virtual Result<std::vector<FileStatus>> ListDir(const std::string& dir) = 0;
  // NotFound if absent.
  virtual Result<FileStatus> Stat(const std::string& path) = 0;
  bool Exists(const std::string& path);
  // Whether `path` is there, or the error when the file system could not say (on HDFS: the
  // NameNode unreachable). Wherever the answer decides to delete, skip or redo something, use
  // this: a network error read as "absent" would redo or skip work that is done.
  Result<bool> ExistsOrError(const std::string& path);
  bool IsDirectory(const std::string& path);

  // A whole (small) file; Corruption if it is larger than max_size.
  virtual Result<std::string> ReadFile(const std::string& path, uint64_t max_size = 64 << 20) = 0;
  // Writes `data` under a temporary name beside `path`, makes it durable and renames it over
  // `path` (replacing it): a crash leaves the old content or the new, never a part.
  virtual Status WriteFileAtomically(const std::string& path, const std::string& data) = 0;

  // Renames a file or directory; fails (IOError) if `to` exists or `from` does not.
  virtual Status Rename(const std::string& from, const std::string& to) = 0;
  // Creates `dir` and its missing parents (durably); OK if it exists as a directory.
  virtual Status CreateDirs(const std::string& dir) = 0;
  // Removes a file, or a directory (a non-empty one only with `recursive`). OK if absent.
  virtual Status Delete(const std::string& path, bool recursive) = 0;
  // Makes the entries created, renamed or removed in `dir` durable (no-op on HDFS).
  virtual Status SyncDir(const std::string& dir) = 0;

  // Copies a file to a local path (created or replaced), streaming: memory stays bounded
  // whatever the file's size.
  virtual Status CopyToLocal(const std::string& path, const std::string& local_path) = 0;
  // Copies a local file to `path` under a temporary name, then renames it into place; fails if
  // `path` exists. Streaming, as CopyToLocal.
  virtual Status CopyFromLocal(const std::string& local_path, const std::string& path) = 0;

  // Adds to (*bytes_by_host)[host] the bytes of `path`'s blocks each DataNode holds a replica
  // of: the locality of a unit's inputs. Nothing on a local disk.
  virtual Status AddBlockHosts(const std::string& path,
                               std::map<std::string, uint64_t>* bytes_by_host);
};

// The local file system (one shared instance).
FileSystem* LocalFileSystem();

// The file system `path` lives on: HDFS for hdfs:// and webhdfs:// (hfile/webhdfs.h resolves
// the NameNode's HTTP address), the local one otherwise.
Result<std::shared_ptr<FileSystem>> FileSystemFor(const std::string& path);

// True for hdfs:// and webhdfs:// paths.
bool IsRemotePath(const std::string& path);

}  // namespace hfile::region

#endif  // REGION_FILE_SYSTEM_H_
