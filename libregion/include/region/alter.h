// Offline `alter`: a table's new descriptor, made real on disk at once.
//
// HBase's alter only writes a new .tableinfo and reopens the regions; existing store files keep
// their codec, encoding, block size and bloom, and cells that the new VERSIONS/TTL would drop
// stay until a major compaction rewrites them (REGION_LAYOUT §8). The offline alter does what
// `alter` followed by `major_compact` does, with the table stopped:
//
//   auto plan = PlanAlter(table_dir, new_descriptor, options);  // diff, stores, refusals
//   AlterReport report;
//   Status s = RunAlter(*plan, options, &report);
//
// Run, in this order, under an flock on the table dir (each step durable before the next):
//   1. one transaction of the table's commit journal (region/commit.h, <table>/.hfile-journal):
//      the new .tableinfo staged in <table>/.hfile-alter-*/, then committed: put into
//      .tabledesc/ (sequence + 1), the older .tableinfo files removed, added families' dirs
//      created in every region, dropped families archived (ArchiveFamilyDirs); its pending lines
//      name the families still to rewrite ("rewrite <family>");
//   2. every store of those families is major-compacted under the new descriptor (the
//      compaction's own per-store transactions and checks);
//   3. the pending lines are cleared (the journal is removed).
// A kill before 1's commit record leaves the old descriptor and files (a rerun rolls back the
// staging); after it, the new descriptor with some stores not yet rewritten, which is exactly
// what an online alter leaves and HBase serves. A rerun (any alter of the table, even one that
// changes nothing) finishes the transaction and the pending rewrites.
#ifndef REGION_ALTER_H_
#define REGION_ALTER_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "hfile/status.h"
#include "region/compact.h"
#include "region/table_descriptor.h"

namespace hfile::region {

// What changing one family attribute does to the files already written.
enum class AlterEffect : uint8_t {
  kNone,     // read-time only (BLOCKCACHE, IN_MEMORY, REPLICATION_SCOPE, ...): nothing rewritten
  kFormat,   // how files are written (COMPRESSION*, DATA_BLOCK_ENCODING, BLOCKSIZE, BLOOMFILTER,
             // COMPRESS_TAGS, the bloom prefix length): every store file rewritten
  kCells,    // which cells a major compaction keeps (VERSIONS, MIN_VERSIONS, TTL,
             // KEEP_DELETED_CELLS): every store major-compacted
};
AlterEffect EffectOfFamilyAttribute(const std::string& key);

struct AttributeChange {
  std::string key;                      // "CONFIGURATION:<key>" for configuration entries
  std::optional<std::string> before, after;  // nullopt: absent
};

struct FamilyAlter {
  enum class Kind : uint8_t { kModify, kAdd, kDrop };
  std::string family;
  Kind kind = Kind::kModify;
  std::vector<AttributeChange> changes;
  AlterEffect effect = AlterEffect::kNone;  // the strongest of its changes
  bool rewrite = false;                 // its stores are major-compacted under the new settings
  bool resumed = false;                 // named by an interrupted alter's journal
  uint64_t store_files = 0, bytes = 0;  // what it holds now (every region)
  std::vector<std::pair<std::string, uint64_t>> stores;  // "<region>/<family>" -> bytes
};

struct AlterOptions {
  bool compact = true;           // false (--no-compact): descriptor and dirs only, as online
  bool delete_dropped = false;   // remove a dropped family's files instead of archiving them
  // The compaction of rewritten families (now, force, trust_inputs, progress, cancel,
  // checkpoint, dry_run, keep_cells: re-encode every cell, no rules, and then only format
  // changes rewrite); its request is always major and its families the rewritten ones.
  CompactOptions compaction;
};

struct AlterPlan {
  std::string table_dir, root_dir;
  TableDescriptor before, after;
  std::vector<AttributeChange> table_changes;
  std::vector<FamilyAlter> families;    // those that change, are added, dropped or resumed
  std::vector<std::string> refused;     // "<region>: why" (online/unclean, as compact refuses)
  std::vector<std::string> recovery;    // an interrupted table transaction RunAlter finishes
  bool changes_descriptor = false;      // after != before
  std::vector<std::string> Rewritten() const;
};

// Diffs the table's current descriptor with `after` (validated), lists each family's store
// files, folds in an interrupted alter's journal and runs compact's safety checks on every
// region. InvalidArgument when `after` does not validate or renames the table.
Result<AlterPlan> PlanAlter(const std::string& table_dir, const TableDescriptor& after,
                            const AlterOptions& options);

struct AlterReport {
  std::string descriptor_path;          // the new .tableinfo ("" when unchanged / dry run)
  std::vector<std::string> created_dirs, archived_dirs;
  CompactReport compaction;             // the rewritten stores (estimated in a dry run)
  double seconds = 0;
};

// Runs the plan (or, with options.compaction.dry_run, the rewrite's merge only, writing
// nothing). Refused regions refuse the whole alter (nothing written) unless compaction.force.
Status RunAlter(const AlterPlan& plan, const AlterOptions& options, AlterReport* report);

}  // namespace hfile::region

#endif  // REGION_ALTER_H_
