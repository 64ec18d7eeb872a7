// Offline bulk load: TSV -> sorted HFiles, one per region per family, with each family's
// settings and HFileOutputFormat2's file info; bad lines; the all-or-nothing output dir; --into:
// names and sequence ids per region, refusals, one journal transaction, SIGKILL at every step.
#include "region/bulkload.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

#include "hfile/file_info.h"
#include "hfile/reader.h"
#include "hfile/verify.h"
#include "region/cell_sorter.h"
#include "region/commit.h"
#include "region/layout.h"
#include "region/schema_writer.h"
#include "region/store_file_reader.h"
#include "region/tool_threads.h"
#include "store_fixture.h"
#include "testutil.h"

namespace hfile::region {
namespace {

namespace fs = std::filesystem;
using namespace fileinfo;  // NOLINT: the file-info key names

constexpr int64_t kNow = 1700000000000;

RegionInfo Info(const std::string& start, const std::string& end, uint64_t id) {
  RegionInfo r;
  r.table = *TableName::Parse("t");
  r.start_key = start;
  r.end_key = end;
  r.region_id = id;
  return r;
}

struct Table {
  std::string root, dir;
  std::vector<RegionInfo> regions;  // by start key
};

// Table t: family f (GZ, FAST_DIFF, ROWCOL) and g (defaults); regions ['', m) [m, t) [t, ''),
// plus an offline split parent [m, z) that must be ignored.
Table MakeTable(const std::string& name) {
  Table t;
  t.root = test::NewTempDir(name);
  t.dir = t.root + "/data/default/t";
  TableDescriptor desc(*TableName::Parse("t"));
  FamilyDescriptor f = FamilyDescriptor::WithDefaults("f");
  f.SetValue(family_key::kCompression, "GZ");
  f.SetValue(family_key::kDataBlockEncoding, "FAST_DIFF");
  f.SetValue(family_key::kBloomFilter, "ROWCOL");
  desc.AddFamily(f);
  desc.AddFamily(FamilyDescriptor::WithDefaults("g"));
  EXPECT_TRUE(WriteTableDescriptor(t.dir, desc).ok());
  t.regions = {Info("", "m", 1000), Info("m", "t", 1000), Info("t", "", 1000)};
  RegionInfo parent = Info("m", "z", 500);
  parent.split = parent.offline = true;
  std::vector<RegionInfo> all = t.regions;
  all.push_back(parent);
  for (const auto& r : all) {
    std::string dir = t.dir + "/" + r.EncodedName();
    fs::create_directories(dir + "/f");
    std::string bytes;
    r.EncodeTo(&bytes);
    test::WriteFileOrDie(dir + "/.regioninfo", bytes);
  }
  return t;
}

std::string WriteInput(const std::string& dir, const std::string& name, const std::string& text) {
  std::string p = dir + "/" + name;
  test::WriteFileOrDie(p, text);
  return p;
}

BulkLoadOptions Options(const Table& t, const std::vector<std::string>& args,
                        const std::vector<std::string>& inputs) {
  auto im = ParseImportArgs(args);
  EXPECT_TRUE(im.ok()) << im.status().ToString();
  BulkLoadOptions o;
  if (im.ok()) o.import = *im;
  o.inputs = inputs;
  o.table_dir = t.dir;
  o.out_dir = t.root + "/out";
  o.temp_dir = t.root;
  o.now_ms = kNow;
  return o;
}

Status Load(const BulkLoadOptions& o, BulkLoadReport* rep) {
  auto plan = PlanBulkLoad(o);
  if (!plan.ok()) return plan.status();
  return RunBulkLoad(*plan, o, rep);
}

// "row/fam:qual/ts=value" of every cell of every file under out/<family>, by file name order.
std::map<std::string, std::vector<std::string>> CellsByFile(const std::string& out) {
  std::map<std::string, std::vector<std::string>> m;
  for (const auto& fam : fs::directory_iterator(out)) {
    for (const auto& file : fs::directory_iterator(fam.path())) {
      auto r = Reader::Open(file.path().string());
      EXPECT_TRUE(r.ok()) << r.status().ToString();
      if (!r.ok()) continue;
      auto& v = m[fam.path().filename().string() + "/" + file.path().filename().string()];
      auto it = (*r)->NewIterator();
      for (it->SeekToFirst(); it->Valid(); it->Next()) {
        const Cell& c = it->cell();
        v.push_back(c.row().ToString() + "/" + c.family().ToString() + ":" +
                    c.qualifier().ToString() + "/" + std::to_string(c.timestamp()) + "=" +
                    c.value.ToString() + (c.tags.empty() ? "" : "+tags"));
      }
    }
  }
  return m;
}

std::vector<std::string> AllCells(const std::string& out) {
  std::vector<std::string> all;
  for (const auto& [file, cells] : CellsByFile(out))
    all.insert(all.end(), cells.begin(), cells.end());
  return all;
}

TEST(BulkLoad, OneSortedFilePerRegionAndFamily) {
  Table t = MakeTable("bulkload_basic");
  std::string in = WriteInput(t.root, "a.tsv",
                              "zeta\t1\tz\n"
                              "apple\t2\ta\n"
                              "mango\t3\tm\n"
                              "apple\t4\t\n"       // duplicate of line 2: the last line wins
                              "tango\t5\tt\n"
                              "banana\t6\tb\n");
  std::string in2 = WriteInput(t.root, "b.tsv", "mango\t7\tm2\n");
  auto o = Options(t,
                   {"-Dimporttsv.columns=HBASE_ROW_KEY,f:a,g:b", "-Dimporttsv.timestamp=77"},
                   {in, in2});
  BulkLoadReport rep;
  Status s = Load(o, &rep);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(rep.parse.lines, 7u);
  EXPECT_EQ(rep.parse.records, 7u);
  EXPECT_EQ(rep.parse.bad_lines, 0u);
  EXPECT_EQ(rep.cells_sorted, 14u);
  EXPECT_EQ(rep.duplicates_dropped, 4u);  // apple f:a, g:b; mango f:a, g:b
  EXPECT_EQ(rep.cells_written, 10u);
  // f and g each in all three regions.
  ASSERT_EQ(rep.files.size(), 6u);
  std::map<std::string, int> per_region;
  for (const auto& f : rep.files) {
    ++per_region[f.region];
    EXPECT_TRUE(fs::exists(f.path)) << f.path;
    EXPECT_EQ(fs::path(f.path).parent_path().filename().string(), f.family);
    VerifyReport v = VerifyFile(f.path, VerifyOptions());
    EXPECT_TRUE(v.clean()) << f.path;
  }
  for (const auto& r : t.regions) EXPECT_EQ(per_region[r.EncodedName()], 2) << r.ToString();

  EXPECT_EQ(AllCells(o.out_dir).size(), 10u);
  for (const auto& f : rep.files) {
    auto r = Reader::Open(f.path);
    ASSERT_TRUE(r.ok());
    // Every cell within its region.
    const RegionInfo* region = nullptr;
    for (const auto& ri : t.regions)
      if (ri.EncodedName() == f.region) region = &ri;
    ASSERT_NE(region, nullptr);
    auto it = (*r)->NewIterator();
    std::vector<std::string> rows;
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      EXPECT_TRUE(region->ContainsRow(it->cell().row()));
      EXPECT_EQ(it->cell().timestamp(), 77);
      EXPECT_EQ(it->cell().sequence_id, 0u);
      rows.push_back(it->cell().row().ToString() + "=" + it->cell().value.ToString());
    }
    if (f.family == "f" && region->start_key.empty()) {
      EXPECT_EQ(rows, (std::vector<std::string>{"apple=4", "banana=6"}));
    }
    if (f.family == "g" && region->start_key == "m") {
      EXPECT_EQ(rows, (std::vector<std::string>{"mango=m2"}));  // b.tsv came last
    }
    if (f.family == "g" && region->start_key.empty()) {
      EXPECT_EQ(rows, (std::vector<std::string>{"apple=", "banana=b"}));  // empty field: a cell
    }

    // The family's settings and HFileOutputFormat2's file info.
    const FileInfo& fi = (*r)->file_info();
    EXPECT_EQ(fi.GetInt64(kBulkloadTimestamp), kNow);
    ASSERT_TRUE(fi.Get(kBulkloadSourceTask));
    EXPECT_EQ(fi.Get(kBulkloadSourceTask)->ToString(), "hfile-bulkload");
    EXPECT_EQ(fi.GetBool(kMajorCompaction), true);
    EXPECT_EQ(fi.GetBool(kExcludeFromMinorCompaction), false);
    EXPECT_TRUE(fi.Get(kTimeRange));
    EXPECT_EQ(fi.GetInt64(kEarliestPutTs), 77);
    EXPECT_FALSE(fi.Get(kMaxSeqId));
    EXPECT_FALSE((*r)->tags_compressed());
    if (f.family == "f") {
      EXPECT_EQ((*r)->trailer().compression(), hfile::Compression::kGz);
      EXPECT_EQ((*r)->data_block_encoding(), DataBlockEncoding::kFastDiff);
      EXPECT_EQ((*r)->bloom_type(), BloomType::kRowCol);
    } else {
      EXPECT_EQ((*r)->trailer().compression(), hfile::Compression::kNone);
      EXPECT_EQ((*r)->bloom_type(), BloomType::kRow);
    }
  }
  // Nothing left beside the output: no staging dir, no sort dir.
  for (const auto& e : fs::directory_iterator(t.root))
    EXPECT_EQ(e.path().filename().string().find("hfile-"), std::string::npos) << e.path();
}

TEST(BulkLoad, SmallBudgetSpillsAndWritesTheSame) {
  Table t = MakeTable("bulkload_spill");
  std::string text;
  for (int i = 0; i < 20000; ++i) {
    int row = (i * 7919) % 5000;  // every row four times, out of order
    text += "r" + std::to_string(row) + "\t" + std::to_string(i % 5) + "\tv" + std::to_string(i) +
            "\n";
  }
  std::string in = WriteInput(t.root, "big.tsv", text);
  auto o = Options(t, {"--columns", "HBASE_ROW_KEY,HBASE_TS_KEY,f:q"}, {in});
  o.memory_bytes = kMinSorterMemory;
  BulkLoadReport small;
  ASSERT_TRUE(Load(o, &small).ok());
  EXPECT_GT(small.sort_runs, 1u);
  auto small_cells = CellsByFile(o.out_dir);

  Table t2 = MakeTable("bulkload_spill2");
  auto o2 = Options(t2, {"--columns", "HBASE_ROW_KEY,HBASE_TS_KEY,f:q"}, {in});
  BulkLoadReport big;
  ASSERT_TRUE(Load(o2, &big).ok());
  EXPECT_EQ(big.sort_runs, 0u);
  std::vector<std::string> a = AllCells(o.out_dir), b = AllCells(o2.out_dir);
  EXPECT_EQ(a, b);
  EXPECT_EQ(small.cells_written, big.cells_written);
  // (row, ts) pairs repeat: each of 5000 rows appears with 4 lines whose ts are i%5.
  EXPECT_EQ(small.cells_written + small.duplicates_dropped, 20000u);
}

// Duplicate keys (one timestamp for the job) spread over many spilled runs: each cell's value
// is the one of its last line, whatever run the earlier lines landed in.
TEST(BulkLoad, LastLineWinsAcrossSpills) {
  Table t = MakeTable("bulkload_lastwins");
  std::string text;
  const int rows = 3000, rounds = 4;
  std::string filler(200, 'p');
  for (int round = 0; round < rounds; ++round)
    for (int i = 0; i < rows; ++i) {
      int row = (i * 1237 + round * 11) % rows;  // another order each round
      text += "r" + std::to_string(row) + "\t" + filler + "\tv" + std::to_string(round) + "-" +
              std::to_string(row) + "\n";
    }
  std::string in = WriteInput(t.root, "dups.tsv", text);
  auto o = Options(t, {"--columns", "HBASE_ROW_KEY,f:pad,f:q", "-Dimporttsv.timestamp=42"}, {in});
  o.memory_bytes = kMinSorterMemory;
  BulkLoadReport rep;
  ASSERT_TRUE(Load(o, &rep).ok());
  EXPECT_GE(rep.sort_runs, size_t{rounds});
  EXPECT_EQ(rep.cells_written, 2u * rows);
  EXPECT_EQ(rep.duplicates_dropped, 2u * rows * (rounds - 1));
  size_t checked = 0;
  for (const auto& c : AllCells(o.out_dir)) {
    if (c.find(":q/") == std::string::npos) continue;
    const std::string row = c.substr(1, c.find('/') - 1);
    EXPECT_EQ(c.substr(c.find('=') + 1), "v" + std::to_string(rounds - 1) + "-" + row) << c;
    ++checked;
  }
  EXPECT_EQ(checked, size_t{rows});
}

TEST(BulkLoad, BadLinesFailUnlessSkipped) {
  Table t = MakeTable("bulkload_bad");
  std::string in = WriteInput(t.root, "bad.tsv",
                              "a\tx\n"
                              "no-separator\n"
                              "b\ty\n"
                              "\tempty-row\n");
  auto o = Options(t, {"-Dimporttsv.columns=HBASE_ROW_KEY,f:q"}, {in});
  std::vector<std::string> seen;
  o.on_bad_line = [&](const BadLine& b) { seen.push_back(b.ToString()); };
  BulkLoadReport rep;
  Status s = Load(o, &rep);
  ASSERT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_EQ(rep.parse.bad_lines, 2u);
  EXPECT_EQ(rep.parse.records, 2u);
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_NE(seen[0].find("bad.tsv:2:"), std::string::npos) << seen[0];
  EXPECT_NE(seen[0].find("No delimiter"), std::string::npos) << seen[0];
  EXPECT_NE(seen[1].find("bad.tsv:4:"), std::string::npos) << seen[1];
  EXPECT_FALSE(fs::exists(o.out_dir));

  auto o2 = Options(t, {"-Dimporttsv.columns=HBASE_ROW_KEY,f:q", "-Dimporttsv.skip.bad.lines=true"},
                    {in});
  BulkLoadReport rep2;
  s = Load(o2, &rep2);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(rep2.parse.bad_lines, 2u);
  EXPECT_EQ(rep2.parse.bad_by_reason.at(BadLineReason::kNoDelimiter), 1u);
  EXPECT_EQ(rep2.parse.bad_by_reason.at(BadLineReason::kEmptyRowKey), 1u);
  EXPECT_EQ(AllCells(o2.out_dir),
            (std::vector<std::string>{"a/f:q/" + std::to_string(kNow) + "=x",
                                      "b/f:q/" + std::to_string(kNow) + "=y"}));
}

TEST(BulkLoad, TtlBecomesATag) {
  Table t = MakeTable("bulkload_ttl");
  std::string in = WriteInput(t.root, "ttl.tsv", "a\t86400000\tx\nb\t0\ty\n");
  auto o = Options(t, {"-Dimporttsv.columns=HBASE_ROW_KEY,HBASE_CELL_TTL,f:q"}, {in});
  BulkLoadReport rep;
  ASSERT_TRUE(Load(o, &rep).ok());
  auto f = Reader::Open(rep.files.at(0).path);
  ASSERT_TRUE(f.ok());
  auto it = (*f)->NewIterator();
  it->SeekToFirst();
  ASSERT_TRUE(it->Valid());
  // TTL tag: length 9, type 8, 86400000 as a big-endian long.
  EXPECT_EQ(test::SpacedHex(it->cell().tags.ToString()), "00 09 08 00 00 00 00 05 26 5C 00");
  it->Next();
  ASSERT_TRUE(it->Valid());
  EXPECT_TRUE(it->cell().tags.empty());  // a TTL of 0 is not applied, as ImportTsv
}

TEST(BulkLoad, PlanRefusals) {
  Table t = MakeTable("bulkload_refuse");
  std::string in = WriteInput(t.root, "x.tsv", "a\tb\n");
  auto o = Options(t, {"-Dimporttsv.columns=HBASE_ROW_KEY,nope:q"}, {in});
  auto p = PlanBulkLoad(o);
  ASSERT_TRUE(p.status().IsInvalidArgument());
  EXPECT_NE(p.status().message().find("Column Families [nope]"), std::string::npos);

  o = Options(t, {"-Dimporttsv.columns=HBASE_ROW_KEY,HBASE_CELL_VISIBILITY,f:q"}, {in});
  EXPECT_TRUE(PlanBulkLoad(o).status().IsInvalidArgument());

  o = Options(t, {"-Dimporttsv.columns=HBASE_ROW_KEY,f:q"}, {in + ".missing"});
  EXPECT_TRUE(PlanBulkLoad(o).status().IsNotFound());

  o = Options(t, {"-Dimporttsv.columns=HBASE_ROW_KEY,f:q"}, {in});
  fs::create_directories(o.out_dir + "/f");
  EXPECT_TRUE(PlanBulkLoad(o).status().IsInvalidArgument());
  fs::remove_all(o.out_dir);
  fs::create_directories(o.out_dir);  // empty: fine, replaced by the output
  BulkLoadReport rep;
  ASSERT_TRUE(Load(o, &rep).ok());
  EXPECT_EQ(AllCells(o.out_dir).size(), 1u);
  // Only the spec's family with cells has a directory (g is in the table, not in the spec).
  EXPECT_TRUE(fs::is_directory(o.out_dir + "/f"));
  EXPECT_FALSE(fs::exists(o.out_dir + "/g"));

  // No input line at all: an empty output dir, no family dirs.
  std::string none = WriteInput(t.root, "none.tsv", "");
  o = Options(t, {"-Dimporttsv.columns=HBASE_ROW_KEY,f:q,g:q"}, {none});
  o.out_dir = t.root + "/out-empty";
  BulkLoadReport rep0;
  ASSERT_TRUE(Load(o, &rep0).ok());
  EXPECT_TRUE(rep0.files.empty());
  EXPECT_TRUE(fs::is_directory(o.out_dir));
  EXPECT_TRUE(fs::is_empty(o.out_dir));

  // A hole in the regions.
  Table h = MakeTable("bulkload_hole");
  fs::remove_all(h.dir + "/" + h.regions[1].EncodedName());
  o = Options(h, {"-Dimporttsv.columns=HBASE_ROW_KEY,f:q"}, {in});
  auto hp = PlanBulkLoad(o);
  ASSERT_TRUE(hp.status().IsCorruption());
  EXPECT_NE(hp.status().message().find("hole"), std::string::npos) << hp.status().ToString();
}

// --max-file-size: a region's family gets several files, each of whole rows, together every
// cell once and in order.
TEST(BulkLoad, RollsFilesAtMaxFileSize) {
  Table t = MakeTable("bulkload_roll");
  std::string text;
  for (int i = 0; i < 3000; ++i) {
    char row[16];
    std::snprintf(row, sizeof(row), "a%05d", i);  // all in the first region ['', m)
    text += std::string(row) + "\t" + std::string(100, 'v') + "\t" + std::string(50, 'w') + "\n";
  }
  std::string in = WriteInput(t.root, "roll.tsv", text);
  auto o = Options(t, {"-Dimporttsv.columns=HBASE_ROW_KEY,f:a,f:b"}, {in});
  o.max_file_size = 64 << 10;
  BulkLoadReport rep;
  ASSERT_TRUE(Load(o, &rep).ok());
  ASSERT_GT(rep.files.size(), 4u);
  uint64_t cells = 0;
  std::string last_row;
  std::vector<std::string> firsts;
  for (const auto& f : rep.files) {
    EXPECT_EQ(f.region, t.regions[0].EncodedName());
    cells += f.cells;
    auto r = Reader::Open(f.path);
    ASSERT_TRUE(r.ok());
    auto it = (*r)->NewIterator();
    it->SeekToFirst();
    ASSERT_TRUE(it->Valid());
    firsts.push_back(it->cell().row().ToString());
    uint64_t bytes = 0;
    for (; it->Valid(); it->Next()) bytes += KeyValueSize(it->cell());
    // Rolled at the first row change at or past the limit: at most one row (two cells) over.
    EXPECT_LT(bytes, (64u << 10) + 2 * 200) << f.path;
  }
  EXPECT_EQ(cells, 6000u);
  // Files in row order, no row in two files (each file starts a new row).
  std::vector<std::string> sorted = firsts;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(std::set<std::string>(firsts.begin(), firsts.end()).size(), firsts.size());
  for (size_t i = 0; i < rep.files.size(); ++i) {
    auto r = Reader::Open(rep.files[i].path);
    auto it = (*r)->NewIterator();
    std::string last;
    for (it->SeekToFirst(); it->Valid(); it->Next()) last = it->cell().row().ToString();
    auto next = std::upper_bound(sorted.begin(), sorted.end(), firsts[i]);
    if (next != sorted.end()) {
      EXPECT_LT(last, *next);
    }
  }
}

// A write that fails (the file-size limit: what a full disk looks like to write(2)) is an
// IOError, and nothing is left: no --out, no staging dir, no sort dir.
TEST(BulkLoad, WriteFailureLeavesNothing) {
  Table t = MakeTable("bulkload_full");
  std::string text;
  for (int i = 0; i < 2000; ++i)
    text += "r" + std::to_string(i) + "\t" + std::string(200, 'x') + "\n";
  std::string in = WriteInput(t.root, "full.tsv", text);
  auto o = Options(t, {"-Dimporttsv.columns=HBASE_ROW_KEY,g:q"}, {in});
  auto plan = PlanBulkLoad(o);
  ASSERT_TRUE(plan.ok());
  struct rlimit old;
  ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &old), 0);
  auto old_handler = signal(SIGXFSZ, SIG_IGN);
  struct rlimit lim = old;
  lim.rlim_cur = 16 << 10;
  ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &lim), 0);
  BulkLoadReport rep;
  Status s = RunBulkLoad(*plan, o, &rep);
  setrlimit(RLIMIT_FSIZE, &old);
  signal(SIGXFSZ, old_handler);
  ASSERT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_NE(s.message().find("File too large"), std::string::npos) << s.ToString();
  EXPECT_FALSE(fs::exists(o.out_dir));
  for (const auto& e : fs::directory_iterator(t.root)) {
    const std::string n = e.path().filename().string();
    EXPECT_TRUE(n == "data" || n == "full.tsv") << n;
  }
}

