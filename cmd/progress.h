// Progress of a long run across a whole table, on standard error when it is a terminal:
//
//   compacting 45% (120.0 of 260.0 MB, 35.2 MB/s, ETA 4 s) 0a1b.../f
//
// The writing tools report per store (label "<region>/<family>", cells read of the store's
// total); StoreProgress weighs each store by its input bytes so the line covers the whole run.
// Redrawn at most ten times a second.
#ifndef HFILE_CMD_PROGRESS_H_
#define HFILE_CMD_PROGRESS_H_

#include <chrono>
#include <cstdint>
#include <map>
#include <ostream>
#include <string>

namespace hfile::cli {

class StoreProgress {
 public:
  StoreProgress(std::ostream& err, std::string verb) : err_(err), verb_(std::move(verb)) {}
  // The bytes of one store's inputs, before the run.
  void AddStore(const std::string& label, uint64_t bytes);
  // The compaction's progress callback: `cells` of `total` read in store `label`.
  void OnStore(const std::string& label, uint64_t cells, uint64_t total);
  // Erases the line.
  void Clear();

 private:
  std::ostream& err_;
  std::string verb_;
  std::map<std::string, uint64_t> bytes_;
  uint64_t total_ = 0, finished_ = 0;  // bytes of the whole run, of the stores done
  std::string current_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now(), last_{};
  bool drawn_ = false;
};

}  // namespace hfile::cli

#endif  // HFILE_CMD_PROGRESS_H_
