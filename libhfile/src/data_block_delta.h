// What PREFIX, DIFF and FAST_DIFF (HBase's "buffered" encoders) share: the block framing, the
// per-cell suffix, and the common-prefix rule.
//
// Block:
//   +---------+--------------------+-------------------------------------------+
//   | int16BE | int32 BE           | cells: encoding-specific key/value part,  |
//   | id      | unencodedSize      |        then the suffix below              |
//   +---------+--------------------+-------------------------------------------+
// Per-cell suffix:
//   [compressedInt tagsLength, then tags raw or dictionary-compressed]   iff include_tags
//   [vlong memstoreTS]                                                   iff include_mvcc
//
// Notes (hbase-common/src/main/java/org/apache/hadoop/hbase/io/encoding/
// BufferedDataBlockEncoder.java, EncodingState.java):
//  * unencodedSize is EncodingState.unencodedDataSizeWritten: the sum over cells of
//    klen + vlen + 8 [+ 2 + tagsLength] [+ getVIntSize(seqId)], i.e. the NONE layout size of the
//    same cells. It excludes the id and itself, and is the same number HBase compares with the
//    block size to close a block. Readers only use it as an allocation hint; we ignore it.
//  * The tags length in the suffix is a compressedInt (not the u16 of the NONE layout) and it is
//    the *uncompressed* length even when the tags that follow are dictionary-compressed: the Java
//    decoder decompresses until it has produced that many bytes.
//  * The memstoreTS vlong is written whenever MVCC is included, even when it is 0.
//  * The tag dictionary is created (or cleared) in startBlockEncoding: one per block.
#ifndef HFILE_SRC_DATA_BLOCK_DELTA_H_
#define HFILE_SRC_DATA_BLOCK_DELTA_H_

#include <algorithm>
#include <cstring>
#include <string>

#include "data_block_internal.h"
#include "tag_compression.h"

namespace hfile {

// PrivateCellUtil.findCommonPrefixInFlatKey(cur, prev, bypassFamilyCheck = true, with_ts_type):
// the common prefix of two serialized keys, computed field by field. Differing row lengths give
// the common prefix of the 2-byte lengths; otherwise row bytes; equal rows add the whole family
// (assumed equal: one family per file); then qualifier bytes; only with_ts_type and fully equal
// qualifiers go on into the timestamp bytes, and then the type. REQUIRES: valid keys.
// Inline: every PREFIX / DIFF / FAST_DIFF cell takes it once, and with_ts_type is a constant at
// each call.
inline size_t FlatKeyCommonPrefix(const Slice& cur, const Slice& prev, bool with_ts_type) {
  const size_t row_len = KeyRowLength(cur);
  if (row_len != KeyRowLength(prev)) return cur[0] == prev[0] ? 1 : 0;
  const size_t row_common = CommonPrefixLength(cur.data() + 2, prev.data() + 2, row_len);
  size_t n = 2 + row_common;
  if (row_common != row_len) return n;
  n += 1 + cur.byte(2 + row_len);  // family: bypassFamilyCheck, one family per file
  const Slice q1 = KeyQualifier(cur), q2 = KeyQualifier(prev);
  const size_t q_common =
      CommonPrefixLength(q1.data(), q2.data(), std::min(q1.size(), q2.size()));
  n += q_common;
  if (!with_ts_type || std::max(q1.size(), q2.size()) != q_common) return n;
  const size_t ts_common = CommonPrefixLength(cur.end() - 9, prev.end() - 9, 8);
  n += ts_common;
  if (ts_common != 8) return n;
  if (KeyTypeByte(cur) == KeyTypeByte(prev)) n += 1;
  return n;
}

// Writes v as a compressedInt (7 bits a byte, least significant first) at p, which has room for
// 5 bytes; returns the byte after it.
inline char* EncodeCompressedInt(char* p, uint32_t v) {
  while (v >= 0x80) {
    *p++ = static_cast<char>((v & 0x7F) | 0x80);
    v >>= 7;
  }
  *p++ = static_cast<char>(v);
  return p;
}

class DeltaBlockEncoder : public DataBlockEncoder {
 public:
  DeltaBlockEncoder(DataBlockEncoding encoding, const CellFormat& format);

  void Reset() override;
  void Add(const Cell& cell) override;
  // EncodedSize() is the bytes written for the cells so far
  // (EncodingState.encodedDataSizeWritten): the body without the 6 bytes of id and unencodedSize,
  // i.e. used_ - kHeaderSize as of the last Add.
  void Finish(std::string* body) override;
  // The body in place in buf_ (valid until the next Reset or Add).
  Slice FinishBlock(std::string* scratch) override;