// --splits: the output is cut at the given rows, not at the table's regions.
TEST(BulkLoad, SplitRowsReplaceTheRegions) {
  Table t = MakeTable("bulkload_splits");
  std::string in = WriteInput(t.root, "s.tsv", "a\t1\nd\t2\nm\t3\nx\t4\nzz\t5\n");
  std::string sf = WriteInput(t.root, "splits.txt", "c\r\n\nx\\x00\n");  // "c", "x\0"
  auto rows = ReadSplitsFile(sf);
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  EXPECT_EQ(*rows, (std::vector<std::string>{"c", std::string("x\0", 2)}));
  auto o = Options(t, {"-Dimporttsv.columns=HBASE_ROW_KEY,f:q"}, {in});
  o.split_rows = *rows;
  auto plan = PlanBulkLoad(o);
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  ASSERT_EQ(plan->regions.size(), 3u);
  EXPECT_EQ(plan->regions[1].encoded_name, "range-1");
  BulkLoadReport rep;
  ASSERT_TRUE(RunBulkLoad(*plan, o, &rep).ok());
  std::vector<std::string> got;
  for (const auto& f : rep.files) {
    auto r = Reader::Open(f.path);
    ASSERT_TRUE(r.ok());
    std::string rows_in;
    auto it = (*r)->NewIterator();
    for (it->SeekToFirst(); it->Valid(); it->Next()) rows_in += it->cell().row().ToString() + " ";
    got.push_back(f.region + ": " + rows_in);
  }
  EXPECT_EQ(got, (std::vector<std::string>{"range-0: a ", "range-1: d m x ", "range-2: zz "}));

  std::string bad = WriteInput(t.root, "bad.txt", "m\nc\n");
  auto r2 = ReadSplitsFile(bad);
  ASSERT_TRUE(r2.status().IsInvalidArgument());
  EXPECT_NE(r2.status().message().find("bad.txt:2:"), std::string::npos);
  std::string esc = WriteInput(t.root, "esc.txt", "a\\xZZ\n");
  EXPECT_TRUE(ReadSplitsFile(esc).status().IsInvalidArgument());
  EXPECT_TRUE(ReadSplitsFile(t.root + "/none.txt").status().IsNotFound());
}

