// BlockReadAhead (block_read_ahead.h).
#include "block_read_ahead.h"

#include <exception>
#include <utility>

namespace hfile {

namespace {
// What a slot's buffers keep between blocks: HBase's blocks are 64 KiB by default and rarely
// above 1 MiB; a larger one is allocated afresh (a read of that size costs more anyway).
constexpr size_t kKeptCapacity = size_t{1} << 20;
}  // namespace

BlockReadAhead::BlockReadAhead(const RandomAccessFile* file, const BlockReaderOptions& options,
                               size_t depth, size_t budget_bytes)
    : reader_(file, options), end_(options.section_end), budget_(budget_bytes) {
  for (size_t i = 0; i < (depth < 2 ? 2 : depth); ++i) free_.push_back(std::make_unique<Slot>());
  try {
    worker_ = std::thread([this] { Run(); });
  } catch (const std::exception&) {  // std::system_error, or std::bad_alloc
    done_ = true;  // no thread to be had: the walk reads every block itself
  }
}

BlockReadAhead::~BlockReadAhead() {
  {
    std::lock_guard<std::mutex> l(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  if (worker_.joinable()) worker_.join();
}

void BlockReadAhead::Run() {
  uint64_t offset = 0;
  while (offset < end_) {
    std::unique_ptr<Slot> slot;
    {
      std::unique_lock<std::mutex> l(mu_);
      cv_.wait(l, [this] {
        return stop_ || (!free_.empty() && (ready_.empty() || ready_bytes_ < budget_));
      });
      if (stop_) break;
      slot = std::move(free_.front());
      free_.pop_front();
    }
    slot->block.offset = offset;
    slot->status = reader_.ReadBlock(offset, 0, &slot->block);
    slot->fault = reader_.last_fault();
    const uint64_t size = slot->status.ok() ? slot->block.header.on_disk_size_with_header() : 0;
    const bool last = !slot->status.ok() || size == 0;
    {
      std::lock_guard<std::mutex> l(mu_);
      ready_bytes_ += Bytes(slot->block);
      ready_.push_back(std::move(slot));
    }
    cv_.notify_all();
    if (last) break;
    offset += size;
  }
  {
    std::lock_guard<std::mutex> l(mu_);
    done_ = true;
  }
  cv_.notify_all();
}

BlockReadAhead::Taken BlockReadAhead::Take(uint64_t offset, Block* block, Status* status,
                                           BlockReader::Fault* fault) {
  std::unique_lock<std::mutex> l(mu_);
  cv_.wait(l, [this] { return done_ || !ready_.empty(); });
  if (ready_.empty()) return Taken::kNotAhead;
  std::unique_ptr<Slot> slot = std::move(ready_.front());
  ready_.pop_front();
  ready_bytes_ -= Bytes(slot->block);
  Taken taken = Taken::kNotAhead;
  if (slot->block.offset == offset) {
    if (slot->status.ok()) {
      std::swap(slot->block, *block);  // the caller's old block becomes the next target
      taken = Taken::kBlock;
    } else {
      *status = slot->status;
      *fault = slot->fault;
      taken = Taken::kFailed;
    }
  }
  // An unusually large block's buffers are not kept for the next ones.
  slot->block.raw.ShrinkTo(kKeptCapacity);
  slot->block.uncompressed.ShrinkTo(kKeptCapacity);
  free_.push_back(std::move(slot));
  l.unlock();
  cv_.notify_all();
  return taken;
}

}  // namespace hfile
