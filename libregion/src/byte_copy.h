// ByteCopy: a grow-only copy of a byte string, for the compaction rules' "previous row /
// column" that change on nearly every cell: once the capacity suffices, Assign is one memcpy
// (std::string::assign goes through _M_replace's aliasing and capacity checks on every call).
#ifndef REGION_SRC_BYTE_COPY_H_
#define REGION_SRC_BYTE_COPY_H_

#include <cstddef>
#include <cstring>
#include <memory>

#include "hfile/slice.h"

namespace hfile::region {

class ByteCopy {
 public:
  void Assign(const Slice& s) {
    if (s.size() > capacity_) Grow(s.size());
    if (!s.empty()) std::memcpy(data_.get(), s.data(), s.size());
    size_ = s.size();
  }
  Slice slice() const { return data_ ? Slice(data_.get(), size_) : Slice(); }  // never null

 private:
  void Grow(size_t n) {
    capacity_ = n < 64 ? 64 : 2 * n;
    data_ = std::make_unique_for_overwrite<char[]>(capacity_);
  }

  std::unique_ptr<char[]> data_;
  size_t size_ = 0;
  size_t capacity_ = 0;
};

}  // namespace hfile::region

#endif  // REGION_SRC_BYTE_COPY_H_
