#include "region/merging_iterator.h"

#include <cstdint>
#include <memory>

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

// A binary min-heap of input indexes ordered by their current cells. Next() advances the top
// input and sifts it down: two comparisons when it is still the smallest (consecutive cells
// usually come from the same file), instead of a pop and a push. Each input is read a batch at
// a time (a file: the rest of a data block, CellIterator::ReadBatch), so that stepping through
// an input costs an array step, not virtual calls, until its batch is used up.
class MergingIterator : public CellIterator {
 public:
  MergingIterator(std::vector<std::unique_ptr<CellIterator>> inputs, ComparatorKind kind)
      : inputs_(std::move(inputs)),
        kind_(kind),
        current_(inputs_.size(), nullptr),
        checked_(inputs_.size(), 0),
        batches_(inputs_.size()),
        next_(inputs_.size(), 0) {}

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
    const size_t i = heap_.front();
    if (next_[i] < batches_[i]->size()) {
      Take(i);
      SiftDown(0);
      return;
    }
    inputs_[i]->Next();
    if (!Load(i)) {
      heap_.front() = heap_.back();
      heap_.pop_back();
      if (heap_.empty()) return;
    }
    SiftDown(0);
  }
  const Cell& cell() const override { return *current_[heap_.front()]; }
  Status status() const override { return status_; }
  size_t source() const { return heap_.front(); }

 private:
  // Whether input a's cell comes before input b's.
  bool Before(size_t a, size_t b) const {
    if (!(checked_[a] & checked_[b])) {
      return CompareForMerge(kind_, *current_[a], a, *current_[b], b) < 0;
    }
    // CompareForMerge with keys checked once when they were loaded.
    const Cell& ca = *current_[a];
    const Cell& cb = *current_[b];
    KeyField unused;
    const int r = CompareCheckedKeys(kind_, ca.key, cb.key, &unused);
    if (r != 0) return r < 0;
    if (ca.sequence_id != cb.sequence_id) return ca.sequence_id > cb.sequence_id;
    return a > b;
  }

  // Makes the next cell of input i's batch its current one.
  void Take(size_t i) {
    const CellBatch& b = *batches_[i];
    current_[i] = &b[next_[i]++];
    checked_[i] = kind_ != ComparatorKind::kRawBytes &&
                  (b.keys_valid() || IsValidKey(current_[i]->key));
  }

  // Reads input i's next batch and takes its first cell (valid until that input moves); false
  // when it is exhausted or failed (the first failure becomes this iterator's status).
  bool Load(size_t i) {
    if (inputs_[i]->Valid()) {
      if (!batches_[i]) batches_[i] = std::make_unique<CellBatch>();
      inputs_[i]->ReadBatch(batches_[i].get());
      next_[i] = 0;
      Take(i);
      return true;
    }
    if (!inputs_[i]->status().ok() && status_.ok()) status_ = inputs_[i]->status();
    return false;
  }

  void SiftDown(size_t pos) {
    const size_t n = heap_.size();
    const size_t item = heap_[pos];
    for (;;) {
      size_t child = 2 * pos + 1;
      if (child >= n) break;
      if (child + 1 < n && Before(heap_[child + 1], heap_[child])) ++child;
      if (!Before(heap_[child], item)) break;
      heap_[pos] = heap_[child];
      pos = child;
    }
    heap_[pos] = item;
  }

  void Rebuild() {
    heap_.clear();
    status_ = Status::OK();
    for (size_t i = 0; i < inputs_.size(); ++i) {
      if (Load(i)) heap_.push_back(i);
    }
    for (size_t pos = heap_.size() / 2; pos-- > 0;) SiftDown(pos);
  }

  std::vector<std::unique_ptr<CellIterator>> inputs_;
  ComparatorKind kind_;
  std::vector<const Cell*> current_;  // per input: its current cell while it is in the heap
  std::vector<uint8_t> checked_;      // per input: its current key passed IsValidKey
  std::vector<std::unique_ptr<CellBatch>> batches_;  // per input: its batch being merged
  std::vector<size_t> next_;          // per input: the index in its batch after its current cell
  std::vector<size_t> heap_;
  Status status_;
};

}  // namespace

size_t MergingIteratorSource(const CellIterator& it) {
  auto* m = dynamic_cast<const MergingIterator*>(&it);
  return m && m->Valid() ? m->source() : SIZE_MAX;
}

std::unique_ptr<CellIterator> NewMergingIterator(
    std::vector<std::unique_ptr<CellIterator>> inputs, ComparatorKind kind) {
  return std::make_unique<MergingIterator>(std::move(inputs), kind);
}

}  // namespace hfile::region
