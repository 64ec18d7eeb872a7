// Snapshots (format v2, HBase 0.98+): <root>/.hbase-snapshot/<name>/
//
//   .snapshotinfo   SnapshotDescription { 1 name, 2 table, 3 creation_time, 4 type,
//                   5 version (2 = manifest format), 6 owner, 8 ttl }   (bare message)
//   data.manifest   SnapshotDataManifest { 1 table_schema, 2 repeated region manifests {
//                   2 region_info, 3 repeated family { 1 name, 2 repeated store file {
//                   1 name, 2 reference, 3 size } } } }                   (bare message)
// Store file names are resolved against the table's live directory first, then the archive.
#ifndef REGION_SNAPSHOT_H_
#define REGION_SNAPSHOT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "hfile/status.h"
#include "region/region_info.h"
#include "region/store_file_name.h"
#include "region/table_descriptor.h"

namespace hfile::region {

struct SnapshotInfo {
  std::string name;
  std::string table;  // "ns:qualifier" or "qualifier"
  int64_t creation_time = 0;
  int type = 1;  // DISABLED 0, FLUSH 1, SKIPFLUSH 2
  int32_t version = 0;
  std::string owner;
  int64_t ttl = 0;

  Status DecodeFrom(const Slice& contents);
};

struct SnapshotStoreFile {
  StoreFileName name;
  std::optional<Reference> reference;  // references are recorded inline in the manifest
  uint64_t size = 0;
  std::string path;  // resolved HFile (first existing candidate); empty if none
  std::vector<std::string> candidates;  // the places looked at, in order
};

struct SnapshotFamily {
  std::string name;
  std::vector<SnapshotStoreFile> files;
};

struct SnapshotRegion {
  RegionInfo info;
  std::vector<SnapshotFamily> families;
};

struct SnapshotOptions {
  // The HBase root dir; default: two levels above the snapshot dir (<root>/.hbase-snapshot/x).
  std::string root_dir;
  // Further directories tried after data/ and archive/data/; each holds
  // <ns>/<table>/<region>/<family>/<file> or, without the namespace level,
  // <table>/<region>/<family>/<file>.
  std::vector<std::string> extra_data_dirs;
};

class Snapshot {
 public:
  // Reads .snapshotinfo and data.manifest and resolves every store file. NotSupported for a
  // v1 (pre-manifest, version 0) snapshot; unresolved files leave `path` empty.
  static Result<Snapshot> Open(const std::string& snapshot_dir,
                               const SnapshotOptions& options = {});

  const SnapshotInfo& info() const { return info_; }
  const TableDescriptor& descriptor() const { return descriptor_; }
  const std::vector<SnapshotRegion>& regions() const { return regions_; }
  size_t store_file_count() const;
  size_t unresolved_count() const;

 private:
  SnapshotInfo info_;
  TableDescriptor descriptor_;
  std::vector<SnapshotRegion> regions_;
};

}  // namespace hfile::region

#endif  // REGION_SNAPSHOT_H_
