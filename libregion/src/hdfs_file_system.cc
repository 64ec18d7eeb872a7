// region::FileSystem over WebHDFS: one WebHdfsClient (one curl handle, not thread-safe) per file
// system, its calls serialized by a mutex. Paths are hdfs:// or webhdfs:// URIs of the NameNode
// the file system was made for.
#include "hdfs_file_system.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <random>

#include "fs_util.h"
#include "hfile/webhdfs.h"

namespace hfile::region {

namespace {

// A ranged OPEN of CopyToLocal: the most memory a download holds, whatever the file's size.
constexpr uint64_t kDownloadChunk = uint64_t{8} << 20;

// A suffix no other writer picks: tasks on different hosts may share a pid.
std::string TempSuffix() {
  static const uint32_t salt = std::random_device{}();
  static std::atomic<uint64_t> counter{0};
  return fmt::format(".tmp-{:08x}-{}-{}", salt, ::getpid(), counter++);
}

std::string LastComponent(const std::string& path) {
  std::string p = path;
  while (p.size() > 1 && p.back() == '/') p.pop_back();
  const size_t slash = p.rfind('/');
  return slash == std::string::npos ? p : p.substr(slash + 1);
}

class HdfsFileSystem final : public FileSystem {
 public:
  HdfsFileSystem(std::string http_address, std::unique_ptr<WebHdfsClient> client)
      : address_(std::move(http_address)), client_(std::move(client)) {}

  const char* scheme() const override { return "hdfs"; }

  Result<std::vector<FileStatus>> ListDir(const std::string& dir) override {
    HFILE_ASSIGN_OR_RETURN(auto p, PathOf(dir));
    std::lock_guard<std::mutex> lock(mu_);
    HFILE_ASSIGN_OR_RETURN(auto entries, client_->ListStatus(p));
    std::vector<FileStatus> out;
    out.reserve(entries.size());
    for (auto& e : entries) {
      out.push_back({std::move(e.name), e.is_directory, e.is_directory ? 0 : e.length,
                     e.modification_time_ms});
    }
    std::sort(out.begin(), out.end(),
              [](const FileStatus& a, const FileStatus& b) { return a.name < b.name; });
    return out;
  }

  Result<FileStatus> Stat(const std::string& path) override {
    HFILE_ASSIGN_OR_RETURN(auto p, PathOf(path));
    std::lock_guard<std::mutex> lock(mu_);
    HFILE_ASSIGN_OR_RETURN(auto st, client_->GetFileStatus(p));
    return FileStatus{LastComponent(p), st.is_directory, st.is_directory ? 0 : st.length,
                      st.modification_time_ms};
  }

  Result<std::string> ReadFile(const std::string& path, uint64_t max_size) override {
    HFILE_ASSIGN_OR_RETURN(auto p, PathOf(path));
    std::lock_guard<std::mutex> lock(mu_);
    HFILE_ASSIGN_OR_RETURN(auto st, client_->GetFileStatus(p));
    if (st.is_directory) return Status::IOError(path, "is a directory, not a file");
    if (st.length > max_size) return Status::Corruption(path, "file is implausibly large");
    std::string data;
    if (st.length == 0) return data;
    HFILE_RETURN_IF_ERROR(client_->Open(p, 0, st.length, &data));
    if (data.size() != st.length)
      return Status::IOError(path, fmt::format("read {} bytes of {} (changed while read?)",
                                               data.size(), st.length));
    return data;
  }

  Status WriteFileAtomically(const std::string& path, const std::string& data) override {
    HFILE_ASSIGN_OR_RETURN(auto p, PathOf(path));
    std::lock_guard<std::mutex> lock(mu_);
    const std::string tmp = p + TempSuffix();
    // A file is durable on HDFS once closed (the CREATE's 201); the rename publishes it whole.
    Status s = client_->CreateFile(tmp, Slice(data), /*overwrite=*/false);
    if (s.ok()) s = ReplaceLocked(tmp, p);
    if (!s.ok()) (void)client_->Delete(tmp, false);  // best effort: s is the error
    return s;
  }

  Status Rename(const std::string& from, const std::string& to) override {
    HFILE_ASSIGN_OR_RETURN(auto f, PathOf(from));
    HFILE_ASSIGN_OR_RETURN(auto t, PathOf(to));
    std::lock_guard<std::mutex> lock(mu_);
    Status s = client_->RenameStrict(f, t, /*overwrite=*/false);
    // The interface's contract: a missing source is an IOError, as a target that exists.
    if (s.IsNotFound()) return Status::IOError("cannot rename " + from + " to " + to, s.ToString());
    return s;
  }

  Status CreateDirs(const std::string& dir) override {
    HFILE_ASSIGN_OR_RETURN(auto p, PathOf(dir));
    std::lock_guard<std::mutex> lock(mu_);
    return client_->Mkdirs(p);
  }

  Status Delete(const std::string& path, bool recursive) override {
    HFILE_ASSIGN_OR_RETURN(auto p, PathOf(path));
    std::lock_guard<std::mutex> lock(mu_);
    return client_->Delete(p, recursive);
  }

  // A rename, mkdir or delete is durable once the NameNode answered (its edit log is synced).
  Status SyncDir(const std::string&) override { return Status::OK(); }

