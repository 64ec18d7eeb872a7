// NONE: a DATABLK* body is a run of plain KeyValues (layout in data_block_codec.cc), with no id,
// no count and no trailer.
#include "coding.h"
#include "data_block_internal.h"

namespace hfile {
namespace {

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
    if (!status_.ok() || in_.empty()) return false;
    const size_t offset = in_.data() - body_.data();
    const char* why = nullptr;
    if (!ParseKeyValue(&in_, format_, cell, &why)) {
      status_ = CellCorruption(ordinal_, offset, why);
      in_ = Slice();
      return false;
    }
    ++ordinal_;
    return true;
  }

  const Status& status() const override { return status_; }

 private:
  const CellFormat format_;
  Slice body_, in_;
  size_t ordinal_ = 0;
  Status status_;
};

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
