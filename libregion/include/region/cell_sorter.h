// CellSorter: an external sort of cells into the store's order within a memory budget, for bulk
// load (parsed lines arrive in input order, a store file needs them sorted).
//
//   CellSorterOptions o;
//   o.memory_bytes = 256 << 20;  o.temp_dir = "/var/tmp";  o.estimated_spill_bytes = input_size;
//   auto s = CellSorter::Open(o);           // checks the temp dir and its free space first
//   for (...) (*s)->Add(cell);              // any order
//   auto it = (*s)->Finish();               // the cells in order, each key once
//   for (it->SeekToFirst(); it->Valid(); it->Next()) writer->Add(it->cell());
//
// Order: CompareKeys of `kind` (row, family, qualifier, timestamp newest first, type), as HBase's
// CellComparator sorts a store file. Cells with identical keys: the one added LAST is kept and
// the others dropped ("last line wins", counted in duplicates_dropped()): HBase would keep only
// one of them anyway (a scan skips a second version with the same timestamp), and which one must
// not depend on how the input happened to be split into runs.
//
// Memory: cells are copied into an arena of fixed-size blocks (no heap allocation per cell);
// when arena plus index would pass memory_bytes, they are sorted and spilled as runs, LZ4-
// compressed files in a private directory under temp_dir (a large spill as two runs, its halves
// sorted and written on two threads). After that first spill the budget is two chunks of half:
// one is sorted and spilled in the background while Add fills the other (so parsing and sorting
// overlap on two cores). Finish merges the runs k-way, with as many runs per pass as the budget
// has room for read buffers (more passes otherwise), and the last chunk straight from memory
// when the budget beside it holds a reader per run (spilled too otherwise), so memory stays
// within the budget whatever the input size; only a single cell larger than the budget exceeds
// it (it is held alone). Without a spill nothing touches the disk.
// Temp space: the runs (compressed), plus during an extra pass the run it writes. The private
// directory and every run are removed on any error and when the sorter is destroyed; those of
// a killed process are removed by the next Open in the same temp dir.
//
// Ranges: with range_starts (rows, e.g. the regions' start keys), every run records where each
// range begins, and FinishRanges hands out one iterator per range instead of one for all, so
// that a caller writes the ranges on several threads at once (each range merged from its part
// of every run, without reading the others').
#ifndef REGION_CELL_SORTER_H_
#define REGION_CELL_SORTER_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "hfile/cell.h"
#include "hfile/iterator.h"
#include "hfile/status.h"
#include "hfile/types.h"

namespace hfile::region {

struct CellSorterOptions {
  ComparatorKind kind = ComparatorKind::kDefault;
  // Arena, index and (in Finish) the merge's read buffers. At least kMinSorterMemory.
  size_t memory_bytes = size_t{256} << 20;
  // Where runs are spilled, in a private directory "hfile-sort-<pid>-XXXXXX" created by Open.
  std::string temp_dir = "/tmp";
  // What the caller expects to spill at most (e.g. the input's size). When it is more than the
  // memory budget, Open requires that much free space in temp_dir and fails before any work.
  uint64_t estimated_spill_bytes = 0;
  // 2: spills are sorted and written in the background, a large one as two runs on two threads
  // (both cores). 1: each spill as one run on the calling thread (a scheduler's task given one
  // core, region/tool_threads.h). The sorted output is the same.
  int threads = 2;
  // Rows at which FinishRanges cuts the sorted output (ascending, distinct, not empty; not for
  // kRawBytes): range 0 holds the rows before range_starts[0], range i the rows in
  // [range_starts[i-1], range_starts[i]), the last one the rest.
  std::vector<std::string> range_starts;
};

// Room for the two run readers a merge needs at least (about 160 KiB each).
inline constexpr size_t kMinSorterMemory = size_t{320} << 10;

struct CellSorterStats {
  uint64_t cells_added = 0;
  uint64_t duplicates_dropped = 0;
  uint64_t runs_spilled = 0;       // initial runs plus the intermediate runs of extra passes
  uint64_t merge_passes = 0;       // passes that wrote an intermediate run
  uint64_t spilled_bytes = 0;      // compressed bytes written to temp_dir, all passes
  uint64_t peak_memory_bytes = 0;  // arena blocks + index, as accounted
  uint64_t stale_dirs_removed = 0; // dead sorters' private dirs removed by Open
};

class CellSorter {
 public:
  // InvalidArgument for a budget below kMinSorterMemory; IOError when temp_dir cannot hold the
  // private directory or lacks the free space estimated_spill_bytes asks for.
  static Result<std::unique_ptr<CellSorter>> Open(CellSorterOptions options);
  ~CellSorter();
  CellSorter(const CellSorter&) = delete;
  CellSorter& operator=(const CellSorter&) = delete;

  // Copies the cell (key, value, tags, sequence id). InvalidArgument for a malformed key; IOError
  // when a spill fails (the sorter is then unusable and its files are gone).
  Status Add(const Cell& cell);

  // Ends input. The iterator streams the sorted, de-duplicated cells once: SeekToFirst before
  // the first Next positions at the first cell; Seek moves forward only (to the first cell whose
  // key is >= the target, from the current position). It must not outlive the sorter. Errors
  // reading a run (I/O, corrupt data) make it invalid with status() saying why.
  Result<std::unique_ptr<CellIterator>> Finish();

  // Finish, cut at range_starts: one iterator per range (range_starts.size() + 1), each
  // streaming its range's cells as Finish's iterator would. Different ranges may be read on
  // different threads at once, at most `concurrent` at a time: the budget's read buffers and the
  // open files are shared among that many. A range opens its run readers at SeekToFirst and
  // releases them when it is exhausted. The iterators must not outlive the sorter.
  Result<std::vector<std::unique_ptr<CellIterator>>> FinishRanges(size_t concurrent);

  // Final after the iterator (every range's) has been drained.
  const CellSorterStats& stats() const;
  // The private spill directory ("" before/without one); removed with the sorter.
  const std::string& spill_dir() const;

  struct Impl;

 private:
  explicit CellSorter(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace hfile::region

#endif  // REGION_CELL_SORTER_H_
