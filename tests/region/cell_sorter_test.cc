// The external cell sorter: HBase's cell order, last-added wins for identical keys, the memory
// budget forcing spills and extra merge passes, and clean failure when the temp dir cannot hold
// the runs.
#include "region/cell_sorter.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <thread>
#include <atomic>

#include "region/vector_iterator.h"
#include "testutil.h"

namespace hfile::region {
namespace {

namespace fs = std::filesystem;
using test::NewTempDir;

struct Added {
  CellData cell;
  uint64_t order;
};

// What the sorter must produce: CompareKeys order, and of keys that compare equal only the last
// added (as PutSortReducer's TreeSet keeps one of them; keys that compare equal have equal bytes
// except the "last on row" ones, whose timestamps are not compared).
std::vector<CellData> Reference(std::vector<Added> added) {
  std::stable_sort(added.begin(), added.end(), [](const Added& a, const Added& b) {
    int c = CompareKeys(ComparatorKind::kDefault, a.cell.key, b.cell.key);
    return c != 0 ? c < 0 : a.order > b.order;
  });
  std::vector<CellData> out;
  for (const auto& a : added) {
    if (!out.empty() && CompareKeys(ComparatorKind::kDefault, out.back().key, a.cell.key) == 0)
      continue;
    out.push_back(a.cell);
  }
  return out;
}

std::vector<CellData> Drain(CellIterator* it) {
  std::vector<CellData> out;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    const Cell& c = it->cell();
    out.push_back(CellData{c.key.ToString(), c.value.ToString(), c.tags.ToString(),
                           c.sequence_id});
  }
  EXPECT_TRUE(it->status().ok()) << it->status().ToString();
  return out;
}

std::string Describe(const CellData& c) {
  Cell v = c.view();
  return v.row().ToString() + "/" + v.family().ToString() + ":" + v.qualifier().ToString() + "/" +
         std::to_string(v.timestamp()) + "/" + std::to_string(v.type()) + "=" + c.value;
}

void ExpectSame(const std::vector<CellData>& got, const std::vector<CellData>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    ASSERT_EQ(Describe(got[i]), Describe(want[i])) << "at " << i;
    ASSERT_EQ(got[i].tags, want[i].tags) << "at " << i;
    ASSERT_EQ(got[i].sequence_id, want[i].sequence_id) << "at " << i;
  }
}

std::vector<Added> RandomCells(size_t n, uint32_t seed, size_t value_bytes) {
  std::mt19937 rng(seed);
  std::vector<Added> out;
  for (size_t i = 0; i < n; ++i) {
    // Few rows, qualifiers and timestamps so that identical keys are common.
    std::string row = "row" + std::to_string(rng() % 400);
    std::string fam = (rng() % 4 == 0) ? "g" : "f";
    std::string qual = "q" + std::to_string(rng() % 5);
    int64_t ts = 1000 + static_cast<int64_t>(rng() % 4);
    KeyType type = (rng() % 10 == 0) ? KeyType::kDeleteColumn : KeyType::kPut;
    std::string value(rng() % (value_bytes + 1), 'a' + static_cast<char>(rng() % 26));
    value += "#" + std::to_string(i);
    std::string tags = (rng() % 3 == 0) ? TtlTag(static_cast<int64_t>(i)) : "";
    out.push_back(Added{CellData::Make(row, fam, qual, ts, type, value, i % 7, tags), i});
  }
  return out;
}

std::unique_ptr<CellSorter> OpenSorter(size_t memory, const std::string& dir, int threads = 2,
                                       std::vector<std::string> range_starts = {}) {
  CellSorterOptions o;
  o.memory_bytes = memory;
  o.temp_dir = dir;
  o.threads = threads;
  o.range_starts = std::move(range_starts);
  auto s = CellSorter::Open(o);
  EXPECT_TRUE(s.ok()) << s.status().ToString();
  return s.ok() ? std::move(s).value() : nullptr;
}