// --create-splits N: N ranges of about equal bytes computed from the data, cut between rows,
// the same rows for every family; the split rows are reported.
TEST(BulkLoad, CreateSplitsFromTheData) {
  Table t = MakeTable("bulkload_create_splits");
  std::string text;
  for (int i = 0; i < 4000; ++i) {
    char row[16];
    std::snprintf(row, sizeof(row), "k%05d", (i * 7919) % 4000);
    text += std::string(row) + "\tvalue" + std::to_string(i) + "\tg" + std::to_string(i) + "\n";
  }
  std::string in = WriteInput(t.root, "cs.tsv", text);
  auto o = Options(t, {"-Dimporttsv.columns=HBASE_ROW_KEY,f:a,g:b"}, {in});
  o.create_splits = 4;
  o.split_rows = std::vector<std::string>{"x"};
  EXPECT_TRUE(PlanBulkLoad(o).status().IsInvalidArgument());  // not both
  o.split_rows.reset();
  BulkLoadReport rep;
  Status s = Load(o, &rep);
  ASSERT_TRUE(s.ok()) << s.ToString();
  ASSERT_EQ(rep.split_rows.size(), 3u);
  ASSERT_EQ(rep.files.size(), 8u);  // 4 ranges x 2 families
  std::map<std::string, std::pair<std::string, std::string>> range_rows;  // range -> first, last
  std::map<std::string, uint64_t> cells;
  for (const auto& f : rep.files) {
    auto r = Reader::Open(f.path);
    ASSERT_TRUE(r.ok());
    auto it = (*r)->NewIterator();
    it->SeekToFirst();
    ASSERT_TRUE(it->Valid());
    std::string first = it->cell().row().ToString(), last;
    for (; it->Valid(); it->Next()) last = it->cell().row().ToString();
    auto [pos, fresh] = range_rows.emplace(f.region, std::make_pair(first, last));
    if (!fresh) {
      EXPECT_EQ(pos->second, std::make_pair(first, last)) << f.region;  // both families alike
    }
    cells[f.region] += f.cells;
  }
  ASSERT_EQ(range_rows.size(), 4u);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(range_rows["range-" + std::to_string(i + 1)].first, rep.split_rows[i]);
    EXPECT_LT(range_rows["range-" + std::to_string(i)].second, rep.split_rows[i]);
  }
  for (const auto& [range, n] : cells) {
    EXPECT_GT(n, 1600u) << range;  // 8000 cells in 4 about equal parts
    EXPECT_LT(n, 2400u) << range;
  }
}

