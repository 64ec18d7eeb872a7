#include "region/merging_iterator.h"

#include <algorithm>

namespace hfile::region {

int CompareForMerge(ComparatorKind kind, const Cell& a, size_t order_a, const Cell& b,
                    size_t order_b) {
  int r = CompareKeys(kind, a.key, b.key);
  if (r != 0) return r;
  if (a.sequence_id != b.sequence_id) return a.sequence_id > b.sequence_id ? -1 : 1;
  if (order_a != order_b) return order_a > order_b ? -1 : 1;
  return 0;
}

namespace {

class MergingIterator : public CellIterator {
 public:
  MergingIterator(std::vector<std::unique_ptr<CellIterator>> inputs, ComparatorKind kind)
      : inputs_(std::move(inputs)), kind_(kind) {}

  bool Valid() const override { return status_.ok() && !heap_.empty(); }
  void SeekToFirst() override {
    for (auto& in : inputs_) in->SeekToFirst();
    Rebuild();
  }
  void Seek(const Slice& key) override {
    for (auto& in : inputs_) in->Seek(key);
    Rebuild();
  }
  void Next() override {
    // heap_.front() is the current input; advance it and restore the heap.
    std::pop_heap(heap_.begin(), heap_.end(), Greater());
    size_t i = heap_.back();
    heap_.pop_back();
    inputs_[i]->Next();
    Push(i);
  }
  const Cell& cell() const override { return inputs_[heap_.front()]->cell(); }
  Status status() const override { return status_; }

 private:
  // Heap order: std heap functions keep the "largest" on top, so invert the merge order.
  struct GreaterFn {
    const MergingIterator* self;
    bool operator()(size_t a, size_t b) const {
      return CompareForMerge(self->kind_, self->inputs_[a]->cell(), a, self->inputs_[b]->cell(),
                             b) > 0;
    }
  };
  GreaterFn Greater() const { return GreaterFn{this}; }

  void Push(size_t i) {
    if (inputs_[i]->Valid()) {
      heap_.push_back(i);
      std::push_heap(heap_.begin(), heap_.end(), Greater());
    } else if (!inputs_[i]->status().ok() && status_.ok()) {
      status_ = inputs_[i]->status();
    }
  }
  void Rebuild() {
    heap_.clear();
    status_ = Status::OK();
    for (size_t i = 0; i < inputs_.size(); ++i) Push(i);
  }

  std::vector<std::unique_ptr<CellIterator>> inputs_;
  ComparatorKind kind_;
  std::vector<size_t> heap_;
  Status status_;
};

}  // namespace

std::unique_ptr<CellIterator> NewMergingIterator(
    std::vector<std::unique_ptr<CellIterator>> inputs, ComparatorKind kind) {
  return std::make_unique<MergingIterator>(std::move(inputs), kind);
}

}  // namespace hfile::region
