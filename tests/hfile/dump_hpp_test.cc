// The Java renderings `hfile dump --hpp` rebuilds (the whole output is checked against HBase's
// HFilePrettyPrinter by the hbase_hpp_output oracle test; these pin the tricky pieces without
// a JVM). Expected strings were printed by Java 17 (String.format("%2.2f", v)).
#include <gtest/gtest.h>

#include "dump_hpp.h"
#include "hfile/cell.h"

namespace hfile {
namespace {

TEST(DumpHpp, JavaFixedRoundsHalfUpOnTheShortestDecimal) {
  // C's printf rounds the binary value: 0.125 -> "0.12", 1.005 -> "1.00", 2.675 -> "2.67".
  EXPECT_EQ(hpp::JavaFixed(0.125, 2), "0.13");
  EXPECT_EQ(hpp::JavaFixed(1.005, 2), "1.01");
  EXPECT_EQ(hpp::JavaFixed(2.675, 2), "2.68");
  EXPECT_EQ(hpp::JavaFixed(22.375, 2), "22.38");
  EXPECT_EQ(hpp::JavaFixed(123456.785, 2), "123456.79");
  EXPECT_EQ(hpp::JavaFixed(0.995, 2), "1.00");
  EXPECT_EQ(hpp::JavaFixed(99.995, 2), "100.00");
  EXPECT_EQ(hpp::JavaFixed(1.0 / 3, 2), "0.33");
  EXPECT_EQ(hpp::JavaFixed(1e-7, 2), "0.00");
  EXPECT_EQ(hpp::JavaFixed(0.0, 2), "0.00");
  EXPECT_EQ(hpp::JavaFixed(10.5, 2), "10.50");
  EXPECT_EQ(hpp::JavaFixed(1268.0, 2), "1268.00");
}

TEST(DumpHpp, RuntimeComparatorIsWhatFixedFileTrailerResolves) {
  const std::string inner = "org.apache.hadoop.hbase.InnerStoreCellComparator";
  EXPECT_EQ(hpp::RuntimeComparatorClass("org.apache.hadoop.hbase.KeyValue$KVComparator"), inner);
  EXPECT_EQ(hpp::RuntimeComparatorClass("org.apache.hadoop.hbase.KeyValue$KeyComparator"), inner);
  EXPECT_EQ(hpp::RuntimeComparatorClass(""), inner);  // no name in the trailer: the default
  // Raw bytes: HBase keeps no comparator and its trailer keeps the default name.
  EXPECT_EQ(hpp::RuntimeComparatorClass("org.apache.hadoop.hbase.util.Bytes$ByteArrayComparator"),
            inner);
  EXPECT_EQ(hpp::RuntimeComparatorClass("org.apache.hadoop.hbase.KeyValue$MetaComparator"),
            "org.apache.hadoop.hbase.MetaCellComparator");
  EXPECT_EQ(hpp::RuntimeComparatorClass("org.apache.hadoop.hbase.CellComparatorImpl"),
            "org.apache.hadoop.hbase.CellComparatorImpl");
}

TEST(DumpHpp, KeyStringsAsKeyOnlyKeyValueAndGetCellKeyAsString) {
  std::string key;
  AppendKey(&key, "r\x01", "f", "q", INT64_MAX, 4);
  EXPECT_EQ(hpp::KeyOnlyString(key), "r\\x01/f:q/LATEST_TIMESTAMP/Put/vlen=0/mvcc=0");
  EXPECT_EQ(hpp::CellKeyString(key), "r\\x01/f:q/LATEST_TIMESTAMP/Put/seqid=0");
  std::string no_family;
  AppendKey(&no_family, "row", "", "", 5, 14);
  EXPECT_EQ(hpp::CellKeyString(no_family), "row//5/DeleteFamily/seqid=0");
  EXPECT_EQ(hpp::KeyOnlyString(""), "empty");
}

}  // namespace
}  // namespace hfile
