// Small filesystem helpers for the layout walker: whole-file reads and directory listings.
#ifndef REGION_SRC_FS_UTIL_H_
#define REGION_SRC_FS_UTIL_H_

#include <cstdint>
#include <string>
#include <vector>

#include "hfile/status.h"

namespace hfile::region {

struct DirEntry {
  std::string name;
  bool is_dir = false;
  uint64_t size = 0;  // for regular files
};

// NotFound if absent, IOError otherwise.
Result<std::string> ReadWholeFile(const std::string& path, uint64_t max_size = 64 << 20);
// Entries of `dir` sorted by name (bytes), without "." and "..". NotFound if `dir` is absent.
Result<std::vector<DirEntry>> ListDir(const std::string& dir);
bool PathExists(const std::string& path);
bool IsDirectory(const std::string& path);
std::string JoinPath(const std::string& a, const std::string& b);

}  // namespace hfile::region

#endif  // REGION_SRC_FS_UTIL_H_
