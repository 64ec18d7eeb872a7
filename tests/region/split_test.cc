// Offline splits: a file at rows (settings and file info kept), a region into two daughters
// (names, ids, halves, archive, recovered.edits marker), refusals, dry run, the CLI, and SIGKILL
// at every step leaving the parent whole or both daughters complete, a rerun finishing.
#include "region/split.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <set>
#include <sstream>

#include "cli_common.h"
#include "hfile/reader.h"
#include "region/commit.h"
#include "region/layout.h"
#include "region/store_file_name.h"
#include "region/store_file_reader.h"
#include "store_fixture.h"
#include "testutil.h"

namespace hfile::region {
namespace {

namespace fs = std::filesystem;
using store_fixture::Table;
using store_fixture::WriteStoreFile;
using Cells = std::multiset<std::string>;

constexpr int64_t kNow = 1700000000000;

CellData V(const std::string& row, const char* family, int64_t ts, uint64_t seq) {
  return CellData::Make(row, family, "q", ts, KeyType::kPut, "v-" + row, seq);
}

std::string RowName(int i) { return fmt::format("r{:03d}", i); }
std::string Row4(int i) { return fmt::format("r{:04d}", i); }

// Table t, region ['', ''), families cf (two flushes, rows r000..r059 and r030..r089) and b.
struct Two : Table {
  explicit Two(const std::string& name) : Table(name, {"cf", "b"}) {
    std::vector<CellData> a, b, c;
    for (int i = 0; i < 60; ++i) a.push_back(V(RowName(i), "cf", 100, 1 + i));
    for (int i = 30; i < 90; ++i) b.push_back(V(RowName(i), "cf", 200, 100 + i));
    for (int i = 0; i < 90; i += 3) c.push_back(V(RowName(i), "b", 100, 300 + i));
    WriteStoreFile(Family("cf") + "aaaa0001", a, 60);
    WriteStoreFile(Family("cf") + "aaaa0002", b, 189);
    WriteStoreFile(Family("b") + "bbbb0001", c, 387);
  }
};

// Every cell of a region dir as HBase would read it, "row/family:q@ts=value#seq"; fails the
// test for a cell outside the region's range.
Cells RegionCells(const std::string& root, const std::string& region_dir) {
  Cells out;
  auto dir = ScanRegionDir(root, region_dir);
  EXPECT_TRUE(dir.ok()) << dir.status().ToString();
  if (!dir.ok()) return out;
  for (const auto& f : dir->families)
    for (const auto& sf : f.store_files) {
      auto reader = StoreFileReader::Open(sf);
      EXPECT_TRUE(reader.ok()) << reader.status().ToString();
      if (!reader.ok()) continue;
      auto it = (*reader)->NewIterator();
      for (it->SeekToFirst(); it->Valid(); it->Next()) {
        const Cell& c = it->cell();
        if (dir->info) {
          EXPECT_TRUE(dir->info->ContainsRow(c.row())) << c.row().ToString();
        }
        out.insert(c.row().ToString() + "/" + c.family().ToString() + ":" +
                   c.qualifier().ToString() + "@" + std::to_string(c.timestamp()) + "=" +
                   c.value.ToString() + "#" + std::to_string(c.sequence_id));
      }
    }
  return out;
}

std::vector<std::string> Regions(const std::string& table_dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(table_dir))
    if (e.is_directory() && IsRegionDirName(e.path().filename().string()))
      out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

Cells TableCells(const std::string& root, const std::string& table_dir) {
  Cells all;
  for (const auto& r : Regions(table_dir)) {
    Cells c = RegionCells(root, table_dir + "/" + r);
    all.insert(c.begin(), c.end());
  }
  return all;
}

RegionSplitOptions Opts(std::optional<std::string> row = std::nullopt) {
  RegionSplitOptions o;
  o.now_ms = kNow;
  o.split_row = row;
  return o;
}

Status Split(const std::string& region_dir, RegionSplitOptions o, RegionSplitReport* rep = nullptr) {
  HFILE_ASSIGN_OR_RETURN(RegionSplitPlan plan, PlanRegionSplit(region_dir, o));
  RegionSplitReport local;
  return RunRegionSplit(plan, o, rep ? rep : &local);
}

// Runs the split in a child that SIGKILLs itself at the `n`th checkpoint. True if it crashed;
// a child that ran to the end must have succeeded.
bool SplitCrashedAt(const std::string& region_dir, RegionSplitOptions o, int n) {
  pid_t pid = ::fork();
  if (pid == 0) {
    int count = 0;
    o.checkpoint = [&](const std::string&) {
      if (++count == n) ::raise(SIGKILL);
    };
    ::_exit(Split(region_dir, o).ok() ? 0 : 1);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  const bool crashed = WIFSIGNALED(status);
  if (!crashed) {
    EXPECT_EQ(WEXITSTATUS(status), 0) << "step " << n;
  }
  return crashed;
}

TEST(SplitFile, RangesKeepSettingsAndFileInfo) {
  const std::string dir = test::NewTempDir("split-file");
  WriterOptions w;
  w.compression = Compression::kGz;
  w.encoding = DataBlockEncoding::kFastDiff;
  w.bloom_type = BloomType::kRowCol;
  w.block_size = 4096;
  w.max_seq_id = 42;
  w.major_compaction = true;
  w.bulkload_timestamp = 1234;
  w.exclude_from_minor_compaction = true;
  w.extra_file_info = {{"MY_KEY", "my value"}};
  {
    auto wr = Writer::Create(dir + "/in", w);
    ASSERT_TRUE(wr.ok()) << wr.status().ToString();
    for (int i = 0; i < 2000; ++i)
      ASSERT_TRUE((*wr)->Append(V(Row4(i), "cf", 100, 0).view()).ok());
    ASSERT_TRUE((*wr)->Finish().ok());
  }
  fs::create_directories(dir + "/out");
  FileSplitOptions o;
  o.boundaries = {Row4(500), Row4(1500)};
  o.out_dir = dir + "/out";
  FileSplitResult r;
  ASSERT_TRUE(SplitFile(dir + "/in", o, &r).ok());
  EXPECT_EQ(r.cells, 2000u);
  ASSERT_EQ(r.outputs.size(), 3u);
  const uint64_t want[] = {500, 1000, 500};
  for (const auto& out : r.outputs) {
    EXPECT_EQ(out.cells, want[out.range]);
    auto rd = Reader::Open(out.path);
    ASSERT_TRUE(rd.ok()) << rd.status().ToString();
    EXPECT_EQ((*rd)->trailer().compression(), Compression::kGz);
    EXPECT_EQ((*rd)->data_block_encoding(), DataBlockEncoding::kFastDiff);
    const FileInfo& fi = (*rd)->file_info();
    EXPECT_EQ(fi.GetInt64("MAX_SEQ_ID_KEY"), 42);
    EXPECT_EQ(fi.GetBool("MAJOR_COMPACTION_KEY"), true);
    EXPECT_EQ(fi.GetInt64("BULKLOAD_TIMESTAMP"), 1234);
    EXPECT_EQ(fi.GetBool("EXCLUDE_FROM_MINOR_COMPACTION"), true);
    ASSERT_TRUE(fi.Get("MY_KEY"));
    EXPECT_EQ(fi.Get("MY_KEY")->ToString(), "my value");
    ASSERT_TRUE(fi.Get("BLOOM_FILTER_TYPE"));
    EXPECT_EQ(fi.Get("BLOOM_FILTER_TYPE")->ToString(), "ROWCOL");
    auto it = (*rd)->NewIterator();
    it->SeekToFirst();
    ASSERT_TRUE(it->Valid());
    EXPECT_EQ(it->cell().row().ToString(), Row4(out.range == 0 ? 0 : out.range == 1 ? 500 : 1500));
  }
  // Nothing but the outputs is left in the output dir.
  size_t n = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir + "/out")) ++n;
  EXPECT_EQ(n, 3u);
  o.boundaries = {Row4(9), Row4(5)};
  EXPECT_TRUE(SplitFile(dir + "/in", o, &r).IsInvalidArgument());
}

TEST(RegionSplit, GivenRowMakesTwoDaughtersAndArchivesTheParent) {
  Two t("split-region");
  const Cells before = RegionCells(t.root, t.region_dir);
  ASSERT_EQ(before.size(), 150u);
  RegionSplitReport rep;
  Status s = Split(t.region_dir, Opts(RowName(45)), &rep);
  ASSERT_TRUE(s.ok()) << s.ToString();
  const auto regions = Regions(t.table_dir);
  ASSERT_EQ(regions.size(), 2u);
  RegionInfo a = t.info, b = t.info;
  a.region_id = b.region_id = kNow;
  a.end_key = RowName(45);
  b.start_key = RowName(45);
  EXPECT_TRUE(fs::exists(t.table_dir + "/" + a.EncodedName() + "/.regioninfo"));
  EXPECT_TRUE(fs::exists(t.table_dir + "/" + b.EncodedName() + "/.regioninfo"));
  auto ra = ReadRegionInfoFile(t.table_dir + "/" + a.EncodedName() + "/.regioninfo");
  ASSERT_TRUE(ra.ok());
  EXPECT_EQ(ra->end_key, RowName(45));
  EXPECT_EQ(ra->region_id, static_cast<uint64_t>(kNow));
  EXPECT_FALSE(ra->split);
  // Halves: one file per input per half; every cell (sequence ids too) kept.
  EXPECT_EQ(TableCells(t.root, t.table_dir), before);
  Cells ca = RegionCells(t.root, t.table_dir + "/" + a.EncodedName());
  EXPECT_EQ(ca.size(), 45u + 15u + 15u);  // cf: r000..r044 and r030..r044; b: every third
  EXPECT_EQ(rep.files.size(), 3u);
  EXPECT_EQ(rep.max_sequence_id, 387);
  EXPECT_TRUE(fs::exists(t.table_dir + "/" + a.EncodedName() + "/recovered.edits/387.seqid"));
  // Input settings and file info kept per half.
  for (const auto& f : rep.files)
    for (const auto& o : f.outputs[0]) {
      auto rd = Reader::Open(t.table_dir + "/" + o);
      ASSERT_TRUE(rd.ok());
      EXPECT_TRUE((*rd)->file_info().GetInt64("MAX_SEQ_ID_KEY").has_value());
    }
  // The parent is in the archive, file by file; no journal, no staging dir left.
  const std::string archived = t.root + "/archive/data/default/t/" + t.info.EncodedName();
  EXPECT_TRUE(fs::exists(archived + "/cf/aaaa0001"));
  EXPECT_TRUE(fs::exists(archived + "/b/bbbb0001"));
  EXPECT_FALSE(fs::exists(t.region_dir));
  EXPECT_FALSE(fs::exists(t.table_dir + "/.hfile-journal"));
  for (const auto& e : fs::directory_iterator(t.table_dir))
    EXPECT_FALSE(e.path().filename().string().starts_with(".hfile-split")) << e.path();
}

// Table t with one family whose file spans several blocks (so it has a mid key).
struct Big : Table {
  explicit Big(const std::string& name) : Table(name, {"cf"}) {
    std::vector<CellData> a;
    for (int i = 0; i < 3000; ++i)
      a.push_back(CellData::Make(Row4(i), "cf", "q", 100, KeyType::kPut, std::string(200, 'x'), i + 1));
    WriteStoreFile(Family("cf") + "aaaa0001", a, 3000);
  }
};

// A bulk-loaded file keeps its "_SeqId_<n>_" name (its sequence id) and bulk-load file info in
// both halves.
TEST(RegionSplit, BulkLoadedFileKeepsItsSequenceIdName) {
  Two t("split-bulk");
  {
    WriterOptions w;
    w.bulkload_timestamp = 1234;
    w.include_mvcc = false;
    auto wr = Writer::Create(t.Family("cf") + "cccc0001_SeqId_500_", w);
    ASSERT_TRUE(wr.ok());
    for (int i = 0; i < 90; i += 10)
      ASSERT_TRUE((*wr)->Append(V(RowName(i), "cf", 300, 0).view()).ok());
    ASSERT_TRUE((*wr)->Finish().ok());
  }
  const Cells before = RegionCells(t.root, t.region_dir);
  EXPECT_EQ(before.count("r010/cf:q@300=v-r010#500"), 1u);
  RegionSplitReport rep;
  ASSERT_TRUE(Split(t.region_dir, Opts(RowName(45)), &rep).ok());
  EXPECT_EQ(TableCells(t.root, t.table_dir), before);
  int bulk = 0;
  for (const auto& f : rep.files) {
    if (f.input != "cccc0001_SeqId_500_") continue;
    ASSERT_EQ(f.outputs[0].size(), 1u);
    ASSERT_EQ(f.outputs[1].size(), 1u);
    for (const auto& o : {f.outputs[0][0], f.outputs[1][0]}) {
      EXPECT_TRUE(o.ends_with("_SeqId_500_")) << o;
      auto rd = Reader::Open(t.table_dir + "/" + o);
      ASSERT_TRUE(rd.ok());
      EXPECT_EQ((*rd)->file_info().GetInt64("BULKLOAD_TIMESTAMP"), 1234);
      ++bulk;
    }
  }
  EXPECT_EQ(bulk, 2);
}

TEST(RegionSplit, HBaseSplitPointWhenNoRowIsGiven) {
  Big t("split-auto");
  const Cells before = RegionCells(t.root, t.region_dir);
  auto plan = PlanRegionSplit(t.region_dir, Opts());
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  auto sp = ComputeSplitPoint(t.root, t.region_dir);
  ASSERT_TRUE(sp.ok() && sp->split_row);
  EXPECT_EQ(plan->split_row, *sp->split_row);
  EXPECT_FALSE(plan->point.explicit_row);
  RegionSplitReport rep;
  ASSERT_TRUE(RunRegionSplit(*plan, Opts(), &rep).ok());
  EXPECT_EQ(Regions(t.table_dir).size(), 2u);
  EXPECT_EQ(TableCells(t.root, t.table_dir), before);
}

TEST(RegionSplit, DryRunCountsSidesAndWritesNothing) {
  Two t("split-dry");
  RegionSplitOptions o = Opts(RowName(45));
  o.dry_run = true;
  auto plan = PlanRegionSplit(t.region_dir, o);
  ASSERT_TRUE(plan.ok());
  uint64_t a = 0, b = 0;
  for (const auto& f : plan->point.families) a += f.below.cells, b += f.above.cells;
  EXPECT_EQ(a, 75u);
  EXPECT_EQ(b, 75u);
  RegionSplitReport rep;
  ASSERT_TRUE(RunRegionSplit(*plan, o, &rep).ok());
  EXPECT_EQ(Regions(t.table_dir), std::vector<std::string>{t.info.EncodedName()});
}

TEST(RegionSplit, Refusals) {
  Two t("split-refuse");
  Table bounded("split-refuse-b", {"cf"}, "k", "t");
  WriteStoreFile(bounded.Family("cf") + "cccc0001", {V("m", "cf", 1, 1), V("p", "cf", 1, 2)}, 2);
  EXPECT_TRUE(PlanRegionSplit(bounded.region_dir, Opts("k")).status().IsInvalidArgument());
  EXPECT_TRUE(PlanRegionSplit(bounded.region_dir, Opts("z")).status().IsInvalidArgument());
  EXPECT_TRUE(PlanRegionSplit(bounded.region_dir, Opts("a")).status().IsInvalidArgument());
  EXPECT_TRUE(PlanRegionSplit(bounded.region_dir, Opts("n")).ok());
  // A reference: refused.
  test::WriteFileOrDie(t.Family("cf") + "aaaa0001.0123456789abcdef0123456789abcdef", "x");
  EXPECT_FALSE(PlanRegionSplit(t.region_dir, Opts(RowName(45))).ok());
  // Another tool's pending work in the table's journal: refused, the journal kept.
  {
    Two p("split-pending");
    Transaction tx;
    tx.tool = "alter";
    tx.pending = {"rewrite cf"};
    const CommitScope scope{p.table_dir, ""};
    ASSERT_TRUE(BeginTransaction(scope, tx).ok());
    ASSERT_TRUE(CommitTransaction(scope, tx).ok());
    auto refused = PlanRegionSplit(p.region_dir, Opts(RowName(45)));
    EXPECT_TRUE(refused.status().IsNotSupported()) << refused.status().ToString();
    auto j = ReadJournal(scope);
    ASSERT_TRUE(j.ok() && *j);
    EXPECT_EQ((*j)->transaction.pending, std::vector<std::string>{"rewrite cf"});
  }
  // Unclean: recovered edits pending.
  Two u("split-unclean");
  fs::create_directories(u.region_dir + "/recovered.edits");
  test::WriteFileOrDie(u.region_dir + "/recovered.edits/0000000000000000100", "edits");
  auto plan = PlanRegionSplit(u.region_dir, Opts(RowName(45)));
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  EXPECT_FALSE(plan->refused.empty());
  RegionSplitReport rep;
  EXPECT_TRUE(RunRegionSplit(*plan, Opts(RowName(45)), &rep).IsNotSupported());
  EXPECT_EQ(Regions(u.table_dir).size(), 1u);
}

// A damaged store file refuses the split: Corruption, the parent untouched, nothing staged.
TEST(RegionSplit, DamagedInputChangesNothing) {
  Two t("split-damaged");
  const std::string victim = t.Family("cf") + "aaaa0002";
  std::string bytes = test::ReadFileOrDie(victim);
  bytes[100] ^= 1;
  test::WriteFileOrDie(victim, bytes);
  Status s = Split(t.region_dir, Opts(RowName(45)));
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_EQ(Regions(t.table_dir), std::vector<std::string>{t.info.EncodedName()});
  EXPECT_EQ(test::ReadFileOrDie(victim), bytes);
  EXPECT_FALSE(fs::exists(t.table_dir + "/.hfile-journal"));
  for (const auto& e : fs::directory_iterator(t.table_dir))
    EXPECT_FALSE(e.path().filename().string().starts_with(".hfile-split")) << e.path();
}

TEST(RegionSplit, SigkillAtEveryStepLeavesParentOrDaughtersAndARerunFinishes) {
  Two pristine("split-kill-pristine");
  const Cells before = RegionCells(pristine.root, pristine.region_dir);
  int crashes = 0, parent_whole = 0, daughters_done = 0;
  for (int n = 1; n < 60; ++n) {
    Two t("split-kill");
    const bool crashed = SplitCrashedAt(t.region_dir, Opts(RowName(45)), n);
    crashes += crashed;
    // Either the parent alone, whole (uncommitted), or the commit record is durable and a
    // rerun rolls forward; HBase never sees half a daughter: the daughters are put whole.
    const auto regions = Regions(t.table_dir);
    const bool journal = fs::exists(t.table_dir + "/.hfile-journal");
    if (fs::exists(t.region_dir) && regions.size() == 1) {
      ++parent_whole;
      EXPECT_EQ(RegionCells(t.root, t.region_dir), before) << "step " << n;
    } else if (!journal) {
      ++daughters_done;
      EXPECT_EQ(regions.size(), 2u) << "step " << n;
      EXPECT_EQ(TableCells(t.root, t.table_dir), before) << "step " << n;
    } else {
      auto j = ReadJournal(CommitScope{t.table_dir, ""});
      ASSERT_TRUE(j.ok() && *j) << "step " << n;
      EXPECT_EQ((*j)->state, JournalState::State::kCommit) << "step " << n;
    }
    Status rerun = Split(t.region_dir, Opts(RowName(45)));
    if (fs::exists(t.region_dir) || rerun.ok()) {
      ASSERT_TRUE(rerun.ok() || rerun.IsNotFound()) << "rerun after step " << n << ": "
                                                    << rerun.ToString();
    } else if (fs::exists(t.table_dir + "/.hfile-journal")) {
      // The parent is already archived by the committed transaction: its journal finishes it.
      std::vector<std::string> log;
      ASSERT_TRUE(FinishInterruptedSplit(t.table_dir, kNow, &log).ok()) << "step " << n;
    }
    EXPECT_EQ(Regions(t.table_dir).size(), 2u) << "step " << n;
    EXPECT_FALSE(fs::exists(t.region_dir)) << "step " << n;
    EXPECT_EQ(TableCells(t.root, t.table_dir), before) << "step " << n;
    EXPECT_FALSE(fs::exists(t.table_dir + "/.hfile-journal")) << "step " << n;
    if (!crashed) break;
  }
  EXPECT_GE(crashes, 8);
  EXPECT_GE(parent_whole, 1);
  std::cout << "split kill test: " << crashes << " kills, parent whole after " << parent_whole
            << ", daughters done after " << daughters_done << "\n";
}

// Table t, families b and cf: cf in two flushes of distinct rows (r0000..r1999 and
// r2000..r2999, 200-byte values: many blocks), b every fifth row.
struct Multi : Table {
  explicit Multi(const std::string& name) : Table(name, {"b", "cf"}) {
    std::vector<CellData> lo, hi, b;
    for (int i = 0; i < 3000; ++i)
      (i < 2000 ? lo : hi)
          .push_back(CellData::Make(Row4(i), "cf", "q", 100, KeyType::kPut,
                                    std::string(200, 'a' + i % 26), i + 1));
    for (int i = 0; i < 3000; i += 5) b.push_back(V(Row4(i), "b", 100, 5000 + i));
    WriteStoreFile(Family("cf") + "aaaa0001", lo, 2000);
    WriteStoreFile(Family("cf") + "aaaa0002", hi, 3000);
    WriteStoreFile(Family("b") + "bbbb0001", b, 8000);
  }
};

// The .regioninfo of every region of the table, by start key.
std::vector<RegionInfo> Infos(const std::string& table_dir) {
  std::vector<RegionInfo> out;
  for (const auto& r : Regions(table_dir)) {
    auto info = ReadRegionInfoFile(table_dir + "/" + r + "/.regioninfo");
    EXPECT_TRUE(info.ok()) << info.status().ToString();
    if (info.ok()) out.push_back(*info);
  }
  std::sort(out.begin(), out.end(),
            [](const RegionInfo& a, const RegionInfo& b) { return a.start_key < b.start_key; });
  return out;
}

// The daughters chain the parent's range: no hole, no overlap, each named by its .regioninfo.
void ExpectChain(const std::string& table_dir, const RegionInfo& parent, size_t n) {
  const auto infos = Infos(table_dir);
  ASSERT_EQ(infos.size(), n);
  EXPECT_EQ(infos.front().start_key, parent.start_key);
  EXPECT_EQ(infos.back().end_key, parent.end_key);
  std::set<std::string> names;
  for (size_t i = 0; i < n; ++i) {
    names.insert(infos[i].EncodedName());
    EXPECT_TRUE(fs::exists(table_dir + "/" + infos[i].EncodedName())) << i;
    EXPECT_EQ(infos[i].region_id, static_cast<uint64_t>(kNow));
    EXPECT_FALSE(infos[i].split);
    if (i + 1 < n) {
      EXPECT_EQ(infos[i].end_key, infos[i + 1].start_key) << i;
      EXPECT_LT(infos[i].start_key, infos[i].end_key) << i;
    }
  }
  EXPECT_EQ(names.size(), n);
}

TEST(RegionSplit, IntoThreeAndFourAtSizeQuantiles) {
  for (int n : {3, 4}) {
    SCOPED_TRACE(n);
    Multi t(fmt::format("split-into-{}", n));
    const Cells before = RegionCells(t.root, t.region_dir);
    ASSERT_EQ(before.size(), 3600u);
    RegionSplitOptions o = Opts();
    o.into = n;
    auto plan = PlanRegionSplit(t.region_dir, o);
    ASSERT_TRUE(plan.ok()) << plan.status().ToString();
    EXPECT_EQ(plan->quantile_family, "cf");
    ASSERT_EQ(plan->split_rows.size(), static_cast<size_t>(n - 1));
    ASSERT_EQ(plan->daughters.size(), static_cast<size_t>(n));
    // Size quantiles: cf's 3000 equal cells are shared out evenly, to the nearest block start
    // (about 280 cells a block; a file's last block is partial).
    ASSERT_EQ(plan->sides.size(), 2u);
    EXPECT_EQ(plan->sides[1].family, "cf");
    uint64_t planned = 0;
    for (const auto& f : plan->sides) {
      ASSERT_EQ(f.daughters.size(), static_cast<size_t>(n));
      for (const auto& d : f.daughters) planned += d.cells;
    }
    EXPECT_EQ(planned, before.size());
    for (const auto& d : plan->sides[1].daughters) {
      EXPECT_GT(d.cells, 3000u / n - 200) << d.cells;
      EXPECT_LT(d.cells, 3000u / n + 200) << d.cells;
    }
    {
      RegionSplitOptions uncounted = o;
      uncounted.count_sides = false;
      auto quick = PlanRegionSplit(t.region_dir, uncounted);
      ASSERT_TRUE(quick.ok()) << quick.status().ToString();
      EXPECT_TRUE(quick->sides.empty());
      EXPECT_EQ(quick->split_rows, plan->split_rows);
    }
    RegionSplitReport rep;
    Status s = RunRegionSplit(*plan, o, &rep);
    ASSERT_TRUE(s.ok()) << s.ToString();
    // The sides as written equal the plan's count (a plan without count_sides has none).
    ASSERT_EQ(rep.sides.size(), plan->sides.size());
    for (size_t f = 0; f < rep.sides.size(); ++f) {
      EXPECT_EQ(rep.sides[f].family, plan->sides[f].family);
      ASSERT_EQ(rep.sides[f].daughters.size(), static_cast<size_t>(n));
      for (int d = 0; d < n; ++d) {
        EXPECT_EQ(rep.sides[f].daughters[d].cells, plan->sides[f].daughters[d].cells);
        EXPECT_EQ(rep.sides[f].daughters[d].kv_bytes, plan->sides[f].daughters[d].kv_bytes);
        EXPECT_GT(rep.sides[f].daughters[d].file_bytes, 0u);
      }
    }
    ExpectChain(t.table_dir, t.info, n);
    // Every cell in exactly one daughter (RegionCells fails a cell outside its daughter).
    EXPECT_EQ(TableCells(t.root, t.table_dir), before);
    const auto infos = Infos(t.table_dir);
    for (size_t i = 0; i < infos.size(); ++i) {
      Cells c = RegionCells(t.root, t.table_dir + "/" + infos[i].EncodedName());
      uint64_t want = 0;
      for (const auto& f : plan->sides) want += f.daughters[i].cells;
      EXPECT_EQ(c.size(), want) << i;
      EXPECT_TRUE(fs::exists(t.table_dir + "/" + infos[i].EncodedName() +
                             "/recovered.edits/8000.seqid"));
    }
    EXPECT_FALSE(fs::exists(t.region_dir));
    EXPECT_TRUE(fs::exists(t.root + "/archive/data/default/t/" + t.info.EncodedName() +
                           "/cf/aaaa0002"));
  }
}

TEST(RegionSplit, IntoRefusals) {
  Multi t("split-into-refuse");
  RegionSplitOptions o = Opts();
  o.into = 1;
  EXPECT_TRUE(PlanRegionSplit(t.region_dir, o).status().IsInvalidArgument());
  o.into = 3;
  o.split_row = Row4(100);
  EXPECT_TRUE(PlanRegionSplit(t.region_dir, o).status().IsInvalidArgument());
  // More daughters than the largest store has blocks.
  o.split_row.reset();
  o.into = 500;
  auto p = PlanRegionSplit(t.region_dir, o);
  EXPECT_TRUE(p.status().IsNotSupported()) << p.status().ToString();
  EXPECT_NE(p.status().ToString().find("too few data blocks"), std::string::npos);
  // Given rows: sorted and inside the region.
  Table bounded("split-into-bounded", {"cf"}, "k", "t");
  WriteStoreFile(bounded.Family("cf") + "cccc0001", {V("m", "cf", 1, 1), V("p", "cf", 1, 2)}, 2);
  RegionSplitOptions r = Opts();
  r.split_rows = {"m", "z"};
  EXPECT_TRUE(PlanRegionSplit(bounded.region_dir, r).status().IsInvalidArgument());
  r.split_rows = {"n", "m"};
  EXPECT_TRUE(PlanRegionSplit(bounded.region_dir, r).status().IsInvalidArgument());
  r.split_rows = {"m", "n"};
  auto ok = PlanRegionSplit(bounded.region_dir, r);
  ASSERT_TRUE(ok.ok()) << ok.status().ToString();
  EXPECT_EQ(ok->daughters.size(), 3u);
  EXPECT_EQ(Regions(t.table_dir).size(), 1u);
}

TEST(RegionSplit, SigkillAtEveryStepOfAThreeWaySplit) {
  Multi pristine("split-kill3-pristine");
  const Cells before = RegionCells(pristine.root, pristine.region_dir);
  RegionSplitOptions base = Opts();
  base.into = 3;
  base.verify_inputs = false;  // the kill loop reruns the split many times
  int crashes = 0, parent_whole = 0;
  for (int n = 1; n < 80; ++n) {
    Multi t("split-kill3");
    const bool crashed = SplitCrashedAt(t.region_dir, base, n);
    crashes += crashed;
    // The parent alone and whole, or every daughter complete (the journal's commit record
    // durable, a rerun rolls forward): never a daughter without the others.
    const auto regions = Regions(t.table_dir);
    if (fs::exists(t.region_dir) && regions.size() == 1) {
      ++parent_whole;
      EXPECT_EQ(RegionCells(t.root, t.region_dir), before) << "step " << n;
    } else if (!fs::exists(t.table_dir + "/.hfile-journal")) {
      EXPECT_EQ(regions.size(), 3u) << "step " << n;
      EXPECT_EQ(TableCells(t.root, t.table_dir), before) << "step " << n;
    } else {
      auto j = ReadJournal(CommitScope{t.table_dir, ""});
      ASSERT_TRUE(j.ok() && *j) << "step " << n;
      EXPECT_EQ((*j)->state, JournalState::State::kCommit) << "step " << n;
    }
    Status rerun = Split(t.region_dir, base);
    if (fs::exists(t.region_dir) || rerun.ok()) {
      ASSERT_TRUE(rerun.ok() || rerun.IsNotFound()) << "rerun after step " << n << ": "
                                                    << rerun.ToString();
    } else if (fs::exists(t.table_dir + "/.hfile-journal")) {
      std::vector<std::string> log;
      ASSERT_TRUE(FinishInterruptedSplit(t.table_dir, kNow, &log).ok()) << "step " << n;
    }
    ExpectChain(t.table_dir, t.info, 3);
    EXPECT_FALSE(fs::exists(t.region_dir)) << "step " << n;
    EXPECT_EQ(TableCells(t.root, t.table_dir), before) << "step " << n;
    EXPECT_FALSE(fs::exists(t.table_dir + "/.hfile-journal")) << "step " << n;
    if (!crashed) break;
  }
  EXPECT_GE(crashes, 10);
  EXPECT_GE(parent_whole, 1);
  std::cout << "3-way split kill test: " << crashes << " kills, parent whole after "
            << parent_whole << "\n";
}

// A table of three regions ['', r1000) [r1000, r2000) [r2000, ''): a file spanning them is cut
// at the boundaries, as completebulkload would cut it.
TEST(SplitFile, AtATablesRegionBoundaries) {
  Multi t("split-file-table");
  for (auto [s, e] : {std::pair<std::string, std::string>{"", Row4(1000)},
                      {Row4(1000), Row4(2000)},
                      {Row4(2000), ""}}) {
    RegionInfo r = t.info;
    r.start_key = s;
    r.end_key = e;
    r.region_id = 2000;
    fs::create_directories(t.table_dir + "/" + r.EncodedName());
    std::string bytes;
    r.EncodeTo(&bytes);
    test::WriteFileOrDie(t.table_dir + "/" + r.EncodedName() + "/.regioninfo", bytes);
  }
  // The original ['', '') region, marked split (a parent), is not a boundary source.
  {
    RegionInfo p = t.info;
    p.split = p.offline = true;
    std::string bytes;
    p.EncodeTo(&bytes);
    test::WriteFileOrDie(t.region_dir + "/.regioninfo", bytes);
  }
  auto b = ReadTableBoundaries(t.table_dir);
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_EQ(b->boundaries, (std::vector<std::string>{Row4(1000), Row4(2000)}));
  ASSERT_EQ(b->regions.size(), 3u);
  const std::string out = test::NewTempDir("split-file-table-out");
  FileSplitOptions o;
  o.boundaries = b->boundaries;
  o.out_dir = out;
  FileSplitResult r;
  ASSERT_TRUE(SplitFile(t.Family("cf") + "aaaa0001", o, &r).ok());  // r0000..r1999
  ASSERT_EQ(r.outputs.size(), 2u);
  EXPECT_EQ(r.outputs[0].cells, 1000u);
  EXPECT_EQ(r.outputs[1].range, 1u);
  EXPECT_EQ(r.outputs[1].cells, 1000u);
  auto rd = Reader::Open(r.outputs[1].path);
  ASSERT_TRUE(rd.ok());
  EXPECT_EQ((*rd)->file_info().GetInt64("MAX_SEQ_ID_KEY"), 2000);
  // A hole between regions: refused.
  fs::remove_all(t.table_dir + "/" + [&] {
    RegionInfo m = t.info;
    m.start_key = Row4(1000);
    m.end_key = Row4(2000);
    m.region_id = 2000;
    return m.EncodedName();
  }());
  EXPECT_TRUE(ReadTableBoundaries(t.table_dir).status().IsInvalidArgument());
}

// Table t: a parent ['', '') marked split with cf (r000..r089) and b (every third row), and
// its daughter ['', r060) holding only References (bottom halves at r060) to them.
struct RefDaughter : Table {
  RegionInfo daughter;
  std::string dir;
  explicit RefDaughter(const std::string& name) : Table(name, {"b", "cf"}) {
    std::vector<CellData> a, b;
    for (int i = 0; i < 90; ++i) a.push_back(V(RowName(i), "cf", 100, 1 + i));
    for (int i = 0; i < 90; i += 3) b.push_back(V(RowName(i), "b", 100, 300 + i));
    WriteStoreFile(Family("cf") + "aaaa0001", a, 90);
    WriteStoreFile(Family("b") + "bbbb0001", b, 387);
    RegionInfo parent = info;
    parent.split = parent.offline = true;
    std::string bytes;
    parent.EncodeTo(&bytes);
    test::WriteFileOrDie(region_dir + "/.regioninfo", bytes);
    daughter = info;
    daughter.end_key = RowName(60);
    daughter.region_id = 2000;
    dir = table_dir + "/" + daughter.EncodedName();
    bytes.clear();
    daughter.EncodeTo(&bytes);
    fs::create_directories(dir + "/cf");
    fs::create_directories(dir + "/b");
    test::WriteFileOrDie(dir + "/.regioninfo", bytes);
    std::string bottom;
    Reference::ForRow(RowName(60), Reference::Range::kBottom).EncodeTo(&bottom);
    test::WriteFileOrDie(dir + "/cf/aaaa0001." + info.EncodedName(), bottom);
    test::WriteFileOrDie(dir + "/b/bbbb0001." + info.EncodedName(), bottom);
  }
  // The region dirs but the parent's.
  std::vector<std::string> Daughters() const {
    std::vector<std::string> out;
    for (const auto& r : Regions(table_dir))
      if (r != info.EncodedName()) out.push_back(r);
    return out;
  }
};

// The compaction may zero old sequence ids (hbase.hstore.compaction.keep.seqId.period):
// cells compared without them.
Cells WithoutSeqIds(const Cells& c) {
  Cells out;
  for (const auto& x : c) out.insert(x.substr(0, x.rfind('#')));
  return out;
}

// A daughter of an unfinished split (References to its parent's files): refused, or with
// compact_first major-compacted (the References rewritten to real files) and then split.
TEST(RegionSplit, CompactFirstRewritesReferencesThenSplits) {
  RefDaughter t("split-compact-first");
  const std::string& dir = t.dir;
  const Cells before = RegionCells(t.root, dir);
  ASSERT_EQ(before.size(), 60u + 20u);
  auto refused = PlanRegionSplit(dir, Opts(RowName(30)));
  EXPECT_TRUE(refused.status().IsNotSupported());
  EXPECT_NE(refused.status().ToString().find("--compact-first"), std::string::npos);

  // A row outside the daughter: refused before any compaction.
  RegionSplitOptions outside = Opts(RowName(70));
  outside.compact_first = true;
  EXPECT_TRUE(PlanRegionSplit(dir, outside).status().IsInvalidArgument());

  RegionSplitOptions o = Opts(RowName(30));
  o.compact_first = true;
  auto plan = PlanRegionSplit(dir, o);
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  EXPECT_TRUE(plan->compact_first);
  EXPECT_EQ(plan->compact_stores, (std::vector<std::string>{"b", "cf"}));
  // A dry run compacts nothing.
  RegionSplitOptions dry = o;
  dry.dry_run = true;
  RegionSplitReport rep;
  ASSERT_TRUE(RunRegionSplit(*plan, dry, &rep).ok());
  EXPECT_TRUE(fs::exists(dir + "/cf/aaaa0001." + t.info.EncodedName()));

  Status s = RunRegionSplit(*plan, o, &rep);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(rep.compacted.size(), 2u);
  ASSERT_TRUE(rep.replanned);
  ASSERT_EQ(rep.replanned->daughters.size(), 2u);
  EXPECT_EQ(rep.replanned->daughters[0].end_key, RowName(30));
  EXPECT_EQ(rep.replanned->daughters[1].end_key, RowName(60));
  EXPECT_FALSE(fs::exists(dir));
  Cells after;
  for (const auto& dd : rep.replanned->daughters) {
    const std::string ddir = t.table_dir + "/" + dd.EncodedName();
    Cells c = RegionCells(t.root, ddir);
    after.insert(c.begin(), c.end());
    for (const auto& fam : {"b", "cf"})
      for (const auto& e : fs::directory_iterator(ddir + "/" + fam))
        EXPECT_FALSE(e.path().filename().string().find('.') != std::string::npos) << e.path();
  }
  EXPECT_EQ(WithoutSeqIds(after), WithoutSeqIds(before));
  // The parent (the CatalogJanitor's to archive) is left as it was.
  EXPECT_TRUE(fs::exists(t.Family("cf") + "aaaa0001"));
}

// SIGKILL at every step of the compaction and of the split after it: the daughter is left
// with its References or compacted (cells the same), or the split's daughters are complete;
// a rerun with compact_first finishes.
TEST(RegionSplit, SigkillAtEveryStepOfCompactFirst) {
  RefDaughter pristine("split-kill-cf-pristine");
  const Cells before = WithoutSeqIds(RegionCells(pristine.root, pristine.dir));
  RegionSplitOptions base = Opts(RowName(30));
  base.compact_first = true;
  int crashes = 0, compacted_only = 0;
  for (int n = 1; n < 120; ++n) {
    RefDaughter t("split-kill-cf");
    const bool crashed = SplitCrashedAt(t.dir, base, n);
    crashes += crashed;
    // A compaction killed after its commit record (the region's journal under .tmp/) has its
    // output in place and its inputs not yet archived: the rerun finishes it first.
    if (fs::exists(t.dir) && t.Daughters().size() == 1 && !fs::exists(t.dir + "/.tmp")) {
      EXPECT_EQ(WithoutSeqIds(RegionCells(t.root, t.dir)), before) << "step " << n;
      bool refs = false;
      for (const auto& fam : {"b", "cf"})
        for (const auto& e : fs::directory_iterator(t.dir + "/" + fam))
          refs |= e.path().filename().string().find('.') != std::string::npos;
      compacted_only += !refs;
    }
    Status rerun = fs::exists(t.dir) ? Split(t.dir, base) : Status::OK();
    ASSERT_TRUE(rerun.ok()) << "rerun after step " << n << ": " << rerun.ToString();
    if (!fs::exists(t.dir) && fs::exists(t.table_dir + "/.hfile-journal")) {
      std::vector<std::string> log;
      ASSERT_TRUE(FinishInterruptedSplit(t.table_dir, kNow, &log).ok()) << "step " << n;
    }
    const auto daughters = t.Daughters();
    ASSERT_EQ(daughters.size(), 2u) << "step " << n;
    Cells after;
    for (const auto& d : daughters) {
      Cells c = RegionCells(t.root, t.table_dir + "/" + d);
      after.insert(c.begin(), c.end());
    }
    EXPECT_EQ(WithoutSeqIds(after), before) << "step " << n;
    EXPECT_FALSE(fs::exists(t.dir)) << "step " << n;
    EXPECT_FALSE(fs::exists(t.table_dir + "/.hfile-journal")) << "step " << n;
    if (!crashed) break;
  }
  EXPECT_GE(crashes, 10);
  EXPECT_GE(compacted_only, 1);
  std::cout << "compact-first kill test: " << crashes << " kills, compacted but unsplit after "
            << compacted_only << "\n";
}

int RunTool(std::vector<std::string> args, std::string* text) {
  std::vector<const char*> argv{"hfile-split"};
  for (const auto& a : args) argv.push_back(a.c_str());
  std::ostringstream out, err;
  int code = cli::RunSplitTool(static_cast<int>(argv.size()), argv.data(), out, err);
  *text = out.str() + err.str();
  return code;
}

TEST(SplitTool, FileRegionDryRunAndUsage) {
  Two t("split-tool");
  std::string text;
  EXPECT_EQ(RunTool({t.region_dir, "--at", RowName(45), "--dry-run", "--json"}, &text),
            cli::kExitOk) << text;
  EXPECT_NE(text.find("\"split_row\":\"r045\""), std::string::npos) << text;
  EXPECT_EQ(RunTool({t.root, "t", t.info.EncodedName(), "--dry-run", "--at", RowName(45)}, &text),
            cli::kExitOk) << text;
  EXPECT_NE(text.find("cf: A 60 cells"), std::string::npos) << text;
  EXPECT_EQ(RunTool({t.region_dir, "--dry-run"}, &text), cli::kExitUnreadable) << text;
  EXPECT_NE(text.find("no store has a split point"), std::string::npos) << text;
  EXPECT_EQ(RunTool({t.region_dir, "--hex", "--at", "zz"}, &text), cli::kExitUsage) << text;
  EXPECT_EQ(RunTool({t.region_dir, "--file", "x"}, &text), cli::kExitUsage) << text;
  EXPECT_EQ(RunTool({"--file", t.Family("cf") + "aaaa0001"}, &text), cli::kExitUsage) << text;
  const std::string out = test::NewTempDir("split-tool-out");
  EXPECT_EQ(RunTool({"--file", t.Family("cf") + "aaaa0001", "--at", "r010,r020", "--out-dir", out},
                    &text),
            cli::kExitOk) << text;
  EXPECT_NE(text.find("60 cells -> 3 file(s)"), std::string::npos) << text;
  EXPECT_EQ(RunTool({t.region_dir, "--at", RowName(45), "--now", std::to_string(kNow)}, &text),
            cli::kExitOk) << text;
  EXPECT_NE(text.find("committed: daughters"), std::string::npos) << text;
  EXPECT_EQ(Regions(t.table_dir).size(), 2u);
}

TEST(SplitTool, IntoMidkeyTableAndCompactFirst) {
  Multi t("split-tool-into");
  std::string text;
  EXPECT_EQ(RunTool({t.region_dir, "--into", "3", "--dry-run"}, &text), cli::kExitOk) << text;
  EXPECT_NE(text.find("split into 3 at "), std::string::npos) << text;
  EXPECT_NE(text.find("(size quantiles of cf's block index)"), std::string::npos) << text;
  EXPECT_NE(text.find("daughter C "), std::string::npos) << text;
  EXPECT_NE(text.find("cf: A "), std::string::npos) << text;
  EXPECT_EQ(RunTool({t.region_dir, "--into", "3", "--midkey"}, &text), cli::kExitUsage) << text;
  EXPECT_EQ(RunTool({t.region_dir, "--into", "1"}, &text), cli::kExitUsage) << text;
  EXPECT_EQ(RunTool({t.region_dir, "--into", "400", "--dry-run"}, &text), cli::kExitUnreadable)
      << text;
  EXPECT_NE(text.find("too few data blocks"), std::string::npos) << text;
  // --midkey is HBase's split point, as with no row.
  std::string midkey, plain;
  const std::string now = std::to_string(kNow);
  EXPECT_EQ(RunTool({t.region_dir, "--midkey", "--dry-run", "--json", "--now", now}, &midkey),
            cli::kExitOk);
  EXPECT_EQ(RunTool({t.region_dir, "--dry-run", "--json", "--now", now}, &plain), cli::kExitOk);
  EXPECT_NE(midkey.find("\"explicit_row\":false"), std::string::npos) << midkey;
  EXPECT_EQ(midkey.substr(0, midkey.find("\"region_id\"")),
            plain.substr(0, plain.find("\"region_id\"")));
  // A file cut at the table's boundaries: one region, one output, named for it.
  const std::string out = test::NewTempDir("split-tool-into-out");
  EXPECT_EQ(RunTool({"--file", t.Family("b") + "bbbb0001", "--table", t.table_dir, "--out-dir",
                     out, "--json"},
                    &text),
            cli::kExitOk)
      << text;
  EXPECT_NE(text.find("\"region\":\"" + t.info.EncodedName() + "\""), std::string::npos) << text;
  EXPECT_EQ(RunTool({t.region_dir, "--into", "4", "--now", std::to_string(kNow)}, &text),
            cli::kExitOk)
      << text;
  EXPECT_EQ(Regions(t.table_dir).size(), 4u);
  EXPECT_NE(text.find("; parent " + t.info.EncodedName() + " archived"), std::string::npos)
      << text;

  RefDaughter r("split-tool-refs");
  EXPECT_EQ(RunTool({r.dir, "--at", RowName(30)}, &text), cli::kExitUnreadable) << text;
  EXPECT_NE(text.find("--compact-first"), std::string::npos) << text;
  EXPECT_EQ(RunTool({r.dir, "--compact-first", "--at", RowName(30), "--now",
                     std::to_string(kNow)},
                    &text),
            cli::kExitOk)
      << text;
  EXPECT_NE(text.find("compacted cf: 1 file(s)"), std::string::npos) << text;
  EXPECT_NE(text.find("split at r030 (given)"), std::string::npos) << text;
  EXPECT_EQ(r.Daughters().size(), 2u);
}

}  // namespace
}  // namespace hfile::region
