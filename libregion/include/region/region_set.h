// RegionSet: the regions a dump or verify looks at — a whole table directory, one region
// directory, or a snapshot — in one shape, so that describe/dump/verify need not care which.
//
// Regions are RegionDirs (layout.h); a snapshot's regions are synthesised from its manifest
// (path empty, store files resolved to the live or archived HFiles). Regions are sorted by
// start key (split parents before their daughters, then by region id). In table and region
// sets, store files another store file's COMPACTION_EVENT_KEY names are moved from
// `store_files` to `compacted_away` (compacted_files.h), as HBase drops them on open; a
// snapshot's stores are what its manifest lists.
//
// Pre-0.96 layouts (tables at <root>/<table>, Writable .regioninfo, no namespaces) are
// opened too, with a note: their v2 HFiles are readable, but HBase 2 will not open the
// layout until HBase 0.96's migration has run.
#ifndef REGION_REGION_SET_H_
#define REGION_REGION_SET_H_

#include <optional>
#include <string>
#include <vector>

#include "hfile/status.h"
#include "region/layout.h"
#include "region/snapshot.h"
#include "region/table_descriptor.h"
#include "region/table_name.h"

namespace hfile::region {

struct RegionSet {
  enum class Kind : uint8_t { kTable, kRegion, kSnapshot };
  Kind kind = Kind::kTable;
  std::string path;      // what was opened
  std::string root_dir;  // the HBase root dir it belongs to (for links); may be empty
  std::optional<TableName> table;
  std::optional<TableDescriptor> descriptor;
  std::string descriptor_path;  // .tableinfo file, or the snapshot manifest
  Status descriptor_status;     // why `descriptor` is absent
  std::optional<SnapshotInfo> snapshot;
  bool pre_namespace_layout = false;  // HBase <= 0.94 layout
  std::vector<RegionDir> regions;
  // Encoded names of split parents: their .regioninfo says split or offline, or two later
  // regions sharing a region id (the daughters) tile their range. HBase records a split in
  // hbase:meta only and leaves the parent's .regioninfo as it was, so the second rule is what
  // finds the parents of a directory tree.
  std::vector<std::string> split_parents;
  std::vector<std::string> notes;  // facts an operator should know (layout era, ...)

  bool IsSplitParent(const RegionDir& r) const;

  // Families HBase reads: the descriptor's, or every family dir seen when there is none.
  std::vector<std::string> FamilyNames() const;
};

std::string_view RegionSetKindName(RegionSet::Kind k);  // "table" "region" "snapshot"

// A table directory (<root>/data/<ns>/<table>, or <root>/<table> in a pre-0.96 root).
Result<RegionSet> OpenTableRegions(const std::string& table_dir);
// A table by name under a root dir ("ns:name" or "name").
Result<RegionSet> OpenTableRegions(const std::string& root_dir, const std::string& table);
// One region directory (<table dir>/<encoded>).
Result<RegionSet> OpenRegionDirRegions(const std::string& region_dir);
// A snapshot directory (<root>/.hbase-snapshot/<name>). Store files are looked up in the
// root's data/ and archive/, and in <snapshot>/data/ when that exists (exported fixtures).
Result<RegionSet> OpenSnapshotRegions(const std::string& snapshot_dir,
                                      const SnapshotOptions& options = {});

// Regions ordered by (start key, split parents first, region id); those without a readable
// .regioninfo go last, by encoded name.
void SortRegions(std::vector<RegionDir>* regions);
// Fills set->split_parents from set->regions (see above).
void FindSplitParents(RegionSet* set);

}  // namespace hfile::region

#endif  // REGION_REGION_SET_H_
