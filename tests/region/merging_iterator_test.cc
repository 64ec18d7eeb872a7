#include "region/merging_iterator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "hfile/reader.h"
#include "region/vector_iterator.h"

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
    std::sort(cells.begin(), cells.end(), [](const CellData& a, const CellData& b) {
      return CompareForMerge(ComparatorKind::kDefault, a.view(), 0, b.view(), 0) < 0;
    });
    for (const auto& c : cells) all.emplace_back(c, f);
    in.push_back(NewVectorCellIterator(cells));
  }
  std::stable_sort(all.begin(), all.end(), [](const auto& a, const auto& b) {
    return CompareForMerge(ComparatorKind::kDefault, a.first.view(), a.second, b.first.view(),
                           b.second) < 0;
  });
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

}  // namespace
}  // namespace hfile::region
