// CheckStoreFileCells / CheckStoreFileBelongs, and verify/describe on a store file placed in
// another family's dir (HFilePrettyPrinter --checkfamily semantics) or outside its region.
#include "region/store_file_check.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "region/describe.h"
#include "region/layout.h"
#include "region/region_set.h"
#include "region/verify_region.h"
#include "store_fixture.h"
#include "testutil.h"

namespace hfile::region {
namespace {

namespace fs = std::filesystem;
using store_fixture::Put;
using store_fixture::Table;
using store_fixture::WriteStoreFile;

constexpr char kGood[] = "1111000000000000000000000000000a";
constexpr char kStray[] = "2222000000000000000000000000000b";  // family d, in x's dir
constexpr char kMixed[] = "3333000000000000000000000000000c";  // x, then d, then x

std::unique_ptr<StoreFileReader> OpenEntry(const std::string& path) {
  StoreFile sf;
  sf.path = sf.target_path = path;
  sf.name.name = fs::path(path).filename().string();
  auto r = StoreFileReader::Open(sf);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? std::move(*r) : nullptr;
}

TEST(CheckStoreFileCells, FamilyAndRange) {
  Table t("store-file-check", {"x"}, "b", "m");
  const std::string dir = t.Family("x");
  WriteStoreFile(dir + kGood, {Put("b", "x", "q", 1), Put("c", "x", "q", 2)}, 2);
  WriteStoreFile(dir + kStray, {Put("c", "d", "q", 1), Put("d", "d", "q", 1),
                                Put("z", "d", "q", 1)}, 1);
  auto good = OpenEntry(dir + kGood), stray = OpenEntry(dir + kStray);
  ASSERT_TRUE(good && stray);

  EXPECT_TRUE(CheckStoreFileBelongs(*good, "x", &t.info).ok());
  auto c = CheckStoreFileCells(*good, StoreFileExpectation{"x", &t.info});
  ASSERT_TRUE(c.ok());
  EXPECT_TRUE(c->ok());
  EXPECT_EQ(c->cells, 2u);
  // The range alone is settled by a plain file's first and last keys.
  c = CheckStoreFileCells(*good, StoreFileExpectation{std::nullopt, &t.info});
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->cells, 0u);

  c = CheckStoreFileCells(*stray, StoreFileExpectation{"x", &t.info});
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->cells, 3u);
  EXPECT_EQ(c->wrong_family, 3u);
  EXPECT_EQ(c->first_wrong_family, "c/d:q/100/Put");
  EXPECT_EQ(c->outside_range, 1u);
  EXPECT_EQ(c->first_outside_row, "z");
  Status s = CheckStoreFileBelongs(*stray, "x", &t.info);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(s.ToString().find(dir + kStray), std::string::npos) << s.ToString();
  EXPECT_NE(s.ToString().find("3 of 3 cells are not of family 'x'"), std::string::npos)
      << s.ToString();
  EXPECT_NE(s.ToString().find("first c/d:q/100/Put"), std::string::npos) << s.ToString();
  EXPECT_NE(s.ToString().find("1 of 3 cells lie outside the region's key range ['b', 'm'); "
                              "first row 'z'"), std::string::npos) << s.ToString();
  // Family only: the rows are not judged.
  s = CheckStoreFileBelongs(*stray, "d");
  EXPECT_TRUE(s.ok()) << s.ToString();
}

TEST(VerifyRegion, StoreFileOfAnotherFamily) {
  Table t("store-file-family", {"x", "d"});
  WriteStoreFile(t.Family("x") + kGood, {Put("a", "x", "q", 1)}, 1);
  WriteStoreFile(t.Family("x") + kStray, {Put("b", "d", "q", 2), Put("c", "d", "q", 2)}, 2);
  // First and last keys of family x hide the d cell in the middle from describe's bounds check.
  WriteStoreFile(t.Family("d") + kMixed, {Put("a", "d", "q", 3), Put("b", "x", "q", 3),
                                          Put("c", "d", "q", 3)}, 3);
  auto set = OpenRegionDirRegions(t.region_dir);
  ASSERT_TRUE(set.ok()) << set.status().ToString();

  RegionVerifyReport v = VerifyRegionSet(*set, {});
  std::ostringstream out;
  PrintRegionVerifyReport(v, false, true, out);
  const std::string s = out.str();
  EXPECT_TRUE(v.corrupt()) << s;
  EXPECT_EQ(v.errors, 2u) << s;
  EXPECT_NE(s.find(std::string("x/") + kStray + ": 2 of 2 cells are not of family 'x'"),
            std::string::npos) << s;
  EXPECT_NE(s.find("first b/d:q/100/Put"), std::string::npos) << s;
  EXPECT_NE(s.find(std::string("d/") + kMixed + ": 1 of 3 cells are not of family 'd'"),
            std::string::npos) << s;
  EXPECT_NE(s.find("first b/x:q/100/Put"), std::string::npos) << s;

  RegionVerifyOptions no_family;
  no_family.check_families = false;
  RegionVerifyReport v2 = VerifyRegionSet(*set, no_family);
  // The summary's bounds check still sees the stray file, not the mixed one.
  EXPECT_EQ(v2.errors, 1u);

  RegionSetSummary sum = SummarizeRegionSet(*set);
  std::ostringstream text;
  DescribeRegionSet(*set, sum, {}, text);
  EXPECT_NE(text.str().find(std::string("x/") + kStray + ": holds cells of family 'd' (key "
                            "b/d:q/100/Put) in the dir of family 'x'"),
            std::string::npos) << text.str();
  size_t errors = 0;
  for (const auto& p : sum.problems) errors += p.severity == LayoutProblem::Severity::kError;
  EXPECT_EQ(errors, 1u) << text.str();
}

TEST(VerifyRegion, CleanStoresHaveNoFamilyFindings) {
  Table t("store-file-family-clean", {"x"});
  WriteStoreFile(t.Family("x") + kGood, {Put("a", "x", "q", 1), Put("b", "x", "q", 1)}, 1);
  auto set = OpenTableRegions(t.table_dir);
  ASSERT_TRUE(set.ok()) << set.status().ToString();
  RegionVerifyReport v = VerifyRegionSet(*set, {});
  std::ostringstream out;
  PrintRegionVerifyReport(v, false, false, out);
  EXPECT_TRUE(v.clean()) << out.str();
  EXPECT_EQ(v.errors, 0u) << out.str();
  EXPECT_EQ(v.cells_checked, 2u);
}

}  // namespace
}  // namespace hfile::region
