// Progress of long runs on standard error, the same in every tool:
//
//   rewriting 45% (120.0 of 260.0 MB, 1234567 cells, 35.2 MB/s, ETA 4 s) f1.hfile
//
// On a terminal the line is redrawn in place (at most ten times a second). --progress also
// prints it when stderr is not a terminal, as a plain line every few seconds (batch logs; the
// interval is HFILE_PROGRESS_INTERVAL_MS, 5000 by default, 0 for a line per update in tests).
// --quiet and --no-progress print none. Each phase (checking input, writing, comparing,
// verifying output ...) has its own rate and ETA.
#ifndef HFILE_CMD_PROGRESS_H_
#define HFILE_CMD_PROGRESS_H_

#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <ostream>
#include <string>
#include <utility>

namespace CLI {
class App;
}  // namespace CLI

namespace hfile::cli {

// The progress flags every long-running tool takes.
struct ProgressFlags {
  bool progress = false;     // --progress: also when stderr is not a terminal
  bool no_progress = false;  // --no-progress
  bool quiet = false;        // --quiet: nothing but errors (no progress, no text summary)
};
// Adds --progress and --no-progress, and -q/--quiet unless `add_quiet` is false (a tool with a
// --quiet of its own sets `quiet` itself).
void AddProgressFlags(CLI::App& app, ProgressFlags* flags, bool add_quiet = true);

// A stream that discards what is written (a --quiet tool's standard output).
std::ostream& NullStream();

class Progress {
 public:
  // Shows nothing unless `flags` and stderr allow it (see above).
  Progress(std::ostream& err, std::string tool, const ProgressFlags& flags);
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  bool enabled() const { return mode_ != Mode::kOff; }
  // Starts a phase: `total_bytes` and `total_cells` are what it will cover (0: unknown);
  // `label` names what it works on.
  void Phase(const std::string& name, uint64_t total_bytes, uint64_t total_cells = 0,
             const std::string& label = "");
  // The phase's work done so far; `label` names what is being worked on. Thread-safe.
  void Update(uint64_t bytes, uint64_t cells, const std::string& label = "");
  // Erases the terminal line (before other output on stderr, and at the end).
  void Clear();
  // What the phases count instead of "cells" (hfile-create: "regions", "family dirs").
  void SetUnit(std::string unit) { unit_ = std::move(unit); }

 private:
  enum class Mode { kOff, kTerminal, kLines };
  void Draw(std::chrono::steady_clock::time_point now);

  std::ostream& err_;
  const std::string tool_;
  Mode mode_ = Mode::kOff;
  std::chrono::milliseconds interval_{100};
  std::mutex mu_;
  std::string phase_, label_, unit_ = "cells";
  uint64_t total_bytes_ = 0, total_cells_ = 0, bytes_ = 0, cells_ = 0;
  std::chrono::steady_clock::time_point start_, last_{};
  bool drawn_ = false, printed_ = false;
};

// Progress across the stores of a whole table (compact, alter, copy-family): each store is
// weighed by its input bytes, so the line covers the whole run; the label is the store.
class StoreProgress {
 public:
  StoreProgress(Progress& progress, std::string verb) : p_(progress), verb_(std::move(verb)) {}
  // The bytes of one store's inputs, before the run.
  void AddStore(const std::string& label, uint64_t bytes);
  // Call once the stores are added.
  void Start() { p_.Phase(verb_, total_); }
  // The library's progress callback: `cells` of `total` read in store `label`.
  void OnStore(const std::string& label, uint64_t cells, uint64_t total);
  // The verification of store `label`'s output: `cells` read back so far.
  void OnVerify(const std::string& label, uint64_t cells);
  void Clear() { p_.Clear(); }

 private:
  Progress& p_;
  std::string verb_;
  std::map<std::string, uint64_t> bytes_;
  uint64_t total_ = 0, finished_ = 0, finished_cells_ = 0, last_cells_ = 0;
  std::string current_;
};

}  // namespace hfile::cli

#endif  // HFILE_CMD_PROGRESS_H_
