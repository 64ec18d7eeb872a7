// DescribeRegionSet: what `hfile dump --table/--region/--snapshot` prints without -p/-e: the
// table, its descriptor as the shell's `describe` prints it, every region with its key range,
// per family the store files (count, bytes, cells from the trailers, sequence-id range,
// reference/link/bulk-load counts) and the layout problems HBase would trip over.
#ifndef REGION_DESCRIBE_H_
#define REGION_DESCRIBE_H_

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "hfile/reader.h"
#include "hfile/status.h"
#include "region/region_set.h"

namespace hfile::region {

// A finding about the layout (not about the bytes of one HFile).
struct LayoutProblem {
  enum class Severity : uint8_t { kError, kWarning, kInfo };
  Severity severity = Severity::kError;
  std::string region;  // encoded name, empty for table-level findings
  std::string family;
  std::string file;    // a store-file name or path, when about one file
  std::string what;
  bool unreadable = false;  // the file could not be opened (not a finding about its bytes)
  std::string finding = {};  // a stable name for the kind of finding, when it has one
  const char* code = "";     // its layout_code (region/layout_codes.h)
};
std::string_view LayoutSeverityName(LayoutProblem::Severity s);  // "error" "warning" "info"

struct FamilySummary {
  std::string name;
  bool in_descriptor = true;
  uint64_t store_files = 0, references = 0, links = 0, bulk_loaded = 0, unreadable = 0;
  uint64_t compacted_away = 0;  // leftovers HBase does not read (not in the other counts)
  uint64_t bytes = 0;  // sizes of the HFiles read (targets of links and references)
  uint64_t cells = 0;  // trailer entry counts (a reference counts its whole parent file)
  int64_t min_sequence_id = -1, max_sequence_id = -1;  // -1: none known
  std::vector<std::string> hfile_versions;             // distinct "v3.3", ...
};

struct RegionSummary {
  std::string encoded_name;
  std::string path;
  bool has_info = false;
  RegionInfo info;
  bool split_parent = false;  // offline or split in .regioninfo
  std::vector<FamilySummary> families;
};

struct RegionSetSummary {
  std::vector<RegionSummary> regions;
  std::vector<LayoutProblem> problems;
  uint64_t store_files = 0, bytes = 0, cells = 0;
};

struct DescribeOptions {
  bool json = false;
  bool hex = false;  // keys as hex instead of \xNN escapes
  // Text only: leave out the header and the descriptor (`hfile describe` prints those itself, as
  // the shell does), start at the region count.
  bool regions_only = false;
  ReaderOptions reader;
};

// Opens every store file's trailer and file info, and collects the layout problems (stray and
// invalid names, unresolved references and links, family dirs vs the descriptor, missing or
// mismatched .regioninfo, recovered.edits HBase would replay, HFile versions HBase 2 cannot
// open, files it cannot read, compacted-away leftovers (a warning each), and, with
// `check_family_bounds`, files whose first or last key is of another family than their dir
// (an error; VerifyRegionSet reads every cell instead and passes false).
// `on_file`, when set, is called after each store file with the count done and the total (for a
// progress line: a table of many regions opens thousands of files).
RegionSetSummary SummarizeRegionSet(
    const RegionSet& set, const ReaderOptions& options = {}, bool check_family_bounds = true,
    const std::function<void(uint64_t done, uint64_t total)>& on_file = {});

// Prints the summary (text, or one JSON object).
void DescribeRegionSet(const RegionSet& set, const RegionSetSummary& summary,
                       const DescribeOptions& options, std::ostream& out);

}  // namespace hfile::region

#endif  // REGION_DESCRIBE_H_
