// The on-disk layout of an HBase (0.96+) root directory, read-only:
//
//   <root>/data/<ns>/<table>/.tabledesc/.tableinfo.<seq>[.<len>]
//                           /<encodedRegion>/.regioninfo
//                                           /.tmp/  recovered.edits/
//                                           /<family>/<storefile>  (+ .filelist/)
//   <root>/archive/data/<ns>/<table>/<enc>/<family>/<file>
//   <root>/.hbase-snapshot/<name>/
//
// Scans report what HBase would do with each entry: which store files it opens, which it
// skips, and which would make the region open fail.
#ifndef REGION_LAYOUT_H_
#define REGION_LAYOUT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "hfile/status.h"
#include "region/region_info.h"
#include "region/store_file_list.h"
#include "region/store_file_name.h"
#include "region/table_descriptor.h"
#include "region/table_name.h"

namespace hfile::region {

// One entry HBase opens as a store file.
struct StoreFile {
  std::string path;  // in the family dir
  StoreFileName name;
  uint64_t size = 0;
  std::optional<Reference> reference;  // for kReference: the parsed file
  // The file whose cells this entry stands for: itself (HFile), the link target, or the
  // referenced parent file (through its link, if any). Empty when unresolved; then
  // `target_status` says why.
  std::string target_path;
  Status target_status;
};

// A store file HBase drops when it opens the store: another store file's
// COMPACTION_EVENT_KEY names it (compacted_files.h).
struct CompactedAwayFile {
  StoreFile file;
  std::string named_by;  // the entry whose COMPACTION_EVENT_KEY lists it
};

struct FamilyDir {
  std::string name;
  std::string path;
  // What HBase would open, name order. ScanFamilyDir judges by name only; the RegionSet
  // openers then move the compacted-away entries to `compacted_away` (SeparateCompactedAway).
  std::vector<StoreFile> store_files;
  std::vector<CompactedAwayFile> compacted_away;  // leftovers of a compaction, not read
  std::vector<std::string> skipped;    // names HBase skips with a warning
  std::vector<std::string> invalid;    // names that make HBase fail the region open
  // ".<file>.crc" beside <file>: Hadoop LocalFileSystem checksums, which that filesystem hides
  // from HBase (on HDFS such a name would be `invalid`).
  std::vector<std::string> crc_side_files;
  std::optional<StoreFileList> tracker;  // the FILE tracker's list, when .filelist/ exists
  std::vector<std::string> untracked;    // present but not in `tracker` (ignored by HBase)
};

struct RegionDir {
  std::string path;
  std::string encoded_name;
  std::optional<RegionInfo> info;
  Status info_status;              // why `info` is absent
  bool name_matches_info = false;  // info->EncodedName() == encoded_name (primary replica)
  std::vector<FamilyDir> families;
  std::vector<std::string> recovered_edits;  // entries of recovered.edits/
  bool has_tmp = false;                      // .tmp/ exists (HBase deletes it on open)
  std::vector<std::string> other_entries;    // files/dirs HBase does not use

  const FamilyDir* FindFamily(const std::string& name) const;
  // recovered.edits holds edit files (not only "<n>.seqid" markers): HBase would replay them.
  bool HasPendingEdits() const;
};

struct TableDir {
  TableName name;
  std::string path;
  std::optional<LoadedTableDescriptor> descriptor;
  Status descriptor_status;
  std::vector<std::string> regions;  // encoded names of region dirs ([0-9a-f]+), sorted
};

// FSUtils.RegionDirFilter: ^[0-9a-f]*$ (and non-empty).
bool IsRegionDirName(std::string_view name);
// The column-family name rules: non-empty, no leading '.', no ISO control chars, no ':' '\'
// '/', and not "recovered.edits".
bool IsFamilyDirName(std::string_view name);

// Scans one family directory. `root_dir` resolves links; `table_dir` resolves references.
Result<FamilyDir> ScanFamilyDir(const std::string& root_dir, const std::string& table_dir,
                                const std::string& family_dir);
// Scans one region directory and its family directories. With a descriptor, directories of
// families it does not have are listed in `other_entries` (HBase ignores them).
Result<RegionDir> ScanRegionDir(const std::string& root_dir, const std::string& region_dir,
                                const TableDescriptor* descriptor = nullptr);

class RootDir {
 public:
  // NotFound if `path` has no data/ directory; NotSupported for a pre-0.96 layout (tables at
  // the top level, -ROOT-).
  static Result<RootDir> Open(const std::string& path);

  const std::string& path() const { return path_; }
  std::string TableDirPath(const TableName& t) const;
  std::string RegionDirPath(const TableName& t, const std::string& encoded) const;
  std::string ArchiveFamilyDirPath(const TableName& t, const std::string& encoded,
                                   const std::string& family) const;
  std::string SnapshotDirPath(const std::string& snapshot) const;

  Result<std::vector<std::string>> ListNamespaces() const;
  // Tables of every namespace, sorted by (namespace, qualifier).
  Result<std::vector<TableName>> ListTables() const;
  Result<std::vector<std::string>> ListSnapshots() const;
  // Reads the descriptor (a failure is recorded, not returned) and lists the region dirs.
  Result<TableDir> OpenTable(const TableName& t) const;
  // Scans a region, using the table's descriptor (when readable) to tell family dirs apart.
  Result<RegionDir> OpenRegion(const TableName& t, const std::string& encoded) const;

 private:
  explicit RootDir(std::string path) : path_(std::move(path)) {}
  std::string path_;
};

}  // namespace hfile::region

#endif  // REGION_LAYOUT_H_