// SIGKILL after every file is written and verified but before the rename: no output dir; the
// rerun removes the dead run's staging dir and produces the output.
TEST(BulkLoad, KillLeavesNoPartialOutput) {
  Table t = MakeTable("bulkload_kill");
  std::string in = WriteInput(t.root, "k.tsv", "a\t1\nn\t2\nz\t3\n");
  for (const char* at : {"parsed", "sorted", "written"}) {
    auto o = Options(t, {"-Dimporttsv.columns=HBASE_ROW_KEY,f:q"}, {in});
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      std::string target = at;
      o.checkpoint = [target](const std::string& c) {
        if (c == target) ::kill(::getpid(), SIGKILL);
      };
      BulkLoadReport rep;
      (void)Load(o, &rep);
      _exit(0);
    }
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFSIGNALED(status)) << at;
    EXPECT_FALSE(fs::exists(o.out_dir)) << at;
    BulkLoadReport rep;
    auto plan = PlanBulkLoad(o);
    ASSERT_TRUE(plan.ok());
    Status s = RunBulkLoad(*plan, o, &rep);
    ASSERT_TRUE(s.ok()) << s.ToString();
    if (std::string(at) == "written") {
      EXPECT_EQ(rep.removed_stale.size(), 1u);
    }
    EXPECT_EQ(AllCells(o.out_dir).size(), 3u);
    for (const auto& e : fs::directory_iterator(t.root))
      EXPECT_EQ(e.path().filename().string().find("hfile-"), std::string::npos) << e.path();
    fs::remove_all(o.out_dir);
  }
}