 protected:
  // Most bytes an encoding writes for one cell besides its key and value bytes: DIFF's first
  // cell (family length and family, flag, three compressedInts, timestamp, type).
  static constexpr size_t kMaxKeyValueOverhead = 1 + 255 + 1 + 3 * 5 + 8 + 1;

  // Writes the key/value part of `cell` at p, which has room for kMaxKeyValueOverhead + key +
  // value bytes, and returns the byte after it. prev_key() is the previous cell's key when
  // count_ > 0. p points into buf_, which does not move during the call.
  virtual char* EncodeKeyValue(const Cell& cell, char* p) = 0;

  // The block's id (u16) and unencoded size (i32), filled in when the block is finished: buf_
  // starts with them so that the body is handed over in place.
  static constexpr size_t kHeaderSize = 6;
  // The block so far is buf_[0, used_). buf_ only grows (by doubling, zero-filled once per
  // growth) and keeps its size across blocks, so that cells are written with plain stores at
  // known offsets instead of a capacity check per field.
  std::string buf_;
  size_t used_ = kHeaderSize;
  // The previous cell's key when count_ > 0.
  Slice prev_key() const { return Slice(prev_key_.data(), prev_key_len_); }

 private:
  // Room for n more bytes after used_.
  void Reserve(size_t n) {
    if (used_ + n > buf_.size()) buf_.resize(std::max(used_ + n, 2 * buf_.size()));
  }
  void WriteHeader();

  // The previous key is copied into prev_key_[0, prev_key_len_): a buffer that only grows, so
  // that keeping it is one memcpy (std::string::assign cost more than the copy).
  std::string prev_key_;
  size_t prev_key_len_ = 0;

  const DataBlockEncoding encoding_;
  const CellFormat format_;
  TagDictionary dict_;
  std::string tags_buf_;  // one cell's compressed tags
};

class DeltaBlockDecoder : public DataBlockDecoder {
 public:
  DeltaBlockDecoder(DataBlockEncoding encoding, const CellFormat& format);

  Status Reset(const Slice& body) override;
  bool Next(Cell* cell) override;
  const Status& status() const override { return status_; }

 protected:
  // Called after the 6-byte header; may consume per-block data from in_ (DIFF's family).
  virtual bool StartBlock() { return true; }
  // Decodes the key and value of cell ordinal_ from in_ into key_ and value_. ordinal_ == 0 for
  // the first cell. On malformed input sets *why and returns false.
  virtual bool DecodeKeyValue(const char** why) = 0;

  // ReadAll for DIFF and FAST_DIFF, whose keys are built in the batch's arena (KeyBuffers) and
  // whose values and plain tags lie in the body: `decode` is the final decoder's DecodeKeyValue,
  // called directly, and no cell is copied but for compressed tags (in tags_buf_).
  template <class DecodeFn>
  bool ReadAllWith(CellBatch* batch, DecodeFn decode) {
    const char* why = nullptr;
    while (status_.ok() && !in_.empty()) {
      Cell* out = batch->Add();
      if (!decode(&why) || !DecodeSuffix(out, &why)) {
        batch->RemoveLast();
        status_ = CellCorruption(ordinal_, offset(), why);
        in_ = Slice();
        break;
      }
      out->key = key_;
      out->value = value_;
      if (format_.tags_compressed && !out->tags.empty()) out->tags = batch->Copy(out->tags);
      ++ordinal_;
    }
    return true;
  }

  // Reads n bytes from in_ into *dst (appending); false if in_ is too short.
  bool Read(size_t n, std::string* dst);
  size_t offset() const { return in_.data() - body_.data(); }

  Slice in_;
  Slice key_;    // the current key (points into a decoder-owned buffer)
  Slice value_;  // the current value (points into the body)
  size_t ordinal_ = 0;
  Status status_;

 private:
  // Tags and memstoreTS after the key and value, and the key's check. Inline: once per cell.
  [[gnu::always_inline]] bool DecodeSuffix(Cell* cell, const char** why) {
    if (!IsValidKey(key_)) {
      *why = "row/family lengths inconsistent with the key length";
      return false;
    }
    cell->tags = Slice();
    if (format_.include_tags) {
      uint32_t tags_length;
      if (!GetCompressedInt(&in_, &tags_length)) {
        *why = "bad tags length";
        return false;
      }
      if (tags_length > kMaxTagsLength) {
        *why = "tags length > 65535";
        return false;
      }
      if (tags_length > 0) {
        if (format_.tags_compressed) {
          if (!UncompressTags(&in_, tags_length, &dict_, &tags_buf_, why)) return false;
          cell->tags = Slice(tags_buf_);
        } else {
          if (tags_length > in_.size()) {
            *why = "truncated tags";
            return false;
          }
          cell->tags = Slice(in_.data(), tags_length);
          in_.remove_prefix(tags_length);
        }
      }
    }
    cell->sequence_id = 0;
    if (format_.include_mvcc) {
      int64_t v;
      if (!GetVLong(&in_, &v)) {
        *why = "bad memstoreTS vlong";
        return false;
      }
      cell->sequence_id = static_cast<uint64_t>(v);
    }
    return true;
  }

