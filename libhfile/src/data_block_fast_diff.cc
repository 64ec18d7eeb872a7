// FAST_DIFF (id 4): like DIFF, but the timestamp is stored as the bytes after its common prefix
// with the previous timestamp, and a repeated value is omitted.
//
// First cell (after the 6-byte header, see data_block_delta.h):
//   u8 flag = 0 | compressedInt keyLength | compressedInt valueLength | compressedInt 0 |
//   full key | value | suffix
// Later cells:
//   u8 flag
//   [compressedInt keyLength]           unless SAME_KEY_LENGTH
//   [compressedInt valueLength]         unless SAME_VALUE_LENGTH
//   compressedInt common
//   row rest + qualifier                family omitted
//   timestamp BE bytes [tsCommon .. 8)
//   [u8 type]                           unless SAME_TYPE
//   [value]                             unless SAME_VALUE
//   suffix
// flag: 0x07 tsCommon (leading timestamp bytes shared with the previous cell), 0x08
//       SAME_KEY_LENGTH, 0x10 SAME_VALUE_LENGTH, 0x20 SAME_TYPE, 0x40 SAME_VALUE.
// Row rest + qualifier: see DecodeDiffKeyHead (data_block_delta.h); the family comes from the
// previous key.
//
// Notes (hbase-common/src/main/java/org/apache/hadoop/hbase/io/encoding/FastDiffDeltaEncoder.java):
//  * Unlike DIFF, the first cell carries the whole key, family included, and no family is
//    stored at the block start.
//  * tsCommon is capped at 7 (findCommonTimestampPrefix), so equal timestamps still write one
//    byte.
//  * SAME_VALUE is set whenever the value bytes equal the previous cell's, independently of
//    SAME_TYPE; the decoded value is then the previous value.
#include <algorithm>
#include <cstring>

#include "hfile/coding.h"
#include "data_block_delta.h"

namespace hfile {
namespace {

constexpr DataBlockEncoding kEncoding = DataBlockEncoding::kFastDiff;
constexpr uint8_t kTimestampCommonMask = 0x07;
constexpr uint8_t kSameKeyLength = 0x08;
constexpr uint8_t kSameValueLength = 0x10;
constexpr uint8_t kSameType = 0x20;
constexpr uint8_t kSameValue = 0x40;

class FastDiffEncoder final : public DeltaBlockEncoder {
 public:
  explicit FastDiffEncoder(const CellFormat& format)
      : DeltaBlockEncoder(kEncoding, format) {}

 protected:
  char* EncodeKeyValue(const Cell& cell, char* p) override {
    const Slice key = cell.key;
    if (count_ == 0) {
      *p++ = 0;
      p = EncodeCompressedInt(p, static_cast<uint32_t>(key.size()));
      p = EncodeCompressedInt(p, static_cast<uint32_t>(cell.value.size()));
      *p++ = 0;
      memcpy(p, key.data(), key.size());
      return WriteValue(cell.value, p + key.size());
    }
    const Slice prev = prev_key();
    const size_t common = FlatKeyCommonPrefix(key, prev, false);
    uint8_t flag = 0;
    if (key.size() == prev.size()) flag |= kSameKeyLength;
    const Slice prev_value = PreviousValue();
    if (cell.value.size() == prev_value.size()) flag |= kSameValueLength;
    const char* ts = key.end() - 9;
    const char* prev_ts = prev.end() - 9;
    if (ts[8] == prev_ts[8]) flag |= kSameType;
    // Leading timestamp bytes shared, at most 7: one 8-byte comparison.
    const size_t ts_common = std::min<size_t>(CommonPrefixLength(ts, prev_ts, 8), 7);
    flag |= static_cast<uint8_t>(ts_common);
    if (cell.value == prev_value) flag |= kSameValue;

    *p++ = static_cast<char>(flag);
    if (!(flag & kSameKeyLength)) p = EncodeCompressedInt(p, static_cast<uint32_t>(key.size()));
    if (!(flag & kSameValueLength)) {
      p = EncodeCompressedInt(p, static_cast<uint32_t>(cell.value.size()));
    }
    p = EncodeCompressedInt(p, static_cast<uint32_t>(common));
    p = EncodeDiffKeyHead(key, common, p);
    // The timestamp bytes after the common ones: the timestamp shifted up by them, stored as
    // one 8-byte word of which 8 - ts_common bytes are kept.
    EncodeFixed64BE(p, DecodeFixed64BE(ts) << (8 * ts_common));
    p += 8 - ts_common;
    if (!(flag & kSameType)) *p++ = ts[8];
    if (flag & kSameValue) return p;  // the previous bytes stay current
    return WriteValue(cell.value, p);
  }

