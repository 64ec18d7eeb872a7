// VerifyRegionSet: `hfile verify --table/--region/--snapshot`: every store file through
// VerifyFile, plus what only the region level can see:
//
//   layout      names HBase rejects or skips, family dirs vs the descriptor, references and
//               links that do not resolve, .regioninfo present and matching its dir name,
//               recovered.edits HBase would replay (SummarizeRegionSet)
//   key ranges  every cell a store file contributes (a reference: its half) lies in the
//               region's [start, end); the first offender per file is named
//   families    every cell's family is the family dir's name (HFilePrettyPrinter
//               --checkfamily); the first offender and the count per file
//   leftovers   store files another file's COMPACTION_EVENT_KEY names (HBase does not read
//               them; the next compaction archives them): a warning each, bytes still verified
//   region map  live regions (not split/offline) tile the key space: no hole, no overlap;
//               split parents are covered by live regions
//   sequence    no two non-bulk-loaded files of a store share a sequence id; bulk-load names
//               agree with the file info; MAX_MEMSTORE_TS <= MAX_SEQ_ID
//   hbase:meta  (check_meta, a root with hbase:meta) meta's rows of the table against
//               its region dirs: a region in meta without a dir, a dir not in meta, meta's
//               RegionInfo differing from the dir's .regioninfo, holes and overlaps among
//               meta's live regions (meta_table.h; edits still in meta's WALs are not read)
#ifndef REGION_VERIFY_REGION_H_
#define REGION_VERIFY_REGION_H_

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "hfile/verify.h"
#include "region/describe.h"
#include "region/region_set.h"

namespace hfile::region {

struct RegionVerifyOptions {
  VerifyOptions file;  // for VerifyFile on each store file (and the readers' options)
  bool verify_files = true;
  bool check_key_ranges = true;
  bool check_families = true;  // reads every cell of every store file
  // Compare hbase:meta under the set's root with a table's region dirs (the tool: when the
  // table is named under --root; a bare table dir may be a copy that meta does not describe).
  bool check_meta = false;
};

struct RegionVerifyReport {
  std::string path;
  std::string table;  // "ns:name" when known
  RegionSet::Kind kind = RegionSet::Kind::kTable;
  std::vector<VerifyReport> files;      // one per distinct HFile read
  std::vector<LayoutProblem> problems;  // layout and region-level findings
  uint64_t errors = 0, warnings = 0;    // of `problems`
  uint64_t regions = 0, store_files = 0, cells_checked = 0;
  // The hbase:meta comparison (tables under a root with hbase:meta only).
  bool meta_checked = false;
  std::string meta_path;                // the meta region dir read
  uint64_t meta_regions = 0;            // the table's rows in hbase:meta
  std::vector<std::string> meta_wals;   // meta WALs with edits not read

  // No error-severity problem and every file clean.
  bool clean() const;
  // Exit-code class: corruption (a damaged file or an error finding) outranks unreadable.
  bool corrupt() const;
  bool unreadable() const;
};

RegionVerifyReport VerifyRegionSet(const RegionSet& set, const RegionVerifyOptions& options);

// Text: the files' reports (only unclean ones when `quiet`), the problems, one summary line.
// JSON: one object with "files" (VerifyFile's objects) and "problems".
void PrintRegionVerifyReport(const RegionVerifyReport& report, bool json, bool quiet,
                             std::ostream& out);

}  // namespace hfile::region

#endif  // REGION_VERIFY_REGION_H_
