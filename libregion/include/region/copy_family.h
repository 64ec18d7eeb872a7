// Offline copy of a column family under a new name: HBase has no rename, and the family name is
// in every cell, so a rename is a rewrite (then, optionally, a drop of the old family).
//
//   auto plan = PlanCopyFamily(table_dir, options);   // stores, files, refusals
//   CopyFamilyReport report;
//   Status s = RunCopyFamily(*plan, options, &report);
//
// Every store file of OLD (a Reference: its half; an HFileLink: its target) is rewritten through
// the store-rewrite engine with one transform, the family rename, into one file of NEW with
// everything else kept: row, qualifier, timestamp, type, value, tags, per-cell sequence ids, and
// the file info HBase's later compactions read (MAX_SEQ_ID_KEY, MAJOR_COMPACTION_KEY,
// BULKLOAD_TIMESTAMP/SOURCE_TASK, EXCLUDE_FROM_MINOR_COMPACTION, hfile.CREATE_TIME_TS; TIMERANGE
// and EARLIEST_PUT_TS recomputed from the same cells), a bulk-loaded "_SeqId_<n>_" name suffix
// too. So NEW's stores have OLD's structure and HBase's next compactions treat them alike.
// Files already named in another file's COMPACTION_EVENT_KEY (HBase drops them on open) are
// not copied.
//
// Commit, under an flock on the table dir, through the table's commit journal (region/commit.h):
//   1. intent; every output staged in <table>/.hfile-copy-family-*/<region>/ and verified;
//   2. commit record: NEW's dir in every region, each output put into it, then the new
//      .tableinfo (NEW = OLD's attributes, overridden by `set`): HBase opens no family dir its
//      descriptor does not name, so a crash part way never shows half a family; with drop_old
//      a pending "drop <OLD>";
//   3. NEW verified equal to OLD: per file, the same cells in the same order (family aside):
//      count and a digest of the cell stream (zlib crc32 + adler32 over every field);
//   4. with drop_old: a second transaction: the descriptor without OLD, OLD's dirs archived.
// A kill before 2 leaves the table as it was; after 2 NEW exists (OLD too); a rerun of the same
// command finishes a pending drop after verifying NEW against OLD store by store.
#ifndef REGION_COPY_FAMILY_H_
#define REGION_COPY_FAMILY_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "hfile/status.h"
#include "region/layout.h"
#include "region/table_descriptor.h"
#include "region/target.h"

namespace hfile::region {

struct CopyFamilyOptions {
  std::string from, to;                                      // OLD, NEW
  std::vector<std::pair<std::string, std::string>> set;     // NEW's attribute overrides
  bool drop_old = false;          // archive OLD once NEW is committed and verified equal
  bool delete_dropped = false;    // delete OLD's files instead of archiving them
  bool compact = false;           // then major-compact NEW: one file per store
  bool dry_run = false;
  bool force = false;             // a table that looks online or unclean
  bool verify_inputs = true;      // false (--trust-inputs): cheap input checks only
  int64_t now_ms = 0;             // 0: the clock (archive names, --compact's TTL decisions)
  const std::atomic<bool>* cancel = nullptr;
  // (label "<region>/<file>", cells read so far, cells of all inputs)
  std::function<void(const std::string&, uint64_t, uint64_t)> progress;
  std::function<void(const std::string&)> checkpoint;       // tests kill here
};

struct FileCopy {
  std::string region;             // encoded name
  StoreFile input;
  uint64_t bytes = 0;             // the input's length as HBase reads it
  std::string output;             // NEW's file name (after the run)
  uint64_t cells = 0, bytes_out = 0;
};

struct CopyFamilyPlan {
  Target target;
  TableDescriptor before, after;  // after: NEW added (and, with drop_old, OLD gone)
  std::vector<std::string> regions;          // every region dir (encoded names)
  // Split parents whose daughters' References read their files: HBase never opens them, and
  // NEW in the daughters gets real halves, so their OLD files are neither copied nor compared.
  std::vector<std::string> split_parents;
  std::vector<FileCopy> files;
  std::vector<std::string> skipped;          // files not copied, and why
  std::vector<std::string> refused;          // "<region>: why" (online/unclean)
  std::vector<std::string> recovery;         // an interrupted transaction to finish first
  bool resume_drop = false;                  // NEW exists and a pending drop of OLD is recorded
  uint64_t bytes = 0;
};

// Validates (OLD exists, NEW does not, NEW is a valid family name, no MOB, `set` parses),
// lists OLD's store files in every region, runs compact's online/unclean checks.
Result<CopyFamilyPlan> PlanCopyFamily(const std::string& table_dir, const CopyFamilyOptions& o);

struct CopyFamilyReport {
  std::string descriptor_path;
  uint64_t files_in = 0, files_out = 0, cells = 0, bytes_in = 0, bytes_out = 0;
  // What the rename saves (or costs): (|OLD| - |NEW|) bytes in every cell's key, uncompressed.
  int64_t family_bytes_saved = 0;
  bool verified = false;          // NEW equals OLD, family aside
  bool dropped = false;           // OLD archived (or deleted)
  std::vector<std::string> recovered;
  double seconds = 0;
  double estimated_seconds = 0;   // dry run: what the copy would take here (measured, summed)
};

Status RunCopyFamily(const CopyFamilyPlan& plan, const CopyFamilyOptions& o,
                     CopyFamilyReport* report);

}  // namespace hfile::region

#endif  // REGION_COPY_FAMILY_H_
