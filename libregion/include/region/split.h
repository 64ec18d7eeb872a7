// Offline splits: of one HFile at given rows or at a table's region boundaries (what
// completebulkload does to a file straddling a region boundary), and of a region into two (or
// N) daughter regions (what HBase's
// SplitTableRegionProcedure followed by the daughters' compactions and the CatalogJanitor
// leaves on disk), committed through the table's journal (region/commit.h).
//
//   FileSplitResult fr;
//   SplitFile("/in/f", {.boundaries = {"row5"}, .out_dir = "/out"}, &fr);
//
//   auto plan = PlanRegionSplit(region_dir, options);   // split row, daughters, refusals
//   RegionSplitReport rep;
//   RunRegionSplit(*plan, options, &rep);                // or options.dry_run: nothing written
//
// File split (BulkLoadHFilesTool.splitStoreFile -> copyHFileHalf, HBase 2.6): every range's
// cells are copied into a new file; HBase writes the halves with the target family's settings
// and copies every file-info entry but the reserved "hfile.*" ones and DATA_BLOCK_ENCODING.
// With no family at hand, SplitFile takes the settings the input records (WriterOptionsFromFile:
// codec, encoding, tags, MVCC, checksum, bloom; block size from InferBlockSize) and its
// file-info keys (MAX_SEQ_ID_KEY, MAJOR_COMPACTION_KEY, BULKLOAD_*,
// EXCLUDE_FROM_MINOR_COMPACTION, caller keys). TIMERANGE and the blooms are recomputed for
// each output's own cells. Outputs go to <out_dir>/.hfile-split-<pid>-<n>/, are verified
// (StoreWriter), then renamed into out_dir; a range without cells gets no file.
//
// Region split:
//   * split row: options.split_row, else ComputeSplitPoint's (HBase's choice, REGION_LAYOUT
//     §5.2); refused when it is outside the region or equal to its start key; or N - 1 rows
//     (options.split_rows, or options.into's size quantiles: QuantileSplitRows), each checked
//     as a given row, for N daughters cut at the same rows in every family;
//   * refused: a family with the FILE store-file tracker's .filelist/; hbase:meta, a region
//     with References (split again only after a compaction, as HBase; options.compact_first
//     major-compacts it through Compact first, committed on its own, and plans again), one
//     that PlanCompaction refuses as online or unclean (--force overrides those), a parent
//     already marked split;
//   * daughters (RegionInfoBuilder; SplitTableRegionProcedure.getDaughterRegionIdTimestamp):
//     region id = now in ms, or the parent's id + 1 when the clock is not past it, one for
//     all daughters; A = [start, split row), B = [split row, end) (N: from cut to cut);
//     encoded name = MD5 of the region name (RegionInfo), distinct by start key;
//   * every store file (the compacted-away ones excepted) is rewritten per half: one output per
//     input file per non-empty half, the input's settings and file info kept (so its sequence
//     id; a bulk-loaded "_SeqId_<n>_" name keeps its suffix); the daughters hold real files, no
//     References;
//   * recovered.edits/<max seq id>.seqid in each daughter, as SplitTableRegionProcedure's
//     writeMaxSequenceIdFile does (the parent's highest sequence id, of its store files and
//     its own .seqid markers), so the daughters open above every parent edit;
//   * one table transaction: staged under <table>/.hfile-split-<pid>-<n>/, then put daughter A,
//     put daughter B (... every daughter), archive the parent dir (file by file into
//     <root>/archive/data/<ns>/<table>/<parent>/..., as the CatalogJanitor does after a split).
//     A crash before the commit record leaves the parent whole (a rerun rolls back); after it, a
//     rerun (of any tool) rolls forward.
// hbase:meta is not touched: see man/hfile-split.1.md for what an operator runs afterwards.
#ifndef REGION_SPLIT_H_
#define REGION_SPLIT_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "hfile/status.h"
#include "region/region_info.h"
#include "region/split_point.h"