 private:
  // The previous value is where it was written in this block, not a copy (values are the bulk
  // of the bytes: copying each one again cost more than encoding the key).
  char* WriteValue(const Slice& value, char* p) {
    value_at_ = static_cast<size_t>(p - buf_.data());
    value_len_ = value.size();
    if (!value.empty()) memcpy(p, value.data(), value.size());
    return p + value.size();
  }
  Slice PreviousValue() const { return Slice(buf_.data() + value_at_, value_len_); }

  size_t value_at_ = 0, value_len_ = 0;
};

class FastDiffDecoder final : public DeltaBlockDecoder {
 public:
  explicit FastDiffDecoder(const CellFormat& format) : DeltaBlockDecoder(kEncoding, format) {}

  bool ReadAll(CellBatch* batch) override {
    keys_.set_arena(batch);
    ReadAllWith(batch, [this](const char** why) { return DecodeKeyValue(why); });
    keys_.set_arena(nullptr);
    return true;
  }

 protected:
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
    if (first && flag != 0) {
      *why = "first cell of the block has a nonzero flag";
      return false;
    }
    if ((!(flag & kSameKeyLength) && !GetCompressedInt(&in_, &klen)) ||
        (!(flag & kSameValueLength) && !GetCompressedInt(&in_, &vlen)) ||
        !GetCompressedInt(&in_, &common)) {
      *why = "bad key/value/common lengths";
      return false;
    }
    if (first) {
      if (common != 0) {
        *why = "first cell of the block has a common prefix";
        return false;
      }
      if (klen < kKeyInfrastructureSize) {
        *why = "key length < 12";
        return false;
      }
      if (klen > in_.size()) {
        *why = "truncated key";
        return false;
      }
      char* key = keys_.Build(klen);
      memcpy(key, in_.data(), klen);
      in_.remove_prefix(klen);
      // The family of every later cell comes from here: check the key before relying on it.
      if (!IsValidKey(Slice(key, klen))) {
        *why = "row/family lengths inconsistent with the key length";
        return false;
      }
    } else {
      const size_t family_at = 2 + KeyRowLength(key_);
      const Slice family(key_.data() + family_at, 1 + key_.byte(family_at));
      if (!DiffKeyLengthFits(klen, key_, family, in_)) {
        *why = "key length beyond the block";
        return false;
      }
      char* key = keys_.Build(klen);
      if (!DecodeDiffKeyHead(&in_, key_, family, klen, common, false, key, why)) return false;
      // Timestamp and type: the last 9 bytes, the timestamp's first ts_common from the previous
      // key.
      // (All 8 previous bytes in one fixed-size copy, then the new ones over them: a copy of
      // ts_common bytes compiles to a byte loop.)
      char* ts = key + klen - 9;
      const size_t ts_common = flag & kTimestampCommonMask;
      const size_t ts_new = 8 - ts_common;
      if (ts_new > in_.size()) {
        *why = "truncated timestamp";
        return false;
      }
      memcpy(ts, key_.end() - 9, 8);
      for (size_t i = 0; i < ts_new; ++i) ts[ts_common + i] = in_.data()[i];
      in_.remove_prefix(ts_new);
      uint8_t type;
      if (flag & kSameType) {
        type = KeyTypeByte(key_);
      } else if (!GetFixed8(&in_, &type)) {
        *why = "truncated type";
        return false;
      }
      ts[8] = static_cast<char>(type);
    }
    if (flag & kSameValue) {
      if (vlen != value_.size()) {
        *why = "SAME_VALUE with a different value length";
        return false;
      }
      // value_ keeps the previous value's bytes, which live in the body.
    } else {
      if (vlen > in_.size()) {
        *why = "truncated value";
        return false;
      }
      value_ = Slice(in_.data(), vlen);
      in_.remove_prefix(vlen);
    }
    key_ = keys_.Swap(klen);
    return true;
  }

 private:
  KeyBuffers keys_;
};

}  // namespace

std::unique_ptr<DataBlockDecoder> NewFastDiffDecoder(const CellFormat& format) {
  return std::make_unique<FastDiffDecoder>(format);
}
std::unique_ptr<DataBlockEncoder> NewFastDiffEncoder(const CellFormat& format) {
  return std::make_unique<FastDiffEncoder>(format);
}

}  // namespace hfile
