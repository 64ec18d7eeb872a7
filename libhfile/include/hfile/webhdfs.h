// WebHDFS: HDFS files over the NameNode's REST API (no JVM, no Hadoop jars), for reading
// hdfs:// paths and for later writers. See doc/hfile_format.md, "Files on HDFS".
#ifndef HFILE_WEBHDFS_H_
#define HFILE_WEBHDFS_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "hfile/slice.h"
#include "hfile/status.h"

namespace hfile {

struct WebHdfsOptions {
  // HOST:PORT of the NameNode's HTTP server for hdfs:// paths. Empty: $HFILE_WEBHDFS, else
  // dfs.namenode.http-address.<host of the URI> or dfs.namenode.http-address in
  // $HADOOP_CONF_DIR/hdfs-site.xml, else the URI's host with Hadoop 3's default port 9870.
  // webhdfs://HOST:PORT/path names the HTTP server itself and ignores this.
  std::string address;
  // The user.name of every request (simple authentication). Empty: $HADOOP_USER_NAME, else the
  // login name.
  std::string user;
  // Bytes of a remote file held in memory for reads (the sum of its read-ahead windows).
  uint64_t cache_bytes = uint64_t{16} << 20;
  // A read that misses the cache fetches at least this much (one ranged OPEN), so a scan of
  // small blocks costs one HTTP request per window, not one per block.
  uint64_t read_ahead_bytes = uint64_t{4} << 20;
  long connect_timeout_seconds = 10;
  // A request that moves fewer than 1 byte/s for this long fails (0: never).
  long stall_timeout_seconds = 60;
};

// True for "hdfs://..." and "webhdfs://..." (the paths Reader::Open reads over WebHDFS).
bool IsHdfsUri(const std::string& path);

// An hdfs:// or webhdfs:// URI resolved to the HTTP server that answers for it.
struct HdfsLocation {
  std::string http_address;  // HOST:PORT
  std::string path;          // absolute path inside HDFS, "/a/b"
  std::string where;         // how http_address was found, for error messages
};
Result<HdfsLocation> ResolveHdfsUri(const std::string& uri, const WebHdfsOptions& options);

struct HdfsFileStatus {
  std::string name;  // pathSuffix: the entry's name in LISTSTATUS, empty in GETFILESTATUS
  bool is_directory = false;
  uint64_t length = 0;
  uint64_t block_size = 0;
  int replication = 0;
  int64_t modification_time_ms = 0;
  std::string owner, group, permission;
};

// One block of a file and the DataNodes holding a replica (GETFILEBLOCKLOCATIONS).
struct HdfsBlockLocation {
  uint64_t offset = 0;
  uint64_t length = 0;
  std::vector<std::string> hosts;  // host names (or addresses) of the DataNodes
};

// Fills buf with up to n bytes of a streamed request body; 0 at its end.
using BodyReader = std::function<Result<size_t>(char* buf, size_t n)>;

// One NameNode's WebHDFS API. Paths are absolute HDFS paths ("/a/b"). Errors are IOError (or
// NotFound for a FileNotFoundException) naming the operation, the URL and the HTTP status, with
// the RemoteException the server sent decoded. Not thread-safe: one client per thread.
class WebHdfsClient {
 public:
  static Result<std::unique_ptr<WebHdfsClient>> Create(const std::string& http_address,
                                                       const WebHdfsOptions& options);
  ~WebHdfsClient();
  WebHdfsClient(const WebHdfsClient&) = delete;
  WebHdfsClient& operator=(const WebHdfsClient&) = delete;

  const std::string& http_address() const;

  Result<HdfsFileStatus> GetFileStatus(const std::string& path);
  // The entries of a directory, sorted by name as the NameNode returns them.
  Result<std::vector<HdfsFileStatus>> ListStatus(const std::string& path);
  // Appends bytes [offset, offset + length) of the file to *out (fewer only at its end),
  // following the NameNode's redirect to a DataNode.
  Status Open(const std::string& path, uint64_t offset, uint64_t length, std::string* out);
  // Writes a whole file in WebHDFS's two steps (the NameNode names a DataNode, the data goes
  // there). Fails if the file exists unless `overwrite`.
  Status CreateFile(const std::string& path, const Slice& data, bool overwrite);
  // CreateFile with a body of `length` bytes streamed from `read` (memory stays bounded by
  // curl's buffer whatever the size); fewer or more bytes than `length` fail the request.
  Status CreateFileStreaming(const std::string& path, uint64_t length, const BodyReader& read,
                             bool overwrite);
  // CreateFileStreaming of a local file's content.
  Status CreateFileFromLocal(const std::string& path, const std::string& local_path,
                             bool overwrite);
  // HDFS's rename: false from the NameNode (e.g. the target exists) is an IOError.
  Status Rename(const std::string& from, const std::string& to);
  // The NameNode's rename2 (renameoptions=NONE or OVERWRITE): `to`'s parent must exist; `to`
  // must not exist unless `overwrite`, which atomically replaces a file (or an empty dir).
  // Unlike Rename, never moves `from` into an existing directory `to`. NotSupported when the
  // NameNode ignored renameoptions and refused the plain rename it did instead.
  Status RenameStrict(const std::string& from, const std::string& to, bool overwrite);
  // Deletes a file or (with `recursive`) a tree; *existed (if given) says whether it was there.
  Status Delete(const std::string& path, bool recursive, bool* existed = nullptr);
  Status Mkdirs(const std::string& path);
  // The blocks of [offset, offset + length) of a file and their DataNodes: GETFILEBLOCKLOCATIONS
  // (Hadoop 3.3+), else GET_BLOCK_LOCATIONS (the NameNode's LocatedBlocks) on older servers.
  Result<std::vector<HdfsBlockLocation>> GetFileBlockLocations(const std::string& path,
                                                               uint64_t offset, uint64_t length);

  // HTTP requests sent so far (redirect hops count), for tests and --io-stats style figures.
  uint64_t requests() const;

 private:
  struct Rep;
  explicit WebHdfsClient(std::unique_ptr<Rep> rep);
  std::unique_ptr<Rep> rep_;
};

}  // namespace hfile

#endif  // HFILE_WEBHDFS_H_
