// BlockReadAhead: a file's blocks read in chain order on a worker thread, a few blocks ahead of
// a sequential walk, so that the I/O, the checksums and the decompression run beside the walk's
// own work (the verifier's cell checks) on the second core.
//
// The worker starts at offset 0 and steps from each block to the next by its on-disk size, as
// the walk does, so it reads no block the walk would not. It stops at the first block it cannot
// read and hands that failure over as the walk's own read would have met it (never retried: an
// I/O error that a second read might not meet is still reported); the walk reads every block
// after it itself. Memory: the blocks waiting for the walk stop growing past `budget_bytes`
// (at least one always waits), and a slot keeps at most 1 MiB of buffers once its block is
// handed over, so a file of very large cells holds two of its blocks at a time, not `depth`.
#ifndef HFILE_SRC_BLOCK_READ_AHEAD_H_
#define HFILE_SRC_BLOCK_READ_AHEAD_H_

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>

#include "block_reader.h"

namespace hfile {

class BlockReadAhead {
 public:
  // `file` must outlive this object; blocks are read from [0, options.section_end).
  BlockReadAhead(const RandomAccessFile* file, const BlockReaderOptions& options, size_t depth,
                 size_t budget_bytes = size_t{16} << 20);
  ~BlockReadAhead();  // stops the worker and waits for it
  BlockReadAhead(const BlockReadAhead&) = delete;
  BlockReadAhead& operator=(const BlockReadAhead&) = delete;

  enum class Taken {
    kBlock,     // read whole and verified, swapped into *block
    kFailed,    // its read failed: *status and *fault say how (the read-ahead has ended)
    kNotAhead,  // not read ahead (ended, or the walk went another way): the caller reads it
  };
  // The block at `offset`. After anything but kBlock the caller reads on its own.
  Taken Take(uint64_t offset, Block* block, Status* status, BlockReader::Fault* fault);

 private:
  struct Slot {
    Block block;
    Status status;
    BlockReader::Fault fault = BlockReader::Fault::kNone;
  };
  void Run();

  static size_t Bytes(const Block& b) { return b.raw.size() + b.uncompressed.size(); }

  BlockReader reader_;
  const uint64_t end_;
  const size_t budget_;
  size_t ready_bytes_ = 0;  // of the blocks in ready_
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::unique_ptr<Slot>> ready_, free_;
  bool done_ = false;  // the worker has ended: nothing more comes
  bool stop_ = false;
  std::thread worker_;
};

}  // namespace hfile

#endif  // HFILE_SRC_BLOCK_READ_AHEAD_H_
