// The FileSystem of tables on HDFS (hdfs:// and webhdfs:// URIs), over WebHDFS (hfile/webhdfs.h).
#ifndef REGION_SRC_HDFS_FILE_SYSTEM_H_
#define REGION_SRC_HDFS_FILE_SYSTEM_H_

#include <memory>
#include <string>

#include "hfile/status.h"
#include "region/file_system.h"

namespace hfile::region {

// The file system of the NameNode `uri` names (any path under it).
Result<std::shared_ptr<FileSystem>> NewHdfsFileSystem(const std::string& uri);

}  // namespace hfile::region

#endif  // REGION_SRC_HDFS_FILE_SYSTEM_H_
