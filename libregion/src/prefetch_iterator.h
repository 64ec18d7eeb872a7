// PrefetchIterator: a forward-only CellIterator whose source is read on a worker thread, a batch
// ahead of the caller, so that reading (I/O, checksums, decompression, decoding, the merge and a
// transform) runs on one core while the caller encodes, compresses and writes on the other.
//
// The worker copies the source's cells into one of a few bounded batches (`batch_bytes` each, or
// one cell when a cell is larger) while the caller consumes another: memory is bounded by the
// batches, never by the data. The source (and whatever it calls: counters, guards, digests,
// progress callbacks) runs only on the worker until the end of the stream, and the worker has
// ended once Valid() turns false, so afterwards the caller may read what the source recorded.
// Seek is not supported (status() NotSupported); destruction stops the worker and waits for it.
#ifndef REGION_SRC_PREFETCH_ITERATOR_H_
#define REGION_SRC_PREFETCH_ITERATOR_H_

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "hfile/iterator.h"

namespace hfile::region {

class PrefetchIterator : public CellIterator {
 public:
  explicit PrefetchIterator(std::unique_ptr<CellIterator> source, size_t batch_bytes = 256 << 10);
  ~PrefetchIterator() override;
  PrefetchIterator(const PrefetchIterator&) = delete;
  PrefetchIterator& operator=(const PrefetchIterator&) = delete;

  bool Valid() const override { return valid_; }
  void SeekToFirst() override;  // once: starts the worker
  void Seek(const Slice& key) override;
  void Next() override;
  const Cell& cell() const override { return cell_; }
  Status status() const override { return status_; }
  bool KeyDifference(KeyField* first_difference) const override;

 private:
  struct Entry {
    size_t offset;  // of the key in the arena; value and tags follow it
    uint32_t key_size, value_size, tags_size;
    uint64_t sequence_id;
    uint8_t difference;  // the source's KeyDifference, or kUnknownDifference
  };
  static constexpr uint8_t kUnknownDifference = 0xFF;
  struct Batch {
    std::string arena;
    std::vector<Entry> cells;
    bool last = false;  // the stream ends after it, with `status`
    Status status;
  };

  void Produce();
  void Fill(Batch* b);
  void Load();   // cell_ from current_[pos_], or the next batch
  void Stop();   // the worker told to end, and joined

  std::unique_ptr<CellIterator> source_;
  const size_t batch_bytes_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::unique_ptr<Batch>> ready_, free_;
  std::atomic<bool> stop_{false};
  std::thread worker_;
  bool started_ = false;
  // The caller's side.
  std::unique_ptr<Batch> current_;
  size_t pos_ = 0;
  bool valid_ = false;
  Cell cell_;
  Status status_;
};

}  // namespace hfile::region

#endif  // REGION_SRC_PREFETCH_ITERATOR_H_
