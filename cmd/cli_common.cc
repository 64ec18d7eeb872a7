#include "cli_common.h"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <ostream>

#include "hfile/escape.h"

namespace hfile::cli {

int ExitCodeFor(const Status& s) {
  if (s.ok()) return kExitOk;
  if (s.IsCorruption()) return kExitCorrupt;
  if (s.IsInvalidArgument()) return kExitUsage;
  return kExitUnreadable;  // IOError, NotFound, NotSupported
}

int WorseExitCode(int a, int b) {
  // Corruption is the most important finding; then unreadable; then usage.
  auto rank = [](int c) {
    switch (c) {
      case kExitCorrupt: return 3;
      case kExitUnreadable: return 2;
      case kExitUsage: return 1;
      default: return 0;
    }
  };
  return rank(a) >= rank(b) ? a : b;
}

void PrintError(std::ostream& err, const std::string& tool, const Status& s) {
  err << tool << ": " << s.ToString() << "\n";
}

bool StderrIsTerminal() { return ::isatty(STDERR_FILENO) == 1; }

Result<std::vector<std::string>> ListRegionStoreFiles(const std::string& region_dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(region_dir, ec)) {
    return Status::NotFound(region_dir, "not a region directory");
  }
  std::vector<std::string> files;
  for (const auto& fam : fs::directory_iterator(region_dir, ec)) {
    const std::string name = fam.path().filename().string();
    if (!fam.is_directory() || name.empty() || name[0] == '.' || name == "recovered.edits") continue;
    for (const auto& f : fs::directory_iterator(fam.path(), ec)) {
      const std::string fname = f.path().filename().string();
      if (f.is_regular_file() && !fname.empty() && fname[0] != '.') files.push_back(f.path().string());
    }
  }
  if (ec) return Status::IOError(region_dir, ec.message());
  std::sort(files.begin(), files.end());
  return files;
}

Result<std::string> ParseBytesArg(const std::string& text, bool hex) {
  auto bytes = hex ? FromHex(text) : FromStringBinary(text);
  if (!bytes) {
    return Status::InvalidArgument(
        "cannot parse '" + text + "' as " + (hex ? "hex" : "bytes with \\xNN escapes"));
  }
  return *bytes;
}

}  // namespace hfile::cli
