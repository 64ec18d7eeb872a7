// Store-file names in a family directory and the small files they may be: plain HFiles
// (optionally bulk-loaded "_SeqId_<n>_"), split References "<file>.<parentRegion>" and
// HFileLinks "[ns=]table=region-hfile".
//
// Reference file (2.x):   "PBUF" | Reference { 1 splitkey bytes, 2 range enum TOP=0 BOTTOM=1 }
// Reference file (legacy): u8 top(1)/bottom(0) | VInt length | splitkey
// splitkey is the KeyValue key of the first cell on the split row (ts LATEST, type Maximum).
#ifndef REGION_STORE_FILE_NAME_H_
#define REGION_STORE_FILE_NAME_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hfile/slice.h"
#include "hfile/status.h"
#include "region/table_name.h"

namespace hfile::region {

struct HFileLinkName {
  TableName table;
  std::string region;  // encoded name
  std::string hfile;

  // "table=region-hfile" (default namespace) or "ns=table=region-hfile".
  std::string ToString() const;
  // The target's relative path "data/<ns>/<table>/<region>/<family>/<hfile>".
  std::string RelativePath(const std::string& family) const;
};

enum class StoreFileKind : uint8_t {
  kHFile,      // [0-9a-f]+ with optional _SeqId_<n>_ or _del
  kReference,  // <hfile-or-link>.<parent region>
  kLink,       // HFileLink (an empty file; the name is the pointer)
  kSkipped,    // HBase skips it with a warning: a directory, empty non-link, or a '-' name
  kInvalid,    // HBase fails the store (and region) open on it
};
std::string_view StoreFileKindName(StoreFileKind k);

struct StoreFileName {
  StoreFileKind kind = StoreFileKind::kInvalid;
  std::string name;
  std::optional<uint64_t> bulk_load_seq_id;  // from "_SeqId_<n>_" (of the referenced file too)
  bool mob_del_file = false;                 // 2.4 MOB "_del" suffix
  // kReference: the referenced file's name (an HFile or link name) and the parent region.
  std::string referenced_name;
  std::string parent_region;
  // kLink, or kReference to a link.
  std::optional<HFileLinkName> link;

  // Classifies a name as HBase's StoreFileInfo does. `is_dir` / `size` let it apply the
  // listing rules (directories and zero-length non-links are skipped).
  static StoreFileName Classify(std::string_view name, bool is_dir = false,
                                std::optional<uint64_t> size = std::nullopt);
};

bool IsValidHFileName(std::string_view name);
std::optional<HFileLinkName> ParseHFileLinkName(std::string_view name);

struct Reference {
  enum class Range : uint8_t { kTop = 0, kBottom = 1 };
  std::string split_key;  // a serialized KeyValue key
  Range range = Range::kBottom;
  bool legacy_writable = false;

  // A reference that splits at `row` (first-on-row key).
  static Reference ForRow(const Slice& row, Range range);
  Status DecodeFrom(const Slice& contents);
  // Appends the protobuf form.
  void EncodeTo(std::string* dst) const;
  // The split row (the row of the split key); empty if the key is malformed.
  std::string SplitRow() const;
  bool top() const { return range == Range::kTop; }
};

Result<Reference> ReadReferenceFile(const std::string& path);

// Where HBase looks for a link's target, in order: <root>/, <root>/archive/, <root>/.tmp/,
// <root>/mobdir/, each + RelativePath(family).
std::vector<std::string> HFileLinkCandidates(const std::string& root_dir,
                                             const HFileLinkName& link,
                                             const std::string& family);
// The first existing candidate; NotFound listing the places tried.
Result<std::string> ResolveHFileLink(const std::string& root_dir, const HFileLinkName& link,
                                     const std::string& family);

}  // namespace hfile::region

#endif  // REGION_STORE_FILE_NAME_H_
