// PREFIX (id 2): each key is stored as the bytes after its common prefix with the previous key.
//
// Per cell (after the 6-byte block header, see data_block_delta.h):
//   compressedInt keyLength - common    length of the key tail
//   compressedInt valueLength
//   compressedInt common                0 for the first cell
//   key[common .. keyLength)
//   value | suffix
//
// Notes (hbase-common/src/main/java/org/apache/hadoop/hbase/io/encoding/
// PrefixKeyDeltaEncoder.java):
//  * The Cell-based encoder computes `common` field by field with
//    findCommonPrefixInFlatKey(cell, prev, bypassFamilyCheck = true, withTsType = true); the older
//    ByteBuffer-based one (internalEncodeKeyValues) compared raw key bytes. The two differ when a
//    shorter qualifier is a prefix of a longer one (raw bytes run on into the timestamp). We write
//    the field-by-field form; the decoder accepts both, as HBase's does.
//  * The first field is the length of the key *tail*, not of the key.
#include <cstring>

#include "hfile/coding.h"
#include "data_block_delta.h"

namespace hfile {
namespace {

constexpr DataBlockEncoding kEncoding = DataBlockEncoding::kPrefix;

class PrefixEncoder final : public DeltaBlockEncoder {
 public:
  explicit PrefixEncoder(const CellFormat& format)
      : DeltaBlockEncoder(kEncoding, format) {}

 protected:
  char* EncodeKeyValue(const Cell& cell, char* p) override {
    const Slice key = cell.key;
    const size_t common = count_ == 0 ? 0 : FlatKeyCommonPrefix(key, prev_key(), true);
    const size_t tail = key.size() - common;
    p = EncodeCompressedInt(p, static_cast<uint32_t>(tail));
    p = EncodeCompressedInt(p, static_cast<uint32_t>(cell.value.size()));
    p = EncodeCompressedInt(p, static_cast<uint32_t>(common));
    memcpy(p, key.data() + common, tail);
    p += tail;
    if (!cell.value.empty()) memcpy(p, cell.value.data(), cell.value.size());
    return p + cell.value.size();
  }
};

class PrefixDecoder final : public DeltaBlockDecoder {
 public:
  explicit PrefixDecoder(const CellFormat& format) : DeltaBlockDecoder(kEncoding, format) {}

 protected:
  bool DecodeKeyValue(const char** why) override {
    uint32_t tail, vlen, common;
    if (!GetCompressedInt(&in_, &tail) || !GetCompressedInt(&in_, &vlen) ||
        !GetCompressedInt(&in_, &common)) {
      *why = "bad key/value/common lengths";
      return false;
    }
    if (ordinal_ == 0 && common != 0) {
      *why = "first cell of the block has a common prefix";
      return false;
    }
    // The key buffer still holds the previous key: keep its first `common` bytes in place.
    if (common > key_.size()) {
      *why = "common prefix longer than the previous key";
      return false;
    }
    key_buf_.resize(common);
    if (!Read(tail, &key_buf_)) {
      *why = "truncated key";
      return false;
    }
    key_ = Slice(key_buf_);
    if (key_.size() < kKeyInfrastructureSize) {
      *why = "key length < 12";
      return false;
    }
    if (vlen > in_.size()) {
      *why = "truncated value";
      return false;
    }
    value_ = Slice(in_.data(), vlen);
    in_.remove_prefix(vlen);
    return true;
  }

 private:
  std::string key_buf_;
};

}  // namespace

std::unique_ptr<DataBlockDecoder> NewPrefixDecoder(const CellFormat& format) {
  return std::make_unique<PrefixDecoder>(format);
}
std::unique_ptr<DataBlockEncoder> NewPrefixEncoder(const CellFormat& format) {
  return std::make_unique<PrefixEncoder>(format);
}

}  // namespace hfile
