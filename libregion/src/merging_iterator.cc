#include "region/merging_iterator.h"

#include <algorithm>
#include <cstdint>
#include <memory>

#include "hfile/coding.h"

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
//
// Offset-value coding (Graefe): under the default comparator each input's cell carries a code
// saying where it first differs from a base cell that sorts before it (the winner it last lost
// to; for the winner's next cell, the cell it follows in its input, the last output): the field
// of the merge order (row, family, qualifier, timestamp, type, sequence id, input order), in the
// row or the qualifier the byte offset, and the cell's byte there. The losers on the winner's
// path hold codes against the winner, so when a replay plays two cells whose codes differ, the
// higher code (the longer agreement with the common base, or the smaller byte where both leave
// it) wins without reading either key, and the loser's code stays true against the new winner;
// equal codes compare from the byte after. The new winner's code says how it differs from the
// previous output (KeyDifference), which spares the compaction rules and the writer their own
// compares. The one compare per cell left is each cell against its predecessor in its input,
// which also proves that input's order; a cell that breaks it, a key that failed IsValidKey, and
// the first cell of each batch get kUnknown, and their matches compare in full.
class MergingIterator : public CellIterator {
 public:
  MergingIterator(std::vector<std::unique_ptr<CellIterator>> inputs, ComparatorKind kind)
      : inputs_(std::move(inputs)),
        kind_(kind),
        coded_(kind == ComparatorKind::kDefault),
        heads_(inputs_.size()),
        batches_(inputs_.size()),
        next_(inputs_.size(), 0),
        losers_(inputs_.size(), 0) {}

