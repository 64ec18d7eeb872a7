// CellBatch: cells and arena bytes kept across refills, and views that stay valid while the
// arena grows.
#include "hfile/cell_batch.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace hfile {
namespace {

// Fills n bytes at p with a pattern derived from `seed`, and checks them later.
void Fill(char* p, size_t n, int seed) {
  for (size_t i = 0; i < n; ++i) p[i] = static_cast<char>(seed * 31 + i);
}
bool Holds(const char* p, size_t n, int seed) {
  for (size_t i = 0; i < n; ++i) {
    if (p[i] != static_cast<char>(seed * 31 + i)) return false;
  }
  return true;
}

TEST(CellBatch, ArenaBytesStayPutWhileItGrows) {
  CellBatch batch;
  // Sizes around the 64 KiB chunk: small keys, one that does not fit what is left of a chunk,
  // one larger than a chunk, then small ones again.
  const std::vector<size_t> sizes = {12, 40, 65000, 600, 70000, 1, 64 * 1024, 13, 200000, 7};
  for (int round = 0; round < 3; ++round) {  // Clear() reuses the chunks from the first
    std::vector<std::pair<char*, size_t>> got;
    for (size_t i = 0; i < sizes.size(); ++i) {
      char* p = batch.Allocate(sizes[i]);
      ASSERT_NE(p, nullptr);
      Fill(p, sizes[i], static_cast<int>(i) + round);
      got.emplace_back(p, sizes[i]);
    }
    for (size_t i = 0; i < got.size(); ++i) {
      EXPECT_TRUE(Holds(got[i].first, got[i].second, static_cast<int>(i) + round))
          << "round " << round << " allocation " << i << " was overwritten";
      for (size_t j = i + 1; j < got.size(); ++j) {  // no two allocations overlap
        const bool apart = got[i].first + got[i].second <= got[j].first ||
                           got[j].first + got[j].second <= got[i].first;
        EXPECT_TRUE(apart) << "allocations " << i << " and " << j << " overlap";
      }
    }
    batch.Clear();
  }
}

TEST(CellBatch, CopyKeepsTheBytesAndEmptyCopiesAreEmpty) {
  CellBatch batch;
  std::string src = "row-family-qualifier";
  const Slice copy = batch.Copy(Slice(src));
  src.assign(src.size(), 'x');  // the copy does not depend on the source
  EXPECT_EQ(copy.ToString(), "row-family-qualifier");
  const Slice empty = batch.Copy(Slice());
  EXPECT_TRUE(empty.empty());
  EXPECT_NE(empty.data(), nullptr);
}

TEST(CellBatch, ReservedCellsAreCountedWhenAdded) {
  CellBatch batch;
  batch.Add()->sequence_id = 1;
  batch.Reserve(1000);
  Cell* cells = batch.reserved();
  for (int i = 0; i < 1000; ++i) cells[i].sequence_id = 2 + static_cast<uint64_t>(i);
  batch.AddReserved(1000);
  ASSERT_EQ(batch.size(), 1001u);
  for (size_t i = 0; i < batch.size(); ++i) EXPECT_EQ(batch[i].sequence_id, i + 1);
  batch.RemoveLast();
  EXPECT_EQ(batch.back().sequence_id, 1000u);
  batch.Clear();
  EXPECT_TRUE(batch.empty());
}

}  // namespace
}  // namespace hfile
