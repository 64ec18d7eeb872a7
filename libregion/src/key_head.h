#ifndef HFILE_REGION_SRC_KEY_HEAD_H_
#define HFILE_REGION_SRC_KEY_HEAD_H_

// The head of a cell key: a few bytes of it as numbers, so that sorting and merging settle
// most comparisons with two integer comparisons instead of decoding both keys (the decode and
// the full comparison were ~45% of a bulk load's CPU, then the cache misses on the records of
// same-row cells most of the rest).
//
//   row    (128 bits)  row bytes [0, 16), big-endian, zero-padded past the row's end
//   column (64 bits)   bits 63-57  row length, 17 for any longer row
//                      bit  56     1 when the family bits below are exact (see HeadOf)
//                      bits 55-24  family bytes [0, 4), zero-padded
//                      bits 23-0   qualifier bytes [0, 3), zero-padded
//
// Only for the default comparator; for the others (meta splits rows at commas, raw bytes has no
// row) the head is all zero and every comparison goes to the keys.

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "hfile/cell.h"
#include "hfile/coding.h"

namespace hfile::region {

using RowPrefix = unsigned __int128;

struct KeyHead {
  RowPrefix row = 0;
  uint64_t column = 0;

  friend bool operator==(const KeyHead& a, const KeyHead& b) {
    return a.row == b.row && a.column == b.column;
  }
};

namespace key_head_internal {
constexpr uint64_t kExactFamily = uint64_t{1} << 56;
constexpr int kRowLengthShift = 57;

// The first n (at most 8) bytes of a big-endian number, the rest zeroed.
inline uint64_t TopBytes(uint64_t v, size_t n) {
  return n == 0 ? 0 : v & (~uint64_t{0} << (8 * (8 - n)));
}
}  // namespace key_head_internal

// The head of a valid key (IsValidKey). The family bits count only when the family has 1 to 4
// bytes, none of them NUL (HBase forbids control characters in family names): only then do
// zero-padded family bytes order like the families, and an empty family would have to sort
// last for type Minimum ("last on row"). Inlined: one per cell added and per cell merged.
[[gnu::always_inline]] inline KeyHead HeadOf(ComparatorKind kind, const Slice& key) {
  using namespace key_head_internal;
  KeyHead h;
  if (kind != ComparatorKind::kDefault || key.size() < 2) return h;
  const char* k = key.data();
  const size_t row_len = std::min<size_t>(KeyRowLength(key), key.size() - 2);
  uint64_t hi, lo;
  if (key.size() >= 2 + 16) {  // whole loads; the bytes past the row are masked off
    hi = DecodeFixed64BE(k + 2);
    lo = DecodeFixed64BE(k + 10);
  } else {
    char b[16] = {};
    std::memcpy(b, k + 2, key.size() - 2);
    hi = DecodeFixed64BE(b);
    lo = DecodeFixed64BE(b + 8);
  }
  hi = TopBytes(hi, std::min<size_t>(row_len, 8));
  lo = row_len > 8 ? TopBytes(lo, std::min<size_t>(row_len - 8, 8)) : 0;
  h.row = (RowPrefix{hi} << 64) | lo;
  h.column = uint64_t{std::min<size_t>(row_len, 17)} << kRowLengthShift;
  // row, family length, family, qualifier, then timestamp (8) and type (1): eight bytes from
  // the family or the qualifier are always inside the key.
  const size_t fam_at = 2 + row_len;
  if (row_len > 16 || fam_at + 1 + 9 > key.size()) return h;
  const size_t fam_len = key.byte(fam_at);
  if (fam_len == 0 || fam_len > 4 || fam_at + 1 + fam_len + 9 > key.size()) return h;
  const char* fam = k + fam_at + 1;
  // No NUL among the family's bytes.
  for (size_t i = 0; i < fam_len; ++i) {
    if (fam[i] == 0) return h;
  }
  const size_t qual_len = key.size() - 9 - (fam_at + 1 + fam_len);
  const uint64_t fam_bytes = TopBytes(DecodeFixed64BE(fam), fam_len) >> 32;
  const uint64_t qual_bytes =
      TopBytes(DecodeFixed64BE(fam + fam_len), std::min<size_t>(qual_len, 3)) >> 40;
  h.column |= kExactFamily | (fam_bytes << 24) | qual_bytes;
  return h;
}

// -1 or 1 when the heads alone order the keys as CompareKeys does; 0 when the keys must be
// compared (equal heads, rows longer than 16 bytes, families the head cannot hold).
inline int CompareHeads(const KeyHead& a, const KeyHead& b) {
  using namespace key_head_internal;
  if (a.row != b.row) return a.row < b.row ? -1 : 1;
  const uint64_t la = a.column >> kRowLengthShift, lb = b.column >> kRowLengthShift;
  // Equal first 16 bytes: a row no longer than 16 is a proper prefix of any longer one.
  if (la != lb) return la < lb ? -1 : 1;
  if (la <= 16 && (a.column & b.column & kExactFamily) != 0 && a.column != b.column) {
    return a.column < b.column ? -1 : 1;  // same row: family, then qualifier
  }
  return 0;
}

}  // namespace hfile::region

#endif  // HFILE_REGION_SRC_KEY_HEAD_H_
