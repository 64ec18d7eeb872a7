// ROW_INDEX_V1 (id 7): plain KeyValues followed by an index of where each row starts.
//
//   +---------+------------------------+----------+------------------------+-----------+
//   | int16BE | cells: plain KeyValues | int32 BE | int32 BE rowOffset x N | int32 BE  |
//   | id = 7  | (NONE layout, raw tags)| N rows   | from the first cell    | cellsSize |
//   +---------+------------------------+----------+------------------------+-----------+
//
// Notes (hbase-common/src/main/java/org/apache/hadoop/hbase/io/encoding/RowIndexEncoderV1.java,
// RowIndexCodecV1.java, RowIndexSeekerV1.java):
//  * Cells are written by NoneEncoder: u16 tags length for every cell iff tags are included,
//    tags always raw (never dictionary-compressed, whatever hfile.TAGS_COMPRESSED says), vlong
//    memstoreTS iff MVCC is included. There is no unencodedSize int32 after the id (unlike
//    PREFIX/DIFF/FAST_DIFF), and nothing else is written.
//  * A row offset is recorded when the row differs from the previous cell's (compareRows != 0,
//    which for both the default and the meta comparator means "bytes differ"). Offsets count from
//    the first cell byte (the 2-byte id excluded).
//  * The encoded size HBase tracks per cell is the cell's bytes plus 4 for each new row.
//  * The decoder checks the trailer against the cells it walks; HBase's seeker trusts it.
#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "hfile/coding.h"
#include "data_block_internal.h"

namespace hfile {
namespace {

constexpr uint16_t kId = static_cast<uint16_t>(DataBlockEncoding::kRowIndexV1);

class RowIndexDecoder final : public DataBlockDecoder {
 public:
  explicit RowIndexDecoder(const CellFormat& format) : format_(format) {}

  Status Reset(const Slice& body) override {
    body_ = body;
    in_ = Slice();
    ordinal_ = next_row_ = row_count_ = 0;
    prev_row_ = Slice();
    status_ = Status::OK();
    auto corrupt = [&](const char* what) {
      return status_ = Status::Corruption(
                 fmt::format("ROW_INDEX_V1 block (body of {} bytes): {}", body.size(), what));
    };
    if (body.size() < 2 + 4 + 4) {
      return corrupt("shorter than its framing");
    }
    if (DecodeFixed16BE(body.data()) != kId) {
      return corrupt("does not start with id 7");
    }
    const size_t cells_size = DecodeFixed32BE(body.data() + body.size() - 4);
    if (cells_size > body.size() - 10) {
      return corrupt("cellsSize exceeds the block");
    }
    const size_t count = DecodeFixed32BE(body.data() + 2 + cells_size);
    if (count != (body.size() - 10 - cells_size) / 4 || (body.size() - 10 - cells_size) % 4 != 0) {
      return corrupt("row count does not match the block size");
    }
    row_count_ = count;
    row_offsets_ = body.data() + 2 + cells_size + 4;
    in_ = Slice(body.data() + 2, cells_size);
    return Status::OK();
  }

  bool Next(Cell* cell) override {
    if (!status_.ok()) return false;
    if (in_.empty()) {
      if (next_row_ != row_count_) {
        status_ = CellCorruption(ordinal_, in_.data() - body_.data(),
                                 "row index lists more rows than the cells hold");
      }
      return false;
    }
    const size_t cell_offset = in_.data() - (body_.data() + 2);
    const char* why = nullptr;
    if (!ParseKeyValue(&in_, format_, cell, &why)) return Fail(cell_offset, why);
    Slice row = cell->row();
    if (ordinal_ == 0 || row != prev_row_) {
      if (next_row_ >= row_count_ ||
          DecodeFixed32BE(row_offsets_ + 4 * next_row_) != cell_offset) {
        return Fail(cell_offset, "row index does not match the cells");
      }
      ++next_row_;
    }
    prev_row_ = row;
    ++ordinal_;
    return true;
  }

  const Status& status() const override { return status_; }

 private:
  bool Fail(size_t cell_offset, const char* why) {
    status_ = CellCorruption(ordinal_, 2 + cell_offset, why);
    in_ = Slice();
    return false;
  }

  const CellFormat format_;
  Slice body_, in_, prev_row_;
  const char* row_offsets_ = nullptr;
  size_t ordinal_ = 0, next_row_ = 0, row_count_ = 0;
  Status status_;
};

// Cells are encoded straight into data_ behind two bytes kept for the encoding id, so that
// Finish appends the row index and hands the whole body over without copying the cells. The
// previous row is compared where it lies in data_ rather than kept as a copy.
class RowIndexEncoder final : public DataBlockEncoder {
 public:
  explicit RowIndexEncoder(const CellFormat& format) : format_(format) {}

  void Reset() override {
    used_ = kIdSize;
    row_offsets_.clear();
    unencoded_ = encoded_ = count_ = 0;
    last_key_ = Slice();
  }
  void Add(const Cell& cell) override {
    const Slice row = cell.row();
    if (count_ == 0 || row != Slice(data_.data() + prev_row_at_, prev_row_len_)) {
      row_offsets_.push_back(static_cast<uint32_t>(used_ - kIdSize));
      prev_row_at_ = used_ + 8 + 2;  // klen, vlen, row length
      prev_row_len_ = row.size();
    }
    const size_t n = KeyValueSize(cell, format_) + kMaxVLongSize;  // EncodeKeyValue's room
    if (used_ + n > data_.size()) data_.resize(std::max(used_ + n, 2 * data_.size()));
    last_key_ = Slice(data_.data() + used_ + 8, cell.key.size());  // after klen and vlen
    used_ += EncodeKeyValue(data_.data() + used_, cell, format_);
    unencoded_ = used_ - kIdSize;
    encoded_ = unencoded_ + 4 * row_offsets_.size();
    ++count_;
  }
  void Finish(std::string* body) override {
    data_.resize(used_);
    EncodeFixed16BE(data_.data(), kId);
    PutFixed32BE(&data_, static_cast<uint32_t>(row_offsets_.size()));
    for (uint32_t off : row_offsets_) PutFixed32BE(&data_, off);
    PutFixed32BE(&data_, static_cast<uint32_t>(used_ - kIdSize));
    if (body->empty()) {
      body->swap(data_);  // the swapped-in buffer keeps its capacity for the next block
    } else {
      body->append(data_);
    }
    data_.clear();  // used_ and row_offsets_ still tell the block's sizes until Reset
  }

 private:
  static constexpr size_t kIdSize = 2;
  const CellFormat format_;
  std::string data_;
  size_t used_ = kIdSize;
  std::vector<uint32_t> row_offsets_;
  size_t prev_row_at_ = 0, prev_row_len_ = 0;
};

}  // namespace

std::unique_ptr<DataBlockDecoder> NewRowIndexDecoder(const CellFormat& format) {
  return std::make_unique<RowIndexDecoder>(format);
}
std::unique_ptr<DataBlockEncoder> NewRowIndexEncoder(const CellFormat& format) {
  return std::make_unique<RowIndexEncoder>(format);
}

}  // namespace hfile
