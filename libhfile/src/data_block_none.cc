// NONE: a DATABLK* body is a run of plain KeyValues (layout in data_block_codec.cc), with no id,
// no count and no trailer.
#include <algorithm>

#include "hfile/coding.h"
#include "data_block_internal.h"

namespace hfile {
namespace {

// The format is a template argument, so that Add, which runs once per written cell, tests no
// flags and computes no exact size before it copies.
template <bool kTags, bool kMvcc>
class NoneEncoder final : public DataBlockEncoder {
 public:
  void Reset() override {
    used_ = 0;
    unencoded_ = encoded_ = count_ = 0;
    last_key_ = Slice();
  }
  // Cells are encoded straight into data_, which grows by doubling (zero-filled once per
  // growth, not per cell) with used_ marking the end of the block so far.
  void Add(const Cell& cell) override {
    const size_t bound = KeyValueBound<kTags, kMvcc>(cell);
    if (used_ + bound > data_.size()) data_.resize(std::max(used_ + bound, 2 * data_.size()));
    last_key_ = Slice(data_.data() + used_ + 8, cell.key.size());  // after klen and vlen
    used_ += EncodeKeyValueAs<kTags, kMvcc>(data_.data() + used_, cell);
    unencoded_ = encoded_ = used_;
    ++count_;
  }
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
  std::string data_;
  size_t used_ = 0;
};

}  // namespace

std::unique_ptr<DataBlockDecoder> NewNoneDecoder(const CellFormat& format) {
  return std::make_unique<NoneDecoder>(format);
}
std::unique_ptr<DataBlockEncoder> NewNoneEncoder(const CellFormat& format) {
  if (format.include_tags) {
    if (format.include_mvcc) return std::make_unique<NoneEncoder<true, true>>();
    return std::make_unique<NoneEncoder<true, false>>();
  }
  if (format.include_mvcc) return std::make_unique<NoneEncoder<false, true>>();
  return std::make_unique<NoneEncoder<false, false>>();
}

}  // namespace hfile
