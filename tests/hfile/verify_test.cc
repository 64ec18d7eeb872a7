// VerifyFile on damaged files: precise reports.
#include "hfile/verify.h"

#include <gtest/gtest.h>

#include "corrupt_gen.h"
#include "test_hfile.h"
#include "testutil.h"

namespace hfile {
namespace {

// Regression: a data block that failed to read (e.g. a checksum error) was stepped over without
// consuming its data index entry, so every later block was reported as mismatching its index
// entry, and the cell totals as disagreeing with the file info: one flipped byte, ~18 errors.
TEST(Verify, UnreadableDataBlockCascadedIntoIndexMismatches) {
  const std::string intact = test::BuildTestHFile({});
  const std::string dir = test::NewTempDir("verify");
  for (const auto& d : test::MakeDefects(intact)) {
    if (d.name != "flip-sum-DATA") continue;
    const std::string path = dir + "/" + d.name;
    test::WriteFileOrDie(path, d.bytes);
    VerifyReport report = VerifyFile(path, VerifyOptions{});
    ASSERT_TRUE(report.open_status.ok());
    std::string all;
    for (const auto& p : report.problems) all += "\n  " + p.what;
    ASSERT_EQ(report.problem_count, 1u) << all;
    EXPECT_EQ(report.problems[0].offset, d.offset);
    EXPECT_EQ(report.problems[0].block, "DATA");
    EXPECT_NE(report.problems[0].what.find("checksum mismatch"), std::string::npos);
    EXPECT_EQ(report.warning_count, 1u) << all;  // totals not checked
    return;
  }
  FAIL() << "the generator made no flip-sum-DATA defect";
}

}  // namespace
}  // namespace hfile
