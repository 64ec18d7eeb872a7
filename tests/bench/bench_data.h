// Benchmark cells: a deterministic generator of HBase-like cells and the flat "cells file" that
// carries them to every peer (hfilekit, RocksDB, HBase's Java writer), so that all of them read
// the same bytes in the same order.
//
// Cells file (big-endian, so that Java's DataInputStream reads it as is):
//
//   "HFKCELL1"                                  magic[8]
//   { u32 key_len | u32 value_len | u64 seq_id | key | value }*   cells in HBase order
//
// Keys are serialized KeyValue keys (hfile/cell.h), family "f", no tags.
//
// Gets file: "HFKGETS1" then { u16 row_len | row }*: rows to look up, half present in the cells
// and half absent (each absent row sorts between two present rows, so only a bloom can tell).
#ifndef HFILE_TESTS_BENCH_BENCH_DATA_H_
#define HFILE_TESTS_BENCH_BENCH_DATA_H_

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "hfile/cell.h"
#include "hfile/cell_batch.h"
#include "hfile/status.h"

namespace hfile::bench {

struct DataSpec {
  uint64_t target_bytes = 64 << 20;  // sum of key + value sizes, approximately
  uint64_t seed = 1;
  uint64_t gets = 20000;             // rows in the gets file
  int split = 4;                     // cells are also dealt into this many overlapping files
  size_t max_value = 0;              // cap on value sizes (0: none), for a small-cell mix
};

struct DataSummary {
  uint64_t cells = 0, rows = 0, bytes = 0;  // bytes: sum of key + value sizes
  uint64_t deletes = 0, extra_versions = 0, random_values = 0;
};

// Writes `dir`/cells.bin, `dir`/gets.bin and `dir`/part<i>.bin (i < split: every cell goes to
// exactly one part, chosen by a hash of its column and version, so the parts overlap in key
// range as flushed store files do). Deterministic for a given spec.
Status GenerateData(const DataSpec& spec, const std::string& dir, DataSummary* summary);

// Streams a cells file. Cells stay valid until the next call to Next().
class CellFileReader {
 public:
  ~CellFileReader();
  static Result<std::unique_ptr<CellFileReader>> Open(const std::string& path);
  // False at the end or on error (status() says which).
  bool Next(Cell* cell);
  // Replaces *batch's cells with the next ones, as many as the buffer holds whole (at least
  // one); they stay valid until the next call. False at the end or on error.
  bool NextBatch(CellBatch* batch);
  Status status() const { return status_; }

 private:
  CellFileReader() = default;
  bool Fill(size_t need);
  // Parses the cell at buf_[pos_] if the buffer holds all of it; false (nothing consumed) if not.
  bool ParseBuffered(Cell* cell);
  FILE* f_ = nullptr;
  std::string path_;
  std::vector<char> buf_;
  size_t pos_ = 0, end_ = 0;
  Status status_;
};

Result<std::vector<std::string>> ReadGetsFile(const std::string& path);

}  // namespace hfile::bench

#endif  // HFILE_TESTS_BENCH_BENCH_DATA_H_
