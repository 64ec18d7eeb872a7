// Files: positional reads for readers, append-only writes with fsync + atomic rename for writers.
#ifndef HFILE_SRC_FILE_H_
#define HFILE_SRC_FILE_H_

#include <cstdint>
#include <memory>
#include <string>

#include "hfile/slice.h"
#include "hfile/status.h"

namespace hfile {

class IoCounters;

// A read-only file: a local one read with pread(2) (Open), or a remote one (webhdfs_file.h).
// Thread-safe.
class RandomAccessFile {
 public:
  static Result<std::unique_ptr<RandomAccessFile>> Open(const std::string& path);
  virtual ~RandomAccessFile();
  RandomAccessFile(const RandomAccessFile&) = delete;
  RandomAccessFile& operator=(const RandomAccessFile&) = delete;

  const std::string& path() const { return path_; }
  uint64_t size() const { return size_; }
  // Reads exactly n bytes at offset into dst; IOError (or Corruption when the file is shorter
  // than asked: a truncated file) otherwise.
  Status Read(uint64_t offset, size_t n, char* dst) const;
  // Tells the kernel the file will be read front to back.
  virtual void AdviseSequential() const {}
  // Every read from now on is counted there (nullptr: not counted). Set before sharing the file.
  void set_counters(IoCounters* counters) { counters_ = counters; }
  IoCounters* counters() const { return counters_; }

 protected:
  RandomAccessFile(std::string path, uint64_t size) : path_(std::move(path)), size_(size) {}
  // Read's work once the range is known to lie inside the file.
  virtual Status ReadAt(uint64_t offset, size_t n, char* dst) const = 0;

 private:
  std::string path_;
  uint64_t size_;
  IoCounters* counters_ = nullptr;
};

// A file written front to back under a temporary name and renamed into place by Commit() after
// fsync; destroyed without Commit() it is removed, so a failure never leaves a file that looks
// complete under the final name.
class WritableFile {
 public:
  // Creates `<dir of path>/.<name>.tmp-<pid>` for writing; the final name is `path`.
  static Result<std::unique_ptr<WritableFile>> Create(const std::string& path);
  ~WritableFile();

  Status Append(const Slice& data);
  uint64_t size() const { return size_; }
  // Flushes, fsyncs the file, renames it to the final name and fsyncs the directory.
  Status Commit();
  // Removes the temporary file.
  void Abandon();
  const std::string& final_path() const { return final_path_; }

 private:
  WritableFile(std::string final_path, std::string tmp_path, int fd)
      : final_path_(std::move(final_path)), tmp_path_(std::move(tmp_path)), fd_(fd) {}
  Status FlushBuffer();
  // Writes a then b in full (either may be empty).
  Status WriteV(const Slice& a, const Slice& b);

  std::string final_path_;
  std::string tmp_path_;
  int fd_;
  uint64_t size_ = 0;
  std::string buffer_;
  bool done_ = false;
};

}  // namespace hfile

#endif  // HFILE_SRC_FILE_H_
