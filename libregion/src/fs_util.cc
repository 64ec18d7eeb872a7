#include "fs_util.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <system_error>

namespace hfile::region {

namespace fs = std::filesystem;

Result<std::string> ReadWholeFile(const std::string& path, uint64_t max_size) {
  std::error_code ec;
  auto size = fs::file_size(path, ec);
  if (ec) {
    if (ec == std::errc::no_such_file_or_directory) return Status::NotFound(path, ec.message());
    return Status::IOError(path, ec.message());
  }
  if (size > max_size) return Status::Corruption(path, "file is implausibly large");
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::IOError(path, "cannot open");
  std::string data(size, '\0');
  if (size > 0 && !in.read(data.data(), static_cast<std::streamsize>(size)))
    return Status::IOError(path, "short read");
  return data;
}

Result<std::vector<DirEntry>> ListDir(const std::string& dir) {
  std::error_code ec;
  fs::directory_iterator it(dir, ec);
  if (ec) {
    if (ec == std::errc::no_such_file_or_directory) return Status::NotFound(dir, ec.message());
    return Status::IOError(dir, ec.message());
  }
  std::vector<DirEntry> out;
  for (; it != fs::directory_iterator(); it.increment(ec)) {
    if (ec) return Status::IOError(dir, ec.message());
    DirEntry e;
    e.name = it->path().filename().string();
    std::error_code ec2;
    e.is_dir = it->is_directory(ec2);
    if (!e.is_dir) e.size = it->file_size(ec2);
    out.push_back(std::move(e));
  }
  std::sort(out.begin(), out.end(),
            [](const DirEntry& a, const DirEntry& b) { return a.name < b.name; });
  return out;
}

bool PathExists(const std::string& path) {
  std::error_code ec;
  return fs::exists(path, ec);
}

bool IsDirectory(const std::string& path) {
  std::error_code ec;
  return fs::is_directory(path, ec);
}

std::string JoinPath(const std::string& a, const std::string& b) {
  if (a.empty()) return b;
  if (a.back() == '/') return a + b;
  return a + "/" + b;
}

Status ErrnoStatus(const std::string& what, const std::string& path) {
  return Status::IOError(what + " " + path, std::strerror(errno));
}

Status WriteFileDurably(const std::string& path, const std::string& data) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return ErrnoStatus("cannot create", path);
  size_t off = 0;
  while (off < data.size()) {
    ssize_t n = ::write(fd, data.data() + off, data.size() - off);
    if (n < 0) {
      if (errno == EINTR) continue;
      Status s = ErrnoStatus("cannot write", path);
      ::close(fd);
      return s;
    }
    off += static_cast<size_t>(n);
  }
  if (::fsync(fd) != 0) {
    Status s = ErrnoStatus("cannot fsync", path);
    ::close(fd);
    return s;
  }
  if (::close(fd) != 0) return ErrnoStatus("cannot close", path);
  return Status::OK();
}

Status RenameFile(const std::string& from, const std::string& to) {
  if (::rename(from.c_str(), to.c_str()) != 0) {
    return ErrnoStatus("cannot rename to " + to + ":", from);
  }
  return Status::OK();
}

Status SyncDir(const std::string& dir) {
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return ErrnoStatus("cannot open directory", dir);
  if (::fsync(fd) != 0) {
    Status s = ErrnoStatus("cannot fsync directory", dir);
    ::close(fd);
    return s;
  }
  ::close(fd);
  return Status::OK();
}

namespace {

// `path` lexically normalized, without trailing slashes ("a/b/" and "a/./b" are "a/b").
std::string Normalized(const std::string& path) {
  std::string norm = std::filesystem::path(path).lexically_normal().string();
  while (norm.size() > 1 && norm.back() == '/') norm.pop_back();
  return norm;
}

}  // namespace

std::string ParentDir(const std::string& path) {
  // "scheme://authority" is kept as it is (normalizing would fold its "//").
  if (const size_t sep = path.find("://"); sep != std::string::npos &&
                                           path.find('/') == sep + 1) {
    const size_t slash = path.find('/', sep + 3);
    if (slash == std::string::npos) return path;
    const std::string prefix = path.substr(0, slash);
    const std::string parent = ParentDir(path.substr(slash));
    return parent == "/" ? prefix + "/" : prefix + parent;
  }
  std::string p = std::filesystem::path(Normalized(path)).parent_path().string();
  return p.empty() ? "." : p;
}

Status CreateDirDurably(const std::string& dir,
                        const std::function<void(const std::string&)>& on_created,
                        bool* created) {
  if (created) *created = false;
  const std::string norm = Normalized(dir);
  if (IsDirectory(norm)) return Status::OK();
  if (PathExists(norm)) return Status::IOError(norm, "exists and is not a directory");
  const std::string parent = ParentDir(norm);
  if (parent != norm) HFILE_RETURN_IF_ERROR(CreateDirDurably(parent, on_created));
  if (::mkdir(norm.c_str(), 0755) != 0) {
    if (errno == EEXIST && IsDirectory(norm)) return Status::OK();
    return ErrnoStatus("cannot create directory", norm);
  }
  HFILE_RETURN_IF_ERROR(SyncDir(parent));
  if (created) *created = true;
  if (on_created) on_created(norm);
  return Status::OK();
}

Status DisposeStoreFile(const std::string& family_dir, const std::string& name,
                        const Disposal& d) {
  const std::string src = JoinPath(family_dir, name);
  if (d.archive_dir.empty()) {
    if (::unlink(src.c_str()) != 0) {
      if (errno == ENOENT) return Status::OK();
      return ErrnoStatus("cannot remove", src);
    }
    return SyncDir(family_dir);
  }
  std::error_code ec;
  fs::create_directories(d.archive_dir, ec);
  if (ec) return Status::IOError("cannot create " + d.archive_dir, ec.message());
  const std::string dst = JoinPath(d.archive_dir, name);
  if (PathExists(dst)) {  // HFileArchiver keeps the older copy as <name>.<archive start millis>
    HFILE_RETURN_IF_ERROR(RenameFile(dst, fmt::format("{}.{}", dst, d.now_ms)));
  }
  HFILE_RETURN_IF_ERROR(RenameFile(src, dst));
  HFILE_RETURN_IF_ERROR(SyncDir(d.archive_dir));
  return SyncDir(family_dir);
}

int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace hfile::region
