// Pieces shared by the data block codecs (data_block_*.cc); not part of the library's interface.
#ifndef HFILE_SRC_DATA_BLOCK_INTERNAL_H_
#define HFILE_SRC_DATA_BLOCK_INTERNAL_H_

#include <cstring>
#include <memory>
#include <string>

#include "hfile/coding.h"
#include "data_block_codec.h"
#include "hfile/cell.h"
#include "hfile/cell_batch.h"

namespace hfile {

// The HBase value length limit we accept for tags: KeyValue stores tagsLength as a u16.
inline constexpr size_t kMaxTagsLength = 0xFFFF;

// Corruption naming the cell ordinal (0-based) and the byte offset within the body.
Status CellCorruption(size_t ordinal, size_t offset, const char* what);

// Unencoded size of one cell as HBase counts it (NoneEncoder.write, afterEncodingKeyValue):
// klen + vlen + 8 [+ 2 + tagsLength] [+ vlong size of the sequence id].
size_t UnencodedCellSize(const Cell& cell, const CellFormat& format);

// Parses one plain KeyValue (NONE / ROW_INDEX_V1 layout) at *pp, before `end`, for a format
// with (kTags) or without tags and with (kMvcc) or without a memstoreTS, and moves *pp past it.
// On malformed input returns false and sets *why; *pp is then unspecified.
//
// Every length is checked against the end of the block before anything is read at it. The
// format is a template argument so that the batch loop (NoneDecoder::ReadAll), which runs once
// per cell of every NONE scan, tests no flags per cell.
// Forced inline: left to itself the compiler calls it through the PLT (in the batch loop too).
template <bool kTags, bool kMvcc>
[[gnu::always_inline]] inline bool ParseKeyValueAs(const char** pp, const char* end, Cell* cell,
                                                   const char** why) {
  const char* p = *pp;
  if (end - p < 8) {
    *why = "truncated key/value lengths";
    return false;
  }
  const uint32_t klen = DecodeFixed32BE(p);
  const uint32_t vlen = DecodeFixed32BE(p + 4);
  p += 8;
  const size_t avail = static_cast<size_t>(end - p);
  if (klen < kKeyInfrastructureSize) {
    *why = "key length < 12";
    return false;
  }
  if (klen > avail || vlen > avail - klen) {
    *why = "key/value extend past the end of the block";
    return false;
  }
  // IsValidKey, on the bytes at hand: row length, family length byte, then 9 bytes of ts+type.
  const size_t row_len = DecodeFixed16BE(p);
  if (2 + row_len + 1 + 9 > klen ||
      2 + row_len + 1 + static_cast<uint8_t>(p[2 + row_len]) + 9 > klen) {
    *why = "row/family lengths inconsistent with the key length";
    return false;
  }
  cell->key = Slice(p, klen);
  cell->value = Slice(p + klen, vlen);
  p += size_t{klen} + vlen;
  cell->tags = Slice();
  if constexpr (kTags) {
    if (end - p < 2) {
      *why = "truncated tags length";
      return false;
    }
    const size_t tlen = DecodeFixed16BE(p);
    p += 2;
    if (tlen > static_cast<size_t>(end - p)) {
      *why = "tags extend past the end of the block";
      return false;
    }
    cell->tags = Slice(p, tlen);
    p += tlen;
  }
  cell->sequence_id = 0;
  if constexpr (kMvcc) {
    int64_t ts;
    p = DecodeVLong(p, end, &ts);
    if (p == nullptr) {
      *why = "bad memstoreTS vlong";
      return false;
    }
    cell->sequence_id = static_cast<uint64_t>(ts);
  }
  *pp = p;
  return true;
}

// ParseKeyValueAs for a format known at run time, from the front of *in (one cell at a time).
[[gnu::always_inline]] inline bool ParseKeyValue(Slice* in, const CellFormat& format, Cell* cell,
                                                 const char** why) {
  const char* p = in->data();
  const char* const end = in->end();
  bool ok;
  if (format.include_tags) {
    ok = format.include_mvcc ? ParseKeyValueAs<true, true>(&p, end, cell, why)
                             : ParseKeyValueAs<true, false>(&p, end, cell, why);
  } else {
    ok = format.include_mvcc ? ParseKeyValueAs<false, true>(&p, end, cell, why)
                             : ParseKeyValueAs<false, false>(&p, end, cell, why);
  }
  if (ok) *in = Slice(p, static_cast<size_t>(end - p));
  return ok;
}

// Writes the KeyValue of `cell` at dst, for a format with (kTags) or without tags and with
// (kMvcc) or without a memstoreTS; returns the bytes written. REQUIRES: room for
// KeyValueBound<kTags, kMvcc>(cell) bytes at dst.
template <bool kTags, bool kMvcc>
[[gnu::always_inline]] inline size_t EncodeKeyValueAs(char* dst, const Cell& cell) {
  char* p = dst;
  const size_t klen = cell.key.size(), vlen = cell.value.size();
  EncodeFixed32BE(p, static_cast<uint32_t>(klen));
  EncodeFixed32BE(p + 4, static_cast<uint32_t>(vlen));
  p += 8;
  if (cell.key.data() + klen == cell.value.data()) {
    std::memcpy(p, cell.key.data(), klen + vlen);  // adjacent, as a NONE block holds them
  } else {
    std::memcpy(p, cell.key.data(), klen);
    if (vlen != 0) std::memcpy(p + klen, cell.value.data(), vlen);
  }
  p += klen + vlen;
  if constexpr (kTags) {
    EncodeFixed16BE(p, static_cast<uint16_t>(cell.tags.size()));
    if (!cell.tags.empty()) std::memcpy(p + 2, cell.tags.data(), cell.tags.size());
    p += 2 + cell.tags.size();
  }
  if constexpr (kMvcc) p += EncodeVLong(p, static_cast<int64_t>(cell.sequence_id));
  return static_cast<size_t>(p - dst);
}

// Room EncodeKeyValueAs may need: the exact size but for the memstoreTS, counted at its longest
// (so that no VLongSize is computed per cell).
template <bool kTags, bool kMvcc>
inline size_t KeyValueBound(const Cell& cell) {
  return 8 + cell.key.size() + cell.value.size() + (kTags ? 2 + cell.tags.size() : 0) +
         (kMvcc ? kMaxVLongSize : 0);
}

// NONE blocks: a run of plain KeyValues. Visible here (and final) so that the file iterator can
// hold one by value and decode the most common blocks without a virtual call per cell.
class NoneDecoder final : public DataBlockDecoder {
 public:
  explicit NoneDecoder(const CellFormat& format) : format_(format) {}

