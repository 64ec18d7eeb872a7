#include "region/merging_iterator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "hfile/reader.h"
#include "hfile/writer.h"
#include "region/vector_iterator.h"
#include "testutil.h"

namespace hfile::region {
namespace {

using KT = KeyType;

std::vector<std::string> Drain(CellIterator* it) {
  std::vector<std::string> out;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    const Cell& c = it->cell();
    out.push_back(c.row().ToString() + "/" + c.qualifier().ToString() + "/" +
                  std::to_string(c.timestamp()) + "/" + KeyTypeName(c.type()) + "/" +
                  c.value.ToString() + "/" + std::to_string(c.sequence_id));
  }
  EXPECT_TRUE(it->status().ok());
  return out;
}

// The cells of one input in merge order.
void SortInMergeOrder(std::vector<CellData>* cells) {
  std::sort(cells->begin(), cells->end(), [](const CellData& a, const CellData& b) {
    return CompareForMerge(ComparatorKind::kDefault, a.view(), 0, b.view(), 0) < 0;
  });
}

// The cells of all inputs, each with its input's index, in the order the merge must give.
void SortInMergeOrder(std::vector<std::pair<CellData, size_t>>* all) {
  std::stable_sort(all->begin(), all->end(), [](const auto& a, const auto& b) {
    return CompareForMerge(ComparatorKind::kDefault, a.first.view(), a.second, b.first.view(),
                           b.second) < 0;
  });
}

TEST(MergingIterator, OrderAndTieBreaks) {
  std::vector<std::unique_ptr<CellIterator>> in;
  in.push_back(NewVectorCellIterator({CellData::Make("a", "f", "q", 5, KT::kPut, "old", 1),
                                      CellData::Make("b", "f", "q", 5, KT::kPut, "x", 1),
                                      CellData::Make("c", "f", "q", 5, KT::kPut, "same", 0)}));
  in.push_back(NewVectorCellIterator({CellData::Make("a", "f", "q", 5, KT::kDelete, "", 2),
                                      CellData::Make("a", "f", "q", 5, KT::kPut, "new", 9),
                                      CellData::Make("b", "f", "", 1, KT::kDeleteFamily, "", 3),
                                      CellData::Make("c", "f", "q", 5, KT::kPut, "newer", 0)}));
  auto m = NewMergingIterator(std::move(in));
  EXPECT_EQ(Drain(m.get()), (std::vector<std::string>{
                                "a/q/5/Delete//2",  // higher type first at equal ts
                                "a/q/5/Put/new/9",  // then sequence id descending
                                "a/q/5/Put/old/1",
                                "b//1/DeleteFamily//3",  // empty qualifier first
                                "b/q/5/Put/x/1",
                                "c/q/5/Put/newer/0",  // exact tie: later input (newer) wins
                                "c/q/5/Put/same/0"}));
}

TEST(MergingIterator, SourceNamesTheInputOfTheCurrentCell) {
  std::vector<std::unique_ptr<CellIterator>> in;
  in.push_back(NewVectorCellIterator({CellData::Make("a", "f", "q", 5, KT::kPut, "x", 1),
                                      CellData::Make("c", "f", "q", 5, KT::kPut, "x", 1)}));
  in.push_back(NewVectorCellIterator({CellData::Make("b", "f", "q", 5, KT::kPut, "x", 1),
                                      CellData::Make("c", "f", "q", 5, KT::kPut, "x", 1)}));
  auto m = NewMergingIterator(std::move(in));
  std::vector<size_t> sources;
  for (m->SeekToFirst(); m->Valid(); m->Next()) sources.push_back(MergingIteratorSource(*m));
  EXPECT_EQ(sources, (std::vector<size_t>{0, 1, 1, 0}));  // the tie: the later input first
  EXPECT_EQ(MergingIteratorSource(*m), SIZE_MAX);         // exhausted
  auto plain = NewVectorCellIterator({CellData::Make("a", "f", "q", 5, KT::kPut, "x", 1)});
  plain->SeekToFirst();
  EXPECT_EQ(MergingIteratorSource(*plain), SIZE_MAX);  // not a merge
}

TEST(MergingIterator, SeekAndEmptyInputs) {
  std::vector<std::unique_ptr<CellIterator>> in;
  in.push_back(NewVectorCellIterator({}));
  in.push_back(NewVectorCellIterator({CellData::Make("a", "f", "q", 1, KT::kPut),
                                      CellData::Make("c", "f", "q", 1, KT::kPut)}));
  in.push_back(NewVectorCellIterator({CellData::Make("b", "f", "q", 1, KT::kPut)}));
  auto m = NewMergingIterator(std::move(in));
  m->Seek(FirstOnRowKey("b"));
  ASSERT_TRUE(m->Valid());
  EXPECT_EQ(m->cell().row(), Slice("b"));
  m->Next();
  EXPECT_EQ(m->cell().row(), Slice("c"));
  m->Next();
  EXPECT_FALSE(m->Valid());
  auto none = NewMergingIterator({});
  none->SeekToFirst();
  EXPECT_FALSE(none->Valid());
}

TEST(MergingIterator, RandomizedAgainstSort) {
  std::mt19937 rng(7);
  std::vector<std::pair<CellData, size_t>> all;
  std::vector<std::unique_ptr<CellIterator>> in;
  for (size_t f = 0; f < 6; ++f) {
    std::vector<CellData> cells;
    for (int i = 0; i < 200; ++i) {
      std::string row(1, static_cast<char>('a' + rng() % 5));
      std::string q(rng() % 3, 'q');
      KT t = (rng() % 4 == 0) ? KT::kDelete : KT::kPut;
      cells.push_back(CellData::Make(row, "f", q, rng() % 4, t, std::to_string(f), rng() % 3));
    }
    SortInMergeOrder(&cells);
    for (const auto& c : cells) all.emplace_back(c, f);
    in.push_back(NewVectorCellIterator(cells));
  }
  SortInMergeOrder(&all);
  auto m = NewMergingIterator(std::move(in));
  size_t i = 0;
  for (m->SeekToFirst(); m->Valid(); m->Next(), ++i) {
    ASSERT_LT(i, all.size());
    EXPECT_EQ(m->cell().key, Slice(all[i].first.key));
    EXPECT_EQ(m->cell().sequence_id, all[i].first.sequence_id);
    EXPECT_EQ(m->cell().value, Slice(all[i].first.value));
  }
  EXPECT_EQ(i, all.size());
}

// Random cells of rows a-e, sorted in merge order, as the test inputs use them.
std::vector<CellData> RandomSortedCells(std::mt19937* rng, size_t n, const std::string& tag) {
  std::vector<CellData> cells;
  for (size_t i = 0; i < n; ++i) {
    std::string row = std::string(1, static_cast<char>('a' + (*rng)() % 5)) +
                      std::to_string((*rng)() % 50);
    std::string q(1 + (*rng)() % 3, 'q');
    KT t = ((*rng)() % 4 == 0) ? KT::kDelete : KT::kPut;
    cells.push_back(CellData::Make(row, "f", q, (*rng)() % 4, t, tag, (*rng)() % 3));
  }
  SortInMergeOrder(&cells);
  return cells;
}

// Inputs that are real files in small blocks, so that each is read a data block's batch at a
// time, for every input count from 1 to 9 (the loser tree's shapes), some inputs empty.
TEST(MergingIterator, FilesInBatchesForEveryInputCount) {
  const std::string dir = test::NewTempDir("merge-files");
  std::mt19937 rng(11);
  for (size_t k = 1; k <= 9; ++k) {
    SCOPED_TRACE(k);
    std::vector<std::pair<CellData, size_t>> all;
    std::vector<std::unique_ptr<Reader>> readers;
    std::vector<std::unique_ptr<CellIterator>> in;
    for (size_t f = 0; f < k; ++f) {
      const size_t n = (f % 4 == 3) ? 0 : 50 + rng() % 400;
      const auto cells = RandomSortedCells(&rng, n, std::to_string(f));
      const std::string path = dir + "/" + std::to_string(k) + "-" + std::to_string(f);
      WriterOptions o;
      o.block_size = 256;  // a few cells per block
      auto w = Writer::Create(path, o);
      ASSERT_TRUE(w.ok()) << w.status().ToString();
      for (const auto& c : cells) ASSERT_TRUE((*w)->Append(c.view()).ok());
      ASSERT_TRUE((*w)->Finish().ok());
      auto r = Reader::Open(path);
      ASSERT_TRUE(r.ok()) << r.status().ToString();
      in.push_back((*r)->NewIterator());
      readers.push_back(std::move(*r));
      for (const auto& c : cells) all.emplace_back(c, f);
    }
    SortInMergeOrder(&all);
    auto m = NewMergingIterator(std::move(in));
    size_t i = 0;
    for (m->SeekToFirst(); m->Valid(); m->Next(), ++i) {
      ASSERT_LT(i, all.size());
      ASSERT_EQ(m->cell().key, Slice(all[i].first.key)) << i;
      ASSERT_EQ(m->cell().sequence_id, all[i].first.sequence_id) << i;
      ASSERT_EQ(MergingIteratorSource(*m), all[i].second) << i;
    }
    EXPECT_TRUE(m->status().ok()) << m->status().ToString();
    EXPECT_EQ(i, all.size());
  }
}

// Yields its cells, then fails instead of ending.
class FailingIterator : public CellIterator {
 public:
  explicit FailingIterator(std::vector<CellData> cells) : cells_(std::move(cells)) {}
  bool Valid() const override { return i_ < cells_.size(); }
  void SeekToFirst() override { i_ = 0; }
  void Seek(const Slice&) override { i_ = 0; }
  void Next() override {
    if (++i_ == cells_.size()) status_ = Status::Corruption("damaged block", "input 1");
    cell_ = i_ < cells_.size() ? cells_[i_].view() : Cell();
  }
  const Cell& cell() const override {
    cell_ = cells_[i_].view();
    return cell_;
  }
  Status status() const override { return status_; }

