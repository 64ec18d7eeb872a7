// DumpRegionSetCells: `hfile dump -p/-e --table/--region/--snapshot`: the cells of every
// region, each region's store files merged as HBase scans them (StoreFileReader halves and
// sequence ids, MergingIterator order across stores and families), regions in start-key
// order. Split parents are skipped (HBase serves their cells through the daughters).
//
// A row (-w), row range or prefix reads only what a region server would: the regions whose
// range holds the selection; in each store, the files whose key range (and, for one row, whose
// ROW/ROWPREFIX bloom) admits it, as StoreFileScanner.shouldUseScanner decides; each of them
// from an index seek to its first block, forward only while the index says rows can match.
// What that cost is counted per store (IoStats).
#ifndef REGION_REGION_DUMP_H_
#define REGION_REGION_DUMP_H_

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "hfile/dump.h"
#include "hfile/io_stats.h"
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

// What reading one store (region + family) cost.
struct StoreIoStats {
  std::string table;   // "ns:name" ("" when the set names none)
  std::string region;  // encoded name
  std::string family;
  uint64_t files = 0;          // store files HBase would open
  uint64_t files_opened = 0;   // of those, opened (the rest: unreadable)
  uint64_t skipped_range = 0;  // the file's key range misses the selection
  uint64_t skipped_bloom = 0;  // the file's bloom says the row is absent
  uint64_t files_read = 0;     // scanned
  IoStats io;                  // of every file opened
};

struct RegionDumpResult {
  uint64_t regions = 0, store_files = 0, cells = 0;
  uint64_t order_violations = 0;  // found by check_row_order
  std::vector<StoreIoStats> stores;  // in dump order
};

// `hfile dump --io-stats`: one line (text) or JSON record ("kind":"io_stats") per store, then
// a total ("kind":"io_stats_total") over `stores`.
void PrintIoStats(const std::vector<StoreIoStats>& stores, bool json, std::ostream& out);

// Prints a header per region ("region <enc> [start, end)", or a {"kind":"region"} JSON line)
// and its cells. InvalidArgument for a family the set does not have. Returns the first error
// that stopped the dump; what was printed up to then stays printed.
Status DumpRegionSetCells(const RegionSet& set, const RegionDumpOptions& options,
                          std::ostream& out, std::ostream& err, RegionDumpResult* result);

struct LocateResult {
  uint64_t regions = 0;         // regions whose range holds the row
  uint64_t files = 0;           // their store files (of the families asked)
  uint64_t files_may_hold = 0;  // of those, the ones a Get of the row reads
  uint64_t cells = 0;           // the row's cells in them (references: their half's)
};

// `hfile dump --locate ROW`: the region of `set` that holds `row` (split parents skipped),
// then each store file of each family (`options.families`, or every family): its key range
// and bloom's answer for a Get of the row, as StoreFileScanner.shouldUseScanner decides, and,
// for the files the Get reads, the data blocks the index sends it to and the row's cell count
// there. Text lines, or with options.dump.json "locate_region" and "locate_file" records.
// InvalidArgument for a family the set does not have; a file that cannot be opened is
// reported (on `err` and in its record) and the others still located.
Status LocateRow(const RegionSet& set, const std::string& row, const RegionDumpOptions& options,
                 std::ostream& out, std::ostream& err, LocateResult* result);

}  // namespace hfile::region

#endif  // REGION_REGION_DUMP_H_
