// The offline compaction's journal, durable moves and recovery (see compact_internal.h and the
// commit protocol in region/compact.h).
#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <sstream>

#include "compact_internal.h"
#include "fs_util.h"

namespace hfile::region {

namespace fs = std::filesystem;

namespace {

std::string TmpDir(const std::string& region_dir) { return JoinPath(region_dir, ".tmp"); }

}  // namespace

std::vector<std::string> Journal::Replaced() const {
  std::vector<std::string> out = inputs;
  out.insert(out.end(), expired.begin(), expired.end());
  out.insert(out.end(), compacted.begin(), compacted.end());
  return out;
}

std::string JournalPath(const std::string& region_dir) {
  return JoinPath(TmpDir(region_dir), kJournalName);
}

Status WriteJournal(const std::string& region_dir, const Journal& j) {
  const std::string tmp = TmpDir(region_dir);
  std::error_code ec;
  bool created = fs::create_directories(tmp, ec);
  if (ec) return Status::IOError("cannot create " + tmp, ec.message());
  if (created) HFILE_RETURN_IF_ERROR(SyncDir(region_dir));
  std::string text = "hfile-compact journal 1\nfamily " + j.family + "\n";
  if (!j.output.empty()) text += "output " + j.output + "\n";
  for (const auto& n : j.inputs) text += "input " + n + "\n";
  for (const auto& n : j.expired) text += "expired " + n + "\n";
  for (const auto& n : j.compacted) text += "compacted " + n + "\n";
  text += "end\n";
  const std::string path = JournalPath(region_dir);
  Status s = WriteFileDurably(path + ".new", text);
  if (s.ok()) s = RenameFile(path + ".new", path);
  if (!s.ok()) {
    ::unlink((path + ".new").c_str());  // a failed write leaves no half journal behind
    return s;
  }
  return SyncDir(tmp);
}

Result<std::optional<Journal>> ReadJournal(const std::string& region_dir) {
  auto data = ReadWholeFile(JournalPath(region_dir));
  if (!data.ok()) {
    if (data.status().IsNotFound()) return std::optional<Journal>();
    return data.status();
  }
  std::istringstream in(*data);
  std::string line;
  Journal j;
  bool header = false, end = false;
  while (std::getline(in, line)) {
    if (!header) {
      if (line != "hfile-compact journal 1") break;
      header = true;
      continue;
    }
    auto sp = line.find(' ');
    std::string key = line.substr(0, sp), val = sp == std::string::npos ? "" : line.substr(sp + 1);
    if (key == "family") j.family = val;
    else if (key == "output") j.output = val;
    else if (key == "input") j.inputs.push_back(val);
    else if (key == "expired") j.expired.push_back(val);
    else if (key == "compacted") j.compacted.push_back(val);
    else if (key == "end") end = true;
  }
  if (!header || !end || j.family.empty())
    return Status::Corruption("unreadable hfile-compact journal", JournalPath(region_dir));
  return std::optional<Journal>(std::move(j));
}

Status RemoveJournal(const std::string& region_dir) {
  const std::string path = JournalPath(region_dir);
  if (::unlink(path.c_str()) != 0 && errno != ENOENT) return ErrnoStatus("cannot remove", path);
  return SyncDir(TmpDir(region_dir));
}

bool IsOwnTmpEntry(const std::string& name, const std::optional<Journal>& journal) {
  if (name == kJournalName || name == std::string(kJournalName) + ".new") return true;
  if (!journal || journal->output.empty()) return false;
  return name == journal->output || name.starts_with("." + journal->output + ".tmp-");
}

void DescribeRecovery(const std::string& region_dir, std::vector<std::string>* out) {
  auto j = ReadJournal(region_dir);
  if (!j.ok()) {
    out->push_back(j.status().ToString());
    return;
  }
  if (!*j) return;
  const Journal& jr = **j;
  const std::string family_dir = JoinPath(region_dir, jr.family);
  if (!jr.output.empty() && PathExists(JoinPath(family_dir, jr.output))) {
    size_t left = 0;
    for (const auto& n : jr.Replaced()) left += PathExists(JoinPath(family_dir, n));
    out->push_back(fmt::format(
        "interrupted run of family {}: output {} committed; finish by removing {} replaced "
        "file(s)", jr.family, jr.output, left));
  } else {
    out->push_back(fmt::format("interrupted run of family {}: output {} not committed; roll back",
                               jr.family, jr.output.empty() ? "(none)" : jr.output));
  }
}

Status RecoverRegion(const std::string& region_dir,
                     const std::function<Disposal(const std::string&)>& disposal_for,
                     const std::function<void(const std::string&)>& checkpoint,
                     std::vector<std::string>* log) {
  const std::string tmp = TmpDir(region_dir);
  ::unlink((JournalPath(region_dir) + ".new").c_str());  // torn journal write: nothing else done
  HFILE_ASSIGN_OR_RETURN(auto journal, ReadJournal(region_dir));
  if (!journal) return Status::OK();
  const Journal& j = *journal;
  const std::string family_dir = JoinPath(region_dir, j.family);
  const bool committed = !j.output.empty() && PathExists(JoinPath(family_dir, j.output));
  if (committed || j.output.empty()) {
    size_t n = 0;
    Disposal d = disposal_for(j.family);
    for (const auto& name : j.Replaced()) {
      if (!PathExists(JoinPath(family_dir, name))) continue;
      HFILE_RETURN_IF_ERROR(DisposeStoreFile(family_dir, name, d));
      ++n;
      if (checkpoint) checkpoint("recovery-disposed");
    }
    log->push_back(fmt::format("{}: finished an interrupted compaction of {} ({} replaced file(s) "
                               "{})", region_dir, j.family, n,
                               d.archive_dir.empty() ? "deleted" : "archived"));
  } else {
    auto entries = ListDir(tmp);
    if (entries.ok()) {
      for (const auto& e : *entries) {
        if (e.name == kJournalName || !IsOwnTmpEntry(e.name, journal)) continue;
        const std::string p = JoinPath(tmp, e.name);
        if (::unlink(p.c_str()) != 0 && errno != ENOENT) return ErrnoStatus("cannot remove", p);
      }
    }
    log->push_back(fmt::format("{}: rolled back an interrupted compaction of {} (output {} was "
                               "never committed; the old files are intact)",
                               region_dir, j.family, j.output));
  }
  HFILE_RETURN_IF_ERROR(RemoveJournal(region_dir));
  if (checkpoint) checkpoint("recovery-done");
  return Status::OK();
}

}  // namespace hfile::region
