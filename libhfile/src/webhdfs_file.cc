#include "webhdfs_file.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

namespace hfile {

Result<std::unique_ptr<WebHdfsFile>> WebHdfsFile::Open(const std::string& uri,
                                                       const WebHdfsOptions& options) {
  HFILE_ASSIGN_OR_RETURN(HdfsLocation loc, ResolveHdfsUri(uri, options));
  auto client = WebHdfsClient::Create(loc.http_address, options);
  if (!client.ok()) return client.status().WithContext(uri + " (NameNode from " + loc.where + ")");
  return Open(std::move(client).value(), uri, loc.path, options);
}

Result<std::unique_ptr<WebHdfsFile>> WebHdfsFile::Open(std::unique_ptr<WebHdfsClient> client,
                                                       const std::string& uri,
                                                       const std::string& hdfs_path,
                                                       const WebHdfsOptions& options) {
  auto st = client->GetFileStatus(hdfs_path);
  if (!st.ok()) {
    if (st.status().IsNotFound()) return Status::NotFound(uri, "no such file on HDFS");
    return st.status().WithContext(uri);
  }
  if (st->is_directory) return Status::IOError(uri, "not a regular file (a directory)");
  return std::unique_ptr<WebHdfsFile>(
      new WebHdfsFile(std::move(client), uri, hdfs_path, st->length, options));
}

WebHdfsFile::WebHdfsFile(std::unique_ptr<WebHdfsClient> client, std::string uri,
                         std::string hdfs_path, uint64_t size, const WebHdfsOptions& options)
    : RandomAccessFile(std::move(uri), size),
      client_(std::move(client)),
      hdfs_path_(std::move(hdfs_path)),
      cache_bytes_(options.cache_bytes),
      // A window never exceeds the cache: the cache's bound is the memory bound.
      read_ahead_(std::min(options.read_ahead_bytes, options.cache_bytes)) {}

uint64_t WebHdfsFile::requests() const {
  std::lock_guard<std::mutex> l(mu_);
  return client_->requests();
}

uint64_t WebHdfsFile::cached_bytes() const {
  std::lock_guard<std::mutex> l(mu_);
  return cached_;
}

Status WebHdfsFile::Fill(uint64_t offset, size_t n) const {
  // At least read_ahead_ bytes from the miss on; near the end of the file the window is the
  // file's last read_ahead_ bytes instead, so the trailer read (the first one) also brings the
  // load-on-open section before it.
  const uint64_t want = std::max<uint64_t>(n, read_ahead_);
  uint64_t start = offset;
  if (size() - offset < want) start = size() > want ? size() - want : 0;
  const uint64_t len = std::min<uint64_t>(want, size() - start);
  while (!windows_.empty() && cached_ + len > cache_bytes_) {
    cached_ -= windows_.back().data.size();
    windows_.pop_back();
  }
  Window w{start, {}};
  HFILE_RETURN_IF_ERROR(client_->Open(hdfs_path_, start, len, &w.data).WithContext(path()));
  if (w.data.size() != len) {
    return Status::Corruption(path(), fmt::format("WebHDFS returned {} bytes at offset {} of "
                                                  "the {}-byte file, {} asked (truncated "
                                                  "while read?)",
                                                  w.data.size(), start, size(), len));
  }
  cached_ += len;
  windows_.push_front(std::move(w));
  return Status::OK();
}

Status WebHdfsFile::ReadAt(uint64_t offset, size_t n, char* dst) const {
  std::lock_guard<std::mutex> l(mu_);
  // Larger than the cache can hold: straight into dst, nothing kept.
  if (n > cache_bytes_) {
    std::string data;
    HFILE_RETURN_IF_ERROR(client_->Open(hdfs_path_, offset, n, &data).WithContext(path()));
    if (data.size() != n) {
      return Status::Corruption(path(), fmt::format("WebHDFS returned {} bytes at offset {}, "
                                                    "{} asked (truncated while read?)",
                                                    data.size(), offset, n));
    }
    std::memcpy(dst, data.data(), n);
    return Status::OK();
  }
  size_t done = 0;
  bool filled = false;
  while (done < n) {
    const uint64_t at = offset + done;
    auto it = std::find_if(windows_.begin(), windows_.end(), [at](const Window& w) {
      return at >= w.start && at < w.start + w.data.size();
    });
    if (it == windows_.end()) {
      // One fill covers the rest of the read (a window is at least n bytes long), so a second
      // miss would mean the server returned another range than asked.
      if (filled) return Status::IOError(path(), "WebHDFS read-ahead window did not cover "
                                                 "the read");
      HFILE_RETURN_IF_ERROR(Fill(at, n - done));
      filled = true;
      continue;
    }
    const size_t k = std::min<uint64_t>(n - done, it->start + it->data.size() - at);
    std::memcpy(dst + done, it->data.data() + (at - it->start), k);
    done += k;
    if (it != windows_.begin()) windows_.splice(windows_.begin(), windows_, it);
  }
  return Status::OK();
}

}  // namespace hfile