// --into fixture: MakeTable's regions with history. ['', m): a flush of f (rows a, b at ts 100,
// MAX_SEQ_ID 17); [m, t): a flush (MAX_SEQ_ID 40) and recovered.edits/55.seqid; [t, ''): only
// recovered.edits/7.seqid. So the loaded files get _SeqId_18_, _SeqId_56_ and _SeqId_8_.
Table MakeIntoTable(const std::string& name) {
  Table t = MakeTable(name);
  const auto dir = [&](int i) { return t.dir + "/" + t.regions[i].EncodedName(); };
  store_fixture::WriteStoreFile(dir(0) + "/f/aaaa0001",
                                {store_fixture::Put("a", "f", "q", 11),
                                 store_fixture::Put("b", "f", "q", 17)},
                                17);
  store_fixture::WriteStoreFile(dir(1) + "/f/bbbb0001", {store_fixture::Put("n", "f", "q", 40)},
                                40);
  fs::create_directories(dir(1) + "/recovered.edits");
  test::WriteFileOrDie(dir(1) + "/recovered.edits/55.seqid", "");
  fs::create_directories(dir(2) + "/recovered.edits");
  test::WriteFileOrDie(dir(2) + "/recovered.edits/7.seqid", "");
  return t;
}

BulkLoadOptions IntoOptions(const Table& t, const std::string& input) {
  auto o = Options(t, {"-Dimporttsv.columns=HBASE_ROW_KEY,f:q,g:q", "-Dimporttsv.timestamp=100"},
                   {input});
  o.out_dir.clear();
  o.into = true;
  return o;
}

// "row/family:q@ts=value#seq" of every cell HBase reads in the table's serving regions (the
// split parent left out), and the bulk-loaded files' names.
struct TableView {
  std::multiset<std::string> cells;
  std::vector<std::string> loaded;  // "<region>/<family>/<name>" of files with _SeqId_
};
TableView View(const Table& t) {
  TableView v;
  for (const auto& ri : t.regions) {
    auto dir = ScanRegionDir(t.root, t.dir + "/" + ri.EncodedName());
    EXPECT_TRUE(dir.ok()) << dir.status().ToString();
    if (!dir.ok()) continue;
    for (const auto& f : dir->families)
      for (const auto& sf : f.store_files) {
        if (sf.name.bulk_load_seq_id)
          v.loaded.push_back(ri.EncodedName() + "/" + f.name + "/" + sf.name.name);
        auto r = StoreFileReader::Open(sf);
        EXPECT_TRUE(r.ok()) << r.status().ToString();
        if (!r.ok()) continue;
        auto it = (*r)->NewIterator();
        for (it->SeekToFirst(); it->Valid(); it->Next()) {
          const Cell& c = it->cell();
          EXPECT_TRUE(ri.ContainsRow(c.row())) << c.row().ToString();
          v.cells.insert(c.row().ToString() + "/" + c.family().ToString() + ":" +
                         c.qualifier().ToString() + "@" + std::to_string(c.timestamp()) + "=" +
                         c.value.ToString() + "#" + std::to_string(c.sequence_id));
        }
      }
  }
  std::sort(v.loaded.begin(), v.loaded.end());
  return v;
}

