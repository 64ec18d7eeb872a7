// DumpRegionSetCells: `hfile dump -p/-e --table/--region/--snapshot`: the cells of every
// region, each region's store files merged as HBase scans them (StoreFileReader halves and
// sequence ids, MergingIterator order across stores and families), regions in start-key
// order. Split parents are skipped (HBase serves their cells through the daughters).
#ifndef REGION_REGION_DUMP_H_
#define REGION_REGION_DUMP_H_

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "hfile/dump.h"
#include "hfile/status.h"
#include "region/region_set.h"

namespace hfile::region {

struct RegionDumpOptions {
  // print_cells / print_keys, json, byte_format, check_row_order, the row selection
  // (seek_row, from_row, to_row, prefix), limit (over the whole dump) and reader options.
  DumpOptions dump;
  // Families to read; empty: every family HBase reads (FamilyNames()).
  std::vector<std::string> families;
  bool include_split_parents = false;
};

struct RegionDumpResult {
  uint64_t regions = 0, store_files = 0, cells = 0;
  uint64_t order_violations = 0;  // found by check_row_order
};

// Prints a header per region ("region <enc> [start, end)", or a {"kind":"region"} JSON line)
// and its cells. InvalidArgument for a family the set does not have. Returns the first error
// that stopped the dump; what was printed up to then stays printed.
Status DumpRegionSetCells(const RegionSet& set, const RegionDumpOptions& options,
                          std::ostream& out, std::ostream& err, RegionDumpResult* result);

}  // namespace hfile::region

#endif  // REGION_REGION_DUMP_H_
