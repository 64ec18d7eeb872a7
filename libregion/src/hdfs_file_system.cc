#include "hdfs_file_system.h"

namespace hfile::region {

// Tables on HDFS are reached by the tasks of a distributed job through their local mirrors;
// the FileSystem over WebHDFS for planning and committing on hdfs:// is not in this build yet.
Result<std::shared_ptr<FileSystem>> NewHdfsFileSystem(const std::string& uri) {
  return Status::NotSupported(uri, "tables on HDFS: planning and committing need the WebHDFS "
                                   "file system, not in this build");
}

}  // namespace hfile::region
