// Pieces shared by the data block codecs (data_block_*.cc); not part of the library's interface.
#ifndef HFILE_SRC_DATA_BLOCK_INTERNAL_H_
#define HFILE_SRC_DATA_BLOCK_INTERNAL_H_

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

// Parses one plain KeyValue (NONE / ROW_INDEX_V1 layout) from the front of *in. On malformed
// input returns false and sets *why; *in is then unspecified.
//
// Working on local pointers rather than through *in, because it runs once per cell of every
// NONE / ROW_INDEX_V1 scan: every length is checked against the end of the block before
// anything is read at it.
// Forced inline: left to itself the compiler calls it through the PLT (in the batch loop too).
[[gnu::always_inline]] inline bool ParseKeyValue(Slice* in, const CellFormat& format, Cell* cell,
                                                 const char** why) {
  const char* p = in->data();
  const char* const end = in->end();
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
  if (format.include_tags) {
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
  if (format.include_mvcc) {
    int64_t ts;
    p = DecodeVLong(p, end, &ts);
    if (p == nullptr) {
      *why = "bad memstoreTS vlong";
      return false;
    }
    cell->sequence_id = static_cast<uint64_t>(ts);
  }
  *in = Slice(p, static_cast<size_t>(end - p));
  return true;
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

  // Appends the remaining cells to *batch: Next's loop, with the position in a local so that
  // the stores into the batch's cells cannot alias it.
  void ReadAll(CellBatch* batch) {
    if (!status_.ok()) return;
    Slice in = in_;
    const char* why = nullptr;
    // No KeyValue is shorter than its two lengths and a 12-byte key: room for every cell the
    // rest of the block can hold, so that the loop adds without a capacity check.
    batch->Reserve(in.size() / (8 + kKeyInfrastructureSize) + 1);
    const size_t first = batch->size();
    while (!in.empty()) {
      const Slice before = in;
      if (!ParseKeyValue(&in, format_, batch->AddReserved(), &why)) {
        batch->RemoveLast();
        ordinal_ += batch->size() - first;
        status_ = CellCorruption(ordinal_, static_cast<size_t>(before.data() - body_.data()), why);
        in_ = Slice();
        return;
      }
    }
    ordinal_ += batch->size() - first;
    in_ = in;
  }

 private:
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
