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

// A loser tree over the inputs: internal node n (1 <= n < k) holds the input that lost the
// match played there, leaf k + i stands for input i, and winner_ is the input whose cell comes
// first. Next() advances the winner and replays only the matches on its leaf's path to the root:
// ceil(log2 k) comparisons per cell whatever happens (a binary heap's sift takes up to twice
// that). An exhausted or failed input is "done" and loses every match. Each input is read a
// batch at a time (a file: the rest of a data block, CellIterator::ReadBatch), so that stepping
// through an input costs an array step, not virtual calls, until its batch is used up.
class MergingIterator : public CellIterator {
 public:
  MergingIterator(std::vector<std::unique_ptr<CellIterator>> inputs, ComparatorKind kind)
      : inputs_(std::move(inputs)),
        kind_(kind),
        current_(inputs_.size(), nullptr),
        checked_(inputs_.size(), 0),
        done_(inputs_.size(), 1),
        batches_(inputs_.size()),
        next_(inputs_.size(), 0),
        losers_(inputs_.size(), 0) {}

  bool Valid() const override { return status_.ok() && !inputs_.empty() && !done_[winner_]; }
  void SeekToFirst() override {
    for (auto& in : inputs_) in->SeekToFirst();
    Rebuild();
  }
  void Seek(const Slice& key) override {
    for (auto& in : inputs_) in->Seek(key);
    Rebuild();
  }
  void Next() override {
    const size_t i = winner_;
    if (next_[i] < batches_[i]->size()) {
      Take(i);
    } else {
      inputs_[i]->Next();
      done_[i] = !Load(i);
    }
    Replay(i);
  }
  const Cell& cell() const override { return *current_[winner_]; }
  Status status() const override { return status_; }
  size_t source() const { return winner_; }

 private:
  // Whether input a's cell comes before input b's; a done input comes after every other.
  bool Before(size_t a, size_t b) const {
    if (done_[a] | done_[b]) return done_[b] && (!done_[a] || a < b);
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

  // Input i's cell changed: replays the matches from its leaf up; the last winner is winner_.
  void Replay(size_t i) {
    size_t w = i;
    for (size_t n = (i + losers_.size()) / 2; n > 0; n /= 2) {
      if (Before(losers_[n], w)) std::swap(losers_[n], w);
    }
    winner_ = w;
  }

  // Plays the matches of the subtree under node n (a leaf when n >= k); returns its winner.
  size_t Play(size_t n) {
    const size_t k = inputs_.size();
    if (n >= k) return n - k;
    const size_t a = Play(2 * n), b = Play(2 * n + 1);
    if (Before(a, b)) {
      losers_[n] = b;
      return a;
    }
    losers_[n] = a;
    return b;
  }

  void Rebuild() {
    status_ = Status::OK();
    for (size_t i = 0; i < inputs_.size(); ++i) done_[i] = !Load(i);
    winner_ = inputs_.empty() ? 0 : Play(1);
  }

  std::vector<std::unique_ptr<CellIterator>> inputs_;
  ComparatorKind kind_;
  std::vector<const Cell*> current_;  // per input: its current cell unless it is done
  std::vector<uint8_t> checked_;      // per input: its current key passed IsValidKey
  std::vector<uint8_t> done_;         // per input: exhausted or failed
  std::vector<std::unique_ptr<CellBatch>> batches_;  // per input: its batch being merged
  std::vector<size_t> next_;          // per input: the index in its batch after its current cell
  std::vector<size_t> losers_;        // [1, k): the loser of the match at each internal node
  size_t winner_ = 0;
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
