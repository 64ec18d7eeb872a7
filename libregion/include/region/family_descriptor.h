// FamilyDescriptor: one column family's settings as HBase stores them in .tableinfo
// (ColumnFamilySchema: name, a byte-keyed value map, a string configuration map), with typed
// accessors that apply HBase's defaults for absent keys (ColumnFamilyDescriptorBuilder).
//
// Values keep their on-disk order so that DecodeFrom + EncodeTo is byte-identical. Enum values
// are parsed case-insensitively, as HBase upper-cases them.
#ifndef REGION_FAMILY_DESCRIPTOR_H_
#define REGION_FAMILY_DESCRIPTOR_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "hfile/slice.h"
#include "hfile/status.h"
#include "hfile/types.h"

namespace hfile::region {

// Attribute keys (exact ASCII).
namespace family_key {
inline constexpr char kBloomFilter[] = "BLOOMFILTER";
inline constexpr char kReplicationScope[] = "REPLICATION_SCOPE";
inline constexpr char kVersions[] = "VERSIONS";
inline constexpr char kMinVersions[] = "MIN_VERSIONS";
inline constexpr char kCompression[] = "COMPRESSION";
inline constexpr char kCompressionCompact[] = "COMPRESSION_COMPACT";
inline constexpr char kCompressionCompactMajor[] = "COMPRESSION_COMPACT_MAJOR";
inline constexpr char kCompressionCompactMinor[] = "COMPRESSION_COMPACT_MINOR";
inline constexpr char kTtl[] = "TTL";
inline constexpr char kBlockSize[] = "BLOCKSIZE";
inline constexpr char kInMemory[] = "IN_MEMORY";
inline constexpr char kBlockCache[] = "BLOCKCACHE";
inline constexpr char kKeepDeletedCells[] = "KEEP_DELETED_CELLS";
inline constexpr char kDataBlockEncoding[] = "DATA_BLOCK_ENCODING";
inline constexpr char kIndexBlockEncoding[] = "INDEX_BLOCK_ENCODING";
inline constexpr char kCompressTags[] = "COMPRESS_TAGS";
inline constexpr char kIsMob[] = "IS_MOB";
inline constexpr char kMobThreshold[] = "MOB_THRESHOLD";
inline constexpr char kNewVersionBehavior[] = "NEW_VERSION_BEHAVIOR";
inline constexpr char kEncryption[] = "ENCRYPTION";
inline constexpr char kPrefixLengthConfig[] = "RowPrefixBloomFilter.prefix_length";
}  // namespace family_key

// KEEP_DELETED_CELLS.
enum class KeepDeletedCells : uint8_t { kFalse, kTrue, kTtl };
std::string_view KeepDeletedCellsName(KeepDeletedCells k);  // "FALSE" "TRUE" "TTL"
std::optional<KeepDeletedCells> ParseKeepDeletedCells(std::string_view s);

inline constexpr int32_t kTtlForever = 2147483647;  // HConstants.FOREVER (seconds)

class FamilyDescriptor {
 public:
  using Entry = std::pair<std::string, std::string>;

  FamilyDescriptor() = default;
  explicit FamilyDescriptor(std::string name) : name_(std::move(name)) {}
  // A family as HBase's builder creates it: the twelve default values pre-populated, in the
  // order HBase 2.x writes them.
  static FamilyDescriptor WithDefaults(std::string name);

  const std::string& name() const { return name_; }
  // The same attributes and configuration under another name (copy-family).
  FamilyDescriptor Renamed(std::string name) const {
    FamilyDescriptor f = *this;
    f.name_ = std::move(name);
    return f;
  }

  // Raw maps (on-disk order).
  const std::vector<Entry>& values() const { return values_; }
  const std::vector<Entry>& configuration() const { return configuration_; }
  std::optional<std::string> GetValue(const Slice& key) const;
  void SetValue(const Slice& key, const Slice& value);  // replaces in place, or appends
  bool RemoveValue(const Slice& key);
  std::optional<std::string> GetConfiguration(const Slice& key) const;
  void SetConfiguration(const Slice& key, const Slice& value);

  // Typed accessors; each returns HBase's default when the key is absent. REQUIRES: Validate()
  // is OK (a malformed value reads as the default).
  int32_t max_versions() const;      // VERSIONS, 1
  int32_t min_versions() const;      // MIN_VERSIONS, 0
  int32_t ttl_seconds() const;       // TTL, 2147483647 (FOREVER)
  bool ttl_is_forever() const;       // TTL 2147483647 or -1
  int64_t ttl_ms() const;            // TTL * 1000, INT64_MAX when forever (ScanInfo)
  KeepDeletedCells keep_deleted_cells() const;  // FALSE
  BloomType bloom_type() const;                 // ROW
  int32_t bloom_prefix_length() const;          // configuration prefix_length, 0 if absent
  DataBlockEncoding data_block_encoding() const;  // NONE
  Compression compression() const;                // NONE
  // COMPRESSION_COMPACT_MAJOR/MINOR → COMPRESSION_COMPACT → COMPRESSION.
  Compression compaction_compression(bool major) const;
  int32_t block_size() const;        // 65536
  bool in_memory() const;            // false
  bool block_cache_enabled() const;  // true
  int32_t replication_scope() const; // 0
  bool compress_tags() const;        // true
  bool is_mob() const;               // false
  int64_t mob_threshold() const;     // 102400
  bool new_version_behavior() const; // false
  bool encrypted() const;            // ENCRYPTION set

  // InvalidArgument naming the key if a well-known value does not parse (a number, a boolean,
  // an enum name this library does not know).
  Status Validate() const;

  // The HBase 2.6 shell's describe line: {NAME => 'cf', INDEX_BLOCK_ENCODING => 'NONE', ...,
  // TTL => 'FOREVER', ..., BLOCKSIZE => '65536 B (64KB)', METADATA => {...}, CONFIGURATION =>
  // {...}}: HBase 2.6's defaults with the stored values over them (as 2.6 reads any stored
  // descriptor), reserved keys in the order Java's HashMap iterates the shell's copy of them,
  // the other values under METADATA (same order), the configuration in its own map's order.
  std::string Describe() const;

  bool operator==(const FamilyDescriptor& o) const = default;

 private:
  std::string name_;
  std::vector<Entry> values_;
  std::vector<Entry> configuration_;
};

// HBase's PrettyPrinter for TTL: "FOREVER", "59 SECONDS", "86400 SECONDS (1 DAY)".
std::string HumanReadableTtl(int64_t seconds);
// HBase's PrettyPrinter for sizes: "100 B", "65536 B (64KB)", "100000 B (97KB 672B)".
std::string HumanReadableBytes(int64_t bytes);

}  // namespace hfile::region

#endif  // REGION_FAMILY_DESCRIPTOR_H_
