#include "region/store_file_check.h"

#include <fmt/format.h>

#include "hfile/escape.h"
#include "hfile/file_info.h"

namespace hfile::region {

namespace {

std::string Quote(const Slice& b) { return "'" + ToStringBinary(b) + "'"; }

bool RowInRegion(ComparatorKind kind, const Slice& row, const RegionInfo& info) {
  return RowInKeyRange(kind, row, info.start_key, info.end_key);
}

}  // namespace

bool RowInKeyRange(ComparatorKind kind, const Slice& row, const Slice& start, const Slice& end) {
  if (!start.empty() && CompareRows(kind, row, start) < 0) return false;
  if (!end.empty() && CompareRows(kind, row, end) >= 0) return false;
  return true;
}

Result<StoreFileCellCheck> CheckStoreFileCells(const StoreFileReader& sr,
                                               const StoreFileExpectation& expect) {
  StoreFileCellCheck out;
  const Reader& reader = sr.hfile();
  const ComparatorKind kind = reader.comparator();
  if (kind == ComparatorKind::kRawBytes || (!expect.family && !expect.region)) return out;
  if (!expect.family && !sr.file().reference) {
    // The file's own first and last keys bracket its cells.
    auto first = reader.first_key(), last = reader.last_key();
    if (!first || !last) return out;  // no cells
    if (IsValidKey(*first) && IsValidKey(*last) &&
        RowInRegion(kind, KeyRow(*first), *expect.region) &&
        RowInRegion(kind, KeyRow(*last), *expect.region))
      return out;
  }
  StoreFileCellChecker checker(kind, expect);
  auto it = sr.NewIterator();
  for (it->SeekToFirst(); it->Valid(); it->Next()) checker.Add(it->cell());
  if (!it->status().ok()) return it->status();
  return checker.result();
}

void StoreFileCellChecker::Add(const Cell& c) {
  ++out_.cells;
  if (kind_ == ComparatorKind::kRawBytes || !IsValidKey(c.key)) return;
  if (expect_.family && c.family() != Slice(*expect_.family) && out_.wrong_family++ == 0)
    out_.first_wrong_family = DescribeKey(c.key, kind_);
  if (expect_.region && !RowInRegion(kind_, c.row(), *expect_.region) &&
      out_.outside_range++ == 0)
    out_.first_outside_row = c.row().ToString();
}

std::string DescribeWrongFamily(const StoreFileCellCheck& check, const std::string& family) {
  if (check.wrong_family == 0) return "";
  return fmt::format(
      "{} of {} cells are not of family {}, the family dir they lie in (HBase scans this "
      "store for {} only; HFilePrettyPrinter --checkfamily flags them); first {}",
      check.wrong_family, check.cells, Quote(family), Quote(family), check.first_wrong_family);
}

std::string DescribeOutsideRange(const StoreFileCellCheck& check, const StoreFile& file,
                                 const RegionInfo& region) {
  if (check.outside_range == 0) return "";
  std::string half =
      file.reference ? (file.reference->top() ? " (its TOP half)" : " (its BOTTOM half)") : "";
  return fmt::format("{} of {} cells{} lie outside the region's key range [{}, {}); first row {}",
                     check.outside_range, check.cells, half, Quote(region.start_key),
                     Quote(region.end_key), Quote(check.first_outside_row));
}

Status CheckStoreFileBelongs(const StoreFileReader& sr, const std::string& family,
                             const RegionInfo* region) {
  HFILE_ASSIGN_OR_RETURN(StoreFileCellCheck c,
                         CheckStoreFileCells(sr, StoreFileExpectation{family, region}));
  if (c.ok()) return Status::OK();
  std::string what = DescribeWrongFamily(c, family);
  if (region) {
    std::string range = DescribeOutsideRange(c, sr.file(), *region);
    if (!range.empty()) what += (what.empty() ? "" : "; ") + range;
  }
  return Status::Corruption(sr.file().path, what);
}

}  // namespace hfile::region