 private:
  std::vector<CellData> cells_;
  size_t i_ = 0;
  mutable Cell cell_;
  Status status_;
};

TEST(MergingIterator, AFailingInputEndsTheMergeWithItsStatus) {
  std::vector<std::unique_ptr<CellIterator>> in;
  in.push_back(NewVectorCellIterator({CellData::Make("a", "f", "q", 1, KT::kPut),
                                      CellData::Make("d", "f", "q", 1, KT::kPut),
                                      CellData::Make("e", "f", "q", 1, KT::kPut)}));
  in.push_back(std::make_unique<FailingIterator>(std::vector<CellData>{
      CellData::Make("b", "f", "q", 1, KT::kPut), CellData::Make("c", "f", "q", 1, KT::kPut)}));
  in.push_back(NewVectorCellIterator({CellData::Make("f", "f", "q", 1, KT::kPut)}));
  auto m = NewMergingIterator(std::move(in));
  std::vector<std::string> rows;
  for (m->SeekToFirst(); m->Valid(); m->Next()) rows.push_back(m->cell().row().ToString());
  // The failing input's cells come out; the merge stops where its next cell would have been.
  EXPECT_EQ(rows, (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_TRUE(m->status().IsCorruption()) << m->status().ToString();
}

// Hands on its cells in batches of the given sizes (cycled), as a file's iterator hands on data
// blocks, so that the merge steps through batches and codes its cells.
class BatchingIterator : public CellIterator {
 public:
  BatchingIterator(std::vector<CellData> cells, std::vector<size_t> sizes)
      : cells_(std::move(cells)), sizes_(std::move(sizes)) {}
  bool Valid() const override { return i_ < cells_.size(); }
  void SeekToFirst() override { i_ = 0; }
  void Seek(const Slice&) override { i_ = 0; }
  void Next() override { ++i_; }
  const Cell& cell() const override {
    cell_ = cells_[i_].view();
    return cell_;
  }
  void ReadBatch(CellBatch* batch) override {
    batch->Clear();
    const size_t n = sizes_[batches_++ % sizes_.size()];
    for (size_t k = 0; k < n && i_ < cells_.size(); ++k) *batch->Add() = cells_[i_++].view();
    --i_;  // on the batch's last cell
  }
  Status status() const override { return Status::OK(); }

 private:
  std::vector<CellData> cells_;
  std::vector<size_t> sizes_;
  size_t i_ = 0, batches_ = 0;
  mutable Cell cell_;
};

// Keys made to meet every field of the order: rows that prefix each other and differ in
// length, families of 0-2 bytes, qualifiers sharing prefixes, timestamps at the extremes,
// every type, "last on row" keys (empty column, type Minimum), duplicates across inputs.
CellData AdversarialCell(std::mt19937* rng) {
  auto rnd = [rng](uint32_t m) { return static_cast<uint32_t>((*rng)() % m); };
  static const char* const kRows[] = {"", "a", "ab", "abc", "abd", "b", "ba", "b\xff"};
  static const char* const kFamilies[] = {"f", "f", "f", "", "ff"};
  static const char* const kQualifiers[] = {"", "q", "q", "qa", "qb", "r"};
  static const int64_t kTimestamps[] = {INT64_MIN, -1, 0, 1, 2, 1700000000000, INT64_MAX};
  static const KT kTypes[] = {KT::kPut, KT::kPut, KT::kDelete, KT::kDeleteColumn,
                              KT::kDeleteFamily, KT::kDeleteFamilyVersion, KT::kMaximum};
  const std::string row = kRows[rnd(8)];
  if (rnd(25) == 0) return CellData::Make(row, "", "", rnd(3), KT::kMinimum, "", rnd(3));
  return CellData::Make(row, kFamilies[rnd(5)], kQualifiers[rnd(6)], kTimestamps[rnd(7)],
                        kTypes[rnd(7)], "", rnd(3));
}

// The merge's first differences (KeyDifference, from its offset-value codes) are what a compare
// with the previous cell says, and the order is the sort's, over every input count, batch
// sizes from 1 up, and keys that meet every field of the order.
TEST(MergingIterator, KeyDifferencesAreTheComparesOfTheOutput) {
  std::mt19937 rng(2026);
  size_t cells_out = 0, known = 0;
  for (int round = 0; round < 60; ++round) {
    const size_t k = 1 + round % 9;
    SCOPED_TRACE(round);
    std::vector<std::pair<CellData, size_t>> all;
    std::vector<std::unique_ptr<CellIterator>> in;
    for (size_t f = 0; f < k; ++f) {
      std::vector<CellData> cells;
      for (size_t n = rng() % 120; n > 0; --n) cells.push_back(AdversarialCell(&rng));
      SortInMergeOrder(&cells);
      for (const auto& c : cells) all.emplace_back(c, f);
      std::vector<size_t> sizes = {1 + rng() % 40, 1 + rng() % 3, 1 + rng() % 200};
      in.push_back(std::make_unique<BatchingIterator>(std::move(cells), std::move(sizes)));
    }
    SortInMergeOrder(&all);
    auto m = NewMergingIterator(std::move(in));
    size_t i = 0;
    for (m->SeekToFirst(); m->Valid(); m->Next(), ++i) {
      ASSERT_LT(i, all.size());
      ASSERT_EQ(m->cell().key, Slice(all[i].first.key)) << i;
      ASSERT_EQ(m->cell().sequence_id, all[i].first.sequence_id) << i;
      ASSERT_EQ(MergingIteratorSource(*m), all[i].second) << i;
      KeyField d;
      if (!m->KeyDifference(&d)) continue;
      ASSERT_GT(i, 0u) << "the first cell has no predecessor";
      KeyField want;
      ASSERT_LE(CompareKeys(ComparatorKind::kDefault, all[i - 1].first.key, all[i].first.key,
                            &want), 0) << i;
      ASSERT_EQ(static_cast<int>(d), static_cast<int>(want)) << i;
      ++known;
    }
    ASSERT_TRUE(m->status().ok());
    ASSERT_EQ(i, all.size());
    cells_out += i;
  }
  // Most cells come with their difference (not those after a batch boundary of their input).
  EXPECT_GT(known, cells_out / 2) << known << " of " << cells_out;
}

// A cell before its predecessor in its own input is not vouched for: the merge says nothing of
// it, so that the writer's own compare finds the disorder.
TEST(MergingIterator, NoDifferenceForACellOutOfOrderInItsInput) {
  std::vector<CellData> cells = {CellData::Make("b", "f", "q", 1, KT::kPut),
                                 CellData::Make("c", "f", "q", 1, KT::kPut),
                                 CellData::Make("a", "f", "q", 1, KT::kPut)};
  std::vector<std::unique_ptr<CellIterator>> in;
  in.push_back(std::make_unique<BatchingIterator>(cells, std::vector<size_t>{3}));
  auto m = NewMergingIterator(std::move(in));
  std::vector<std::string> rows;
  std::vector<bool> known;
  for (m->SeekToFirst(); m->Valid(); m->Next()) {
    KeyField d;
    rows.push_back(m->cell().row().ToString());
    known.push_back(m->KeyDifference(&d));
  }
  EXPECT_EQ(rows, (std::vector<std::string>{"b", "c", "a"}));
  EXPECT_EQ(known, (std::vector<bool>{false, true, false}));
}

}  // namespace
}  // namespace hfile::region