  Status CopyToLocal(const std::string& path, const std::string& local_path) override {
    HFILE_ASSIGN_OR_RETURN(auto p, PathOf(path));
    std::lock_guard<std::mutex> lock(mu_);
    HFILE_ASSIGN_OR_RETURN(auto st, client_->GetFileStatus(p));
    if (st.is_directory) return Status::IOError(path, "is a directory, not a file");
    const std::string tmp = local_path + TempSuffix();
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return ErrnoStatus("cannot create", tmp);
    Status s;
    std::string chunk;
    for (uint64_t off = 0; s.ok() && off < st.length;) {
      chunk.clear();
      const uint64_t want = std::min(kDownloadChunk, st.length - off);
      s = client_->Open(p, off, want, &chunk);
      if (!s.ok()) break;
      if (chunk.size() != want) {
        s = Status::IOError(path, fmt::format("{} bytes at {}, {} asked: the file changed "
                                              "while copied?",
                                              chunk.size(), off, want));
        break;
      }
      for (size_t done = 0; done < chunk.size();) {
        const ssize_t w = ::write(fd, chunk.data() + done, chunk.size() - done);
        if (w < 0) {
          if (errno == EINTR) continue;
          s = ErrnoStatus("cannot write", tmp);
          break;
        }
        done += static_cast<size_t>(w);
      }
      off += want;
    }
    if (s.ok() && ::fsync(fd) != 0) s = ErrnoStatus("cannot fsync", tmp);
    if (::close(fd) != 0 && s.ok()) s = ErrnoStatus("cannot close", tmp);
    if (s.ok()) s = RenameFile(tmp, local_path);
    if (!s.ok()) ::unlink(tmp.c_str());
    return s;
  }

  Status CopyFromLocal(const std::string& local_path, const std::string& path) override {
    HFILE_ASSIGN_OR_RETURN(auto p, PathOf(path));
    std::lock_guard<std::mutex> lock(mu_);
    if (client_->GetFileStatus(p).ok())
      return Status::IOError("cannot copy to " + path, "it exists");
    const std::string tmp = p + TempSuffix();
    Status s = client_->CreateFileFromLocal(tmp, local_path, /*overwrite=*/false);
    if (s.ok()) s = client_->RenameStrict(tmp, p, /*overwrite=*/false);
    if (!s.ok()) (void)client_->Delete(tmp, false);  // best effort: s is the error
    return s;
  }

  Status AddBlockHosts(const std::string& path,
                       std::map<std::string, uint64_t>* bytes_by_host) override {
    HFILE_ASSIGN_OR_RETURN(auto p, PathOf(path));
    std::lock_guard<std::mutex> lock(mu_);
    HFILE_ASSIGN_OR_RETURN(auto st, client_->GetFileStatus(p));
    if (st.is_directory || st.length == 0) return Status::OK();
    HFILE_ASSIGN_OR_RETURN(auto blocks, client_->GetFileBlockLocations(p, 0, st.length));
    for (const auto& b : blocks)
      for (const auto& h : b.hosts) (*bytes_by_host)[h] += b.length;
    return Status::OK();
  }

 private:
  // The HDFS path of a URI of this NameNode.
  Result<std::string> PathOf(const std::string& uri) const {
    HFILE_ASSIGN_OR_RETURN(auto loc, ResolveHdfsUri(uri, {}));
    if (loc.http_address != address_)
      return Status::InvalidArgument(
          uri, fmt::format("on the NameNode at {}, not {} (one file system per NameNode)",
                           loc.http_address, address_));
    return loc.path;
  }

  // Renames `tmp` over `to`: rename2 with OVERWRITE replaces atomically. A server without it
  // (HTTP 400 naming the option, or the option ignored) gets delete then rename: between the two
  // `to` is absent, so a crash there loses the record it held (doc/distributed.md, "Tables on
  // HDFS", the limits).
  Status ReplaceLocked(const std::string& tmp, const std::string& to) {
    Status s = client_->RenameStrict(tmp, to, /*overwrite=*/true);
    if (s.ok()) return s;
    // Only a refusal of the option itself: any other 400 (a bad path, say) is an error, never a
    // reason to delete the target.
    const std::string msg = s.ToString();
    const bool option_refused = msg.find("HTTP 400") != std::string::npos &&
                                msg.find("renameoptions") != std::string::npos;
    if (!s.IsNotSupported() && !option_refused) return s;
    HFILE_RETURN_IF_ERROR(client_->Delete(to, false));
    return client_->Rename(tmp, to);
  }

  const std::string address_;
  std::mutex mu_;
  std::unique_ptr<WebHdfsClient> client_;
};

}  // namespace

Result<std::shared_ptr<FileSystem>> NewHdfsFileSystem(const std::string& uri) {
  HFILE_ASSIGN_OR_RETURN(auto loc, ResolveHdfsUri(uri, {}));
  HFILE_ASSIGN_OR_RETURN(auto client, WebHdfsClient::Create(loc.http_address, {}));
  return std::shared_ptr<FileSystem>(
      new HdfsFileSystem(loc.http_address, std::move(client)));
}

}  // namespace hfile::region