// Adds every cell to a sorter with this budget, then checks what Finish returns against the
// reference order (last line wins among identical keys) and the duplicates it counted. The
// sorter is kept in *out for the caller's checks of its stats.
void SortAndCheck(const std::vector<Added>& added, size_t memory, const std::string& dir,
                  std::unique_ptr<CellSorter>* out) {
  auto s = OpenSorter(memory, dir);
  ASSERT_TRUE(s);
  for (const auto& a : added) ASSERT_TRUE(s->Add(a.cell.view()).ok());
  auto it = s->Finish();
  ASSERT_TRUE(it.ok()) << it.status().ToString();
  auto want = Reference(added);
  ExpectSame(Drain(it->get()), want);
  EXPECT_EQ(s->stats().duplicates_dropped, added.size() - want.size()) << memory;
  *out = std::move(s);
}

TEST(CellSorter, InMemoryMatchesReference) {
  std::string dir = NewTempDir("cell_sorter_mem");
  auto added = RandomCells(5000, 1, 20);
  std::unique_ptr<CellSorter> s;
  ASSERT_NO_FATAL_FAILURE(SortAndCheck(added, size_t{64} << 20, dir, &s));
  EXPECT_EQ(s->stats().runs_spilled, 0u);
  EXPECT_GT(s->stats().duplicates_dropped, 0u);
  // Nothing spilled: the private dir holds no file.
  EXPECT_TRUE(fs::is_empty(s->spill_dir()));
}

TEST(CellSorter, BudgetForcesManyRunsAndPasses) {
  std::string dir = NewTempDir("cell_sorter_spill");
  auto added = RandomCells(60000, 2, 60);
  auto s = OpenSorter(kMinSorterMemory, dir);
  ASSERT_TRUE(s);
  for (const auto& a : added) ASSERT_TRUE(s->Add(a.cell.view()).ok());
  EXPECT_LE(s->stats().peak_memory_bytes, kMinSorterMemory);
  auto it = s->Finish();
  ASSERT_TRUE(it.ok()) << it.status().ToString();
  auto want = Reference(added);
  ExpectSame(Drain(it->get()), want);
  const CellSorterStats& st = s->stats();
  EXPECT_GT(st.runs_spilled, 10u);
  EXPECT_GT(st.merge_passes, 0u);  // fan-in 2 at this budget
  EXPECT_GT(st.spilled_bytes, 0u);
  EXPECT_EQ(st.cells_added, added.size());
  EXPECT_EQ(st.duplicates_dropped, added.size() - want.size());
  std::string spill = s->spill_dir();
  EXPECT_TRUE(fs::exists(spill));
  it->reset();
  s.reset();
  EXPECT_FALSE(fs::exists(spill));
  EXPECT_TRUE(fs::is_empty(dir));
}

// The open-file limit bounds a merge pass as the memory budget does: with room in the budget
// for every run's reader but descriptors for only 12 of them (the sorter leaves 128 for the
// rest of the process), extra passes merge the runs down first instead of failing with EMFILE.
TEST(CellSorter, OpenFileLimitForcesMergePasses) {
  std::string dir = NewTempDir("cell_sorter_nofile");
  auto added = RandomCells(250000, 9, 60);
  struct rlimit old;
  ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &old), 0);
  struct rlimit lim = old;
  lim.rlim_cur = 140;
  ASSERT_EQ(setrlimit(RLIMIT_NOFILE, &lim), 0);
  auto s = OpenSorter(size_t{4} << 20, dir);  // readers for 25 runs
  ASSERT_TRUE(s);
  for (const auto& a : added) ASSERT_TRUE(s->Add(a.cell.view()).ok());
  auto it = s->Finish();
  setrlimit(RLIMIT_NOFILE, &old);
  ASSERT_TRUE(it.ok()) << it.status().ToString();
  ExpectSame(Drain(it->get()), Reference(added));
  EXPECT_GT(s->stats().merge_passes, 0u);
  EXPECT_LT(s->stats().runs_spilled - s->stats().merge_passes, 25u);  // memory alone: one pass
}

size_t ThreadsOfThisProcess() {
  size_t n = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator("/proc/self/task")) ++n;
  return n;
}

