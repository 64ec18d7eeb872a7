// BackgroundChecks: the checks a writing tool can run on the second core while it goes on
// writing (an input's full verification, the verification of an output already finished), one
// after another on one worker thread. The tool commits nothing before Wait() has returned OK, so
// a check that fails still fails the tool before anything is committed, and the tool removes
// what it staged, as when the check ran first.
//
//   BackgroundChecks checks;
//   checks.Add([path] { return VerifyInput(path); });
//   ... write the outputs ...
//   HFILE_RETURN_IF_ERROR(checks.Wait());   // only then commit
//
// A check holds what it reads (a few blocks), never data-size buffers.
#ifndef REGION_SRC_BACKGROUND_CHECKS_H_
#define REGION_SRC_BACKGROUND_CHECKS_H_

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

#include "hfile/status.h"

namespace hfile::region {

class BackgroundChecks {
 public:
  using Check = std::function<Status()>;

  BackgroundChecks() = default;
  // Abandon(), then the worker ends.
  ~BackgroundChecks();
  BackgroundChecks(const BackgroundChecks&) = delete;
  BackgroundChecks& operator=(const BackgroundChecks&) = delete;

  // Queues `check` after those already queued; the worker starts with the first. Once a check
  // has failed, the later ones are not run (the tool fails anyway). With ToolThreads() == 1
  // (region/tool_threads.h) there is no worker: `check` runs here, before Add returns.
  void Add(Check check);
  // True once a check has failed: the caller may stop early (Wait() says why).
  bool failed() const;
  // Waits until every queued check has run; the first failure, or OK.
  Status Wait();
  // Drops the checks not started and waits for the one running (what it reads may then be
  // removed). Wait() afterwards returns what had failed, or OK.
  void Abandon();

 private:
  void Run();

  mutable std::mutex mu_;
  std::condition_variable work_;  // a check queued, or stopping (the worker waits on it)
  std::condition_variable idle_;  // the queue drained and nothing running (Wait waits on it)
  std::deque<Check> queue_;
  bool running_ = false;  // the worker is inside a check
  bool stop_ = false;
  Status error_;          // the first failure
  std::thread thread_;
};

}  // namespace hfile::region

#endif  // REGION_SRC_BACKGROUND_CHECKS_H_
