// BackgroundChecks and PrefetchIterator: the two helpers RewriteStore runs on the second core.
#include "background_checks.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <string>
#include <vector>

#include "prefetch_iterator.h"
#include "region/tool_threads.h"
#include "region/vector_iterator.h"

namespace hfile::region {
namespace {

TEST(BackgroundChecks, RunsInOrderAndReportsTheFirstFailure) {
  BackgroundChecks checks;
  EXPECT_TRUE(checks.Wait().ok());  // nothing queued
  std::vector<int> ran;  // only the worker writes it; read after Wait
  for (int i = 0; i < 5; ++i) checks.Add([&ran, i] { ran.push_back(i); return Status::OK(); });
  EXPECT_TRUE(checks.Wait().ok());
  EXPECT_EQ(ran, (std::vector<int>{0, 1, 2, 3, 4}));
  EXPECT_FALSE(checks.failed());

  checks.Add([] { return Status::Corruption("first"); });
  checks.Add([] { return Status::IOError("second"); });
  Status s = checks.Wait();
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_TRUE(checks.failed());
  // After a failure nothing more runs: the tool fails anyway.
  bool later = false;
  checks.Add([&later] { later = true; return Status::OK(); });
  EXPECT_TRUE(checks.Wait().IsCorruption());
  EXPECT_FALSE(later);
}

// One thread for the tool (hfile task --threads 1): every check runs on the caller's thread
// before Add returns, in order, and a failure still stops the later ones.
TEST(BackgroundChecks, OneToolThreadRunsEachCheckInAdd) {
  SetToolThreads(1);
  {
    BackgroundChecks checks;
    std::vector<std::thread::id> where;
    for (int i = 0; i < 3; ++i)
      checks.Add([&where] { where.push_back(std::this_thread::get_id()); return Status::OK(); });
    EXPECT_EQ(where.size(), 3u);  // before any Wait
    for (const auto& id : where) EXPECT_EQ(id, std::this_thread::get_id());
    checks.Add([] { return Status::Corruption("first"); });
    EXPECT_TRUE(checks.failed());
    bool later = false;
    checks.Add([&later] { later = true; return Status::OK(); });
    EXPECT_FALSE(later);
    EXPECT_TRUE(checks.Wait().IsCorruption());
  }
  SetToolThreads(2);
  EXPECT_EQ(ToolThreads(), 2);
  SetToolThreads(0);
  EXPECT_EQ(ToolThreads(), 1);
  SetToolThreads(2);
}

TEST(BackgroundChecks, AbandonDropsWhatHasNotStarted) {
  std::atomic<bool> release{false};
  std::atomic<int> ran{0};
  BackgroundChecks checks;
  checks.Add([&] {
    while (!release.load()) std::this_thread::yield();
    ++ran;
    return Status::OK();
  });
  for (int i = 0; i < 3; ++i) checks.Add([&ran] { ++ran; return Status::OK(); });
  std::thread releaser([&release] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    release = true;
  });
  // The first may already have started (and is waited for); of the rest at most what started
  // before Abandon ran.
  checks.Abandon();
  releaser.join();
  EXPECT_LE(ran.load(), 4);
  EXPECT_TRUE(checks.Wait().ok());
}

// A source of `n` cells whose values grow to `max_value` bytes (so some are larger than a
// batch), ending with `end` as its status.
class Source : public CellIterator {
 public:
  Source(int n, size_t max_value, Status end) : n_(n), max_value_(max_value), end_(end) {}
  bool Valid() const override { return i_ < n_; }
  void SeekToFirst() override { i_ = 0; Fill(); }
  void Seek(const Slice&) override {}
  void Next() override { ++i_; Fill(); }
  const Cell& cell() const override { return cell_; }
  Status status() const override { return i_ >= n_ ? end_ : Status::OK(); }
  int read() const { return i_; }

 private:
  void Fill() {
    if (i_ >= n_) return;
    data_ = CellData::Make("row" + std::to_string(100000 + i_), "f", "q", 100, KeyType::kPut,
                           std::string((static_cast<size_t>(i_) * 7919) % max_value_, 'a' + i_ % 26),
                           static_cast<uint64_t>(i_) + 1);
    if (i_ % 3 == 0) data_.tags = TtlTag(1000 + i_);
    cell_ = data_.view();
  }
  int n_, i_ = 0;
  size_t max_value_;
  Status end_;
  CellData data_;
  Cell cell_;
};

TEST(PrefetchIterator, YieldsTheSourcesCellsAndStatus) {
  for (Status end : {Status::OK(), Status::Corruption("damaged")}) {
    auto src = std::make_unique<Source>(3000, 9000, end);
    Source* raw = src.get();
    PrefetchIterator it(std::move(src), /*batch_bytes=*/4096);
    Source expect(3000, 9000, Status::OK());
    int n = 0;
    expect.SeekToFirst();
    for (it.SeekToFirst(); it.Valid(); it.Next(), expect.Next(), ++n) {
      ASSERT_TRUE(expect.Valid());
      const Cell& a = it.cell();
      const Cell& b = expect.cell();
      ASSERT_EQ(a.key.ToString(), b.key.ToString()) << n;
      ASSERT_EQ(a.value.ToString(), b.value.ToString()) << n;
      ASSERT_EQ(a.tags.ToString(), b.tags.ToString()) << n;
      ASSERT_EQ(a.sequence_id, b.sequence_id) << n;
    }
    EXPECT_EQ(n, 3000);
    EXPECT_EQ(it.status().ok(), end.ok()) << it.status().ToString();
    EXPECT_EQ(raw->read(), 3000);  // the worker has ended: what the source did is visible
    it.SeekToFirst();              // read once
    EXPECT_FALSE(it.Valid());
    EXPECT_TRUE(it.status().IsNotSupported());
  }
}

TEST(PrefetchIterator, EmptySourceAndEarlyDestruction) {
  PrefetchIterator empty(std::make_unique<Source>(0, 10, Status::OK()));
  empty.SeekToFirst();
  EXPECT_FALSE(empty.Valid());
  EXPECT_TRUE(empty.status().ok());
  // Destroyed part way: the worker stops and is joined (a sanitizer build sees no leak or race).
  auto it = std::make_unique<PrefetchIterator>(std::make_unique<Source>(100000, 500, Status::OK()),
                                               1024);
  it->SeekToFirst();
  for (int i = 0; i < 10 && it->Valid(); ++i) it->Next();
  EXPECT_TRUE(it->Valid());
  it.reset();
  // Never started: nothing to join.
  PrefetchIterator idle(std::make_unique<Source>(10, 10, Status::OK()));
}

}  // namespace
}  // namespace hfile::region