// With one thread (a scheduler's task given one core) every spill is one run, sorted and written
// on the calling thread: no thread outlives an Add, and the output is the same.
TEST(CellSorter, OneThreadSpillsOnTheCallingThread) {
  std::string dir = NewTempDir("cell_sorter_one_thread");
  auto added = RandomCells(60000, 11, 60);
  for (int threads : {1, 2}) {
    auto s = OpenSorter(size_t{1} << 20, dir, threads);
    ASSERT_TRUE(s);
    const size_t before = ThreadsOfThisProcess();
    size_t most = before;
    uint64_t spills = 0;
    for (const auto& a : added) {
      ASSERT_TRUE(s->Add(a.cell.view()).ok());
      if (s->stats().runs_spilled != spills) {  // a spill just happened
        spills = s->stats().runs_spilled;
        most = std::max(most, ThreadsOfThisProcess());
      }
    }
    auto it = s->Finish();
    ASSERT_TRUE(it.ok()) << it.status().ToString();
    ExpectSame(Drain(it->get()), Reference(added));
    EXPECT_GT(s->stats().runs_spilled, 3u);
    // With two, the background spill may or may not still be running when sampled.
    if (threads == 1) {
      EXPECT_EQ(most, before);
    }
  }
}

TEST(CellSorter, LastAddedWinsAcrossRuns) {
  std::string dir = NewTempDir("cell_sorter_dup");
  auto s = OpenSorter(kMinSorterMemory, dir);
  ASSERT_TRUE(s);
  std::string filler(1000, 'x');
  // The same key three times, far apart so that each lands in another run, with other rows
  // between; then a newer and an older timestamp of the same column.
  for (int round = 0; round < 3; ++round) {
    auto c = CellData::Make("dup", "f", "q", 5, KeyType::kPut, "v" + std::to_string(round));
    ASSERT_TRUE(s->Add(c.view()).ok());
    for (int i = 0; i < 2000; ++i) {
      auto f = CellData::Make("r" + std::to_string(i), "f", "q", 1, KeyType::kPut, filler);
      ASSERT_TRUE(s->Add(f.view()).ok());
    }
  }
  ASSERT_TRUE(s->Add(CellData::Make("dup", "f", "q", 9, KeyType::kPut, "new").view()).ok());
  ASSERT_TRUE(s->Add(CellData::Make("dup", "f", "q", 1, KeyType::kPut, "old").view()).ok());
  auto it = s->Finish();
  ASSERT_TRUE(it.ok());
  EXPECT_GE(s->stats().runs_spilled, 3u);
  (*it)->SeekToFirst();
  (*it)->Seek(Slice(CellData::Make("dup", "", "", kLatestTimestamp, KeyType::kMaximum).key));
  std::vector<std::string> got;
  for (; (*it)->Valid() && (*it)->cell().row() == Slice("dup"); (*it)->Next())
    got.push_back(std::to_string((*it)->cell().timestamp()) + "=" + (*it)->cell().value.ToString());
  EXPECT_EQ(got, (std::vector<std::string>{"9=new", "5=v2", "1=old"}));
  size_t rest = 0;
  for (; (*it)->Valid(); (*it)->Next()) ++rest;
  EXPECT_EQ(rest, 2000u);
  // Final once drained: each filler key came three times.
  EXPECT_EQ(s->stats().duplicates_dropped, 2u + 2 * 2000);
  // A stream cannot go back.
  (*it)->SeekToFirst();
  EXPECT_TRUE((*it)->status().IsNotSupported());
}

TEST(CellSorter, OrderIsHBases) {
  std::string dir = NewTempDir("cell_sorter_order");
  auto s = OpenSorter(kMinSorterMemory, dir);
  ASSERT_TRUE(s);
  std::vector<CellData> in = {
      CellData::Make("b", "f", "q", 1, KeyType::kPut),
      CellData::Make("a", "f", "q", 1, KeyType::kPut),
      CellData::Make("a", "f", "q", 7, KeyType::kPut),
      CellData::Make("a", "f", "q", 7, KeyType::kDeleteColumn),
      CellData::Make("a", "f", "", 1, KeyType::kPut),
      CellData::Make("a", "e", "z", 1, KeyType::kPut),
      CellData::Make("a\x01", "f", "q", 1, KeyType::kPut),
  };
  for (const auto& c : in) ASSERT_TRUE(s->Add(c.view()).ok());
  auto it = s->Finish();
  ASSERT_TRUE(it.ok());
  std::vector<std::string> got;
  for (const auto& c : Drain(it->get())) got.push_back(Describe(c));
  EXPECT_EQ(got, (std::vector<std::string>{"a/e:z/1/4=", "a/f:/1/4=", "a/f:q/7/12=", "a/f:q/7/4=",
                                           "a/f:q/1/4=", "a\x01/f:q/1/4=", "b/f:q/1/4="}));
}

