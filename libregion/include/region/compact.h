// Offline compaction of a table, region or family directory, as HBase's DefaultStoreEngine
// compacts a store (REGION_LAYOUT §6), committed so that a crash at any moment loses nothing.
//
//   auto plan = PlanCompaction(path, options);      // what would be compacted, and refusals
//   CompactReport report;
//   Status s = Compact(*plan, options, &report);    // or options.dry_run: merge, write nothing
//
// Per store: whole-file TTL expiry (§6.6), file selection (major: every file; minor:
// ExploringCompactionPolicy), a merge in HBase's scanner order, the CompactionIterator rules, one
// output HFile with the family's settings and compaction file info, MVCC zeroing (§6.8).
// Store files are read as HBase reads them (StoreFileReader): a Reference contributes its half
// of the parent's file, an HFileLink its target's cells. Like any input they are then archived
// (the reference or link file itself); the parent's file and the link's target stay where they
// are, for the CatalogJanitor, snapshots and clones (REGION_LAYOUT §5.4).
//
// Commit protocol (per store, through the region's commit journal, region/commit.h):
//   1. intent record <region>/.tmp/hfile.journal naming the staging dir .tmp/hfile-compact-*/
//   2. the output written there by RewriteStore (merge -> CompactionIterator -> StoreWriter),
//      fsynced, VerifyFile'd, cells counted
//   3. commit record: put the output into <family>/, dispose inputs and expired files
//      (THE COMMIT POINT)
//   4. put: the output renamed into <family>/ (directory fsynced)
//   5. each input and expired file moved to <root>/archive/data/<ns>/<table>/<region>/<family>/
//      (or unlinked with delete_replaced); staging dir and journal removed
// A crash before 3 leaves the old files (a rerun rolls back: removes the staging dir and the
// journal; HBase's own open wipes .tmp). Between 3 and 4 a rerun rolls forward. After 4 it
// leaves the output plus some inputs: the output's COMPACTION_EVENT_KEY names every input, and HBase 2.2+ (HStore/StoreEngine
// openStoreFiles) drops and archives any store file named in another file's
// COMPACTION_EVENT_KEY, so HBase never reads both; a rerun (journal or not) archives them too.
#ifndef REGION_COMPACT_H_
#define REGION_COMPACT_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "hfile/status.h"
#include "hfile/writer.h"
#include "region/compaction.h"
#include "region/layout.h"
#include "region/table_descriptor.h"
#include "region/table_name.h"

