#include "fs_util.h"

#include <algorithm>
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

}  // namespace hfile::region
