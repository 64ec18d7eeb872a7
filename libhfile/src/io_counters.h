// IoCounters: the live counters behind a Reader's IoStats. Relaxed atomics: iterators of one
// Reader may run on different threads, and a counter is bumped once per read, never per cell.
#ifndef HFILE_SRC_IO_COUNTERS_H_
#define HFILE_SRC_IO_COUNTERS_H_

#include <atomic>
#include <cstdint>

#include "hfile/block_type.h"
#include "hfile/io_stats.h"

namespace hfile {

class IoCounters {
 public:
  // One pread of n bytes at offset.
  void AddRead(uint64_t offset, uint64_t n);
  // One block of `on_disk_size` bytes (with header) read at open or after.
  void AddBlock(BlockType type, uint64_t on_disk_size);
  void AddCacheHit() { cache_hits_.fetch_add(1, std::memory_order_relaxed); }
  // Blocks read from now on count as read at open (true while Reader::Open runs).
  void set_opening(bool opening) { opening_.store(opening, std::memory_order_relaxed); }

  IoStats Snapshot() const;

 private:
  struct Pair {
    std::atomic<uint64_t> count{0}, bytes{0};
  };
  enum Kind { kOpen, kData, kIndex, kBloom, kMeta, kOther, kKinds };

  Pair blocks_[kKinds];
  std::atomic<uint64_t> read_calls_{0}, bytes_read_{0}, seeks_{0}, cache_hits_{0};
  // The previous read's extent, for telling a seek from a sequential read.
  std::atomic<uint64_t> last_start_{UINT64_MAX}, last_end_{UINT64_MAX};
  std::atomic<bool> opening_{false};
};

}  // namespace hfile

#endif  // HFILE_SRC_IO_COUNTERS_H_