namespace hfile::region {

// HBase's compaction selection settings (CompactionConfiguration defaults).
struct SelectionConfig {
  int min_files = 3;                        // hbase.hstore.compaction.min
  int max_files = 10;                       // hbase.hstore.compaction.max
  double ratio = 1.2;                       // hbase.hstore.compaction.ratio
  int64_t min_size = 128LL << 20;           // hbase.hstore.compaction.min.size
  int64_t max_size = INT64_MAX;             // hbase.hstore.compaction.max.size
  int blocking_files = 16;                  // hbase.hstore.blockingStoreFiles
};

// One store file as the selection sees it. Like HBase's StoreFileReader, a Reference or an
// HFileLink takes its figures from the file it reads: size, file info and modification time are
// the target's (for a Reference, the whole referenced file's, not its half).
struct CandidateFile {
  std::string name;
  std::string path;                         // the entry in the family dir
  uint64_t size = 0;                        // the length HBase's reader reports
  bool reference = false;                   // a split half: forces an all-files compaction
  StoreFile entry;                          // what StoreFileReader::Open takes
  int64_t sequence_id = -1;                 // §4.5
  bool bulk_loaded = false;
  bool reset_cell_sequence_ids = false;     // bulk-loaded: cells read with `sequence_id`
  std::optional<int64_t> bulkload_time;     // BULKLOAD_TIMESTAMP
  int64_t max_timestamp = INT64_MAX;        // TIMERANGE max (INT64_MAX when absent)
  bool exclude_from_minor = false;          // EXCLUDE_FROM_MINOR_COMPACTION
  std::optional<int64_t> earliest_put_ts;   // EARLIEST_PUT_TS
  int64_t max_memstore_ts = 0;              // MAX_MEMSTORE_TS_KEY
  int32_t max_tags_len = 0;                 // hfile.MAX_TAGS_LEN
  int64_t modification_time_ms = 0;
  std::vector<std::string> compacted_files; // its COMPACTION_EVENT_KEY
};

// StoreFileComparators.SEQ_ID: sequence id asc, size desc, bulk-load time asc (absent last),
// name asc. This is also the merge's scanner order.
void SortBySequenceId(std::vector<CandidateFile>* files);
// HStore.removeUnneededFiles: with MIN_VERSIONS 0 and a finite TTL, the files (never the last,
// highest-seqid one) whose max timestamp < now - ttl. Indexes into the sorted `files`.
std::vector<size_t> SelectExpiredFiles(const std::vector<CandidateFile>& files,
                                       int32_t min_versions, int64_t ttl_ms, int64_t now_ms);
// A minor (system or user non-major) selection: filterBulk, ExploringCompactionPolicy,
// the min-files check and the max-files cut. After a split (any file is a reference) HBase
// skips the policy and takes every file, still cut at max files (SortedCompactionPolicy
// isAfterSplit). Indexes into the sorted `files` (contiguous).
std::vector<size_t> SelectMinorCompaction(const std::vector<CandidateFile>& files,
                                          const SelectionConfig& config);
// The names in the iteration order of a java.util.HashSet<String> filled in this order (how
// HBase orders COMPACTION_EVENT_KEY).
std::vector<std::string> JavaHashSetOrder(const std::vector<std::string>& names);

enum class CompactRequest : uint8_t { kMajor, kMinor };

struct CompactOptions {
  CompactRequest request = CompactRequest::kMajor;
  std::vector<std::string> families;        // empty: every family
  int64_t now_ms = 0;                       // 0: the wall clock, read once
  bool dry_run = false;
  bool delete_replaced = false;             // unlink inputs instead of archiving them
  bool force = false;                       // compact regions that look online or unclean;
                                            // carry (and count) cells outside a region's range
  // Every input is CheckInput'ed before it is read; false (--trust-inputs) skips VerifyFile's
  // full check, keeping the cheap trailer/block checks and the cell counts.
  bool verify_inputs = true;
  // Set (by a signal handler) to stop: the store being written is rolled back, none after it is
  // started.
  const std::atomic<bool>* cancel = nullptr;
  SelectionConfig selection;
  int64_t time_to_purge_deletes_ms = 0;     // hbase.hstore.time.to.purge.deletes
  bool delete_expired_store_files = true;   // hbase.store.delete.expired.storefile
  // No compaction rules: every cell of the inputs is written (versions, delete markers, expired
  // cells and files kept), only merged and re-encoded with the family's settings (alter
  // --keep-cells). The output is not marked a major compaction.
  bool keep_cells = false;
  int keep_seq_id_period_days = 5;          // hbase.hstore.compaction.keep.seqId.period
  HBaseFlavor flavor = HBaseFlavor::k2_6;
  // Plan and compact with these settings instead of the table's .tableinfo (an alter's dry
  // run: what a major compaction under the new descriptor would do). Must outlive the calls.
  const TableDescriptor* descriptor = nullptr;
  // Called with (store label, cells read so far, cells in the store's inputs).
  std::function<void(const std::string&, uint64_t, uint64_t)> progress;
  // Called as the read-back verification of a store's output starts and every few thousand
  // cells of it, with (store label, cells verified so far).
  std::function<void(const std::string&, uint64_t)> verify_progress;
  // Called at every step of the commit protocol with the step's name; tests kill here.
  std::function<void(const std::string&)> checkpoint;
};

// What will be done to one store.
struct StorePlan {
  std::string region_dir, encoded_region, family, family_dir;
  std::vector<CandidateFile> files;         // every store file, SortBySequenceId order
  std::vector<CandidateFile> inputs;        // to compact (scanner order)
  std::vector<CandidateFile> expired;       // removed whole (§6.6)
  std::vector<std::string> already_compacted;  // named by another file's COMPACTION_EVENT_KEY
  bool all_files = false;                   // inputs + expired == files: drop deletes
  bool major = false;                       // isMajor: compaction-compression choice
  std::string skip_reason;                  // non-empty: the store is left alone
  Status error;                             // not OK: an input cannot be read; refused
  std::string start_key, end_key;           // the region's range ("" = unbounded)
};

struct RegionPlan {
  std::string path, encoded_name;
  std::vector<std::string> refusals;        // why the region looks online/unclean (--force)
  std::vector<std::string> blockers;        // why it must never be compacted (no override)
  // A split parent whose daughters' References still read its files (listed in blockers):
  // Compact skips it (StoreResult::skipped), as HBase never opens it again.
  bool referenced_split_parent = false;
  std::vector<std::string> recovery;        // leftovers of an interrupted run to finish
  std::vector<StorePlan> stores;
};

struct CompactionPlan {
  std::string root_dir;                     // "" when the table dir is not under <root>/data
  std::string table_dir;
  TableName table;
  TableDescriptor descriptor;               // the settings planned with (and compacted with)
  std::vector<std::string> recovery;        // an interrupted table-level transaction to finish
  std::vector<RegionPlan> regions;
};

// Resolves `path` (table, region or family dir), reads the descriptor and every store file's
// metadata, applies the safety checks and the selection. Errors: the path is not a table,
// region or family dir, or the descriptor is unreadable.
Result<CompactionPlan> PlanCompaction(const std::string& path, const CompactOptions& options);

struct StoreResult {
  std::string region, family;
  std::vector<std::string> inputs, expired;
  std::string output;                       // file name ("" when none was written)
  bool major = false, all_files = false;
  CompactionStats stats;
  uint64_t bytes_in = 0, bytes_out = 0;     // bytes_out is estimated in a dry run
  uint64_t cell_bytes_out = 0;              // the output's cells, unencoded (KeyValue sizes)
  uint64_t archived = 0, deleted = 0;
  uint64_t out_of_range = 0;                // cells outside the region carried (--force)
  double seconds = 0;
  std::string skipped;                      // why nothing was done (not an error)
  bool committed = false;                   // the output (or the disposal) is in place
  Status status;                            // not OK: why the store failed; see `committed`
};

struct CompactReport {
  std::vector<StoreResult> stores;
  std::vector<std::string> refused;         // "<region>: reason"
  std::vector<std::string> recovered;       // what a rerun finished or rolled back
  double seconds = 0;
};

// Runs (or, with dry_run, simulates) the plan. Refused regions are skipped (listed in
// `report->refused`, and the Status is NotSupported) unless options.force; a referenced split
// parent is skipped without error. Each store is
// committed or not on its own: a store whose input is damaged, unreadable, of another family
// or outside its region is refused (nothing of it committed; StoreResult::status says why) and
// the others go on; an I/O error on the output or an interrupt stops the run after rolling the
// current store back. The Status is then the first failure's kind, saying how many stores were
// committed and how many not.
Status Compact(const CompactionPlan& plan, const CompactOptions& options, CompactReport* report);

}  // namespace hfile::region

#endif  // REGION_COMPACT_H_
