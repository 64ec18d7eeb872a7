// TempPathFor / RemoveStaleTempFiles (hfile/temp_files.h).
#include "hfile/temp_files.h"

#include <dirent.h>
#include <fmt/format.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>

namespace hfile {

namespace {

std::pair<std::string, std::string> SplitPath(const std::string& path) {
  auto slash = path.rfind('/');
  if (slash == std::string::npos) return {".", path};
  return {slash == 0 ? "/" : path.substr(0, slash), path.substr(slash + 1)};
}

bool ProcessAlive(long pid) { return pid > 0 && (::kill(pid, 0) == 0 || errno == EPERM); }

// The pids in the ".tmp-<pid>" / ".rewrite-<pid>" suffixes after `rest`; empty unless `rest`
// is made of such suffixes only.
std::vector<long> SuffixPids(std::string_view rest) {
  std::vector<long> pids;
  while (!rest.empty()) {
    size_t n = 0;
    if (rest.starts_with(".tmp-")) n = 5;
    else if (rest.starts_with(".rewrite-")) n = 9;
    else return {};
    rest.remove_prefix(n);
    size_t d = 0;
    long pid = 0;
    while (d < rest.size() && rest[d] >= '0' && rest[d] <= '9' && d < 10)
      pid = pid * 10 + (rest[d++] - '0');
    if (d == 0) return {};
    pids.push_back(pid);
    rest.remove_prefix(d);
  }
  return pids;
}

}  // namespace

std::string TempPathFor(const std::string& path, const char* kind, long pid) {
  auto [dir, base] = SplitPath(path);
  return fmt::format("{}/.{}.{}-{}", dir, base, kind, pid);
}

Status RemoveStaleTempFiles(const std::string& path, std::vector<std::string>* removed) {
  auto [dir, base] = SplitPath(path);
  std::unique_ptr<DIR, int (*)(DIR*)> d(::opendir(dir.c_str()), ::closedir);
  if (!d) return Status::OK();  // no directory yet: nothing stale
  std::vector<std::string> stale;
  while (struct dirent* e = ::readdir(d.get())) {
    std::string_view name = e->d_name;
    // ".<base>" + suffixes, or "..<base>" + suffixes (a Writer's temp of a rewrite staging).
    for (std::string_view lead : {std::string_view("."), std::string_view("..")}) {
      if (!name.starts_with(lead) || name.size() <= lead.size() + base.size() ||
          name.substr(lead.size(), base.size()) != base)
        continue;
      std::vector<long> pids = SuffixPids(name.substr(lead.size() + base.size()));
      if (pids.empty()) continue;
      bool alive = false;
      for (long pid : pids) alive = alive || ProcessAlive(pid);
      if (!alive) stale.push_back(dir + "/" + std::string(name));
      break;
    }
  }
  for (const auto& p : stale) {
    if (::unlink(p.c_str()) != 0 && errno != ENOENT)
      return Status::IOError("cannot remove the stale temporary file " + p, std::strerror(errno));
    if (removed) removed->push_back(p);
  }
  return Status::OK();
}

}  // namespace hfile
