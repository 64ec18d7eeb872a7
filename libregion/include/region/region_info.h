// RegionInfo: what a region is (table, key range, id), its names, and the .regioninfo file.
//
// .regioninfo (HBase 0.96+):   "PBUF" | varint32 len | RegionInfo { 1 region_id uint64,
//                              2 table_name {1 namespace, 2 qualifier}, 3 start_key, 4 end_key,
//                              5 offline, 6 split, 7 replica_id }
// .regioninfo (0.90-0.94, Writable, read only):
//                              u8 version | bytes endKey | bool offline | int64 regionId |
//                              bytes regionName | bool split | bytes startKey |
//                              v1: bytes tableName | v0: int32 htdVersion, bytes tableName, ...
//                              (bytes = Hadoop VInt length + bytes), then a text rendering.
// Full region name: table ',' startKey ',' regionId ['_' %04X replica] '.' encoded '.'
// Encoded name (the directory name): MD5 hex of the name up to (not including) the ".<md5>."
// suffix; hbase:meta keeps the old Jenkins-hash name 1588230740.
#ifndef REGION_REGION_INFO_H_
#define REGION_REGION_INFO_H_

#include <cstdint>
#include <string>

#include "hfile/slice.h"
#include "hfile/status.h"
#include "region/table_name.h"

namespace hfile::region {

inline constexpr char kMetaEncodedName[] = "1588230740";

struct RegionInfo {
  TableName table;
  std::string start_key;  // inclusive; empty = unbounded
  std::string end_key;    // exclusive; empty = unbounded
  uint64_t region_id = 0;  // creation time in ms
  bool offline = false;
  bool split = false;
  int32_t replica_id = 0;
  // False when decoded from a file that lacked field 7 (HBase 0.98 writes 6 fields); EncodeTo
  // then omits it too, so a re-encode is byte-identical. New RegionInfos write all seven.
  bool has_replica_field = true;
  // True when decoded from the pre-protobuf Writable form.
  bool from_writable = false;

  // "table,start,id[_replica]" — the bytes the encoded name hashes.
  std::string NameWithoutEncodedSuffix() const;
  // The full region name, with the ".<encoded>." suffix (none for hbase:meta).
  std::string RegionName() const;
  // The region's directory name (replicas hash their own name; they share the primary's dir).
  std::string EncodedName() const;
  bool IsMeta() const;
  // start <= row and (end empty or row < end).
  bool ContainsRow(const Slice& row) const;

  // Parses a .regioninfo file body: the protobuf form, or the Writable form of 0.90-0.94.
  // Corruption on malformed bytes.
  Status DecodeFrom(const Slice& file_contents);
  // Parses an hbase:meta info:regioninfo value ("PBUF" + message, no length prefix).
  Status DecodeMetaValueFrom(const Slice& value);
  // Appends the .regioninfo protobuf form ("PBUF" + varint length + message).
  void EncodeTo(std::string* dst) const;
  // Appends the hbase:meta info:regioninfo value form ("PBUF" + message, no length).
  void EncodeMetaValueTo(std::string* dst) const;
  // HBase's RegionInfo.toString: {ENCODED => e, NAME => 'n', STARTKEY => 's', ENDKEY => 'e'}.
  std::string ToString() const;
};

// Reads and parses <region dir>/.regioninfo (or any path to such a file).
Result<RegionInfo> ReadRegionInfoFile(const std::string& path);

}  // namespace hfile::region

#endif  // REGION_REGION_INFO_H_
