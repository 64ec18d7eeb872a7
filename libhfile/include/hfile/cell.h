// Cells (HBase KeyValues) as views, their serialized key, and HBase's cell orders.
//
// Serialized KeyValue key (what the block index, LASTKEY and the blooms store):
//
//   +---------+-----+------+--------+-----------+-------------+------+
//   | rowlen  | row |famlen| family | qualifier | timestamp   | type |
//   | int16BE |     | u8   |        |           | int64 BE    | u8   |
//   +---------+-----+------+--------+-----------+-------------+------+
//   qualifier length = key length - (2 + rowlen + 1 + famlen + 8 + 1)
#ifndef HFILE_CELL_H_
#define HFILE_CELL_H_

#include <cstdint>
#include <string>

#include "hfile/coding.h"
#include "hfile/slice.h"
#include "hfile/types.h"

namespace hfile {

// KeyValue.Type codes.
enum class KeyType : uint8_t {
  kMinimum = 0,
  kPut = 4,
  kDelete = 8,
  kDeleteFamilyVersion = 10,
  kDeleteColumn = 12,
  kDeleteFamily = 14,
  kMaximum = 255,
};
// "Put", "Delete", "DeleteColumn", ... as HBase prints them; "Unknown(N)" otherwise.
std::string KeyTypeName(uint8_t type);
// True for the codes of HBase's KeyValue.Type (Minimum, Put, Delete, DeleteFamilyVersion,
// DeleteColumn, DeleteFamily, Maximum); KeyValue.Type.codeToType throws on any other.
bool IsDefinedKeyType(uint8_t type);
// Delete, DeleteFamilyVersion, DeleteColumn, DeleteFamily. Inline: the compaction rules ask
// it of every cell.
inline bool IsDeleteType(uint8_t type) {
  return type == 8 || type == 10 || type == 12 || type == 14;
}

inline constexpr size_t kKeyInfrastructureSize = 12;  // rowlen(2) famlen(1) ts(8) type(1)
inline constexpr int64_t kLatestTimestamp = INT64_MAX;

// Field accessors over a serialized key. REQUIRES: IsValidKey(key).
inline uint16_t KeyRowLength(const Slice& key) {
  return static_cast<uint16_t>((key.byte(0) << 8) | key.byte(1));
}

// True iff `key` is a well-formed serialized KeyValue key (lengths consistent). Inline: the
// writer and the merge ask it of every cell.
inline bool IsValidKey(const Slice& key) {
  if (key.size() < kKeyInfrastructureSize) return false;
  const size_t row_len = KeyRowLength(key);
  if (2 + row_len + 1 + 9 > key.size()) return false;
  return 2 + row_len + 1 + key.byte(2 + row_len) + 9 <= key.size();
}
inline Slice KeyRow(const Slice& key) { return Slice(key.data() + 2, KeyRowLength(key)); }
inline Slice KeyFamily(const Slice& key) {
  size_t off = 2 + KeyRowLength(key);
  return Slice(key.data() + off + 1, key.byte(off));
}
inline Slice KeyQualifier(const Slice& key) {
  size_t off = 2 + KeyRowLength(key);
  size_t fam = key.byte(off);
  size_t start = off + 1 + fam;
  return Slice(key.data() + start, key.size() - start - 9);
}
// Inline: the compaction rules and the writer read it once per cell.
inline int64_t KeyTimestamp(const Slice& key) {
  return static_cast<int64_t>(DecodeFixed64BE(key.data() + key.size() - 9));
}
inline uint8_t KeyTypeByte(const Slice& key) { return key.byte(key.size() - 1); }

// Appends a serialized key.
void AppendKey(std::string* dst, const Slice& row, const Slice& family, const Slice& qualifier,
               int64_t timestamp, uint8_t type);

// One cell, as views. Who produced it says how long the bytes stay valid (for an iterator: until
// it moves). An empty `tags` means no tags.
struct Cell {
  Slice key;    // serialized key (above)
  Slice value;
  Slice tags;   // concatenated tags: u16 BE length, u8 type, value
  uint64_t sequence_id = 0;  // MVCC / memstoreTS; 0 when the file stores none

  Slice row() const { return KeyRow(key); }
  Slice family() const { return KeyFamily(key); }
  Slice qualifier() const { return KeyQualifier(key); }
  int64_t timestamp() const { return KeyTimestamp(key); }
  uint8_t type() const { return KeyTypeByte(key); }
};

// The cell's size as a plain KeyValue: key and value lengths (4 + 4), key, value, and with tags
// their length (2) and bytes. The unencoded size the tools report and estimate from.
inline uint64_t KeyValueSize(const Cell& c) {
  return 8 + c.key.size() + c.value.size() + (c.tags.empty() ? 0 : 2 + c.tags.size());
}

// Orders serialized keys as HBase's comparator of kind `kind` does (fields 1-6 of the cell
// order: row, family, qualifier, timestamp descending, type descending; the meta comparator
// splits rows at commas). kRawBytes compares the whole key as bytes. Row-only keys
// (<int16 rowlen><row>, written by some non-HBase writers) order as the first key of their row;
// other malformed keys order as raw bytes, so a damaged file never causes an out-of-bounds read.
int CompareKeys(ComparatorKind kind, const Slice& a, const Slice& b);

// The fields of a key in comparison order; kNone: the keys are equal.
enum class KeyField : uint8_t { kRow, kFamily, kQualifier, kTimestamp, kType, kNone };
// CompareKeys that also reports the first field in which a and b differ (the "last on row" key
// differs in its family), so that a caller walking sorted cells learns "same row" or "same
// column" from the one comparison. Keys that are not both full KeyValue keys report kRow.
int CompareKeys(ComparatorKind kind, const Slice& a, const Slice& b, KeyField* first_difference);
// The same order for keys the caller has already checked once each: REQUIRES IsValidKey(a),
// IsValidKey(b) and kind != kRawBytes. Leaves out the two IsValidKey calls CompareKeys makes on
// every comparison (the writer checks each appended key once; the merge each input cell once).
int CompareCheckedKeys(ComparatorKind kind, const Slice& a, const Slice& b,
                       KeyField* first_difference);
// Row order only.
int CompareRows(ComparatorKind kind, const Slice& a, const Slice& b);

}  // namespace hfile

#endif  // HFILE_CELL_H_
