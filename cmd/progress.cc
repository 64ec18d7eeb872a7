// Progress and StoreProgress (progress.h).
#include "progress.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <vector>

#include "cli_common.h"

namespace hfile::cli {

namespace {

// "512 B", "7.9 KB", "120.0 MB", "1.2 GB" (decimal units, as the rate).
std::string Bytes(double b) {
  if (b < 1e3) return fmt::format("{:.0f} B", b);
  if (b < 1e6) return fmt::format("{:.1f} KB", b / 1e3);
  if (b < 1e9) return fmt::format("{:.1f} MB", b / 1e6);
  return fmt::format("{:.1f} GB", b / 1e9);
}

// The terminal's width in columns (80 when unknown).
size_t TerminalColumns() {
  struct winsize ws {};
  if (::ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
  return 80;
}

}  // namespace

void AddProgressFlags(CLI::App& app, ProgressFlags* flags, bool add_quiet) {
  app.add_flag("--progress", flags->progress,
               "Show progress on stderr even when it is not a terminal (a line every few "
               "seconds)");
  app.add_flag("--no-progress", flags->no_progress, "No progress line, even on a terminal");
  if (add_quiet) app.add_flag("-q,--quiet", flags->quiet, "Print nothing but errors");
}

std::ostream& NullStream() {
  static std::ostream null(nullptr);  // no buffer: every write is dropped
  return null;
}

Progress::Progress(std::ostream& err, std::string tool, const ProgressFlags& flags)
    : err_(err), tool_(std::move(tool)), start_(std::chrono::steady_clock::now()) {
  if (flags.quiet || flags.no_progress) return;
  if (StderrIsTerminal()) {
    mode_ = Mode::kTerminal;
  } else if (flags.progress) {
    mode_ = Mode::kLines;
    interval_ = std::chrono::milliseconds(5000);
    if (const char* env = std::getenv("HFILE_PROGRESS_INTERVAL_MS")) {
      interval_ = std::chrono::milliseconds(std::max(0L, std::strtol(env, nullptr, 10)));
    }
  }
}

void Progress::Phase(const std::string& name, uint64_t total_bytes, uint64_t total_cells,
                     const std::string& label) {
  if (!enabled()) return;
  std::lock_guard<std::mutex> lock(mu_);
  phase_ = name;
  total_bytes_ = total_bytes, total_cells_ = total_cells, bytes_ = 0, cells_ = 0;
  label_ = label;
  start_ = std::chrono::steady_clock::now();
  // A phase's start is drawn at once on a terminal (a silent phase still says what it does);
  // in batch logs only when the interval has passed.
  if (mode_ == Mode::kTerminal || start_ - last_ >= interval_) Draw(start_);
}

void Progress::Update(uint64_t bytes, uint64_t cells, const std::string& label) {
  if (!enabled()) return;
  std::lock_guard<std::mutex> lock(mu_);
  bytes_ = bytes, cells_ = cells;
  if (!label.empty()) label_ = label;
  const auto now = std::chrono::steady_clock::now();
  if (printed_ && now - last_ < interval_) return;
  Draw(now);
}

void Progress::Draw(std::chrono::steady_clock::time_point now) {
  last_ = now;
  printed_ = true;
  const double secs = std::chrono::duration<double>(now - start_).count();
  std::string line = phase_;
  // The fraction done: by bytes when the phase's bytes are known, else by cells.
  double frac = -1;
  if (total_bytes_)
    frac = std::min(1.0, static_cast<double>(bytes_) / total_bytes_);
  else if (total_cells_)
    frac = std::min(1.0, static_cast<double>(cells_) / total_cells_);
  if (frac >= 0) line += fmt::format(" {:.0f}%", 100 * frac);
  std::vector<std::string> parts;
  if (total_bytes_) {
    parts.push_back(fmt::format("{} of {}", Bytes(bytes_), Bytes(total_bytes_)));
  } else if (bytes_) {
    parts.push_back(Bytes(bytes_));
  }
  if (cells_ || total_cells_) {
    parts.push_back(total_cells_ && !total_bytes_
                        ? fmt::format("{} of {} {}", cells_, total_cells_, unit_)
                        : fmt::format("{} {}", cells_, unit_));
  }
  if (secs > 0.05 && (bytes_ || cells_)) {
    parts.push_back(bytes_ ? Bytes(bytes_ / secs) + "/s"
                           : fmt::format("{:.0f} {}/s", cells_ / secs, unit_));
    if (frac > 0 && frac < 1) parts.push_back(fmt::format("ETA {:.0f} s", secs / frac - secs));
  }
  std::string joined;
  for (const auto& p : parts) joined += (joined.empty() ? "" : ", ") + p;
  if (!joined.empty()) line += " (" + joined + ")";
  if (mode_ == Mode::kTerminal) {
    // A line wider than the terminal wraps, and "\r\033[K" then erases only its last part:
    // the label gives way, from its start (a path's end says most).
    const size_t room = TerminalColumns() - 1;
    if (!label_.empty() && line.size() + 1 + label_.size() > room) {
      const size_t keep = room > line.size() + 5 ? room - line.size() - 5 : 0;
      if (keep > 0) line += " ..." + label_.substr(label_.size() - std::min(keep, label_.size()));
    } else if (!label_.empty()) {
      line += " " + label_;
    }
    if (line.size() > room) line.resize(room);
  } else if (!label_.empty()) {
    line += " " + label_;
  }
  if (mode_ == Mode::kTerminal) {
    err_ << "\r\033[K" << line << std::flush;
    drawn_ = true;
  } else {
    err_ << tool_ << ": " << line << "\n" << std::flush;
  }
}

void Progress::Clear() {
  std::lock_guard<std::mutex> lock(mu_);
  if (drawn_) err_ << "\r\033[K" << std::flush;
  drawn_ = false;
}

void StoreProgress::AddStore(const std::string& label, uint64_t bytes) {
  bytes_[label] += bytes;
  total_ += bytes;
}

void StoreProgress::OnStore(const std::string& label, uint64_t cells, uint64_t total) {
  if (label != current_) {
    if (!current_.empty()) finished_ += bytes_[current_], finished_cells_ += last_cells_;
    current_ = label;
  }
  last_cells_ = cells;
  const double frac = total ? std::min(1.0, static_cast<double>(cells) / total) : 1.0;
  p_.Update(finished_ + static_cast<uint64_t>(frac * bytes_[label]), finished_cells_ + cells,
            label);
}

}  // namespace hfile::cli

namespace hfile::cli {

void StoreProgress::OnVerify(const std::string& label, uint64_t cells) {
  // The store's inputs are all read: its bytes count as done while its output is read back.
  if (label != current_) {
    if (!current_.empty()) finished_ += bytes_[current_], finished_cells_ += last_cells_;
    current_ = label;
    last_cells_ = 0;
  }
  // Cells read are at least the cells written and verified.
  last_cells_ = std::max(last_cells_, cells);
  p_.Update(finished_ + bytes_[label], finished_cells_ + last_cells_,
            fmt::format("{}: verifying the output, {} cells", label, cells));
}

}  // namespace hfile::cli