// The sort compares key heads (16-byte row prefixes, row length, short families and qualifier
// bytes) before whole keys: rows that are prefixes of each other, rows with zero bytes where the
// padding is, rows equal up to byte 8 or 16 and longer ones, high bytes (unsigned order), and the
// empty row must still come out in HBase's order.
TEST(CellSorter, RowPrefixFastPathKeepsTheOrder) {
  std::string dir = NewTempDir("cell_sorter_prefix");
  std::mt19937 rng(7);
  const std::vector<std::string> stems = {"", "a", std::string("a\0", 2), std::string(7, 'p'),
                                          std::string(8, 'p'), std::string(15, 'q'),
                                          std::string(16, 'q'), "\xff\xfe", "r0000536"};
  std::vector<Added> added;
  for (size_t i = 0; i < 20000; ++i) {
    std::string row = stems[rng() % stems.size()];
    size_t extra = rng() % 20;
    for (size_t j = 0; j < extra; ++j) {
      row.push_back("\0\x01z\xff"[rng() % 4]);
    }
    if (row.empty() && rng() % 2 == 0) row = "z";
    std::string qual = "q" + std::to_string(rng() % 3);
    // Families the heads hold and one they do not; now and then "last on row".
    std::string fam = std::vector<std::string>{"f", "fa", "e", "abcde"}[rng() % 4];
    KeyType type = KeyType::kPut;
    if (rng() % 50 == 0) {
      fam.clear();
      qual.clear();
      type = KeyType::kMinimum;
    }
    auto c = CellData::Make(row, fam, qual, 1000 + static_cast<int64_t>(rng() % 3), type,
                            "v" + std::to_string(i));
    added.push_back(Added{c, i});
  }
  // In memory; a spill big enough to be written as two runs by two threads (2 MiB: the first
  // spill holds 16384 entries), then the rest merged with them from memory, unspilled; many
  // small runs, where the rest is spilled too (no room for it beside the runs' readers).
  for (size_t memory : {size_t{64} << 20, size_t{2} << 20, kMinSorterMemory}) {
    std::unique_ptr<CellSorter> s;
    ASSERT_NO_FATAL_FAILURE(SortAndCheck(added, memory, dir, &s));
    if (memory == size_t{2} << 20) {
      EXPECT_EQ(s->stats().runs_spilled, 2u);
    }
  }
}

// FinishRanges: the ranges, drained on two threads at once, are the sorted output cut at the
// range starts (rows before the first range start, between two, and past the last; starts that
// fall between rows, before every row and after every row) for each way the last cells reach the
// merge: all in memory, runs plus the rest merged from memory, and many runs with extra passes
// (then with each merge's readers counted twice in the budget).
TEST(CellSorter, RangesAreTheOutputCutAtTheirStarts) {
  std::string dir = NewTempDir("cell_sorter_ranges");
  auto added = RandomCells(60000, 11, 60);
  const auto want = Reference(added);
  const std::vector<std::string> starts = {"a", "row1", "row25", "row250", "row250~", "row9", "s"};
  for (size_t memory : {size_t{64} << 20, size_t{2} << 20, kMinSorterMemory}) {
    SCOPED_TRACE(memory);
    auto s = OpenSorter(memory, dir, 2, starts);
    ASSERT_TRUE(s);
    for (const auto& a : added) ASSERT_TRUE(s->Add(a.cell.view()).ok());
    auto parts = s->FinishRanges(2);
    ASSERT_TRUE(parts.ok()) << parts.status().ToString();
    ASSERT_EQ(parts->size(), starts.size() + 1);
    std::vector<std::vector<CellData>> got(parts->size());
    std::atomic<size_t> next{0};
    auto drain = [&] {
      for (size_t r; (r = next.fetch_add(1)) < got.size();) got[r] = Drain((*parts)[r].get());
    };
    std::thread helper(drain);
    drain();
    helper.join();
    std::vector<CellData> all;
    for (size_t r = 0; r < got.size(); ++r) {
      for (const CellData& c : got[r]) {
        const std::string row = c.view().row().ToString();
        if (r > 0) {
          EXPECT_GE(row, starts[r - 1]) << "range " << r;
        }
        if (r < starts.size()) {
          EXPECT_LT(row, starts[r]) << "range " << r;
        }
        all.push_back(c);
      }
    }
    EXPECT_TRUE(got[0].empty());              // nothing sorts before "a"
    EXPECT_TRUE(got[starts.size()].empty());  // nor after "s"
    ExpectSame(all, want);
    EXPECT_EQ(s->stats().duplicates_dropped, added.size() - want.size());
    if (memory == kMinSorterMemory) {
      EXPECT_GT(s->stats().merge_passes, 0u);
    }
    if (memory == size_t{2} << 20) {
      EXPECT_GT(s->stats().runs_spilled, 0u);
    }
  }
  // Starts must ascend, hold no empty row, and need row keys.
  CellSorterOptions o;
  o.temp_dir = dir;
  o.range_starts = {"b", "a"};
  EXPECT_TRUE(CellSorter::Open(o).status().IsInvalidArgument());
  o.range_starts = {"", "a"};
  EXPECT_TRUE(CellSorter::Open(o).status().IsInvalidArgument());
  o.range_starts = {"a"};
  o.kind = ComparatorKind::kRawBytes;
  EXPECT_TRUE(CellSorter::Open(o).status().IsInvalidArgument());
}

