// Private pieces of the offline compaction shared by compact_plan.cc and compact_run.cc: the
// journal, recovery of an interrupted run, durable file moves.
//
// Journal: <region>/.tmp/hfile-compact.journal, written as .new + fsync + rename, text lines:
//   hfile-compact journal 1
//   family <name>
//   output <store file name>          (absent when the step writes no file)
//   input <name>      (one per compacted file)
//   expired <name>    (one per whole-file-expired file)
//   compacted <name>  (one per file already named in another file's COMPACTION_EVENT_KEY)
#ifndef REGION_SRC_COMPACT_INTERNAL_H_
#define REGION_SRC_COMPACT_INTERNAL_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "fs_util.h"
#include "hfile/status.h"

namespace hfile::region {

inline constexpr char kJournalName[] = "hfile-compact.journal";

struct Journal {
  std::string family;
  std::string output;
  std::vector<std::string> inputs, expired, compacted;

  std::vector<std::string> Replaced() const;  // inputs + expired + compacted
};

std::string JournalPath(const std::string& region_dir);
// Writes the journal durably (temp + fsync + rename + directory fsync), creating .tmp/.
Status WriteJournal(const std::string& region_dir, const Journal& j);
// nullopt when there is no journal; Corruption when it does not parse.
Result<std::optional<Journal>> ReadJournal(const std::string& region_dir);
Status RemoveJournal(const std::string& region_dir);

// True for .tmp/ entries an interrupted hfile-compact leaves (the journal, its .new, and the
// journal's output and the writer's temporary file for it).
bool IsOwnTmpEntry(const std::string& name, const std::optional<Journal>& journal);

// Lines describing what finishing an interrupted run of this region would do (empty: none).
void DescribeRecovery(const std::string& region_dir, std::vector<std::string>* out);

// Where replaced files go: Disposal / DisposeStoreFile (fs_util.h).

// Finishes (output committed) or rolls back (not committed) an interrupted run described by the
// journal. `archive_dir_for(family)` gives the Disposal; `checkpoint` is the test hook.
Status RecoverRegion(const std::string& region_dir,
                     const std::function<Disposal(const std::string&)>& disposal_for,
                     const std::function<void(const std::string&)>& checkpoint,
                     std::vector<std::string>* log);

int64_t NowMs();

}  // namespace hfile::region

#endif  // REGION_SRC_COMPACT_INTERNAL_H_
