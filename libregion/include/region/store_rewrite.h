// The store rewrite every writing tool is built on: store files read as HBase reads them ->
// merge in HBase's scanner order -> an optional cell transform -> the store writer.
//
//   inputs (StoreFileReader: References read their half, links their target; each file's cheap
//           checks (CheckInput) before any of its cells is used, its full verification
//           (VerifyInput) on a worker thread while its cells stream, each cell guarded: its
//           family and the region's key range)
//     -> NewMergingIterator
//        (all of the above on a reading thread, a bounded batch ahead of the writer)
//     -> transform (compaction rules, a family rename, a key-range cut; or none)
//        (on the reading thread too when the output has a codec; else on the writer's)
//     -> StoreWriter (1..N files in the staging dir, each verified on the writer's worker)
// RewriteStore returns OK only after every input check and every output verification passed;
// nothing is committed here: the outputs are staged, and the caller commits them through the
// journal (region/commit.h). Callbacks (transform, progress, on_verified_cell) run on those
// threads, one at a time each, and are done when RewriteStore returns.
#ifndef REGION_STORE_REWRITE_H_
#define REGION_STORE_REWRITE_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "hfile/iterator.h"
#include "hfile/status.h"
#include "region/layout.h"
#include "region/store_writer.h"

namespace hfile::region {

using CellTransform = std::function<std::unique_ptr<CellIterator>(std::unique_ptr<CellIterator>)>;

struct StoreRewriteOptions {
  // Guards on every input cell: its family must be `family` (unless empty), its row within
  // [start_key, end_key) ("" = unbounded). A cell outside the range fails the store
  // (Corruption) unless `carry_out_of_range`, which counts and keeps it.
  std::string family, start_key, end_key;
  bool carry_out_of_range = false;
  bool verify_inputs = true;             // the full VerifyFile of each; false: cheap checks only
  // null: the merged cells as they are. A transform reads its input to the end (every input's
  // cells are counted against its trailer once the rewrite is done).
  CellTransform transform;
  StoreWriterOptions writer;             // writer.dir: the staging dir
  // A dry run: no output; the cells are counted exactly and the bytes out estimated by writing
  // the first `trial_blocks` blocks with the output settings to a scratch file.
  bool estimate_only = false;
  uint64_t trial_blocks = 256;
  // Called every few thousand cells with (cells read from the inputs, cells they hold).
  std::function<void(uint64_t, uint64_t)> progress;
};

struct StoreRewriteResult {
  std::vector<StoreOutput> outputs;     // staged, verified (none when estimate_only)
  uint64_t cells_read = 0;              // from the merge (before the transform)
  uint64_t bytes_read = 0;              // their plain KeyValue sizes
  uint64_t cells_written = 0;
  uint64_t cell_bytes_out = 0;          // the written cells as plain KeyValues
  uint64_t bytes_out = 0;               // file bytes (estimated when estimate_only; 0: unknown)
  uint64_t out_of_range = 0;            // carried cells outside the range
  // estimate_only: what the real rewrite would take here, in seconds: this pass's measured
  // input check and reading, the trial's write rate over every output cell, and a read-back.
  double estimated_seconds = 0;
};

// The family-rename transform (copy-family): every cell as it is, under `family` (its key
// rebuilt in one reused buffer). `on_cell`, when set, sees each cell as it comes in.
std::unique_ptr<CellIterator> NewFamilyRenameIterator(
    std::unique_ptr<CellIterator> in, std::string family,
    std::function<void(const Cell&)> on_cell = nullptr);

// Inputs in HBase's scanner order (SortBySequenceId). Errors: Corruption for a damaged input,
// a cell of another family or outside the range, inputs out of order, or an output that fails
// verification; IOError from the file system or the cancel flag. On error nothing is left in
// the staging dir by this call (outputs already written for an input that then failed its
// check are removed).
Status RewriteStore(const std::vector<StoreFile>& inputs, const StoreRewriteOptions& options,
                    StoreRewriteResult* result);

}  // namespace hfile::region

#endif  // REGION_STORE_REWRITE_H_
