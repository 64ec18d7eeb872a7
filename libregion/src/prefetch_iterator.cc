// PrefetchIterator (prefetch_iterator.h).
#include "prefetch_iterator.h"

#include <system_error>
#include <utility>

namespace hfile::region {

namespace {
constexpr size_t kBatches = 3;  // one being filled, one ready, one being consumed
}  // namespace

PrefetchIterator::PrefetchIterator(std::unique_ptr<CellIterator> source, size_t batch_bytes)
    : source_(std::move(source)), batch_bytes_(batch_bytes) {
  for (size_t i = 0; i < kBatches; ++i) free_.push_back(std::make_unique<Batch>());
}

PrefetchIterator::~PrefetchIterator() { Stop(); }

void PrefetchIterator::Stop() {
  {
    std::lock_guard<std::mutex> l(mu_);
    stop_.store(true, std::memory_order_relaxed);
  }
  cv_.notify_all();
  if (worker_.joinable()) worker_.join();
}

void PrefetchIterator::SeekToFirst() {
  if (started_) {
    valid_ = false;
    status_ = Status::NotSupported("a prefetched stream is read once");
    return;
  }
  started_ = true;
  try {
    worker_ = std::thread([this] { Produce(); });
  } catch (const std::system_error&) {
    // No thread to be had: the source is read here, one batch at a time.
  }
  Load();
}

void PrefetchIterator::Seek(const Slice&) {
  valid_ = false;
  status_ = Status::NotSupported("a prefetched stream cannot seek");
}

void PrefetchIterator::Next() {
  ++pos_;
  Load();
}

bool PrefetchIterator::KeyDifference(KeyField* first_difference) const {
  const uint8_t d = current_->cells[pos_].difference;
  if (d == kUnknownDifference) return false;
  *first_difference = static_cast<KeyField>(d);
  return true;
}

void PrefetchIterator::Fill(Batch* b) {
  b->arena.clear();
  b->cells.clear();
  b->last = false;
  b->status = Status::OK();
  while (source_->Valid() && b->arena.size() < batch_bytes_) {
    const Cell& c = source_->cell();
    KeyField d;
    const uint8_t difference =
        source_->KeyDifference(&d) ? static_cast<uint8_t>(d) : kUnknownDifference;
    b->cells.push_back(Entry{b->arena.size(), static_cast<uint32_t>(c.key.size()),
                             static_cast<uint32_t>(c.value.size()),
                             static_cast<uint32_t>(c.tags.size()), c.sequence_id, difference});
    b->arena.append(c.key.data(), c.key.size());
    b->arena.append(c.value.data(), c.value.size());
    b->arena.append(c.tags.data(), c.tags.size());
    source_->Next();
  }
  if (!source_->Valid()) {
    b->last = true;
    b->status = source_->status();
  }
}

void PrefetchIterator::Produce() {
  source_->SeekToFirst();
  for (;;) {
    std::unique_ptr<Batch> b;
    {
      std::unique_lock<std::mutex> l(mu_);
      cv_.wait(l, [this] { return stop_.load(std::memory_order_relaxed) || !free_.empty(); });
      if (stop_.load(std::memory_order_relaxed)) return;
      b = std::move(free_.front());
      free_.pop_front();
    }
    Fill(b.get());
    const bool last = b->last;
    {
      std::lock_guard<std::mutex> l(mu_);
      ready_.push_back(std::move(b));
    }
    cv_.notify_all();
    if (last) return;
  }
}

void PrefetchIterator::Load() {
  while (current_ == nullptr || pos_ >= current_->cells.size()) {
    if (current_ != nullptr && current_->last) {
      // The end: the worker has returned after handing this batch over, and is joined, so
      // everything the source did is visible here.
      status_ = current_->status;
      valid_ = false;
      if (worker_.joinable()) worker_.join();
      return;
    }
    pos_ = 0;
    if (!worker_.joinable()) {  // no worker: read a batch here
      if (current_ == nullptr) {
        current_ = std::move(free_.front());
        free_.pop_front();
        source_->SeekToFirst();
      }
      Fill(current_.get());
      continue;
    }
    std::unique_lock<std::mutex> l(mu_);
    if (current_ != nullptr) free_.push_back(std::move(current_));
    cv_.notify_all();
    cv_.wait(l, [this] { return !ready_.empty(); });
    current_ = std::move(ready_.front());
    ready_.pop_front();
  }
  const Entry& e = current_->cells[pos_];
  const char* p = current_->arena.data() + e.offset;
  cell_.key = Slice(p, e.key_size);
  cell_.value = Slice(p + e.key_size, e.value_size);
  cell_.tags = Slice(p + e.key_size + e.value_size, e.tags_size);
  cell_.sequence_id = e.sequence_id;
  valid_ = true;
}

}  // namespace hfile::region
