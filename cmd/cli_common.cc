#include "cli_common.h"

#include <unistd.h>

#include <ostream>

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

}  // namespace hfile::cli
