// Progress and StoreProgress (cmd/progress.h): what --progress prints when stderr is not a
// terminal (as under ctest), and what --quiet and --no-progress suppress.
#include "progress.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <sstream>
#include <string>

#include "cli_common.h"

namespace hfile::cli {
namespace {

// Every update prints a line (HFILE_PROGRESS_INTERVAL_MS=0) for the test's lifetime.
class ProgressTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // On a terminal the line is drawn in place instead: these are the batch-log lines.
    if (StderrIsTerminal()) GTEST_SKIP() << "stderr is a terminal; run under ctest";
    ::setenv("HFILE_PROGRESS_INTERVAL_MS", "0", 1);
  }
  void TearDown() override { ::unsetenv("HFILE_PROGRESS_INTERVAL_MS"); }
};

ProgressFlags Forced() {
  ProgressFlags f;
  f.progress = true;
  return f;
}

TEST_F(ProgressTest, PlainLinesWithPhaseBytesCellsAndLabel) {
  std::ostringstream err;
  Progress p(err, "hfile-x", Forced());
  ASSERT_TRUE(p.enabled());
  p.Phase("writing", 2000000, 0, "in.hfile");
  p.Update(500000, 1234);
  p.Phase("verifying output", 0, 5000, "out.hfile");
  p.Update(0, 2500);
  p.Clear();  // a plain line needs no erasing
  const std::string s = err.str();
  EXPECT_NE(s.find("hfile-x: writing 0% (0 B of 2.0 MB) in.hfile\n"), std::string::npos) << s;
  EXPECT_NE(s.find("hfile-x: writing 25% (500.0 KB of 2.0 MB, 1234 cells"), std::string::npos)
      << s;
  // Without bytes the fraction is by cells.
  EXPECT_NE(s.find("hfile-x: verifying output 50% (2500 of 5000 cells"), std::string::npos) << s;
  EXPECT_NE(s.find(") out.hfile\n"), std::string::npos) << s;
  EXPECT_EQ(s.find('\r'), std::string::npos) << "no terminal control in batch logs";
}

TEST_F(ProgressTest, NothingWithoutProgressQuietOrNoProgress) {
  for (ProgressFlags f : {ProgressFlags{}, ProgressFlags{true, true, false},
                          ProgressFlags{true, false, true}}) {
    std::ostringstream err;
    Progress p(err, "hfile-x", f);
    EXPECT_FALSE(p.enabled());
    p.Phase("writing", 100);
    p.Update(50, 5, "x");
    p.Clear();
    EXPECT_EQ(err.str(), "");
  }
}

TEST_F(ProgressTest, TheIntervalThinsTheLines) {
  ::setenv("HFILE_PROGRESS_INTERVAL_MS", "600000", 1);
  std::ostringstream err;
  Progress p(err, "hfile-x", Forced());
  p.Phase("writing", 100);  // the first line comes at once
  for (int i = 1; i <= 100; ++i) p.Update(i, i);
  p.Phase("verifying output", 100);  // within the interval: no line
  EXPECT_EQ(err.str(), "hfile-x: writing 0% (0 B of 100 B)\n");
}

TEST_F(ProgressTest, StoresAreWeighedByTheirBytes) {
  std::ostringstream err;
  Progress p(err, "hfile-compact", Forced());
  StoreProgress meter(p, "compacting");
  meter.AddStore("r1/f", 3000);
  meter.AddStore("r2/f", 1000);
  meter.Start();
  meter.OnStore("r1/f", 50, 100);   // half of 3000 of 4000 bytes
  meter.OnStore("r2/f", 100, 100);  // r1 done: all of it
  meter.OnVerify("r2/f", 40);
  const std::string s = err.str();
  EXPECT_NE(s.find("compacting 38% (1.5 KB of 4.0 KB, 50 cells"), std::string::npos) << s;
  EXPECT_NE(s.find("compacting 100% (4.0 KB of 4.0 KB, 150 cells"), std::string::npos) << s;
  EXPECT_NE(s.find("r2/f: verifying the output, 40 cells\n"), std::string::npos) << s;
}

TEST(NullStream, DropsEverything) {
  NullStream() << "x" << 42;
  EXPECT_TRUE(NullStream().bad() || !NullStream().good());
}

}  // namespace
}  // namespace hfile::cli