  bool Valid() const override {
    return status_.ok() && !inputs_.empty() && !heads_[winner_].done;
  }
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
      Head& h = heads_[i];
      const Cell* prev = h.cell;
      const bool prev_checked = h.checked;
      Take(i);
      h.code = coded_ && prev_checked && h.checked ? CodeAfter(*prev, *h.cell, i) : kUnknown;
    } else {
      inputs_[i]->Next();
      heads_[i].done = !Load(i);
    }
    Replay(i);
  }
  const Cell& cell() const override { return *heads_[winner_].cell; }
  Status status() const override { return status_; }
  bool KeyDifference(KeyField* first_difference) const override {
    const uint64_t c = heads_[winner_].code;
    if (c == kUnknown) return false;
    const uint8_t field = CodeField(c);
    *first_difference = field < kSequence ? static_cast<KeyField>(field) : KeyField::kNone;
    return true;
  }
  size_t source() const { return winner_; }

 private:
  // The fields of the merge order: KeyField's values for the key's, then these.
  static constexpr uint8_t kRow = static_cast<uint8_t>(KeyField::kRow);
  static constexpr uint8_t kFamily = static_cast<uint8_t>(KeyField::kFamily);
  static constexpr uint8_t kQualifier = static_cast<uint8_t>(KeyField::kQualifier);
  static constexpr uint8_t kTimestamp = static_cast<uint8_t>(KeyField::kTimestamp);
  static constexpr uint8_t kType = static_cast<uint8_t>(KeyField::kType);
  static constexpr uint8_t kSequence = static_cast<uint8_t>(KeyField::kNone);
  static constexpr uint8_t kOrder = kSequence + 1;
  static constexpr uint8_t kEqual = kOrder + 1;

  // A code: the field, the byte offset in it (the row and the qualifier; 0 for the others), and
  // 255 - the cell's byte there, so that among codes against one base the higher sorts first.
  static constexpr uint64_t kUnknown = ~uint64_t{0};
  static uint64_t MakeCode(uint8_t field, uint64_t offset, uint8_t byte) {
    return (uint64_t{field} << 40) | (offset << 8) | (255u - byte);
  }
  static uint8_t CodeField(uint64_t code) { return static_cast<uint8_t>(code >> 40); }
  static uint32_t CodeOffset(uint64_t code) { return static_cast<uint32_t>(code >> 8); }

  // An input's current cell, unless it is done.
  struct Head {
    const Cell* cell = nullptr;
    uint64_t code = kUnknown;  // above
    bool checked = false;      // the key passed IsValidKey
    bool done = true;          // exhausted or failed
  };

  // Where two cells first differ in the merge order, and which comes first.
  struct Difference {
    int order;       // < 0: the first cell comes first
    uint8_t field;   // kRow ... kEqual
    uint32_t offset;  // in the row or the qualifier
  };

  static int ByteOrder(const char* a, const char* b, size_t i) {
    return static_cast<uint8_t>(a[i]) < static_cast<uint8_t>(b[i]) ? -1 : 1;
  }

  // Compares x (input a) and y (input b), both checked keys under the default comparator, from
  // `field` and, in the row or the qualifier, byte `offset` on: they agree in everything before.
  // Out of line for the matches; CodeAfter has its own copy, with the constants folded in.
  __attribute__((noinline)) static Difference CompareFrom(const Cell& x, size_t a, const Cell& y,
                                                          size_t b, uint8_t field, size_t offset) {
    return CompareFromInline(x, a, y, b, field, offset);
  }
  __attribute__((always_inline)) static Difference CompareFromInline(const Cell& x, size_t a,
                                                                     const Cell& y, size_t b,
                                                                     uint8_t field,
                                                                     size_t offset) {
    const char* px = x.key.data();
    const char* py = y.key.data();
    const size_t rx = KeyRowLength(x.key), ry = KeyRowLength(y.key);
    const uint8_t tx = static_cast<uint8_t>(px[x.key.size() - 1]);
    const uint8_t ty = static_cast<uint8_t>(py[y.key.size() - 1]);
    if (rx == ry && field <= kQualifier && px[2 + rx] == py[2 + rx]) {
      // Rows and families of equal lengths line up byte for byte up to the shorter qualifier's
      // end (the common case): one scan finds the first difference, its offset the field.
      const size_t r = rx, f = static_cast<uint8_t>(px[2 + r]);
      const size_t qs = 3 + r + f;  // where the qualifiers start
      const size_t qx = x.key.size() - 9 - qs, qy = y.key.size() - 9 - qs;
      const bool last = (f + qx == 0 && tx == 0) || (f + qy == 0 && ty == 0);
      if (!last) {
        const size_t end = qs + std::min(qx, qy);
        const size_t from = field == kRow ? 2 + offset : field == kFamily ? 3 + r : qs + offset;
        const size_t m = from + CommonPrefixLength(px + from, py + from, end - from);
        if (m < end) {
          const int order = ByteOrder(px, py, m);
          if (m < 2 + r) return {order, kRow, static_cast<uint32_t>(m - 2)};
          if (m < qs) return {order, kFamily, 0};  // (the family lengths are equal)
          return {order, kQualifier, static_cast<uint32_t>(m - qs)};
        }
        if (qx != qy) return {qx < qy ? -1 : 1, kQualifier, static_cast<uint32_t>(end - qs)};
        field = kTimestamp;
      }
    }
    if (field == kRow) {
      const size_t n = std::min(rx, ry);
      const size_t m = offset + CommonPrefixLength(px + 2 + offset, py + 2 + offset, n - offset);
      if (m < n) return {ByteOrder(px + 2, py + 2, m), kRow, static_cast<uint32_t>(m)};
      if (rx != ry) return {rx < ry ? -1 : 1, kRow, static_cast<uint32_t>(m)};
      field = kFamily;
    }
    if (field == kFamily || field == kQualifier) {
      // The rows are equal here.
      const size_t r = rx;
      const size_t fx = static_cast<uint8_t>(px[2 + r]), fy = static_cast<uint8_t>(py[2 + r]);
      const size_t qx = x.key.size() - kKeyInfrastructureSize - r - fx;
      const size_t qy = y.key.size() - kKeyInfrastructureSize - r - fy;
      if (field == kFamily) {
        // "Last on row" (empty column, type Minimum) sorts after every other cell of its row,
        // and two such keys are equal whatever their timestamps.
        const bool last_x = fx + qx == 0 && tx == 0, last_y = fy + qy == 0 && ty == 0;
        if (last_x != last_y) return {last_x ? 1 : -1, kFamily, 0};
        if (last_x) {
          field = kSequence;
        } else {
          const int c = Slice(px + 3 + r, fx).compare(Slice(py + 3 + r, fy));
          if (c != 0) return {c, kFamily, 0};
          field = kQualifier;
          offset = 0;
        }
      }
      if (field == kQualifier) {
        const size_t o = 3 + r + fx;  // the families are equal
        const size_t n = std::min(qx, qy);
        const size_t m = offset + CommonPrefixLength(px + o + offset, py + o + offset, n - offset);
        if (m < n) return {ByteOrder(px + o, py + o, m), kQualifier, static_cast<uint32_t>(m)};
        if (qx != qy) return {qx < qy ? -1 : 1, kQualifier, static_cast<uint32_t>(m)};
        field = kTimestamp;
      }
    }
    if (field == kTimestamp) {
      const int64_t tsx = static_cast<int64_t>(DecodeFixed64BE(x.key.end() - 9));
      const int64_t tsy = static_cast<int64_t>(DecodeFixed64BE(y.key.end() - 9));
      if (tsx != tsy) return {tsx > tsy ? -1 : 1, kTimestamp, 0};  // newer first
      field = kType;
    }
    if (field == kType) {
      if (tx != ty) return {tx > ty ? -1 : 1, kType, 0};  // higher type code first
      field = kSequence;
    }
    if (field == kSequence && x.sequence_id != y.sequence_id)
      return {x.sequence_id > y.sequence_id ? -1 : 1, kSequence, 0};
    if (a != b) return {a > b ? -1 : 1, kOrder, 0};  // a later input wins ties
    return {0, kEqual, 0};
  }

  // The code of cell c at the place where it differs from a cell before it.
  static uint64_t CodeOf(const Cell& c, const Difference& d) {
    uint8_t byte = 0;
    if (d.field == kRow) {
      byte = static_cast<uint8_t>(c.key.data()[2 + d.offset]);
    } else if (d.field == kQualifier) {
      const size_t r = KeyRowLength(c.key);
      byte = static_cast<uint8_t>(c.key.data()[3 + r + c.key.byte(2 + r) + d.offset]);
    }
    return MakeCode(d.field, d.offset, byte);
  }

  // The code of `cur` after `prev`, its predecessor in input i: kUnknown when it sorts before.
  static uint64_t CodeAfter(const Cell& prev, const Cell& cur, size_t i) {
    const Difference d = CompareFromInline(prev, i, cur, i, kRow, 0);
    return d.order <= 0 ? CodeOf(cur, d) : kUnknown;
  }

  // Plays input a's cell against input b's; true when a's comes first. Both codes are relative
  // to the same base; the loser's becomes relative to the winner.
  __attribute__((always_inline)) bool Wins(size_t a, size_t b) {
    Head& ha = heads_[a];
    Head& hb = heads_[b];
    if (ha.done | hb.done) return hb.done && (!ha.done || a < b);
    const bool known = ha.code != kUnknown && hb.code != kUnknown;
    if (known && ha.code != hb.code) return ha.code > hb.code;
    int r;
    if (!(ha.checked & hb.checked)) {
      r = CompareForMerge(kind_, *ha.cell, a, *hb.cell, b);
      (r < 0 ? hb : ha).code = kUnknown;
    } else if (coded_) {
      // Equal codes: the cells agree up to that field and offset, and in the row or the
      // qualifier on the byte there too; an unknown one: from the row.
      uint8_t field = kRow;
      size_t offset = 0;
      if (known) {
        field = CodeField(ha.code);
        if (field == kRow || field == kQualifier) offset = CodeOffset(ha.code) + 1;
      }
      const Difference d = CompareFrom(*ha.cell, a, *hb.cell, b, field, offset);
      r = d.order;
      if (r < 0) {
        hb.code = CodeOf(*hb.cell, d);
      } else {
        ha.code = CodeOf(*ha.cell, d);
      }
    } else {
      // CompareForMerge with keys checked once when they were loaded.
      KeyField unused;
      r = CompareCheckedKeys(kind_, ha.cell->key, hb.cell->key, &unused);
      if (r == 0) {
        const uint64_t sa = ha.cell->sequence_id, sb = hb.cell->sequence_id;
        r = sa != sb ? (sa > sb ? -1 : 1) : (a > b ? -1 : 1);
      }
    }
    return r < 0;
  }

  // Makes the next cell of input i's batch its current one.
  void Take(size_t i) {
    const CellBatch& b = *batches_[i];
    Head& h = heads_[i];
    h.cell = &b[next_[i]++];
    h.checked = kind_ != ComparatorKind::kRawBytes && (b.keys_valid() || IsValidKey(h.cell->key));
  }

  // Reads input i's next batch and takes its first cell (valid until that input moves), with an
  // unknown code (its predecessor's bytes are gone); false when it is exhausted or failed (the
  // first failure becomes this iterator's status).
  bool Load(size_t i) {
    heads_[i].code = kUnknown;
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
      if (Wins(losers_[n], w)) std::swap(losers_[n], w);
    }
    winner_ = w;
  }

  // Plays the matches of the subtree under node n (a leaf when n >= k); returns its winner.
  size_t Play(size_t n) {
    const size_t k = inputs_.size();
    if (n >= k) return n - k;
    const size_t a = Play(2 * n), b = Play(2 * n + 1);
    if (Wins(a, b)) {
      losers_[n] = b;
      return a;
    }
    losers_[n] = a;
    return b;
  }

  void Rebuild() {
    status_ = Status::OK();
    for (size_t i = 0; i < inputs_.size(); ++i) heads_[i].done = !Load(i);
    winner_ = inputs_.empty() ? 0 : Play(1);
  }

  std::vector<std::unique_ptr<CellIterator>> inputs_;
  ComparatorKind kind_;
  bool coded_;                        // offset-value codes (the default comparator)
  std::vector<Head> heads_;           // per input
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