// The loads of `o` with one thread (one writer thread and the tool's one thread, as under
// `hfile task --threads 1`: the sorter spills on the calling thread too) and with two give the
// same files: the report's (region, family, cells, size) in the same order and byte-identical
// contents (only the random names differ).
void ExpectSameWithOneAndTwoThreads(BulkLoadOptions o, size_t min_files) {
  const std::string out = o.out_dir;
  std::vector<BulkLoadReport> reps(2);
  std::vector<std::string> outs;
  for (int threads : {1, 2}) {
    o.writer_threads = threads;
    o.out_dir = out + "-" + std::to_string(threads);
    SetToolThreads(threads);
    Status s = Load(o, &reps[threads - 1]);
    SetToolThreads(2);
    ASSERT_TRUE(s.ok()) << threads << ": " << s.ToString();
    outs.push_back(o.out_dir);
  }
  const auto& a = reps[0].files;
  const auto& b = reps[1].files;
  ASSERT_EQ(a.size(), b.size());
  EXPECT_GE(a.size(), min_files);
  EXPECT_EQ(reps[0].split_rows, reps[1].split_rows);
  EXPECT_EQ(reps[0].cells_written, reps[1].cells_written);
  std::set<std::string> regions;
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].region, b[i].region) << i;
    EXPECT_EQ(a[i].family, b[i].family) << i;
    EXPECT_EQ(a[i].cells, b[i].cells) << i;
    EXPECT_EQ(a[i].file_size, b[i].file_size) << i;
    EXPECT_NE(fs::path(a[i].path).filename(), fs::path(b[i].path).filename()) << i;
    std::ifstream fa(a[i].path, std::ios::binary), fb(b[i].path, std::ios::binary);
    const std::string ca((std::istreambuf_iterator<char>(fa)), std::istreambuf_iterator<char>());
    const std::string cb((std::istreambuf_iterator<char>(fb)), std::istreambuf_iterator<char>());
    EXPECT_EQ(ca.size(), a[i].file_size) << a[i].path;
    EXPECT_TRUE(ca == cb) << a[i].path << " differs from " << b[i].path;
    regions.insert(a[i].region);
  }
  EXPECT_GE(regions.size(), 2u);
  auto sorted_cells = [](const std::string& dir) {  // AllCells goes by the random names
    auto v = AllCells(dir);
    std::sort(v.begin(), v.end());
    return v;
  };
  EXPECT_EQ(sorted_cells(outs[0]), sorted_cells(outs[1]));
  for (const auto& d : outs) fs::remove_all(d);
}

std::string ManyRows(int n) {
  std::string text;
  for (int i = 0; i < n; ++i)  // rows in all three regions, both families, 100-byte values
    text += fmt::format("{}{:05d}\t{}\t{}\n", "agmtx"[i % 5], i, std::string(100, 'a' + i % 26),
                        i % 3 == 0 ? "" : std::to_string(i));
  return text;
}

// Several regions (and rolled files) written on two threads: the same files as on one.
TEST(BulkLoad, TwoWriterThreadsWriteTheSameFiles) {
  Table t = MakeTable("bulkload_threads");
  std::string in = WriteInput(t.root, "m.tsv", ManyRows(20000));
  auto o = Options(t, {"-Dimporttsv.columns=HBASE_ROW_KEY,f:a,g:b"}, {in});
  o.max_file_size = 256 << 10;  // rolled: several files per region and family
  o.memory_bytes = 0;           // the sorter's minimum: spilled runs merged
  ExpectSameWithOneAndTwoThreads(o, 8);
  // Ranges cut from the data: by range, then family, the same on either path.
  o.max_file_size = 0;
  o.create_splits = 4;
  ExpectSameWithOneAndTwoThreads(o, 8);
  // --into: the same files under the same _SeqId_ names' sequence ids, in the journal's order.
  std::vector<std::vector<std::pair<std::string, uint64_t>>> loaded;
  for (int threads : {1, 2}) {
    Table it = MakeIntoTable("bulkload_threads_into");
    auto io = IntoOptions(it, WriteInput(it.root, "m.tsv", ManyRows(20000)));
    io.writer_threads = threads;
    BulkLoadReport rep;
    Status s = Load(io, &rep);
    ASSERT_TRUE(s.ok()) << s.ToString();
    loaded.emplace_back();
    for (const auto& f : rep.files)
      loaded.back().emplace_back(f.region + "/" + f.family + "#" + std::to_string(f.sequence_id),
                                 f.file_size);
  }
  EXPECT_EQ(loaded[0].size(), 6u);
  EXPECT_EQ(loaded[0], loaded[1]);
}

// An error in one writer thread (region [m, t) outgrows RLIMIT_FSIZE; region ['', m) is
// small and fine) fails the load: nothing in the out dir, no staging or sort dir left.
TEST(BulkLoad, WriterThreadFailureLeavesNothing) {
  Table t = MakeTable("bulkload_thread_fail");
  std::string text = "a1\tsmall\nb1\tsmall\n";
  for (int i = 0; i < 2000; ++i)
    text += "n" + std::to_string(i) + "\t" + std::string(200, 'x') + "\n";
  std::string in = WriteInput(t.root, "full.tsv", text);
  for (bool into : {false, true}) {
    Table it = into ? MakeIntoTable("bulkload_thread_fail_into") : t;
    auto o = into ? IntoOptions(it, WriteInput(it.root, "full.tsv", text))
                  : Options(t, {"-Dimporttsv.columns=HBASE_ROW_KEY,g:q"}, {in});
    if (into) o.import = *ParseImportArgs({"-Dimporttsv.columns=HBASE_ROW_KEY,g:q"});
    o.writer_threads = 2;
    const TableView before = View(it);
    auto plan = PlanBulkLoad(o);
    ASSERT_TRUE(plan.ok()) << plan.status().ToString();
    struct rlimit old;
    ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &old), 0);
    auto old_handler = signal(SIGXFSZ, SIG_IGN);
    struct rlimit lim = old;
    lim.rlim_cur = 16 << 10;
    ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &lim), 0);
    BulkLoadReport rep;
    Status s = RunBulkLoad(*plan, o, &rep);
    setrlimit(RLIMIT_FSIZE, &old);
    signal(SIGXFSZ, old_handler);
    ASSERT_TRUE(s.IsIOError()) << s.ToString();
    EXPECT_NE(s.message().find("File too large"), std::string::npos) << s.ToString();
    if (!into) {
      EXPECT_FALSE(fs::exists(o.out_dir));
      for (const auto& e : fs::directory_iterator(t.root)) {
        const std::string n = e.path().filename().string();
        EXPECT_TRUE(n == "data" || n == "full.tsv") << n;
      }
    } else {
      const TableView after = View(it);
      EXPECT_EQ(after.cells, before.cells);
      EXPECT_TRUE(after.loaded.empty());
      auto j = ReadJournal(CommitScope{it.dir, ""});
      ASSERT_TRUE(j.ok());
      EXPECT_FALSE(j->has_value());
      for (const auto& e : fs::directory_iterator(it.dir))
        EXPECT_EQ(e.path().filename().string().find("bulkload"), std::string::npos) << e.path();
    }
  }
}

