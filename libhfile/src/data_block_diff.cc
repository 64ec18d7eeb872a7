// DIFF (id 3): common key prefix, the family stored once per block, flags for repeated lengths
// and type, and the timestamp stored as a short value or a short difference.
//
// Block (after the 6-byte header, see data_block_delta.h):
//   u8 familyLength | family                      once, before the first cell
// Per cell:
//   u8 flag
//   [compressedInt keyLength]           unless SAME_KEY_LENGTH
//   [compressedInt valueLength]         unless SAME_VALUE_LENGTH
//   compressedInt common                0 for the first cell
//   row rest + qualifier                family omitted
//   timestamp or its diff, 1-8 bytes LITTLE-endian
//   [u8 type]                           unless SAME_TYPE
//   value | suffix
// flag: 0x01 SAME_KEY_LENGTH, 0x02 SAME_VALUE_LENGTH, 0x04 SAME_TYPE, 0x08 TIMESTAMP_IS_DIFF,
//       0x70 (byte count - 1) of the timestamp field, 0x80 TIMESTAMP_SIGN.
// Row rest + qualifier: see DecodeDiffKeyHead (data_block_delta.h); common uses withTsType=false.
//
// Notes (hbase-common/src/main/java/org/apache/hadoop/hbase/io/encoding/DiffKeyDeltaEncoder.java,
// ByteBufferUtils.longFitsIn / putLong):
//  * First cell: the flag carries only the byte count and sign of |ts|; key length, value length,
//    common (0) and type are all written.
//  * Later cells: diff = prevTs - ts (Java long, wrapping), both ts and diff made non-negative
//    (a TIMESTAMP_SIGN bit each); the diff form is used only if it needs strictly fewer bytes.
//    longFitsIn returns 8 for a value still negative after negation (Long.MIN_VALUE).
//  * The timestamp field is LITTLE-endian, unlike everything else in the key.
//  * Decoded ts = (IS_DIFF ? prevTs - v : v) with v negated first if TIMESTAMP_SIGN.
#include <cstring>

#include "hfile/coding.h"
#include "data_block_delta.h"

namespace hfile {
namespace {

constexpr DataBlockEncoding kEncoding = DataBlockEncoding::kDiff;
constexpr uint8_t kSameKeyLength = 0x01;
constexpr uint8_t kSameValueLength = 0x02;
constexpr uint8_t kSameType = 0x04;
constexpr uint8_t kTimestampIsDiff = 0x08;
constexpr int kTimestampLengthShift = 4;
constexpr uint8_t kTimestampSign = 0x80;

int LongFitsIn(int64_t v) {
  if (v < 0) return 8;
  int n = 1;
  while (n < 8 && (static_cast<uint64_t>(v) >> (8 * n)) != 0) ++n;
  return n;
}

int64_t Negate(int64_t v) { return static_cast<int64_t>(0 - static_cast<uint64_t>(v)); }

class DiffEncoder final : public DeltaBlockEncoder {
 public:
  explicit DiffEncoder(const CellFormat& format)
      : DeltaBlockEncoder(kEncoding, format) {}

 protected:
  char* EncodeKeyValue(const Cell& cell, char* p) override {
    const Slice key = cell.key;
    const char* const ts_at = key.end() - 9;
    const uint64_t cell_ts = DecodeFixed64BE(ts_at);
    const uint8_t type = static_cast<uint8_t>(ts_at[8]);
    uint8_t flag = 0;
    int64_t ts = static_cast<int64_t>(cell_ts);
    const bool negative = ts < 0;
    if (negative) ts = Negate(ts);
    int64_t field = ts;
    int field_bytes = LongFitsIn(ts);
    size_t common = 0;
    const Slice prev = prev_key();
    if (count_ == 0) {
      if (negative) flag |= kTimestampSign;
      // The family, with its length byte, once before the first cell.
      const size_t family_at = 2 + KeyRowLength(key);
      const size_t family_size = 1 + key.byte(family_at);
      memcpy(p, key.data() + family_at, family_size);
      p += family_size;
    } else {
      common = FlatKeyCommonPrefix(key, prev, false);
      if (key.size() == prev.size()) flag |= kSameKeyLength;
      if (cell.value.size() == prev_value_size_) flag |= kSameValueLength;
      if (type == KeyTypeByte(prev)) flag |= kSameType;
      int64_t diff = static_cast<int64_t>(DecodeFixed64BE(prev.end() - 9) - cell_ts);
      const bool minus_diff = diff < 0;
      if (minus_diff) diff = Negate(diff);
      const int diff_bytes = LongFitsIn(diff);
      if (diff_bytes < field_bytes) {
        flag |= kTimestampIsDiff;
        if (minus_diff) flag |= kTimestampSign;
        field = diff;
        field_bytes = diff_bytes;
      } else if (negative) {
        flag |= kTimestampSign;
      }
    }
    flag |= static_cast<uint8_t>((field_bytes - 1) << kTimestampLengthShift);
    *p++ = static_cast<char>(flag);
    if (!(flag & kSameKeyLength)) p = EncodeCompressedInt(p, static_cast<uint32_t>(key.size()));
    if (!(flag & kSameValueLength)) {
      p = EncodeCompressedInt(p, static_cast<uint32_t>(cell.value.size()));
    }
    p = EncodeCompressedInt(p, static_cast<uint32_t>(common));
    p = EncodeDiffKeyHead(key, common, p);
    // The timestamp field, little-endian: all 8 bytes stored, field_bytes of them kept.
    const uint64_t f = static_cast<uint64_t>(field);
    for (int i = 0; i < 8; ++i) p[i] = static_cast<char>(f >> (8 * i));
    p += field_bytes;
    if (!(flag & kSameType)) *p++ = static_cast<char>(type);
    if (!cell.value.empty()) memcpy(p, cell.value.data(), cell.value.size());
    prev_value_size_ = cell.value.size();
    return p + cell.value.size();
  }

