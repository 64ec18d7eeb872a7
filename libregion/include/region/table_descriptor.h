// TableDescriptor: a table's schema from <table>/.tabledesc/.tableinfo.<seq>[.<length>].
//
//   file = "PBUF" | TableSchema { 1 table_name {1 namespace, 2 qualifier},
//                                 2 repeated attributes {1 key bytes, 2 value bytes},
//                                 3 repeated column_families {1 name, 2 repeated attributes,
//                                                            3 repeated configuration},
//                                 4 repeated configuration {1 name, 2 value} }
// HBase never writes field 4; on read its entries join the table values. Pre-protobuf
// (Writable, HBase <= 0.94) descriptors are reported as NotSupported.
#ifndef REGION_TABLE_DESCRIPTOR_H_
#define REGION_TABLE_DESCRIPTOR_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "hfile/slice.h"
#include "hfile/status.h"
#include "region/family_descriptor.h"
#include "region/table_name.h"

namespace hfile::region {

namespace table_key {
inline constexpr char kIsMeta[] = "IS_META";
inline constexpr char kMaxFileSize[] = "MAX_FILESIZE";
inline constexpr char kReadOnly[] = "READONLY";
inline constexpr char kCompactionEnabled[] = "COMPACTION_ENABLED";
inline constexpr char kSplitEnabled[] = "SPLIT_ENABLED";
inline constexpr char kMergeEnabled[] = "MERGE_ENABLED";
inline constexpr char kMemstoreFlushSize[] = "MEMSTORE_FLUSHSIZE";
inline constexpr char kDurability[] = "DURABILITY";
inline constexpr char kRegionReplication[] = "REGION_REPLICATION";
inline constexpr char kStoreFileTracker[] = "hbase.store.file-tracker.impl";
}  // namespace table_key

class TableDescriptor {
 public:
  using Entry = std::pair<std::string, std::string>;

  TableDescriptor() = default;
  explicit TableDescriptor(TableName name) : name_(std::move(name)) {}

  const TableName& name() const { return name_; }
  const std::vector<Entry>& values() const { return values_; }
  std::optional<std::string> GetValue(const Slice& key) const;
  void SetValue(const Slice& key, const Slice& value);

  // Families in stored order (HBase writes them in name byte order).
  const std::vector<FamilyDescriptor>& families() const { return families_; }
  const FamilyDescriptor* FindFamily(const Slice& name) const;
  // Replaces a family of the same name, or inserts keeping name order.
  void AddFamily(FamilyDescriptor family);

  bool is_meta() const;                         // IS_META, false
  int64_t max_file_size() const;                // MAX_FILESIZE, 10 GiB
  bool read_only() const;                       // READONLY, false
  bool compaction_enabled() const;              // true
  bool split_enabled() const;                   // true
  int32_t region_replication() const;           // 1
  std::string store_file_tracker() const;       // "DEFAULT" when absent (2.4 behaviour)

  // Parses a .tableinfo body. NotSupported for the pre-protobuf form, Corruption otherwise.
  Status DecodeFrom(const Slice& contents);
  // Appends "PBUF" + TableSchema; byte-identical to HBase's file for a decoded descriptor.
  void EncodeTo(std::string* dst) const;
  // Every family's Validate().
  Status Validate() const;

  // As HBase 2.6's shell `describe` prints the descriptor: "<table>, {TABLE_ATTRIBUTES =>
  // {...}}" (toStringTableAttributes), "COLUMN FAMILIES DESCRIPTION", one Describe() line per
  // family. The shell's "Table t is ENABLED" header, blank lines and row count are the caller's.
  std::string Describe() const;

 private:
  TableName name_;
  std::vector<Entry> values_;
  std::vector<FamilyDescriptor> families_;
};

// A parsed descriptor file name: ".tableinfo.<10 digits>[.<content length>]" (2.5+ adds the
// length); bare ".tableinfo" (0.94) has sequence 0.
struct TableInfoFileName {
  uint64_t sequence = 0;
  std::optional<uint64_t> content_length;
};
std::optional<TableInfoFileName> ParseTableInfoFileName(std::string_view name);
// ".tableinfo.<seq zero-padded to 10>", with ".<length>" when given.
std::string TableInfoFileNameFor(uint64_t sequence, std::optional<uint64_t> length = {});

struct LoadedTableDescriptor {
  TableDescriptor descriptor;
  std::string path;  // the file that was read
  TableInfoFileName file_name;
};

// Reads the newest descriptor of the table at `table_dir`: .tabledesc/ (or, for 0.94 layouts,
// the table dir itself), candidates by name descending as HBase does; a short (half-written) or
// unparseable file is skipped in favour of the next one. NotFound if there is none;
// NotSupported if the only candidates are pre-protobuf.
Result<LoadedTableDescriptor> ReadTableDescriptor(const std::string& table_dir);

}  // namespace hfile::region

#endif  // REGION_TABLE_DESCRIPTOR_H_
