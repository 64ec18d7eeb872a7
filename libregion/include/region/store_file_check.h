// Does a store file belong where it lies? Every cell HBase reads from a store must be of that
// store's family, and every cell a region serves must lie in the region's key range.
//
// A store file copied into the wrong family dir (or a region dir it was not cut for) opens
// fine: HBase does not look at the cells' families or rows when it opens a store. It then
// serves the cells under a family it is not scanning for, or outside the region, and a
// compaction merges them into the store's output, making the damage permanent. HBase's
// HFilePrettyPrinter -a/--checkfamily flags the first case (each cell's family against the
// file's parent dir name); verify's key-range check the second.
//
//   verify (--region/--table/--snapshot)  CheckStoreFileCells on every store file, reported
//   writing tools (compact, ...)          CheckStoreFileBelongs on every input: refuse on error
#ifndef REGION_STORE_FILE_CHECK_H_
#define REGION_STORE_FILE_CHECK_H_

#include <cstdint>
#include <optional>
#include <string>

#include "hfile/status.h"
#include "region/region_info.h"
#include "region/store_file_reader.h"

namespace hfile::region {

// Whether `row` lies in [start, end) in the order of `kind` (empty start or end: unbounded). The
// one rule for "inside the region" (verify, and the writing tools' streaming input guard).
bool RowInKeyRange(ComparatorKind kind, const Slice& row, const Slice& start, const Slice& end);

struct StoreFileExpectation {
  // The family every cell must have (the family dir's name); nullopt: not checked.
  std::optional<std::string> family;
  // The key range every cell's row must lie in ([start_key, end_key), empty = unbounded);
  // nullptr: not checked. Must outlive the call.
  const RegionInfo* region = nullptr;
};

struct StoreFileCellCheck {
  // Cells read. 0 when no scan was needed: with only the range asked, a plain HFile whose
  // first and last keys lie in the range is settled by them (VerifyFile checks the order).
  uint64_t cells = 0;
  uint64_t wrong_family = 0;        // cells whose family is not `family`
  std::string first_wrong_family;   // the first such cell's key, "row/family:qualifier/ts/Type"
  uint64_t outside_range = 0;       // cells whose row is outside the region
  std::string first_outside_row;    // the first such cell's row (raw bytes)

  bool ok() const { return wrong_family == 0 && outside_range == 0; }
};

// The per-cell part of CheckStoreFileCells, for a caller that already streams the cells (a
// region verify checks them during VerifyFile's own walk, reading each file once).
class StoreFileCellChecker {
 public:
  StoreFileCellChecker(ComparatorKind kind, const StoreFileExpectation& expect)
      : kind_(kind), expect_(expect) {}
  void Add(const Cell& c);
  const StoreFileCellCheck& result() const { return out_; }

 private:
  ComparatorKind kind_;
  StoreFileExpectation expect_;
  StoreFileCellCheck out_;
};

// Reads the cells `file` contributes (for a reference, its half) and counts the ones that
// break `expect`. Files in raw-bytes order (no KeyValue keys) and malformed keys are not
// judged (VerifyFile reports those). Returns the scan's read error, if any.
Result<StoreFileCellCheck> CheckStoreFileCells(const StoreFileReader& file,
                                               const StoreFileExpectation& expect);

// One-line descriptions of a failed check, as verify prints them and as CheckStoreFileBelongs
// puts them in its Status. Empty when that part of the check passed.
std::string DescribeWrongFamily(const StoreFileCellCheck& check, const std::string& family);
std::string DescribeOutsideRange(const StoreFileCellCheck& check, const StoreFile& file,
                                 const RegionInfo& region);

// For writing tools: OK when every cell of `file` is of family `family` and (when `region` is
// given) inside its key range. Otherwise Corruption (the store is damaged: a file that does
// not belong to it) naming the file (its entry path), the first offending cell and the count,
// so the tool refuses the input before writing anything; a read error is returned as is.
//
//   HFILE_ASSIGN_OR_RETURN(auto sr, StoreFileReader::Open(entry));
//   HFILE_RETURN_IF_ERROR(CheckStoreFileBelongs(*sr, family_dir_name, &region_info));
Status CheckStoreFileBelongs(const StoreFileReader& file, const std::string& family,
                             const RegionInfo* region = nullptr);

}  // namespace hfile::region

#endif  // REGION_STORE_FILE_CHECK_H_
