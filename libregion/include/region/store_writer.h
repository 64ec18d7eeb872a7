// The store writer every writing tool shares: a family's settings -> writer options (one
// mapping), and sorted cells -> one or more HFiles staged in a directory, routed by row into key
// ranges when asked (split, bulk load), each finished, fsynced and verified under one rule.
//
//   StoreWriterOptions o;
//   o.dir = staging;  o.writer = WriterOptionsForFamily(family, major);
//   o.boundaries = {"row5"};                // two outputs: rows < "row5", rows >= "row5"
//   auto w = StoreWriter::Open(o);
//   for (...) (*w)->Add(cell);              // in the store's order
//   auto outputs = (*w)->Finish();          // verified files, one per non-empty range
//                                           // (or more, rolled at roll_bytes)
// An output is finished as soon as the next one starts (a new range, or a roll) and verified on
// a worker thread while the writer goes on; Finish waits for every verification. Until Finish
// succeeds, destroying the writer removes every file it created.
#ifndef REGION_STORE_WRITER_H_
#define REGION_STORE_WRITER_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "hfile/cell.h"
#include "hfile/status.h"
#include "hfile/writer.h"
#include "region/family_descriptor.h"

namespace hfile::region {

class BackgroundChecks;

// How HBase writes a store file of this family: BLOCKSIZE, COMPRESSION (or the
// COMPRESSION_COMPACT* codec for compaction output, `major` choosing which), DATA_BLOCK_ENCODING,
// BLOOMFILTER and its prefix length, COMPRESS_TAGS. The file-info fields (sequence id,
// compaction and bulk-load keys) are the caller's.
WriterOptions WriterOptionsForFamily(const FamilyDescriptor& family, bool compaction_output,
                                     bool major);

struct StoreWriterOptions {
  std::string dir;                      // where the outputs are written (must exist)
  WriterOptions writer;
  // Sorted, distinct row keys cutting the row space into boundaries.size() + 1 ranges: range i
  // holds rows in [boundaries[i-1], boundaries[i]). Empty: one output.
  std::vector<std::string> boundaries;
  // One (empty) output even when no cell is added: a compaction whose every cell is dropped
  // still leaves a file, as HBase's compactor does (its file info carries the sequence id).
  bool write_empty = false;
  // > 0: once an output holds this many bytes of cells (KeyValueSize), the next cell of another
  // row starts a new output of the same range, as HFileOutputFormat2 rolls its writer at
  // hbase.hregion.max.filesize (a row is never split between files).
  uint64_t roll_bytes = 0;
  // Appended to every output's fresh name: "_SeqId_<n>_" keeps a bulk-loaded file's sequence id
  // in its name, where HBase reads it (REGION_LAYOUT §4.5).
  std::string name_suffix;
  // Set to stop: Add returns an IOError "interrupted" (polled every few thousand cells).
  const std::atomic<bool>* cancel = nullptr;
  // Called once, after the first cell is written ("output-started"), and after the outputs are
  // written ("output-written") and verified ("output-verified").
  std::function<void(const std::string&)> checkpoint;
  // Called with every cell of every output as the verification reads it back from disk (range:
  // the output's), so that a caller compares what was written with what it meant to write
  // without reading the files once more. It runs on the writer's worker thread, one output
  // after another in the order they were started; Finish returns after the last call.
  std::function<void(size_t range, const Cell& cell)> on_verified_cell;
};

struct StoreOutput {
  size_t range = 0;           // which key range (index into boundaries + 1)
  std::string name;           // the store file name (fresh, as HBase names them)
  std::string path;           // dir/name
  uint64_t cells = 0;
  uint64_t file_size = 0;
  uint64_t cell_bytes = 0;    // the cells as plain KeyValues
  uint32_t index_levels = 0;
};

class StoreWriter {
 public:
  static Result<std::unique_ptr<StoreWriter>> Open(StoreWriterOptions options);
  ~StoreWriter();
  StoreWriter(const StoreWriter&) = delete;
  StoreWriter& operator=(const StoreWriter&) = delete;

  // Appends a cell to its range's output (created on its first cell). InvalidArgument for a cell
  // out of order (the writer's own check); IOError from the file system.
  Status Add(const Cell& cell);
  // Add for a cell known to follow the previous one added, first differing from it in
  // `first_difference` (CellIterator::KeyDifference; Writer::AppendAfter).
  Status AddAfter(const Cell& cell, KeyField first_difference);
  // Finishes the last output and waits until each is verified (VerifyFile clean, its cell
  // count what was added): Corruption when one fails. On any error every output is removed.
  Result<std::vector<StoreOutput>> Finish();
  uint64_t cells() const { return cells_; }

 private:
  explicit StoreWriter(StoreWriterOptions o);
  Status AddCell(const Cell& cell, const KeyField* known);
  size_t RangeOf(const Slice& row) const;
  struct Output;
  Status OpenRange(size_t range);
  // Finishes it and queues its verification; `last`: no output is written beside that.
  Status Close(Output* out, bool last);
  void RemoveAll();

  StoreWriterOptions o_;
  std::vector<std::unique_ptr<Output>> outputs_;  // created in range order
  Output* current_ = nullptr;
  size_t current_range_ = 0;
  uint64_t cells_ = 0;
  bool finished_ = false;
  std::string last_row_;  // with roll_bytes: the previous cell's row
  // Verifies the finished outputs (declared last: gone before the outputs it reads).
  std::unique_ptr<BackgroundChecks> verifier_;
};

}  // namespace hfile::region

#endif  // REGION_STORE_WRITER_H_
