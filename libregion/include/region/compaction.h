// Compaction semantics: which cells of a store's merged cell stream HBase's compaction keeps
// (StoreScanner + Major/MinorCompactionScanQueryMatcher + ScanDeleteTracker +
// ScanWildcardColumnTracker; REGION_LAYOUT §6). A pure filter over a CellIterator: feed it a
// MergingIterator over the store's files, write what it yields.
//
// Out of scope (refuse them upstream): NEW_VERSION_BEHAVIOR families, visibility labels,
// compaction coprocessors, stripe/date-tiered specifics, and the HBASE-30036 minor-compaction
// marker pruning of unreleased 2.5/2.6 heads.
#ifndef REGION_COMPACTION_H_
#define REGION_COMPACTION_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "hfile/iterator.h"
#include "region/family_descriptor.h"

namespace hfile::region {

enum class CompactionKind : uint8_t {
  kMajor,  // all files: COMPACT_DROP_DELETES
  kMinor,  // some files: COMPACT_RETAIN_DELETES
};

struct CompactionOptions {
  CompactionKind kind = CompactionKind::kMajor;
  int32_t max_versions = 1;                   // VERSIONS
  int32_t min_versions = 0;                   // MIN_VERSIONS
  int64_t ttl_ms = INT64_MAX;                 // TTL * 1000; INT64_MAX = forever
  KeepDeletedCells keep_deleted_cells = KeepDeletedCells::kFalse;
  int64_t now_ms = 0;                         // fixed once per run
  int64_t time_to_purge_deletes_ms = 0;       // hbase.hstore.time.to.purge.deletes
  // Major only: min EARLIEST_PUT_TS over the inputs; INT64_MIN if any input lacks it.
  int64_t earliest_put_ts = INT64_MIN;
  // §6.8: cells with sequence id <= this are written with sequence id 0 (nullopt: keep all).
  std::optional<uint64_t> zero_sequence_ids_up_to;

  // The family's VERSIONS, MIN_VERSIONS, TTL and KEEP_DELETED_CELLS.
  static CompactionOptions ForFamily(const FamilyDescriptor& family, CompactionKind kind,
                                     int64_t now_ms);
  // now - ttl with Java's wrapping long arithmetic.
  int64_t oldest_unexpired_ts() const;
};

struct CompactionStats {
  uint64_t input_cells = 0;
  uint64_t output_cells = 0;
  uint64_t dropped_versions = 0;        // beyond VERSIONS, or exact (ts, type) duplicates
  uint64_t dropped_ttl = 0;             // family TTL (and MIN_VERSIONS exhausted)
  uint64_t dropped_cell_ttl = 0;        // per-cell TTL tag
  uint64_t dropped_deleted = 0;         // puts masked by a delete marker
  uint64_t dropped_delete_markers = 0;  // markers purged by a major compaction
  uint64_t zeroed_sequence_ids = 0;

  uint64_t dropped() const {
    return dropped_versions + dropped_ttl + dropped_cell_ttl + dropped_deleted +
           dropped_delete_markers;
  }
};

// Wraps `input` (cells of ONE store in HBase scan order, e.g. a MergingIterator) and yields
// the cells the compaction keeps. `stats` (may be null) must outlive the iterator; it is
// complete once the iterator is exhausted. Seek() is supported but restarts row state.
std::unique_ptr<CellIterator> NewCompactionIterator(std::unique_ptr<CellIterator> input,
                                                    const CompactionOptions& options,
                                                    CompactionStats* stats);

// §6.8: the sequence-id zeroing threshold HBase would use for a compaction of all files:
// the max MAX_MEMSTORE_TS_KEY among inputs whose modification time is older than
// `keep_period_days` (at least 5); nullopt when none is old enough or not all files are in.
struct CompactionInputFile {
  int64_t max_memstore_ts = 0;
  int64_t modification_time_ms = 0;
};
std::optional<uint64_t> SequenceIdZeroingThreshold(const std::vector<CompactionInputFile>& inputs,
                                                   bool all_files, int64_t now_ms,
                                                   int keep_period_days = 5);

}  // namespace hfile::region

#endif  // REGION_COMPACTION_H_
