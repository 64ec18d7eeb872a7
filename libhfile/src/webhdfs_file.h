// A RandomAccessFile on WebHDFS: reads are ranged OPENs through a cache of read-ahead windows
// bounded in bytes (WebHdfsOptions::cache_bytes), so a scan costs one request per window.
#ifndef HFILE_SRC_WEBHDFS_FILE_H_
#define HFILE_SRC_WEBHDFS_FILE_H_

#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <string>

#include "file.h"
#include "hfile/webhdfs.h"

namespace hfile {

class WebHdfsFile final : public RandomAccessFile {
 public:
  // `uri` is hdfs://... or webhdfs://...; its size comes from GETFILESTATUS.
  static Result<std::unique_ptr<WebHdfsFile>> Open(const std::string& uri,
                                                   const WebHdfsOptions& options);
  // Over a client already made (tests: a loopback server). `hdfs_path` is "/a/b".
  static Result<std::unique_ptr<WebHdfsFile>> Open(std::unique_ptr<WebHdfsClient> client,
                                                   const std::string& uri,
                                                   const std::string& hdfs_path,
                                                   const WebHdfsOptions& options);

  // HTTP requests made so far (GETFILESTATUS and redirect hops included).
  uint64_t requests() const;
  // Bytes the cache holds now; never more than options.cache_bytes.
  uint64_t cached_bytes() const;

 protected:
  Status ReadAt(uint64_t offset, size_t n, char* dst) const override;

 private:
  struct Window {
    uint64_t start;
    std::string data;
  };
  WebHdfsFile(std::unique_ptr<WebHdfsClient> client, std::string uri, std::string hdfs_path,
              uint64_t size, const WebHdfsOptions& options);
  // Fetches the window for a miss at `offset` of `n` bytes (REQUIRES: mu_ held).
  Status Fill(uint64_t offset, size_t n) const;

  mutable std::mutex mu_;  // one request at a time on the client; guards windows_
  std::unique_ptr<WebHdfsClient> client_;
  const std::string hdfs_path_;
  const uint64_t cache_bytes_, read_ahead_;
  mutable std::list<Window> windows_;  // most recently used first
  mutable uint64_t cached_ = 0;
};

}  // namespace hfile

#endif  // HFILE_SRC_WEBHDFS_FILE_H_
