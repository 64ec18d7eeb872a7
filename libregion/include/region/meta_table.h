// MetaTable: what hbase:meta on disk says about the regions of the root's tables, read offline
// from <root>/data/hbase/meta/1588230740/info/ (REGION_LAYOUT: one row per region, named by the
// full region name; info:regioninfo = "PBUF" + RegionInfo, info:state = the RegionState.State
// name, info:mergeNNNN = a merge parent's RegionInfo).
//
// The store files are merged as a client Get reads them: HBase's scanner order, the newest
// version of each cell, delete markers honoured (the compaction matcher of compaction.h with
// VERSIONS 1). Edits still in meta's WALs are not read: a clean stop flushes hbase:meta, and
// `wal_files` names the WAL files that may hold edits (more than a header and trailer), so that
// a caller can say its view may be stale.
#ifndef REGION_META_TABLE_H_
#define REGION_META_TABLE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "hfile/reader.h"
#include "hfile/status.h"
#include "region/region_info.h"
#include "region/table_name.h"

namespace hfile::region {

struct MetaRegion {
  std::string row;    // the meta row key (the region name)
  RegionInfo info;    // info:regioninfo
  std::string state;  // info:state ("OPEN", "CLOSED", "SPLIT", ...); empty when absent
  std::vector<RegionInfo> merge_parents;  // info:merge* (a merged region not yet cleaned)

  // Not a live region: a split parent (split or offline in its RegionInfo), or a region whose
  // state says it was split or merged away. HBase leaves these out of the key space.
  bool IsParent() const;
};

struct MetaTable {
  std::string region_dir;  // <root>/data/hbase/meta/1588230740
  uint64_t store_files = 0;
  std::vector<MetaRegion> regions;  // rows with an info:regioninfo, in meta order
  // Rows whose info:regioninfo (or a merge qualifier) does not parse: "row: why".
  std::vector<std::string> bad_rows;
  // hbase:meta WAL files (<root>/WALs/*/*.meta) with entries, and the meta region's
  // recovered.edits files: edits not in the store files read.
  std::vector<std::string> wal_files;
};

// <root>/data/hbase/meta/1588230740.
std::string MetaRegionDirPath(const std::string& root_dir);

// Reads hbase:meta's info family under `root_dir`: with `table`, only that table's rows are
// kept (meta is still read whole; memory holds one table's rows). NotFound when the root has no
// hbase:meta region dir; a store file that cannot be read fails the read with its status.
Result<MetaTable> ReadMetaTable(const std::string& root_dir, const ReaderOptions& options = {},
                                const TableName* table = nullptr);

// The table's state as hbase:meta's `table` family records it (row = the table's name,
// table:state = HBaseProtos.TableState, with or without the "PBUF" prefix): "ENABLED",
// "DISABLED", "DISABLING" or "ENABLING"; nullopt when meta has no such cell. Read as
// ReadMetaTable reads `info` (store files only, newest version, deletes applied). NotFound when
// the root has no hbase:meta region dir; Corruption when the value does not parse.
Result<std::optional<std::string>> ReadMetaTableState(const std::string& root_dir,
                                                      const TableName& table,
                                                      const ReaderOptions& options = {});

// True when the WAL file's bytes are at most a protobuf WAL header ("PWAL" + delimited
// WALHeader) and, if closed, its trailer ("LAWP"-terminated): it holds no edits. Files that do
// not parse as such count as holding edits.
bool WalFileHasNoEntries(const std::string& contents);

}  // namespace hfile::region

#endif  // REGION_META_TABLE_H_
