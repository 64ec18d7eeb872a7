// BackgroundChecks (background_checks.h).
#include "background_checks.h"

#include <system_error>
#include <utility>

#include "region/tool_threads.h"

namespace hfile::region {

BackgroundChecks::~BackgroundChecks() {
  Abandon();
  {
    std::lock_guard<std::mutex> l(mu_);
    stop_ = true;
  }
  work_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void BackgroundChecks::Add(Check check) {
  std::unique_lock<std::mutex> l(mu_);
  if (!error_.ok()) return;
  // One thread for the tool (region/tool_threads.h), or no thread to be had: the check runs
  // here, before Add returns, as it did before there was a worker.
  auto run_here = [&] {
    l.unlock();
    Status s = check();
    l.lock();
    if (error_.ok() && !s.ok()) error_ = std::move(s);
  };
  if (!thread_.joinable()) {
    if (ToolThreads() == 1) return run_here();
    try {
      thread_ = std::thread([this] { Run(); });
    } catch (const std::system_error&) {
      return run_here();
    }
  }
  queue_.push_back(std::move(check));
  l.unlock();
  work_.notify_one();
}

bool BackgroundChecks::failed() const {
  std::lock_guard<std::mutex> l(mu_);
  return !error_.ok();
}

Status BackgroundChecks::Wait() {
  std::unique_lock<std::mutex> l(mu_);
  idle_.wait(l, [this] { return queue_.empty() && !running_; });
  return error_;
}

void BackgroundChecks::Abandon() {
  std::unique_lock<std::mutex> l(mu_);
  queue_.clear();
  idle_.wait(l, [this] { return !running_; });
}

void BackgroundChecks::Run() {
  std::unique_lock<std::mutex> l(mu_);
  for (;;) {
    work_.wait(l, [this] { return stop_ || !queue_.empty(); });
    if (queue_.empty()) return;  // stopping, nothing left
    Check check = std::move(queue_.front());
    queue_.pop_front();
    running_ = true;
    l.unlock();
    Status s = check();
    check = nullptr;  // what it captured goes before the caller is told it is done
    l.lock();
    running_ = false;
    if (!s.ok()) {
      if (error_.ok()) error_ = std::move(s);
      queue_.clear();
    }
    if (queue_.empty()) idle_.notify_all();
  }
}

}  // namespace hfile::region
