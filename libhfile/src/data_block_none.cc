// NONE: a DATABLK* body is a run of plain KeyValues (layout in data_block_codec.cc), with no id,
// no count and no trailer.
#include "coding.h"
#include "data_block_internal.h"

namespace hfile {
namespace {

class NoneEncoder final : public DataBlockEncoder {
 public:
  explicit NoneEncoder(const CellFormat& format) : format_(format) {}

  void Reset() override {
    data_.clear();
    count_ = 0;
  }
  void Add(const Cell& cell) override {
    AppendKeyValue(&data_, cell, format_);
    ++count_;
  }
  size_t UnencodedSize() const override { return data_.size(); }
  size_t EncodedSize() const override { return data_.size(); }
  size_t cell_count() const override { return count_; }
  void Finish(std::string* body) override {
    // Hand the cells over without copying when the caller starts from an empty body; the
    // swapped-in buffer keeps its capacity for the next block.
    if (body->empty()) {
      body->swap(data_);
    } else {
      body->append(data_);
    }
  }

 private:
  const CellFormat format_;
  std::string data_;
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