TEST(BulkLoadInto, NamesAndSequenceIdsPerRegion) {
  Table t = MakeIntoTable("bulkload_into");
  const std::string parent_dir = t.dir + "/" + Info("m", "z", 500).EncodedName();
  const auto parent_before = test::ListFilesRecursive(parent_dir);
  std::string in = WriteInput(t.root, "i.tsv",
                              "a\tA\tgA\n"  // the key of the flushed a/f:q@100: shadows it
                              "n\tN\tgN\n"
                              "u\tU\tgU\n");
  auto o = IntoOptions(t, in);
  auto plan = PlanBulkLoad(o);
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  ASSERT_EQ(plan->regions.size(), 3u);
  EXPECT_EQ(plan->regions[0].sequence_id, 18);
  EXPECT_EQ(plan->regions[1].sequence_id, 56);
  EXPECT_EQ(plan->regions[2].sequence_id, 8);
  ASSERT_EQ(plan->skipped.size(), 1u);  // the offline split parent
  EXPECT_TRUE(plan->refused.empty());
  BulkLoadReport rep;
  Status s = RunBulkLoad(*plan, o, &rep);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_FALSE(rep.completed_by_recovery);
  ASSERT_EQ(rep.files.size(), 6u);  // f and g in each region
  for (const auto& f : rep.files) {
    const std::string name = fs::path(f.path).filename().string();
    const int64_t want = f.region == t.regions[0].EncodedName()   ? 18
                         : f.region == t.regions[1].EncodedName() ? 56
                                                                  : 8;
    EXPECT_EQ(f.sequence_id, want) << f.path;
    // <32 lowercase hex>_SeqId_<n>_, in <table>/<region>/<family>/.
    ASSERT_EQ(name.size(), 32 + fmt::format("_SeqId_{}_", want).size()) << name;
    EXPECT_EQ(name.substr(0, 32).find_first_not_of("0123456789abcdef"), std::string::npos);
    EXPECT_EQ(name.substr(32), fmt::format("_SeqId_{}_", want));
    EXPECT_EQ(fs::path(f.path).parent_path(), fs::path(t.dir + "/" + f.region + "/" + f.family));
    auto r = Reader::Open(f.path);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ((*r)->file_info().GetInt64(kBulkloadTimestamp), kNow);
    EXPECT_FALSE((*r)->file_info().Get(kMaxSeqId));  // as completebulkload leaves it
  }
  TableView v = View(t);
  EXPECT_EQ(v.loaded.size(), 6u);
  // As HBase reads the stores: the loaded cells carry the region's new sequence id, above the
  // flushed a/f:q@100 (#11) that they shadow.
  EXPECT_EQ(v.cells, (std::multiset<std::string>{
                         "a/f:q@100=v-a#11", "a/f:q@100=A#18", "a/g:q@100=gA#18",
                         "b/f:q@100=v-b#17", "n/f:q@100=v-n#40", "n/f:q@100=N#56",
                         "n/g:q@100=gN#56", "u/f:q@100=U#8", "u/g:q@100=gU#8"}));
  // One transaction, done: no journal, no staging dir, the split parent untouched.
  EXPECT_FALSE(fs::exists(t.dir + "/.hfile-journal"));
  for (const auto& e : fs::directory_iterator(t.dir))
    EXPECT_EQ(e.path().filename().string().find("hfile-"), std::string::npos) << e.path();
  EXPECT_EQ(test::ListFilesRecursive(parent_dir), parent_before);

  // A second load takes the names of the first into account: one more again.
  std::string in2 = WriteInput(t.root, "j.tsv", "a\tA2\tgA2\n");
  auto o2 = IntoOptions(t, in2);
  BulkLoadReport rep2;
  ASSERT_TRUE(Load(o2, &rep2).ok());
  ASSERT_EQ(rep2.files.size(), 2u);
  for (const auto& f : rep2.files) EXPECT_EQ(f.sequence_id, 19) << f.path;
}

// The region's highest sequence id is over all its stores, not only the loaded families', and
// also over a store the compaction checks leave alone (g made a MOB family here).
TEST(BulkLoadInto, SequenceIdAboveEveryStoreOfTheRegion) {
  Table t = MakeIntoTable("bulkload_into_other_family");
  auto d = ReadTableDescriptor(t.dir);
  ASSERT_TRUE(d.ok());
  TableDescriptor desc(d->descriptor.name());
  for (const auto& f : d->descriptor.families()) {
    FamilyDescriptor c = f;
    if (c.name() == "g") c.SetValue(family_key::kIsMob, "true");
    desc.AddFamily(c);
  }
  fs::remove_all(t.dir + "/.tabledesc");
  ASSERT_TRUE(WriteTableDescriptor(t.dir, desc).ok());
  const std::string last = t.dir + "/" + t.regions[2].EncodedName();
  fs::create_directories(last + "/g");
  store_fixture::WriteStoreFile(last + "/g/cccc0001", {store_fixture::Put("v", "g", "q", 300)},
                                300);
  auto o = Options(t, {"-Dimporttsv.columns=HBASE_ROW_KEY,f:q", "-Dimporttsv.timestamp=100"},
                   {WriteInput(t.root, "o.tsv", "a\tA\nu\tU\n")});
  o.out_dir.clear();
  o.into = true;
  BulkLoadReport rep;
  ASSERT_TRUE(Load(o, &rep).ok());
  ASSERT_EQ(rep.files.size(), 2u);
  for (const auto& f : rep.files) {
    EXPECT_EQ(f.family, "f");
    EXPECT_EQ(f.sequence_id, f.region == t.regions[2].EncodedName() ? 301 : 18) << f.path;
  }
}

