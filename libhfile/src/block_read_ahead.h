// BlockReadAhead: a file's blocks read in chain order on a worker thread, a few blocks ahead of
// a sequential walk, so that the I/O, the checksums and the decompression run beside the walk's
// own work (the verifier's cell checks) on the second core.
//
// The worker starts at offset 0 and steps from each block to the next by its on-disk size, as
// the walk does. It stops at the first block it cannot read: the walk reads that block itself,
// and every block after it, so a damaged file meets exactly the reads (and errors) it meets
// without read-ahead. Memory: `depth` blocks.
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
  BlockReadAhead(const RandomAccessFile* file, const BlockReaderOptions& options, size_t depth);
  ~BlockReadAhead();  // stops the worker and waits for it
  BlockReadAhead(const BlockReadAhead&) = delete;
  BlockReadAhead& operator=(const BlockReadAhead&) = delete;

  // The block at `offset`, read whole and verified, swapped into *block: true. False when the
  // next block read ahead is not that one, or could not be read, or none is coming: the caller
  // reads it itself (and should stop asking: the read-ahead has ended or gone another way).
  bool Take(uint64_t offset, Block* block);

 private:
  struct Slot {
    Block block;
    bool ok = false;
  };
  void Run();

  BlockReader reader_;
  const uint64_t end_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::unique_ptr<Slot>> ready_, free_;
  bool done_ = false;  // the worker has ended: nothing more comes
  bool stop_ = false;
  std::thread worker_;
};

}  // namespace hfile

#endif  // HFILE_SRC_BLOCK_READ_AHEAD_H_
