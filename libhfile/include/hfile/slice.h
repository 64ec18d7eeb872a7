// Slice: a non-owning view of bytes, ordered as HBase's Bytes.compareTo (unsigned memcmp).
//
// The referenced bytes must outlive the Slice. Slices are cheap to copy.
#ifndef HFILE_SLICE_H_
#define HFILE_SLICE_H_

#include <cassert>
#include <cstddef>
#include <cstring>
#include <string>
#include <string_view>

namespace hfile {

class Slice {
 public:
  constexpr Slice() : data_(""), size_(0) {}
  constexpr Slice(const char* d, size_t n) : data_(d), size_(n) {}
  Slice(const std::string& s) : data_(s.data()), size_(s.size()) {}  // NOLINT
  constexpr Slice(std::string_view s) : data_(s.data()), size_(s.size()) {}  // NOLINT
  Slice(const char* s) : data_(s), size_(std::strlen(s)) {}  // NOLINT

  const char* data() const { return data_; }
  const unsigned char* udata() const { return reinterpret_cast<const unsigned char*>(data_); }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const char* begin() const { return data_; }
  const char* end() const { return data_ + size_; }

  // REQUIRES: n < size()
  char operator[](size_t n) const {
    assert(n < size_);
    return data_[n];
  }
  unsigned char byte(size_t n) const { return udata()[n]; }

  // REQUIRES: n <= size()
  void remove_prefix(size_t n) {
    assert(n <= size_);
    data_ += n;
    size_ -= n;
  }
  void remove_suffix(size_t n) {
    assert(n <= size_);
    size_ -= n;
  }
  // REQUIRES: pos + n <= size()
  Slice sub(size_t pos, size_t n) const {
    assert(pos + n <= size_);
    return Slice(data_ + pos, n);
  }
  Slice sub(size_t pos) const { return sub(pos, size_ - pos); }

  std::string ToString() const { return std::string(data_, size_); }
  std::string_view view() const { return std::string_view(data_, size_); }
  operator std::string_view() const { return view(); }  // NOLINT

  // <0, 0, >0 in unsigned lexicographic order; a proper prefix sorts first.
  int compare(const Slice& b) const;
  bool starts_with(const Slice& x) const {
    return size_ >= x.size_ && std::memcmp(data_, x.data_, x.size_) == 0;
  }

 private:
  const char* data_;
  size_t size_;
};

// Rows, families and qualifiers are compared per cell and are mostly under 17 bytes: those
// take two overlapping loads each side instead of a memcmp call.
inline bool operator==(const Slice& a, const Slice& b) {
  const size_t n = a.size();
  if (n != b.size()) return false;
  const char* x = a.data();
  const char* y = b.data();
  if (n >= 8 && n <= 16) {
    unsigned long long p, q, r, t;
    std::memcpy(&p, x, 8);
    std::memcpy(&q, y, 8);
    std::memcpy(&r, x + n - 8, 8);
    std::memcpy(&t, y + n - 8, 8);
    return ((p ^ q) | (r ^ t)) == 0;
  }
  if (n >= 4 && n < 8) {
    unsigned int p, q, r, t;
    std::memcpy(&p, x, 4);
    std::memcpy(&q, y, 4);
    std::memcpy(&r, x + n - 4, 4);
    std::memcpy(&t, y + n - 4, 4);
    return ((p ^ q) | (r ^ t)) == 0;
  }
  if (n < 4) return n == 0 || (x[0] == y[0] && x[n / 2] == y[n / 2] && x[n - 1] == y[n - 1]);
  return std::memcmp(x, y, n) == 0;
}
inline bool operator!=(const Slice& a, const Slice& b) { return !(a == b); }

// Length of the common prefix of the n bytes at a and at b. Eight bytes at a time: keys, rows
// and qualifiers are compared several times per cell in merges, writes and delta encodings, and
// they are short enough that a memcmp call costs more than the comparison.
inline size_t CommonPrefixLength(const char* a, const char* b, size_t n) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    unsigned long long x, y;
    std::memcpy(&x, a + i, 8);
    std::memcpy(&y, b + i, 8);
    if (x != y) return i + static_cast<size_t>(__builtin_ctzll(x ^ y)) / 8;  // little-endian
  }
  if (i < n && n >= 8) {
    // The last 1..7 bytes with one load of the final 8 (the bytes before i are equal).
    unsigned long long x, y;
    std::memcpy(&x, a + n - 8, 8);
    std::memcpy(&y, b + n - 8, 8);
    return x == y ? n : n - 8 + static_cast<size_t>(__builtin_ctzll(x ^ y)) / 8;
  }
  while (i < n && a[i] == b[i]) ++i;
  return i;
}

inline int Slice::compare(const Slice& b) const {
  const size_t min_len = size_ < b.size_ ? size_ : b.size_;
  const size_t i = CommonPrefixLength(data_, b.data_, min_len);
  if (i < min_len) {
    return static_cast<unsigned char>(data_[i]) < static_cast<unsigned char>(b.data_[i]) ? -1 : +1;
  }
  if (size_ < b.size_) return -1;
  if (size_ > b.size_) return +1;
  return 0;
}

}  // namespace hfile

#endif  // HFILE_SLICE_H_