TEST(CellSorter, RefusesWhatCannotWork) {
  std::string dir = NewTempDir("cell_sorter_refuse");
  CellSorterOptions o;
  o.temp_dir = dir;
  o.memory_bytes = 1000;
  EXPECT_TRUE(CellSorter::Open(o).status().IsInvalidArgument());

  // The estimated spill does not fit: refused before anything is created.
  o.memory_bytes = kMinSorterMemory;
  o.estimated_spill_bytes = uint64_t{1} << 62;
  auto r = CellSorter::Open(o);
  ASSERT_TRUE(r.status().IsIOError());
  EXPECT_NE(r.status().message().find("not enough free space"), std::string::npos)
      << r.status().ToString();
  EXPECT_TRUE(fs::is_empty(dir));

  // Not a directory, or absent.
  o.estimated_spill_bytes = 0;
  std::string file = dir + "/plain";
  std::ofstream(file) << "x";
  o.temp_dir = file;
  EXPECT_TRUE(CellSorter::Open(o).status().IsIOError());
  o.temp_dir = dir + "/absent";
  EXPECT_TRUE(CellSorter::Open(o).status().IsIOError());
}

// A spill that hits the file-size limit (what a full disk looks like to write(2)) fails with an
// IOError naming the run, and the private dir with every run is gone at once.
TEST(CellSorter, SpillFailureLeavesNothing) {
  std::string dir = NewTempDir("cell_sorter_full");
  auto s = OpenSorter(kMinSorterMemory, dir);
  ASSERT_TRUE(s);
  struct rlimit old;
  ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &old), 0);
  auto old_handler = signal(SIGXFSZ, SIG_IGN);
  struct rlimit lim = old;
  lim.rlim_cur = 4096;
  ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &lim), 0);
  Status st;
  std::mt19937 rng(3);
  for (int i = 0; i < 100000 && st.ok(); ++i) {
    std::string v(200, '\0');
    for (auto& ch : v) ch = static_cast<char>(rng());  // incompressible
    st = s->Add(CellData::Make("r" + std::to_string(rng()), "f", "q", 1, KeyType::kPut, v).view());
  }
  setrlimit(RLIMIT_FSIZE, &old);
  signal(SIGXFSZ, old_handler);
  ASSERT_TRUE(st.IsIOError()) << st.ToString();
  EXPECT_NE(st.message().find("sort run"), std::string::npos) << st.ToString();
  EXPECT_TRUE(fs::is_empty(dir));
  // The sorter stays failed.
  EXPECT_TRUE(s->Add(CellData::Make("x", "f", "q", 1, KeyType::kPut).view()).IsIOError());
  EXPECT_TRUE(s->Finish().status().IsIOError());
}

