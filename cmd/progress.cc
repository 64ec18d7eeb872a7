// StoreProgress (progress.h).
#include "progress.h"

#include <fmt/format.h>

#include <algorithm>

namespace hfile::cli {

void StoreProgress::AddStore(const std::string& label, uint64_t bytes) {
  bytes_[label] += bytes;
  total_ += bytes;
}

void StoreProgress::OnStore(const std::string& label, uint64_t cells, uint64_t total) {
  if (label != current_) {
    if (!current_.empty()) finished_ += bytes_[current_];
    current_ = label;
  }
  const auto now = std::chrono::steady_clock::now();
  if (drawn_ && now - last_ < std::chrono::milliseconds(100)) return;
  last_ = now;
  const double frac = total ? std::min(1.0, static_cast<double>(cells) / total) : 1.0;
  const double done = static_cast<double>(finished_) + frac * static_cast<double>(bytes_[label]);
  const double secs = std::chrono::duration<double>(now - start_).count();
  const double rate = secs > 0 ? done / secs : 0;
  const double left = static_cast<double>(total_) - done;
  const std::string eta = rate > 0 ? fmt::format(", ETA {:.0f} s", left / rate) : "";
  err_ << fmt::format("\r\033[K{} {:.0f}% ({:.1f} of {:.1f} MB, {:.1f} MB/s{}) {}", verb_,
                      total_ ? 100.0 * done / total_ : 100.0, done / 1e6, total_ / 1e6,
                      rate / 1e6, eta, label)
       << std::flush;
  drawn_ = true;
}

void StoreProgress::Clear() {
  if (drawn_) err_ << "\r\033[K" << std::flush;
  drawn_ = false;
}

}  // namespace hfile::cli
