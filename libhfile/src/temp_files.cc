// TempPathFor / RemoveStaleTempFiles (hfile/temp_files.h).
#include "hfile/temp_files.h"

#include <dirent.h>
#include <fmt/format.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <algorithm>
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

namespace {

bool IsStoreFileName(std::string_view n) {
  if (n.size() != 32) return false;
  for (char c : n)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

// Removes the temp files in `dir` whose final name satisfies `wanted` and whose pids are gone.
template <typename Wanted>
Status RemoveStale(const std::string& dir, const Wanted& wanted,
                   std::vector<std::string>* removed) {
  std::unique_ptr<DIR, int (*)(DIR*)> d(::opendir(dir.c_str()), ::closedir);
  if (!d) return Status::OK();  // no directory yet: nothing stale
  std::vector<std::string> stale;
  while (struct dirent* e = ::readdir(d.get())) {
    std::string_view name = e->d_name;
    // ".<final>" + suffixes, or "..<final>" + suffixes (a Writer's temp of a rewrite staging).
    for (std::string_view lead : {std::string_view(".."), std::string_view(".")}) {
      if (!name.starts_with(lead)) continue;
      std::string_view rest = name.substr(lead.size());
      size_t cut = rest.find(".tmp-");
      cut = std::min(cut, rest.find(".rewrite-"));
      if (cut == std::string_view::npos || cut == 0 || !wanted(rest.substr(0, cut))) continue;
      std::vector<long> pids = SuffixPids(rest.substr(cut));
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

}  // namespace

Status RemoveStaleTempFiles(const std::string& path, std::vector<std::string>* removed) {
  auto [dir, base] = SplitPath(path);
  return RemoveStale(dir, [&base](std::string_view n) { return n == base; }, removed);
}

Status RemoveStaleStoreFileTemps(const std::string& dir, std::vector<std::string>* removed) {
  return RemoveStale(dir, IsStoreFileName, removed);
}

}  // namespace hfile
