// A growable byte buffer that does not zero-fill on resize, reused across blocks so that the
// read path allocates only when a block is larger than any before it.
#ifndef HFILE_SRC_BUFFER_H_
#define HFILE_SRC_BUFFER_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>

#include "hfile/slice.h"

namespace hfile {

class Buffer {
 public:
  char* data() { return data_.get(); }
  const char* data() const { return data_.get(); }
  size_t size() const { return size_; }
  Slice slice() const { return Slice(data_.get(), size_); }
  // Sets the size to n, keeping the first min(n, size()) bytes; new bytes are uninitialized.
  // Returns false (and changes nothing) when the memory cannot be allocated: sizes come from
  // files, so running out of memory is the caller's error to report, never an abort.
  [[nodiscard]] bool Resize(size_t n) {
    if (n > capacity_) {
      size_t cap = capacity_ < 4096 ? 4096 : capacity_;
      while (cap < n) cap = cap > SIZE_MAX / 2 ? n : cap * 2;
      std::unique_ptr<char[]> d(new (std::nothrow) char[cap]);
      if (!d && cap > n) d.reset(new (std::nothrow) char[cap = n]);  // no slack, then
      if (!d) return false;
      if (size_ > 0) std::memcpy(d.get(), data_.get(), size_);
      data_ = std::move(d);
      capacity_ = cap;
    }
    size_ = n;
    return true;
  }
  // Gives back memory after an unusually large block.
  void ShrinkTo(size_t max_capacity) {
    if (capacity_ > max_capacity) {
      data_.reset();
      capacity_ = size_ = 0;
    }
  }

 private:
  std::unique_ptr<char[]> data_;
  size_t size_ = 0;
  size_t capacity_ = 0;
};

}  // namespace hfile

#endif  // HFILE_SRC_BUFFER_H_
