// The file info block (FILEINF2): a byte-keyed map of file metadata.
//
//   protobuf form (HBase 0.96+):  "PBUF" | varint32 len | FileInfoProto { repeated
//                                  BytesBytesPair { bytes first = 1; bytes second = 2; } }
//   Writable form (older):        int32 count | count x { VInt+key | u8 type | VInt+value }
// Entries are kept sorted by key in unsigned byte order, as HBase's TreeMap writes them.
#ifndef HFILE_FILE_INFO_H_
#define HFILE_FILE_INFO_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "hfile/slice.h"
#include "hfile/status.h"
#include "hfile/types.h"

namespace hfile {

// Well-known keys (exact bytes as HBase writes them).
namespace fileinfo {
inline constexpr char kLastKey[] = "hfile.LASTKEY";
inline constexpr char kAvgKeyLen[] = "hfile.AVG_KEY_LEN";
inline constexpr char kAvgValueLen[] = "hfile.AVG_VALUE_LEN";
inline constexpr char kCreateTimeTs[] = "hfile.CREATE_TIME_TS";
inline constexpr char kMaxTagsLen[] = "hfile.MAX_TAGS_LEN";
inline constexpr char kTagsCompressed[] = "hfile.TAGS_COMPRESSED";
inline constexpr char kKeyOfBiggestCell[] = "hfile.KEY_OF_BIGGEST_CELL";
inline constexpr char kLenOfBiggestCell[] = "hfile.LEN_OF_BIGGEST_CELL";
inline constexpr char kComparator[] = "hfile.COMPARATOR";
inline constexpr char kKeyValueVersion[] = "KEY_VALUE_VERSION";
inline constexpr char kMaxMemstoreTs[] = "MAX_MEMSTORE_TS_KEY";
inline constexpr char kDataBlockEncoding[] = "DATA_BLOCK_ENCODING";
inline constexpr char kMaxSeqId[] = "MAX_SEQ_ID_KEY";
inline constexpr char kMajorCompaction[] = "MAJOR_COMPACTION_KEY";
inline constexpr char kExcludeFromMinorCompaction[] = "EXCLUDE_FROM_MINOR_COMPACTION";
inline constexpr char kCompactionEvent[] = "COMPACTION_EVENT_KEY";
inline constexpr char kTimeRange[] = "TIMERANGE";
inline constexpr char kEarliestPutTs[] = "EARLIEST_PUT_TS";
inline constexpr char kBloomFilterType[] = "BLOOM_FILTER_TYPE";
inline constexpr char kBloomFilterParam[] = "BLOOM_FILTER_PARAM";
inline constexpr char kLastBloomKey[] = "LAST_BLOOM_KEY";
inline constexpr char kDeleteFamilyCount[] = "DELETE_FAMILY_COUNT";
inline constexpr char kMobCellsCount[] = "MOB_CELLS_COUNT";
inline constexpr char kMobFileRefs[] = "MOB_FILE_REFS";
inline constexpr char kBulkloadSourceTask[] = "BULKLOAD_SOURCE_TASK";
inline constexpr char kBulkloadTimestamp[] = "BULKLOAD_TIMESTAMP";
inline constexpr char kSkipResetSeqId[] = "SKIP_RESET_SEQ_ID";
inline constexpr char kHistorical[] = "HISTORICAL";
inline constexpr int32_t kKeyValueVersionWithMvcc = 1;
}  // namespace fileinfo

class FileInfo {
 public:
  using Entry = std::pair<std::string, std::string>;

  // Parses either form. Corruption if the body is malformed (counts are bounded by the body).
  Status DecodeFrom(const Slice& body);
  // Appends the protobuf form ("PBUF" + delimited FileInfoProto), keys in byte order.
  void EncodeTo(std::string* dst) const;

  // Sets (or replaces) a value, keeping key order.
  void Set(const Slice& key, const Slice& value);
  void SetInt32(const Slice& key, int32_t v);
  void SetInt64(const Slice& key, int64_t v);
  void SetBool(const Slice& key, bool v);
  bool Remove(const Slice& key);

  std::optional<Slice> Get(const Slice& key) const;
  // Typed reads: nullopt if absent or of the wrong width.
  std::optional<int32_t> GetInt32(const Slice& key) const;
  std::optional<int64_t> GetInt64(const Slice& key) const;
  std::optional<bool> GetBool(const Slice& key) const;

  const std::vector<Entry>& entries() const { return entries_; }
  bool was_protobuf() const { return was_protobuf_; }

 private:
  std::vector<Entry> entries_;
  bool was_protobuf_ = true;
};

// TIMERANGE value: 16 bytes (int64 min, int64 max), or "PBUF" + TimeRangeTracker (early 2.0).
struct TimeRange {
  int64_t min = INT64_MAX;
  int64_t max = -1;
};
std::optional<TimeRange> DecodeTimeRange(const Slice& value);
void EncodeTimeRange(const TimeRange& tr, std::string* dst);

// COMPACTION_EVENT_KEY value: "PBUF" + CompactionEventTracker (the names of the store files a
// compaction replaced). nullopt when it does not parse.
std::optional<std::vector<std::string>> DecodeCompactionEvent(const Slice& value);
void EncodeCompactionEvent(const std::vector<std::string>& files, std::string* dst);

// A readable rendering of a file-info value: numbers for the integer keys, key strings for
// LASTKEY and friends, "true"/"false" for booleans, the two timestamps of TIMERANGE; unknown
// keys as Bytes.toStringBinary.
std::string DescribeFileInfoValue(const Slice& key, const Slice& value, ComparatorKind kind);

// A serialized KeyValue key as HBase prints it: "row/family:qualifier/timestamp/Type".
std::string DescribeKey(const Slice& key, ComparatorKind kind);

}  // namespace hfile

#endif  // HFILE_FILE_INFO_H_