namespace hfile::region {

struct FileSplitOptions {
  // Rows, sorted and distinct (InvalidArgument otherwise); none: one output with every cell.
  std::vector<std::string> boundaries;
  std::string out_dir;                  // must exist
  // Non-empty (a split for a table): the file's family must be one of these, as
  // completebulkload refuses another (InvalidArgument, nothing written).
  std::vector<std::string> families;
  bool verify_input = true;             // CheckInput's full VerifyFile
  const std::atomic<bool>* cancel = nullptr;
};

struct FileSplitOutput {
  size_t range = 0;    // index into boundaries + 1
  std::string path;
  uint64_t cells = 0, file_size = 0;
};

struct FileSplitResult {
  uint64_t cells = 0;
  std::vector<FileSplitOutput> outputs;
};

Status SplitFile(const std::string& path, const FileSplitOptions& options, FileSplitResult* result);

struct RegionSplitOptions {
  // At most one of split_row, split_rows and into: the split row(s) given, or N daughters at
  // size quantiles; none of them: HBase's split point (two daughters).
  std::optional<std::string> split_row;
  std::vector<std::string> split_rows;  // sorted, distinct: split_rows.size() + 1 daughters
  int into = 0;                         // >= 2: that many daughters at size quantiles
  // A region with References is major-compacted first (hfile compact's defaults, with force,
  // now_ms, verify_inputs and cancel from here), then split; without it such a region is refused.
  bool compact_first = false;
  bool dry_run = false;
  bool force = false;          // split a region that looks online or unclean
  bool verify_inputs = true;
  // The plan's `sides`, counted by reading every cell of the region once more. false: the plan
  // leaves them empty, and a real split reports them exactly from what it wrote
  // (RegionSplitReport::sides); a dry run needs them.
  bool count_sides = true;
  int64_t now_ms = 0;          // 0: the clock (daughters' region id, archive names)
  const std::atomic<bool>* cancel = nullptr;
  // Called at every durable step (StoreWriter's and the journal's checkpoint names, plus
  // "split-staged" once every daughter file is staged); tests kill here.
  std::function<void(const std::string&)> checkpoint;
  // Called every few thousand cells with (the store file being split, cells read so far in the
  // whole region, cells in the region's store files), and as each output's read-back
  // verification goes with (that file, cells verified of it). --compact-first's compaction
  // reports through CompactOptions' callbacks, label "<region>/<family>".
  std::function<void(const std::string&, uint64_t, uint64_t)> progress;
  std::function<void(const std::string&, uint64_t)> verify_progress;
};

// What one family holds in each daughter (cells and bytes as SplitSide counts them).
struct FamilySides {
  std::string family;
  std::vector<SplitSide> daughters;      // in daughter order
};

struct RegionSplitPlan {
  std::string root_dir, table_dir, region_dir, encoded_name;
  RegionInfo parent, daughter_a, daughter_b;  // the first and the last daughter
  std::string split_row;                  // the first split row
  std::vector<std::string> split_rows;    // every split row, ascending
  std::vector<RegionInfo> daughters;      // split_rows.size() + 1, in row order
  std::vector<FamilySides> sides;         // per family (name order), per daughter
  RegionSplitPoint point;                 // HBase's choice, or the first row's checks
  // --into: the store whose block-index keys gave the quantiles (the largest).
  std::string quantile_family;
  // compact_first and the region has References: the split rows are chosen after the
  // compaction (RunRegionSplit plans again); `compact_stores` names the stores with them.
  bool compact_first = false;
  std::vector<std::string> compact_stores;
  std::vector<std::string> refused;       // online/unclean (overridden by force)
  std::vector<std::string> recovery;      // an interrupted table transaction to finish first
};

// The rows cutting a region into `n` daughters of about equal size: the largest store (by
// HStore.getSize, the first in family-name order on a tie, as HBase's split point chooses) has
// its files' data-block index entries merged in key order, each weighted by its block's
// on-disk size; cut k (1 <= k < n) is the row of the block whose start is nearest k/n of the
// bytes (or of the next block whose row is above the previous cut and the store's first row).
// NotSupported when the store has too few blocks (or distinct block rows) for `n` daughters.
// `family` receives the store's name.
Result<std::vector<std::string>> QuantileSplitRows(const std::string& root_dir,
                                                   const std::string& region_dir, int n,
                                                   std::string* family);

// A table's region boundaries, for a file split at them: the start keys (but the empty first)
// of its regions' .regioninfo files, ascending, and the region each range goes to
// (`regions[i]` holds [boundaries[i-1], boundaries[i])). Primary replicas not marked split
// only; InvalidArgument when the regions do not chain from "" to "" (a hole or an overlap).
struct TableBoundaries {
  std::vector<std::string> boundaries;
  std::vector<std::string> regions;       // encoded names, boundaries.size() + 1
};
Result<TableBoundaries> ReadTableBoundaries(const std::string& table_dir);

// NotSupported for a region HBase would not split (meta, references, already split) or with no
// split point; InvalidArgument for a split row outside the region or equal to its start key.
Result<RegionSplitPlan> PlanRegionSplit(const std::string& region_dir,
                                        const RegionSplitOptions& options);

struct SplitFileResult {
  std::string family, input;              // input: the parent's store file name
  // Per daughter (plan.daughters' order): "<daughter>/<family>/<name>", and the cells there.
  std::vector<std::vector<std::string>> outputs;
  std::vector<uint64_t> cells;
};

struct RegionSplitReport {
  std::vector<std::string> compacted;     // compact_first: what the compaction did, per store
  std::optional<RegionSplitPlan> replanned;  // compact_first: the plan made after it
  std::vector<SplitFileResult> files;
  // What each family's daughters hold as written: cells, their KeyValue bytes, the file bytes.
  std::vector<FamilySides> sides;
  std::vector<std::string> recovered;
  int64_t max_sequence_id = -1;
  double seconds = 0;
};

// Refuses (NotSupported) a plan with refusals unless options.force; nothing is written in a
// dry run.
Status RunRegionSplit(const RegionSplitPlan& plan, const RegionSplitOptions& options,
                      RegionSplitReport* report);

// For a region dir that is gone because an interrupted split had already archived it: finishes
// the table's journal (RecoverTransaction, under the table's lock). NotFound when there is none.
Status FinishInterruptedSplit(const std::string& table_dir, int64_t now_ms,
                              std::vector<std::string>* log);

}  // namespace hfile::region

#endif  // REGION_SPLIT_H_
