// What the compaction tests share: a fixed clock, planning + compacting in one call, and a
// compaction run in a child process that SIGKILLs itself at a chosen checkpoint.
#ifndef HFILE_TESTS_REGION_COMPACT_HARNESS_H_
#define HFILE_TESTS_REGION_COMPACT_HARNESS_H_

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <string>

#include "region/compact.h"

namespace hfile::region::compact_harness {

inline constexpr int64_t kNow = 1700000000000;

inline CompactOptions Opts(CompactRequest req = CompactRequest::kMajor) {
  CompactOptions o;
  o.request = req;
  o.now_ms = kNow;
  return o;
}

inline Status RunCompact(const std::string& path, const CompactOptions& o, CompactReport* rep) {
  auto plan = PlanCompaction(path, o);
  if (!plan.ok()) return plan.status();
  return Compact(*plan, o, rep);
}

// Runs Compact in a child that SIGKILLs itself at the `n`th checkpoint. True if it crashed;
// a child that ran to the end must have succeeded.
inline bool RunAndCrashAt(const std::string& path, int n) {
  pid_t pid = ::fork();
  if (pid == 0) {
    CompactOptions o = Opts();
    int count = 0;
    o.checkpoint = [&](const std::string&) {
      if (++count == n) ::raise(SIGKILL);
    };
    CompactReport rep;
    ::_exit(RunCompact(path, o, &rep).ok() ? 0 : 1);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (WIFEXITED(status)) {
    EXPECT_EQ(WEXITSTATUS(status), 0);
  }
  return WIFSIGNALED(status);
}

}  // namespace hfile::region::compact_harness

#endif  // HFILE_TESTS_REGION_COMPACT_HARNESS_H_