TEST(BulkLoadInto, Refusals) {
  Table t = MakeIntoTable("bulkload_into_refuse");
  std::string in = WriteInput(t.root, "r.tsv", "a\tA\tgA\n");
  const auto before = test::ListFilesRecursive(t.root);
  {
    auto o = IntoOptions(t, in);
    o.out_dir = t.root + "/out";
    EXPECT_TRUE(PlanBulkLoad(o).status().IsInvalidArgument());
    o.out_dir.clear();
    o.split_rows = std::vector<std::string>{"k"};
    EXPECT_TRUE(PlanBulkLoad(o).status().IsInvalidArgument());
    o.split_rows.reset();
    o.create_splits = 2;
    EXPECT_TRUE(PlanBulkLoad(o).status().IsInvalidArgument());
  }
  // A RegionServer's WAL: online (or not stopped cleanly): refused, nothing changed.
  fs::create_directories(t.root + "/WALs/rs1,16020,1");
  test::WriteFileOrDie(t.root + "/WALs/rs1,16020,1/wal.1", "x");
  {
    auto o = IntoOptions(t, in);
    auto plan = PlanBulkLoad(o);
    ASSERT_TRUE(plan.ok()) << plan.status().ToString();
    EXPECT_EQ(plan->refused.size(), 3u);  // every serving region
    BulkLoadReport rep;
    Status s = RunBulkLoad(*plan, o, &rep);
    EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
    EXPECT_NE(s.ToString().find("online or unclean"), std::string::npos) << s.ToString();
  }
  auto with_wal = before;
  with_wal.push_back(t.root + "/WALs/rs1,16020,1/wal.1");
  std::sort(with_wal.begin(), with_wal.end());
  auto now = test::ListFilesRecursive(t.root);
  std::sort(now.begin(), now.end());
  EXPECT_EQ(now, with_wal);
  {
    auto o = IntoOptions(t, in);
    o.force = true;
    BulkLoadReport rep;
    Status s = Load(o, &rep);
    ASSERT_TRUE(s.ok()) << s.ToString();
    EXPECT_EQ(rep.files.size(), 2u);
  }
  fs::remove_all(t.root + "/WALs");
  // Unreplayed edits (an unclean close) in one region: refused there.
  Table u = MakeIntoTable("bulkload_into_edits");
  test::WriteFileOrDie(u.dir + "/" + u.regions[1].EncodedName() +
                           "/recovered.edits/0000000000000000056", "edits");
  std::string in3 = WriteInput(u.root, "r.tsv", "a\tA\tgA\n");
  auto o = IntoOptions(u, in3);
  auto plan = PlanBulkLoad(o);
  ASSERT_TRUE(plan.ok());
  ASSERT_EQ(plan->refused.size(), 1u);
  EXPECT_EQ(plan->refused[0].rfind(u.regions[1].EncodedName(), 0), 0u) << plan->refused[0];
}

// SIGKILL at every checkpoint (parse, sort, staging, the journal's intent, commit and each
// put, the verification): before the commit record the table is as it was; after it a rerun
// of the same command finishes the killed run's load, once.
TEST(BulkLoadInto, SigkillAtEveryStepThenRerun) {
  std::string rows;
  for (int i = 0; i < 30; ++i)
    rows += fmt::format("{}{:02d}\tv{}\tw{}\n", "agmtx"[i % 5], i, i, i);
  Table ref = MakeIntoTable("bulkload_into_kill_ref");
  const TableView pristine = View(ref);
  BulkLoadReport ref_rep;
  ASSERT_TRUE(Load(IntoOptions(ref, WriteInput(ref.root, "k.tsv", rows)), &ref_rep).ok());
  const TableView loaded = View(ref);
  ASSERT_EQ(loaded.loaded.size(), 6u);  // f and g in each of the three regions
  int crashes = 0;
  for (int n = 1; n < 40; ++n) {
    Table t = MakeIntoTable("bulkload_into_kill");
    auto o = IntoOptions(t, WriteInput(t.root, "k.tsv", rows));
    pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      int count = 0;
      auto k = o;
      k.checkpoint = [&](const std::string&) {
        if (++count == n) ::raise(SIGKILL);
      };
      BulkLoadReport rep;
      ::_exit(Load(k, &rep).ok() ? 0 : 1);
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    const bool crashed = WIFSIGNALED(status);
    if (!crashed) {
      EXPECT_EQ(WEXITSTATUS(status), 0) << "step " << n;
    }
    crashes += crashed;
    auto j = ReadJournal(CommitScope{t.dir, ""});
    ASSERT_TRUE(j.ok()) << n;
    const bool committed = j->has_value() && (*j)->state == JournalState::State::kCommit;
    TableView v = View(t);
    if (!committed) {
      // No commit record: the old table, or (killed after the journal was removed) the new.
      EXPECT_TRUE(v.cells == pristine.cells || v.cells == loaded.cells) << "step " << n;
      EXPECT_TRUE(v.loaded.empty() || v.loaded.size() == 6u) << "step " << n;
    }
    const bool done = !j->has_value() && v.loaded.size() == 6u;
    BulkLoadReport rep;
    Status rerun = Load(o, &rep);
    ASSERT_TRUE(rerun.ok()) << "rerun after step " << n << ": " << rerun.ToString();
    EXPECT_EQ(rep.completed_by_recovery, committed) << n;
    TableView after = View(t);
    // Loaded once: by the killed run (finished by the rerun's recovery) or by the rerun; a
    // run that had finished is loaded twice, by design (the same lines, a later sequence id).
    EXPECT_EQ(after.loaded.size(), done ? 12u : 6u) << "step " << n;
    if (!done) {
      EXPECT_EQ(after.cells, loaded.cells) << "step " << n;
    }
    EXPECT_FALSE(fs::exists(t.dir + "/.hfile-journal")) << n;
    for (const auto& e : fs::directory_iterator(t.dir))
      EXPECT_EQ(e.path().filename().string().find("hfile-"), std::string::npos) << e.path();
    if (!crashed) break;
  }
  EXPECT_GE(crashes, 10);
}

}  // namespace
}  // namespace hfile::region