// Highly compressible values: a few compressed bytes decode to far more than one read chunk, so
// the reader must drain the decoder's pending output before reading on (or ending the run).
TEST(CellSorter, CompressibleValuesDecodePastOneChunk) {
  std::string dir = NewTempDir("cell_sorter_zeros");
  auto s = OpenSorter(kMinSorterMemory, dir);
  ASSERT_TRUE(s);
  std::vector<Added> added;
  for (int i = 0; i < 12; ++i) {
    std::string v(150000 + i, static_cast<char>('a' + i));
    added.push_back(Added{CellData::Make("r" + std::to_string(i % 5), "f", "q" + std::to_string(i),
                                         1, KeyType::kPut, v),
                          static_cast<uint64_t>(i)});
  }
  for (const auto& a : added) ASSERT_TRUE(s->Add(a.cell.view()).ok());
  auto it = s->Finish();
  ASSERT_TRUE(it.ok()) << it.status().ToString();
  EXPECT_GT(s->stats().runs_spilled, 2u);
  ExpectSame(Drain(it->get()), Reference(added));
}

// A run damaged on disk between spill and merge (truncated) is Corruption naming it, never a
// silently shorter result.
TEST(CellSorter, DamagedRunIsCorruption) {
  std::string dir = NewTempDir("cell_sorter_damaged");
  auto s = OpenSorter(kMinSorterMemory * 4, dir);
  ASSERT_TRUE(s);
  auto added = RandomCells(60000, 5, 60);
  for (const auto& a : added) ASSERT_TRUE(s->Add(a.cell.view()).ok());
  ASSERT_GT(s->stats().runs_spilled, 1u);
  std::string run = s->spill_dir() + "/run-0.lz4";
  ASSERT_TRUE(fs::exists(run));
  fs::resize_file(run, fs::file_size(run) / 2);
  auto it = s->Finish();
  Status st = it.ok() ? Status::OK() : it.status();
  if (it.ok()) {
    size_t n = 0;
    for ((*it)->SeekToFirst(); (*it)->Valid(); (*it)->Next()) ++n;
    st = (*it)->status();
    EXPECT_LT(n, Reference(added).size());
  }
  ASSERT_TRUE(st.IsCorruption()) << st.ToString();
  EXPECT_NE(st.message().find("run-0.lz4"), std::string::npos) << st.ToString();
}

TEST(CellSorter, CellLargerThanBudget) {
  std::string dir = NewTempDir("cell_sorter_big");
  auto s = OpenSorter(kMinSorterMemory, dir);
  ASSERT_TRUE(s);
  std::vector<Added> added;
  for (int i = 0; i < 5; ++i) {
    std::string v(i == 2 ? kMinSorterMemory * 2 : 100, 'v');
    added.push_back(Added{CellData::Make("r" + std::to_string(4 - i), "f", "q", 1, KeyType::kPut,
                                         v),
                          static_cast<uint64_t>(i)});
  }
  for (const auto& a : added) ASSERT_TRUE(s->Add(a.cell.view()).ok());
  auto it = s->Finish();
  ASSERT_TRUE(it.ok()) << it.status().ToString();
  ExpectSame(Drain(it->get()), Reference(added));
}

// A killed sorter's private dir (its pid gone) is removed by the next Open; a live process's
// and anything that is not only runs stay.
TEST(CellSorter, OpenRemovesDeadSortersDirs) {
  std::string dir = NewTempDir("cell_sorter_stale");
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) _exit(0);
  ASSERT_EQ(waitpid(child, nullptr, 0), child);
  const std::string dead = dir + "/hfile-sort-" + std::to_string(child) + "-abcdef";
  const std::string live = dir + "/hfile-sort-" + std::to_string(getpid()) + "-abcdef";
  const std::string other = dir + "/hfile-sort-" + std::to_string(child) + "-zzzzzz";
  for (const auto& d : {dead, live, other}) fs::create_directories(d);
  std::ofstream(dead + "/run-0.zst") << "x";
  std::ofstream(live + "/run-0.zst") << "x";
  std::ofstream(other + "/notes.txt") << "x";
  auto s = OpenSorter(kMinSorterMemory, dir);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->stats().stale_dirs_removed, 1u);
  EXPECT_FALSE(fs::exists(dead));
  EXPECT_TRUE(fs::exists(live));
  EXPECT_TRUE(fs::exists(other));
}

}  // namespace
}  // namespace hfile::region
