// InputGuard: what every writing tool checks of the cells it reads from one store file, as they
// stream by (no extra pass): each cell's family is the store's family (a file moved into the
// wrong family dir would otherwise be rewritten under the wrong family), and its row lies in the
// region's key range. It also counts the cells, for CheckCellsRead.
#ifndef REGION_SRC_INPUT_GUARD_H_
#define REGION_SRC_INPUT_GUARD_H_

#include <cstdint>
#include <memory>
#include <string>

#include "hfile/iterator.h"
#include "hfile/types.h"

namespace hfile::region {

struct InputGuardOptions {
  std::string path;             // the input, for messages
  std::string family;           // every cell's family must be this
  std::string start_key, end_key;  // the region's range ([start, end), "" = unbounded)
  ComparatorKind comparator = ComparatorKind::kDefault;
  // false: a cell outside the range stops the read with Corruption; true (--force): it is
  // carried and counted. A cell of another family always stops the read.
  bool carry_out_of_range = false;
};

class InputGuard : public CellIterator {
 public:
  InputGuard(std::unique_ptr<CellIterator> in, InputGuardOptions options);
  bool Valid() const override { return status_.ok() && in_->Valid(); }
  void SeekToFirst() override;
  void Seek(const Slice& key) override;
  void Next() override;
  const Cell& cell() const override { return in_->cell(); }
  // The input's batch, each cell checked; a batch that reaches a refused cell ends before it,
  // and the guard is then no longer Valid (status() says why).
  void ReadBatch(CellBatch* batch) override;
  Status status() const override { return status_.ok() ? in_->status() : status_; }

  uint64_t cells() const { return cells_; }
  uint64_t out_of_range() const { return out_of_range_; }

 private:
  void Check();
  // Counts and checks one cell; false (status_ set) when it is refused.
  bool CheckCell(const Cell& c);

  std::unique_ptr<CellIterator> in_;
  InputGuardOptions o_;
  Status status_;
  uint64_t cells_ = 0, out_of_range_ = 0;
};

}  // namespace hfile::region

#endif  // REGION_SRC_INPUT_GUARD_H_
