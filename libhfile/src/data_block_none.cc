// NONE: a DATABLK* body is a run of plain KeyValues (layout in data_block_codec.cc), with no id,
// no count and no trailer.
#include <algorithm>

#include "hfile/coding.h"
#include "data_block_internal.h"

namespace hfile {
namespace {

class NoneEncoder final : public DataBlockEncoder {
 public:
  explicit NoneEncoder(const CellFormat& format) : format_(format) {}

  void Reset() override {
    used_ = 0;
    count_ = 0;
  }
  // Cells are encoded straight into data_, which grows by doubling (zero-filled once per
  // growth, not per cell) with used_ marking the end of the block so far.
  void Add(const Cell& cell) override {
    const size_t n = KeyValueSize(cell, format_);
    if (used_ + n > data_.size()) data_.resize(std::max(used_ + n, 2 * data_.size()));
    used_ += EncodeKeyValue(data_.data() + used_, cell, format_);
    ++count_;
  }
  size_t UnencodedSize() const override { return used_; }
  size_t EncodedSize() const override { return used_; }
  size_t cell_count() const override { return count_; }
  void Finish(std::string* body) override {
    data_.resize(used_);
    // Hand the cells over without copying when the caller starts from an empty body; the
    // swapped-in buffer keeps its capacity for the next block.
    if (body->empty()) {
      body->swap(data_);
    } else {
      body->append(data_);
    }
    data_.clear();  // used_ still tells the block's size until Reset
  }
  Slice FinishBlock(std::string* /*scratch*/) override { return Slice(data_.data(), used_); }

 private:
  const CellFormat format_;
  std::string data_;
  size_t used_ = 0;
  size_t count_ = 0;
};

}  // namespace

std::unique_ptr<DataBlockDecoder> NewNoneDecoder(const CellFormat& format) {
  return std::make_unique<NoneDecoder>(format);
}
std::unique_ptr<DataBlockEncoder> NewNoneEncoder(const CellFormat& format) {
  return std::make_unique<NoneEncoder>(format);
}

}  // namespace hfile