 private:
  size_t prev_value_size_ = 0;
};

class DiffDecoder final : public DeltaBlockDecoder {
 public:
  explicit DiffDecoder(const CellFormat& format) : DeltaBlockDecoder(kEncoding, format) {}

  bool ReadAll(CellBatch* batch) override {
    keys_.set_arena(batch);
    ReadAllWith(batch, [this](const char** why) { return DecodeKeyValue(why); });
    keys_.set_arena(nullptr);
    return true;
  }

 protected:
  bool StartBlock() override {
    family_.clear();
    if (in_.empty()) return true;  // a block without cells has no family either
    const size_t family_length = in_.byte(0);
    return Read(1 + family_length, &family_);
  }

  bool DecodeKeyValue(const char** why) override {
    const bool first = ordinal_ == 0;
    uint8_t flag;
    uint32_t klen = static_cast<uint32_t>(key_.size());
    uint32_t vlen = static_cast<uint32_t>(value_.size());
    uint32_t common;
    if (!GetFixed8(&in_, &flag)) {
      *why = "truncated flag";
      return false;
    }
    if (first && (flag & (kSameKeyLength | kSameValueLength | kSameType | kTimestampIsDiff))) {
      *why = "first cell of the block refers to a previous cell";
      return false;
    }
    if ((!(flag & kSameKeyLength) && !GetCompressedInt(&in_, &klen)) ||
        (!(flag & kSameValueLength) && !GetCompressedInt(&in_, &vlen)) ||
        !GetCompressedInt(&in_, &common)) {
      *why = "bad key/value/common lengths";
      return false;
    }
    if (!DiffKeyLengthFits(klen, key_, Slice(family_), in_)) {
      *why = "key length beyond the block";
      return false;
    }
    char* key = keys_.Build(klen);
    if (!DecodeDiffKeyHead(&in_, key_, Slice(family_), klen, common, first, key, why)) {
      return false;
    }
    const int n = ((flag >> kTimestampLengthShift) & 7) + 1;
    if (in_.size() < static_cast<size_t>(n)) {
      *why = "truncated timestamp";
      return false;
    }
    uint64_t v = 0;
    for (int i = 0; i < n; ++i) v |= static_cast<uint64_t>(in_.byte(i)) << (8 * i);
    in_.remove_prefix(n);
    if (flag & kTimestampSign) v = 0 - v;
    if (flag & kTimestampIsDiff) v = static_cast<uint64_t>(KeyTimestamp(key_)) - v;
    EncodeFixed64BE(key + klen - 9, v);
    uint8_t type;
    if (flag & kSameType) {
      type = KeyTypeByte(key_);
    } else if (!GetFixed8(&in_, &type)) {
      *why = "truncated type";
      return false;
    }
    key[klen - 1] = static_cast<char>(type);
    if (vlen > in_.size()) {
      *why = "truncated value";
      return false;
    }
    value_ = Slice(in_.data(), vlen);
    in_.remove_prefix(vlen);
    key_ = keys_.Swap(klen);
    return true;
  }

 private:
  std::string family_;  // length byte + family, from the block start
  KeyBuffers keys_;
};

}  // namespace

std::unique_ptr<DataBlockDecoder> NewDiffDecoder(const CellFormat& format) {
  return std::make_unique<DiffDecoder>(format);
}
std::unique_ptr<DataBlockEncoder> NewDiffEncoder(const CellFormat& format) {
  return std::make_unique<DiffEncoder>(format);
}

}  // namespace hfile