  const DataBlockEncoding encoding_;
  const CellFormat format_;
  Slice body_;
  TagDictionary dict_;
  std::string tags_buf_;
};

// DIFF / FAST_DIFF key reconstruction, everything but timestamp and type. `common` is the
// encoder's FlatKeyCommonPrefix(with_ts_type = false) with `prev_key`; `family` is the family
// field with its length byte. If the row differs (common < 2 + prevRowLength, or first cell) the
// input holds the rest of the row-length field, the rest of the row and the full qualifier
// (family omitted); otherwise the qualifier bytes after the common prefix. Writes the
// klen - 9 leading key bytes to key[0, klen - 9) (room for klen bytes; not `prev_key`'s bytes).
// On malformed input sets *why and returns false.
bool DecodeDiffKeyHead(Slice* in, const Slice& prev_key, const Slice& family, uint32_t klen,
                       uint32_t common, bool first, char* key, const char** why);

// Whether a DIFF / FAST_DIFF cell's key length can be real: its bytes come from the previous key
// (the common prefix), the family, what is left of the block, and timestamp and type (which may
// be the previous cell's). A damaged length beyond that is refused before a buffer grows to it,
// so memory stays bounded by the block.
inline bool DiffKeyLengthFits(uint32_t klen, const Slice& prev_key, const Slice& family,
                              const Slice& in) {
  return klen <= prev_key.size() + family.size() + in.size() + 9;
}

// The two key buffers of a DIFF / FAST_DIFF decoder: the current key stays readable (a later key
// is built from its prefix, and the cell handed out last points at it) while the next one is
// written into the other buffer with plain copies at known offsets. The buffers only grow.
// With an arena set (by ReadAll, for a batch), each key is built in fresh arena bytes
// instead, where it stays for the batch it goes into.
class KeyBuffers {
 public:
  // Room for a key of klen bytes in the buffer that is not current (or in the arena). Inline:
  // once per decoded cell.
  [[gnu::always_inline]] char* Build(uint32_t klen) {
    if (arena_ != nullptr) return built_ = arena_->Allocate(klen);
    return BuildInBuffer(klen);
  }
  // The key just built becomes the current one.
  Slice Swap(uint32_t klen) {
    if (arena_ != nullptr) return Slice(built_, klen);
    cur_ = 1 - cur_;
    return Slice(bufs_[cur_].data(), klen);
  }
  void set_arena(CellBatch* arena) { arena_ = arena; }

 private:
  char* BuildInBuffer(uint32_t klen) {
    std::string& b = bufs_[1 - cur_];
    if (b.size() < klen) b.resize(std::max<size_t>(klen, 2 * b.size()));
    return b.data();
  }

  std::string bufs_[2];
  int cur_ = 0;
  CellBatch* arena_ = nullptr;
  char* built_ = nullptr;
};
// The encoder side of DecodeDiffKeyHead.
// Writes the row/qualifier bytes DecodeDiffKeyHead expects at p (room for key.size() bytes) for
// a key with `common` bytes in common with the previous one; returns the byte after them.
inline char* EncodeDiffKeyHead(const Slice& key, size_t common, char* p) {
  const size_t row_end = 2 + KeyRowLength(key);
  const size_t qual_at = row_end + 1 + key.byte(row_end);
  const size_t qual_len = key.size() - 9 - qual_at;
  if (common < row_end) {
    // The rest of the row-length field and of the row, then the whole qualifier; the family is
    // omitted (writeRowKeyExcludingCommon + writeQualifier).
    memcpy(p, key.data() + common, row_end - common);
    p += row_end - common;
    memcpy(p, key.data() + qual_at, qual_len);
    return p + qual_len;
  }
  // The qualifier bytes after the common prefix (which covers row and family).
  const size_t qual_common = common - qual_at;
  memcpy(p, key.data() + qual_at + qual_common, qual_len - qual_common);
  return p + (qual_len - qual_common);
}

}  // namespace hfile

#endif  // HFILE_SRC_DATA_BLOCK_DELTA_H_
