// The local file system over POSIX (fs_util.h's durable primitives), and the choice of file
// system by a path's scheme.
#include "region/file_system.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <filesystem>
#include <system_error>

#include "fs_util.h"
#include "hdfs_file_system.h"
#include "hfile/webhdfs.h"

namespace hfile::region {

namespace fs = std::filesystem;

FileSystem::~FileSystem() = default;

bool FileSystem::Exists(const std::string& path) { return Stat(path).ok(); }

Result<bool> FileSystem::ExistsOrError(const std::string& path) {
  auto st = Stat(path);
  if (st.ok()) return true;
  if (st.status().IsNotFound()) return false;
  return st.status();
}

bool FileSystem::IsDirectory(const std::string& path) {
  auto st = Stat(path);
  return st.ok() && st->is_dir;
}

Status FileSystem::AddBlockHosts(const std::string&, std::map<std::string, uint64_t>*) {
  return Status::OK();
}

namespace {

// A name beside `path` no other writer of this process or another picks.
std::string TempNameBeside(const std::string& path) {
  static std::atomic<uint64_t> counter{0};
  return path + ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
}

// Copies `from` to a new file `to` (O_EXCL unless `replace`), fsynced; removes a partial `to`.
Status CopyFileDurably(const std::string& from, const std::string& to, bool replace) {
  int in = ::open(from.c_str(), O_RDONLY | O_CLOEXEC);
  if (in < 0) {
    if (errno == ENOENT) return Status::NotFound("cannot open " + from, std::strerror(errno));
    return ErrnoStatus("cannot open", from);
  }
  int flags = O_WRONLY | O_CREAT | O_CLOEXEC | (replace ? O_TRUNC : O_EXCL);
  int out = ::open(to.c_str(), flags, 0644);
  if (out < 0) {
    Status s = ErrnoStatus("cannot create", to);
    ::close(in);
    return s;
  }
  Status s;
  char buf[1 << 16];
  for (;;) {
    ssize_t n = ::read(in, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      s = ErrnoStatus("cannot read", from);
      break;
    }
    if (n == 0) break;
    for (ssize_t done = 0; done < n;) {
      ssize_t w = ::write(out, buf + done, static_cast<size_t>(n - done));
      if (w < 0) {
        if (errno == EINTR) continue;
        s = ErrnoStatus("cannot write", to);
        break;
      }
      done += w;
    }
    if (!s.ok()) break;
  }
  if (s.ok() && ::fsync(out) != 0) s = ErrnoStatus("cannot fsync", to);
  if (::close(out) != 0 && s.ok()) s = ErrnoStatus("cannot close", to);
  ::close(in);
  if (!s.ok()) ::unlink(to.c_str());
  return s;
}

class PosixFileSystem final : public FileSystem {
 public:
  const char* scheme() const override { return "file"; }

  Result<std::vector<FileStatus>> ListDir(const std::string& dir) override {
    HFILE_ASSIGN_OR_RETURN(auto entries, region::ListDir(dir));
    std::vector<FileStatus> out;
    out.reserve(entries.size());
    for (auto& e : entries) out.push_back({std::move(e.name), e.is_dir, e.size, 0});
    return out;
  }

  Result<FileStatus> Stat(const std::string& path) override {
    struct stat st;
    if (::stat(path.c_str(), &st) != 0) {
      if (errno == ENOENT || errno == ENOTDIR)
        return Status::NotFound(path, std::strerror(errno));
      return ErrnoStatus("cannot stat", path);
    }
    FileStatus f;
    f.name = fs::path(path).filename().string();
    f.is_dir = S_ISDIR(st.st_mode);
    f.size = f.is_dir ? 0 : static_cast<uint64_t>(st.st_size);
    f.modification_time_ms = int64_t{st.st_mtim.tv_sec} * 1000 + st.st_mtim.tv_nsec / 1000000;
    return f;
  }

  Result<std::string> ReadFile(const std::string& path, uint64_t max_size) override {
    return ReadWholeFile(path, max_size);
  }

  Status WriteFileAtomically(const std::string& path, const std::string& data) override {
    std::string tmp = TempNameBeside(path);
    Status s = WriteFileDurably(tmp, data);
    if (s.ok()) s = RenameFile(tmp, path);
    if (!s.ok()) {
      ::unlink(tmp.c_str());
      return s;
    }
    return region::SyncDir(ParentDir(path));
  }

  Status Rename(const std::string& from, const std::string& to) override {
    // renameat2(RENAME_NOREPLACE) is not on every file system; link-free check then rename is
    // enough for the one committer of a table (the journal's runs hold its DirLock).
    if (Exists(to)) return Status::IOError("cannot rename " + from + " to " + to, "target exists");
    if (!Exists(from)) return Status::IOError("cannot rename " + from, "it does not exist");
    HFILE_RETURN_IF_ERROR(RenameFile(from, to));
    HFILE_RETURN_IF_ERROR(region::SyncDir(ParentDir(to)));
    if (ParentDir(to) != ParentDir(from)) return region::SyncDir(ParentDir(from));
    return Status::OK();
  }

  Status CreateDirs(const std::string& dir) override { return CreateDirDurably(dir); }

  Status Delete(const std::string& path, bool recursive) override {
    std::error_code ec;
    auto st = fs::symlink_status(path, ec);
    if (ec || !fs::exists(st)) return Status::OK();
    if (fs::is_directory(st)) {
      if (recursive) {
        fs::remove_all(path, ec);
      } else {
        fs::remove(path, ec);
      }
    } else {
      fs::remove(path, ec);
    }
    if (ec) return Status::IOError("cannot remove " + path, ec.message());
    return region::SyncDir(ParentDir(path));
  }

  Status SyncDir(const std::string& dir) override { return region::SyncDir(dir); }

  Status CopyToLocal(const std::string& path, const std::string& local_path) override {
    std::string tmp = TempNameBeside(local_path);
    HFILE_RETURN_IF_ERROR(CopyFileDurably(path, tmp, /*replace=*/true));
    Status s = RenameFile(tmp, local_path);
    if (!s.ok()) ::unlink(tmp.c_str());
    return s;
  }

  Status CopyFromLocal(const std::string& local_path, const std::string& path) override {
    if (Exists(path)) return Status::IOError("cannot copy to " + path, "it exists");
    std::string tmp = TempNameBeside(path);
    HFILE_RETURN_IF_ERROR(CopyFileDurably(local_path, tmp, /*replace=*/false));
    Status s = Rename(tmp, path);
    if (!s.ok()) ::unlink(tmp.c_str());
    return s;
  }
};

}  // namespace

FileSystem* LocalFileSystem() {
  static PosixFileSystem* local = new PosixFileSystem();
  return local;
}

bool IsRemotePath(const std::string& path) { return IsHdfsUri(path); }

Result<std::shared_ptr<FileSystem>> FileSystemFor(const std::string& path) {
  if (IsRemotePath(path)) return NewHdfsFileSystem(path);
  // The shared local instance, owned by no one.
  return std::shared_ptr<FileSystem>(LocalFileSystem(), [](FileSystem*) {});
}

}  // namespace hfile::region
