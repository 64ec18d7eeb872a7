// The row HBase would split a region at when no split row is given (REGION_LAYOUT §5.2), and
// what each family would hold on either side of a split row.
//
//   auto sp = ComputeSplitPoint(root_dir, region_dir, options);   // Result<RegionSplitPoint>
//   if (sp->split_row) ... sp->families[i].below / .above
//
// HBase's choice, step by step (HRegion.checkSplit, RegionSplitPolicy.getSplitPoint,
// HStore.getSplitPoint, StoreUtils.getSplitPoint / getLargestFile / getFileSplitPoint, HBase
// 2.6.4):
//   * not at all for hbase:meta, nor when any store has a Reference (RegionSplitPolicy.canSplit;
//     a store with references also returns no split point itself);
//   * per store: its largest file by the length HBase's reader reports (a link: the target's;
//     ties: the first in StoreFileComparators.SEQ_ID order); that file's mid key
//     (Reader::MidKey, HFileReaderImpl.midKey); none for an empty file, or when the mid key's
//     row equals the row of the file's first key (root index entry 0) or of hfile.LASTKEY;
//     else the mid key's row;
//   * over the stores in family-name order: the split point of the store with the largest size
//     (HStore.getSize = the sum of its files' reader lengths) among those with one; a store
//     replaces the current choice only when strictly larger, and the first candidate must be
//     larger than 0;
//   * the table's split restriction (KeyPrefix / DelimitedKeyPrefix, from the descriptor's
//     values) trims a non-empty row; the row must then lie inside the region (HRegion.checkRow)
//     and must not be its start key (SplitTableRegionProcedure).
// The mid key is an index key: for every block but the first a shortened separator between
// two blocks' keys, so the split row need not be a row of the file.
//
// Sides (options.count_sides): every store file is read as the region reads it (a Reference
// gives its half, a link its target) and each cell counted below the split row when its key
// sorts before first-on-row(split row) under the file's comparator (daughter A's half), above
// otherwise (daughter B's) — exactly what the daughters' halves would hold, at the cost of one
// read of every store file. Bytes are plain KeyValue sizes (hfile::KeyValueSize), and
// `file_bytes_*` the family's file lengths shared out in proportion to them.
#ifndef REGION_SPLIT_POINT_H_
#define REGION_SPLIT_POINT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "hfile/reader.h"
#include "hfile/status.h"
#include "region/table_descriptor.h"

namespace hfile::region {

struct SplitPointOptions {
  ReaderOptions reader;
  // A split row given by the user: HBase takes it instead of its own choice (still trimmed by
  // the split restriction and checked against the region). The per-store mid keys are still
  // reported.
  std::optional<std::string> split_row;
  // Count every family's cells and bytes on each side of `sides_row` (reads every store file
  // once). Without it, or without a row, `below`/`above` stay zero.
  bool count_sides = true;
  // The descriptor to take the split restriction and the families from; nullptr: the newest
  // .tableinfo of the region's table dir (the region's parent), when readable.
  const TableDescriptor* descriptor = nullptr;
  // hbase-site.xml's split restriction, used when the descriptor has none
  // (hbase.regionserver.region.split_restriction.{type,prefix_length,delimiter}).
  std::optional<std::string> restriction_type;
  std::optional<std::string> restriction_prefix_length;
  std::optional<std::string> restriction_delimiter;
};

// Cells on one side of the split row.
struct SplitSide {
  uint64_t cells = 0;
  uint64_t kv_bytes = 0;    // sum of plain KeyValue sizes
  uint64_t file_bytes = 0;  // the family's file lengths in proportion to kv_bytes
};

// One store file as the split-point choice sees it.
struct SplitFileInfo {
  std::string path;             // the entry in the family dir
  uint64_t length = 0;          // what HBase's reader reports (a link: the target's length)
  bool reference = false;
  int64_t sequence_id = -1;     // for the SEQ_ID order
  std::optional<std::string> mid_key;  // full key (Reader::MidKey), not for references
  std::optional<std::string> first_key, last_key;
};

struct FamilySplitPoint {
  std::string family;
  std::string path;
  uint64_t store_size = 0;      // HStore.getSize
  bool has_references = false;
  std::vector<SplitFileInfo> files;  // StoreFileComparators.SEQ_ID order
  int largest_file = -1;        // index into files (StoreUtils.getLargestFile)
  std::optional<std::string> split_row;  // HStore.getSplitPoint
  std::string no_split_reason;  // when split_row is absent
  SplitSide below, above;       // cells with rows < the region's sides_row / the rest
};

struct RegionSplitPoint {
  std::string region_dir;
  std::optional<std::string> start_key, end_key;  // from .regioninfo, when readable
  std::vector<FamilySplitPoint> families;         // family-name byte order
  // The row the region would be split at; absent when HBase would not split it.
  std::optional<std::string> split_row;
  bool explicit_row = false;    // split_row came from options.split_row
  int chosen_family = -1;       // the store whose split point was taken (HBase's choice)
  std::optional<std::string> unrestricted_row;  // before the split restriction
  std::string no_split_reason;  // when split_row is absent
  // The row the sides are counted at: split_row, or the row HBase's choice or the user gave
  // but a check then refused (outside the region, its start key, references, SPLIT_ENABLED).
  std::optional<std::string> sides_row;
  bool sides_counted = false;
};

// HStore.getSplitPoint's file rule (StoreUtils.getFileSplitPoint): the mid key's row, or
// nullopt (with `reason`) when the file is empty or the mid row is the first or last key's row.
std::optional<std::string> FileSplitRow(const std::optional<std::string>& mid_key,
                                        const std::optional<std::string>& first_key,
                                        const std::optional<std::string>& last_key,
                                        std::string* reason);

// RegionSplitRestriction.getRestrictedSplitPoint for `type` ("None", "KeyPrefix",
// "DelimitedKeyPrefix"; anything else, or an invalid parameter, restricts nothing, as HBase
// falls back to NoRegionSplitRestriction).
std::string RestrictSplitRow(const std::string& row, const std::string& type,
                             const std::optional<std::string>& prefix_length,
                             const std::optional<std::string>& delimiter);

// Scans the region dir (store files as ScanRegionDir finds them, minus the compacted-away ones
// HBase drops on open), opens every store file and applies the rules above. NotFound /
// IOError when the region dir cannot be read; Corruption / IOError from a store file HBase
// would fail to open.
Result<RegionSplitPoint> ComputeSplitPoint(const std::string& root_dir,
                                           const std::string& region_dir,
                                           const SplitPointOptions& options = {});

}  // namespace hfile::region

#endif  // REGION_SPLIT_POINT_H_