  Status Reset(const Slice& body) override {
    body_ = in_ = body;
    ordinal_ = 0;
    status_ = Status::OK();
    return Status::OK();
  }

  bool Next(Cell* cell) override {
    if (in_.empty() || !status_.ok()) return false;
    const char* why = nullptr;
    const Slice before = in_;
    if (!ParseKeyValue(&in_, format_, cell, &why)) {
      status_ = CellCorruption(ordinal_, static_cast<size_t>(before.data() - body_.data()), why);
      in_ = Slice();
      return false;
    }
    ++ordinal_;
    return true;
  }

  const Status& status() const override { return status_; }

  // Appends the remaining cells to *batch: Next's loop for this block's format, with the
  // position and the cell pointer in locals that the stores into the cells cannot alias.
  bool ReadAll(CellBatch* batch) override {
    if (!status_.ok()) return true;
    if (format_.include_tags) {
      format_.include_mvcc ? ReadAllAs<true, true>(batch) : ReadAllAs<true, false>(batch);
    } else {
      format_.include_mvcc ? ReadAllAs<false, true>(batch) : ReadAllAs<false, false>(batch);
    }
    return true;
  }

 private:
  template <bool kTags, bool kMvcc>
  void ReadAllAs(CellBatch* batch) {
    const char* p = in_.data();
    const char* const end = in_.end();
    // No KeyValue is shorter than its two lengths and a 12-byte key: room for every cell the
    // rest of the block can hold, so that the loop adds without a capacity check.
    batch->Reserve(in_.size() / (8 + kKeyInfrastructureSize) + 1);
    Cell* const first = batch->reserved();
    Cell* cell = first;
    const char* why = nullptr;
    while (p != end) {
      const char* const at = p;
      // Each cell's place comes from the lengths of the one before, so the hardware cannot run
      // ahead of this loop: two lines ~5 cells ahead are asked for L1 now (a block left in L2
      // by its decompression or read; 3-5% of a scan of small cells).
      __builtin_prefetch(p + 448);
      __builtin_prefetch(p + 512);
      if (!ParseKeyValueAs<kTags, kMvcc>(&p, end, cell, &why)) {
        batch->AddReserved(static_cast<size_t>(cell - first));
        ordinal_ += static_cast<size_t>(cell - first);
        status_ = CellCorruption(ordinal_, static_cast<size_t>(at - body_.data()), why);
        in_ = Slice();
        return;
      }
      ++cell;
    }
    batch->AddReserved(static_cast<size_t>(cell - first));
    ordinal_ += static_cast<size_t>(cell - first);
    in_ = Slice(end, 0);
  }

  const CellFormat format_;
  Slice body_, in_;
  size_t ordinal_ = 0;
  Status status_;
};

std::unique_ptr<DataBlockDecoder> NewNoneDecoder(const CellFormat& format);
std::unique_ptr<DataBlockDecoder> NewPrefixDecoder(const CellFormat& format);
std::unique_ptr<DataBlockDecoder> NewDiffDecoder(const CellFormat& format);
std::unique_ptr<DataBlockDecoder> NewFastDiffDecoder(const CellFormat& format);
std::unique_ptr<DataBlockDecoder> NewRowIndexDecoder(const CellFormat& format);

std::unique_ptr<DataBlockEncoder> NewNoneEncoder(const CellFormat& format);
std::unique_ptr<DataBlockEncoder> NewPrefixEncoder(const CellFormat& format);
std::unique_ptr<DataBlockEncoder> NewDiffEncoder(const CellFormat& format);
std::unique_ptr<DataBlockEncoder> NewFastDiffEncoder(const CellFormat& format);
std::unique_ptr<DataBlockEncoder> NewRowIndexEncoder(const CellFormat& format);

}  // namespace hfile

#endif  // HFILE_SRC_DATA_BLOCK_INTERNAL_H_
