// Region names resolved as HFilePrettyPrinter's -r resolves them (HRegionInfo.parseRegionName
// and encodeRegionName).
#include <gtest/gtest.h>

#include "region/region_name.h"

namespace hfile::region {
namespace {

TEST(RegionName, EncodedNameIsBetweenTheLastTwoDots) {
  auto p = ParseRegionName(
      "ns1:t1,row\\x00.with.dots,1700000000000.0b5e5c0ea5d6bd6f1fb2ed3d2c91b6d8.");
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_EQ(p->table.namespace_name, "ns1");
  EXPECT_EQ(p->table.qualifier, "t1");
  EXPECT_EQ(p->encoded_name, "0b5e5c0ea5d6bd6f1fb2ed3d2c91b6d8");
  auto d = ParseRegionName("t1,,1.abc.");
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->table.namespace_name, "default");
  EXPECT_EQ(d->encoded_name, "abc");
}

TEST(RegionName, FirstMetaRegionHasTheFixedEncodedName) {
  auto p = ParseRegionName("hbase:meta,,1");
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->encoded_name, "1588230740");
}

TEST(RegionName, RefusesNamesWithoutTableOrEncodedName) {
  EXPECT_TRUE(ParseRegionName("t1").status().IsInvalidArgument());
  EXPECT_TRUE(ParseRegionName(",,1.abc.").status().IsInvalidArgument());
  EXPECT_TRUE(ParseRegionName("t1,,1").status().IsInvalidArgument());
}

}  // namespace
}  // namespace hfile::region
