#include "file.h"

#include "hfile/temp_files.h"
#include "io_counters.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace hfile {
namespace {
Status ErrnoStatus(const std::string& what, const std::string& path, int err) {
  if (err == ENOENT) return Status::NotFound(path, std::strerror(err));
  return Status::IOError(fmt::format("{} {}", what, path), std::strerror(err));
}
constexpr size_t kWriteBufferSize = 1 << 20;
// Slices at least this large (a data block) go to the kernel straight from the caller's memory,
// together with whatever is buffered, in one writev.
constexpr size_t kDirectWriteSize = 32 << 10;
}  // namespace

namespace {
// A local file, read with pread(2).
class LocalFile final : public RandomAccessFile {
 public:
  LocalFile(std::string path, int fd, uint64_t size)
      : RandomAccessFile(std::move(path), size), fd_(fd) {}
  ~LocalFile() override { ::close(fd_); }
  void AdviseSequential() const override {
    ::posix_fadvise(fd_, 0, 0, POSIX_FADV_SEQUENTIAL);
  }

 protected:
  Status ReadAt(uint64_t offset, size_t n, char* dst) const override {
    size_t done = 0;
    while (done < n) {
      ssize_t r = ::pread(fd_, dst + done, n - done, static_cast<off_t>(offset + done));
      if (r < 0) {
        if (errno == EINTR) continue;
        return ErrnoStatus(fmt::format("read at offset {} of", offset + done), path(), errno);
      }
      if (r == 0) {
        return Status::Corruption(
            fmt::format("file ended at offset {} (truncated?)", offset + done));
      }
      done += static_cast<size_t>(r);
    }
    return Status::OK();
  }

 private:
  int fd_;
};
}  // namespace

Result<std::unique_ptr<RandomAccessFile>> RandomAccessFile::Open(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return ErrnoStatus("cannot open", path, errno);
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    int err = errno;
    ::close(fd);
    return ErrnoStatus("cannot stat", path, err);
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    return Status::IOError(path, "not a regular file");
  }
  return std::unique_ptr<RandomAccessFile>(
      new LocalFile(path, fd, static_cast<uint64_t>(st.st_size)));
}

RandomAccessFile::~RandomAccessFile() = default;

Status RandomAccessFile::Read(uint64_t offset, size_t n, char* dst) const {
  if (offset > size_ || n > size_ - offset) {
    return Status::Corruption(fmt::format("read of {} bytes at offset {} runs past the end of "
                                          "the {}-byte file",
                                          n, offset, size_));
  }
  if (counters_) counters_->AddRead(offset, n);
  return ReadAt(offset, n, dst);
}

Result<std::unique_ptr<WritableFile>> WritableFile::Create(const std::string& path) {
  std::string tmp = TempPathFor(path, "tmp", ::getpid());
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return ErrnoStatus("cannot create", tmp, errno);
  return std::unique_ptr<WritableFile>(new WritableFile(path, tmp, fd));
}

WritableFile::~WritableFile() {
  if (!done_) Abandon();
}

Status WritableFile::WriteV(const Slice& a, const Slice& b) {
  struct iovec iov[2] = {{const_cast<char*>(a.data()), a.size()},
                         {const_cast<char*>(b.data()), b.size()}};
  struct iovec* v = iov;
  int n = 2;
  auto skip_done = [&](size_t done) {
    while (n > 0 && done >= v->iov_len) {
      done -= v->iov_len;
      ++v;
      --n;
    }
    if (n > 0) {
      v->iov_base = static_cast<char*>(v->iov_base) + done;
      v->iov_len -= done;
    }
  };
  skip_done(0);
  while (n > 0) {
    ssize_t r = ::writev(fd_, v, n);
    if (r < 0) {
      if (errno == EINTR) continue;
      return ErrnoStatus("cannot write", tmp_path_, errno);
    }
    skip_done(static_cast<size_t>(r));
  }
  return Status::OK();
}

Status WritableFile::FlushBuffer() {
  HFILE_RETURN_IF_ERROR(WriteV(buffer_, Slice()));
  buffer_.clear();
  return Status::OK();
}

Status WritableFile::Append(const Slice& data) {
  if (done_) return Status::InvalidArgument("append after commit");
  size_ += data.size();
  if (data.size() >= kDirectWriteSize) {
    HFILE_RETURN_IF_ERROR(WriteV(buffer_, data));
    buffer_.clear();
    return Status::OK();
  }
  if (buffer_.size() + data.size() > kWriteBufferSize) HFILE_RETURN_IF_ERROR(FlushBuffer());
  buffer_.append(data.data(), data.size());
  return Status::OK();
}

Status WritableFile::Commit() {
  HFILE_RETURN_IF_ERROR(FlushBuffer());
  if (::fsync(fd_) != 0) return ErrnoStatus("cannot fsync", tmp_path_, errno);
  if (::close(fd_) != 0) {
    fd_ = -1;
    return ErrnoStatus("cannot close", tmp_path_, errno);
  }
  fd_ = -1;
  if (::rename(tmp_path_.c_str(), final_path_.c_str()) != 0) {
    return ErrnoStatus("cannot rename to " + final_path_ + ":", tmp_path_, errno);
  }
  done_ = true;
  // The rename is durable only once the directory is: its failure is the caller's to know.
  auto slash = final_path_.rfind('/');
  std::string dir = slash == std::string::npos ? "." : (slash == 0 ? "/" : final_path_.substr(0, slash));
  int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  const int rc = dfd < 0 ? -1 : ::fsync(dfd);
  const int err = errno;
  if (dfd >= 0) ::close(dfd);
  if (rc != 0) {
    ::unlink(final_path_.c_str());  // an error leaves nothing under the final name
    return ErrnoStatus(dfd < 0 ? "cannot open the directory" : "cannot fsync the directory", dir,
                       err);
  }
  return Status::OK();
}

void WritableFile::Abandon() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  ::unlink(tmp_path_.c_str());
  done_ = true;
}

}  // namespace hfile
