// Region names as HBase's tools take them ("t1,,1700000000000.ENCODED." or "hbase:meta,,1"),
// resolved to the region's directory under a root, as HFilePrettyPrinter's -r does.
#ifndef REGION_REGION_NAME_H_
#define REGION_REGION_NAME_H_

#include <string>

#include "hfile/status.h"
#include "region/table_name.h"

namespace hfile::region {

struct ParsedRegionName {
  TableName table;
  std::string encoded_name;
};

// Splits a region name: the table is everything before the first ','; the encoded name is the
// part between the last two '.' of a name that ends in '.' (HBase 0.90+), or 1588230740 for the
// first hbase:meta region's name, which carries none. InvalidArgument otherwise (older names are
// hashed with JenkinsHash by HBase, which no region written since 0.90 needs).
Result<ParsedRegionName> ParseRegionName(const std::string& name);

// <root>/data/<ns>/<table>/<encoded>: where HBase keeps that region (the directory need not
// exist).
Result<std::string> RegionDirForName(const std::string& root, const std::string& name);

}  // namespace hfile::region

#endif  // REGION_REGION_NAME_H_
