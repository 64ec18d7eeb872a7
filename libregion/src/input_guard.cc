// InputGuard (input_guard.h).
#include "input_guard.h"

#include <fmt/format.h>

#include "hfile/cell.h"
#include "hfile/escape.h"
#include "hfile/file_info.h"
#include "region/store_file_check.h"

namespace hfile::region {

InputGuard::InputGuard(std::unique_ptr<CellIterator> in, InputGuardOptions options)
    : in_(std::move(in)), o_(std::move(options)) {}

void InputGuard::SeekToFirst() {
  in_->SeekToFirst();
  Check();
}

void InputGuard::Seek(const Slice& key) {
  in_->Seek(key);
  Check();
}

void InputGuard::Next() {
  in_->Next();
  Check();
}

void InputGuard::ReadBatch(CellBatch* batch) {
  in_->ReadBatch(batch);
  // The first cell was checked when the guard moved onto it.
  for (size_t i = 1; i < batch->size(); ++i) {
    if (!CheckCell((*batch)[i])) {
      while (batch->size() > i) batch->RemoveLast();
      return;
    }
  }
}

void InputGuard::Check() {
  if (!status_.ok() || !in_->Valid()) return;
  CheckCell(in_->cell());
}

bool InputGuard::CheckCell(const Cell& c) {
  ++cells_;
  const Slice family = c.family();
  if (family != Slice(o_.family)) {
    status_ = Status::Corruption(fmt::format(
        "{}: cell #{} ({}) is of family '{}', but the file is in family '{}''s directory (a "
        "store file moved between families?); the store is refused",
        o_.path, cells_ - 1, DescribeKey(c.key, o_.comparator), ToStringBinary(family), o_.family));
    return false;
  }
  const Slice row = c.row();
  if (RowInKeyRange(o_.comparator, row, o_.start_key, o_.end_key)) return true;
  ++out_of_range_;
  if (o_.carry_out_of_range) return true;
  status_ = Status::Corruption(fmt::format(
      "{}: cell #{} has row '{}', outside the region's range ['{}', '{}'); the store is refused "
      "(--force carries such cells and counts them)",
      o_.path, cells_ - 1, ToStringBinary(row), ToStringBinary(Slice(o_.start_key)),
      ToStringBinary(Slice(o_.end_key))));
  return false;
}

}  // namespace hfile::region
