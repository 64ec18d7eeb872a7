// CellBatch: consecutive cells handed on together, as views.
//
// A file's iterator fills one with the rest of a data block at once (CellIterator::ReadBatch),
// so that a consumer walks an array instead of paying a virtual call and a position update per
// cell, and the writer takes it whole (Writer::AppendBatch). Views point into the source's block
// or into the batch's own arena (for keys a decoder rebuilds in place); they stay valid until the
// source moves or the batch is cleared. Capacity is kept across Clear(): once warmed up, filling
// a batch allocates nothing.
#ifndef HFILE_CELL_BATCH_H_
#define HFILE_CELL_BATCH_H_

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <memory>
#include <vector>

#include "hfile/cell.h"

namespace hfile {

class CellBatch {
 public:
  CellBatch() = default;
  CellBatch(const CellBatch&) = delete;
  CellBatch& operator=(const CellBatch&) = delete;

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const Cell& operator[](size_t i) const { return cells_[i]; }
  const Cell* begin() const { return cells_.data(); }
  const Cell* end() const { return cells_.data() + size_; }
  const Cell& back() const { return cells_[size_ - 1]; }

  // True when the source vouches that every key passed IsValidKey (a file's decoder checks each
  // key as it parses it), so that consumers need not check again.
  bool keys_valid() const { return keys_valid_; }
  void set_keys_valid(bool v) { keys_valid_ = v; }

  // Forgets the cells (and the arena's bytes); keeps the capacity.
  void Clear() {
    size_ = 0;
    keys_valid_ = false;
    chunk_ = 0;
    next_ = nullptr;
    left_ = 0;
  }

  // Appends a cell for the caller to fill, whose bytes the caller keeps alive.
  Cell* Add() {
    if (size_ == cells_.size()) Grow();
    return &cells_[size_++];
  }

  // Makes room for n more cells, which a decoder's loop fills in place from reserved() and then
  // counts in with AddReserved(k), k <= n: no capacity check or size update per cell.
  void Reserve(size_t n) {
    if (size_ + n > cells_.size()) cells_.resize(std::max(size_ + n, 2 * cells_.size()));
  }
  Cell* reserved() { return cells_.data() + size_; }
  void AddReserved(size_t k) { size_ += k; }

  // Drops the last cell. REQUIRES: !empty()
  void RemoveLast() { --size_; }

  // Room for n bytes in the batch's arena, valid until Clear() (a decoder builds keys there):
  // a bump of a pointer in the chunk being filled (once per cell of a DIFF / FAST_DIFF batch).
  // REQUIRES: n > 0. Forced inline: a library's inline function is otherwise called through
  // the PLT.
  [[gnu::always_inline]] char* Allocate(size_t n) {
    if (n > left_) return AllocateInNextChunk(n);
    char* p = next_;
    next_ += n;
    left_ -= n;
    return p;
  }

  // Copies `bytes` into the batch's arena; the returned view lives until Clear().
  Slice Copy(const Slice& bytes) {
    if (bytes.empty()) return Slice();
    char* p = Allocate(bytes.size());
    std::memcpy(p, bytes.data(), bytes.size());
    return Slice(p, bytes.size());
  }

 private:
  // Arena chunks are never moved or freed while the batch lives, so earlier views stay valid as
  // the arena grows; Clear() reuses them from the first.
  static constexpr size_t kChunkSize = 64 * 1024;
  struct Chunk {
    std::unique_ptr<char[]> bytes;
    size_t size = 0;
  };
  void Grow() { cells_.resize(cells_.empty() ? 256 : 2 * cells_.size()); }
  // Allocate's n bytes at the start of the next chunk that holds them (skipping smaller ones;
  // a new one after the last).
  char* AllocateInNextChunk(size_t n) {
    while (chunk_ < chunks_.size() && chunks_[chunk_].size < n) ++chunk_;
    if (chunk_ == chunks_.size()) {
      const size_t size = n > kChunkSize ? n : kChunkSize;
      chunks_.push_back(Chunk{std::make_unique<char[]>(size), size});
    }
    Chunk& c = chunks_[chunk_++];
    next_ = c.bytes.get() + n;
    left_ = c.size - n;
    return c.bytes.get();
  }
  std::vector<Cell> cells_;  // [0, size_) in use
  size_t size_ = 0;
  std::vector<Chunk> chunks_;
  size_t chunk_ = 0;         // the chunks [0, chunk_) are in use; the last of them is being filled
  char* next_ = nullptr;     // its first free byte
  size_t left_ = 0;          // and how many are free
  bool keys_valid_ = false;
};

}  // namespace hfile

#endif  // HFILE_CELL_BATCH_H_
