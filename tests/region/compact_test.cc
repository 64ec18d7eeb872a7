// Offline compaction: selection, expiry, output file info, commit/archive, refusals, dry run,
// crash safety (SIGKILL at every checkpoint of the commit protocol), real HBase-written data.
#include "region/compact.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "hfile/reader.h"
#include "hfile/writer.h"
#include "region/region_info.h"
#include "region/snapshot.h"
#include "region/table_descriptor.h"
#include "region/vector_iterator.h"
#include "cli_common.h"
#include "compact_harness.h"
#include "testutil.h"

namespace hfile::region {
namespace {

namespace fs = std::filesystem;
using compact_harness::kNow;
using compact_harness::Opts;
using compact_harness::RunAndCrashAt;
using compact_harness::RunCompact;
using V = std::vector<std::string>;


CellData P(const char* row, const char* q, int64_t ts, const char* v, uint64_t seq) {
  return CellData::Make(row, "f", q, ts, KeyType::kPut, v, seq);
}
CellData D(const char* row, const char* q, int64_t ts, KeyType type, uint64_t seq) {
  return CellData::Make(row, "f", q, ts, type, "", seq);
}

std::string Describe(const Cell& c) {
  std::string s = c.row().ToString() + "/" + c.qualifier().ToString() + "@" +
                  std::to_string(c.timestamp());
  if (c.type() != 4) s += ":" + KeyTypeName(c.type());
  if (!c.value.empty()) s += "=" + c.value.ToString();
  return s;
}

V ReadCells(const std::string& path) {
  auto r = Reader::Open(path);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  if (!r.ok()) return {};
  V out;
  auto it = (*r)->NewIterator();
  for (it->SeekToFirst(); it->Valid(); it->Next()) out.push_back(Describe(it->cell()));
  return out;
}

V Names(const std::string& dir) {
  V out;
  if (!fs::exists(dir)) return out;
  for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

// <root>/data/default/t/{.tabledesc, <region>/{.regioninfo, f/}}
struct Table {
  std::string root, table_dir, region_dir, family_dir, region;

  explicit Table(const std::string& name, FamilyDescriptor fam = FamilyDescriptor::WithDefaults("f"),
                 std::string start_key = "", std::string end_key = "",
                 const V& more_families = {}) {
    root = test::NewTempDir(name);
    table_dir = root + "/data/default/t";
    TableDescriptor d(TableName{"default", "t"});
    d.AddFamily(std::move(fam));
    for (const auto& f : more_families) d.AddFamily(FamilyDescriptor::WithDefaults(f));
    fs::create_directories(table_dir + "/.tabledesc");
    std::string bytes;
    d.EncodeTo(&bytes);
    test::WriteFileOrDie(table_dir + "/.tabledesc/" + TableInfoFileNameFor(1), bytes);
    RegionInfo ri;
    ri.table = d.name();
    ri.region_id = 1700000000000;
    ri.start_key = std::move(start_key);
    ri.end_key = std::move(end_key);
    region = ri.EncodedName();
    region_dir = table_dir + "/" + region;
    family_dir = region_dir + "/f";
    fs::create_directories(family_dir);
    for (const auto& f : more_families) fs::create_directories(region_dir + "/" + f);
    std::string rb;
    ri.EncodeTo(&rb);
    test::WriteFileOrDie(region_dir + "/.regioninfo", rb);
  }

  // A flush-like store file: cells sorted, MAX_SEQ_ID_KEY = seq; in family dir `family`.
  std::string AddFile(const std::string& name, std::vector<CellData> cells, int64_t seq,
                      WriterOptions o = {}, const std::string& family = "f") {
    std::stable_sort(cells.begin(), cells.end(), [](const CellData& a, const CellData& b) {
      int c = CompareKeys(ComparatorKind::kDefault, a.key, b.key);
      return c != 0 ? c < 0 : a.sequence_id > b.sequence_id;
    });
    o.max_seq_id = seq;
    o.major_compaction = false;
    std::string path = region_dir + "/" + family + "/" + name;
    auto w = Writer::Create(path, o);
    EXPECT_TRUE(w.ok());
    for (const auto& c : cells) EXPECT_TRUE((*w)->Append(c.view()).ok());
    EXPECT_TRUE((*w)->Finish().ok());
    return path;
  }
};


// Three flushes of row r with puts and deletes of every kind.
void ThreeFiles(Table* t) {
  t->AddFile("aaaa0001", {P("r1", "q", 100, "v1", 1), P("r2", "q", 100, "x", 2),
                          P("r3", "q", 100, "y", 3)}, 3);
  t->AddFile("aaaa0002", {P("r1", "q", 200, "v2", 4), D("r2", "q", 150, KeyType::kDeleteColumn, 5),
                          P("r3", "", 50, "e", 6)}, 6);
  t->AddFile("aaaa0003", {D("r3", "", 300, KeyType::kDeleteFamily, 7), P("r4", "q", 1, "z", 8)}, 8);
}

TEST(Compact, MajorOutputCellsFileInfoAndArchive) {
  Table t("compact-major");
  ThreeFiles(&t);
  CompactReport rep;
  ASSERT_TRUE(RunCompact(t.table_dir, Opts(), &rep).ok());
  ASSERT_EQ(rep.stores.size(), 1u);
  const StoreResult& s = rep.stores[0];
  EXPECT_TRUE(s.major && s.all_files);
  EXPECT_EQ(s.inputs, (V{"aaaa0001", "aaaa0002", "aaaa0003"}));
  EXPECT_EQ(s.stats.input_cells, 8u);
  EXPECT_EQ(s.stats.output_cells, 2u);
  EXPECT_EQ(s.stats.dropped_versions, 1u);
  EXPECT_EQ(s.stats.dropped_deleted, 3u);
  EXPECT_EQ(s.stats.dropped_delete_markers, 2u);
  EXPECT_EQ(Names(t.family_dir), (V{s.output}));
  EXPECT_EQ(ReadCells(t.family_dir + "/" + s.output), (V{"r1/q@200=v2", "r4/q@1=z"}));
  EXPECT_EQ(Names(t.root + "/archive/data/default/t/" + t.region + "/f"),
            (V{"aaaa0001", "aaaa0002", "aaaa0003"}));
  EXPECT_FALSE(fs::exists(t.region_dir + "/.tmp"));

  auto r = Reader::Open(t.family_dir + "/" + s.output);
  ASSERT_TRUE(r.ok());
  const FileInfo& fi = (*r)->file_info();
  EXPECT_EQ(fi.GetInt64(fileinfo::kMaxSeqId), 8);
  EXPECT_EQ(fi.GetBool(fileinfo::kMajorCompaction), true);
  auto tr = DecodeTimeRange(*fi.Get(fileinfo::kTimeRange));
  EXPECT_EQ(tr->min, 1);
  EXPECT_EQ(tr->max, 200);
  EXPECT_EQ(fi.GetInt64(fileinfo::kEarliestPutTs), 1);
  std::string ev = fi.Get(fileinfo::kCompactionEvent)->ToString();
  for (const char* n : {"aaaa0001", "aaaa0002", "aaaa0003"})
    EXPECT_NE(ev.find(n), std::string::npos) << n;
  EXPECT_TRUE((*r)->includes_mvcc());
  EXPECT_EQ((*r)->bloom_type(), BloomType::kRow);  // the family default
}

TEST(Compact, FamilySettingsShapeTheOutput) {
  FamilyDescriptor f = FamilyDescriptor::WithDefaults("f");
  f.SetValue("COMPRESSION", "GZ");
  f.SetValue("DATA_BLOCK_ENCODING", "FAST_DIFF");
  f.SetValue("BLOOMFILTER", "ROWCOL");
  f.SetValue("VERSIONS", "3");
  Table t("compact-settings", f);
  ThreeFiles(&t);
  CompactReport rep;
  ASSERT_TRUE(RunCompact(t.region_dir, Opts(), &rep).ok());
  auto r = Reader::Open(t.family_dir + "/" + rep.stores[0].output);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ((*r)->trailer().compression(), Compression::kGz);
  EXPECT_EQ((*r)->data_block_encoding(), DataBlockEncoding::kFastDiff);
  EXPECT_EQ((*r)->bloom_type(), BloomType::kRowCol);
  EXPECT_EQ(ReadCells(t.family_dir + "/" + rep.stores[0].output),
            (V{"r1/q@200=v2", "r1/q@100=v1", "r4/q@1=z"}));
}

TEST(Compact, MinorKeepsDeleteMarkersAndSelectsLikeHBase) {
  Table t("compact-minor");
  // A big old file, then three small ones: the exploring policy takes the three.
  std::vector<CellData> big;
  for (int i = 0; i < 2000; ++i) {
    std::string row = "b" + std::to_string(1000 + i);
    big.push_back(CellData::Make(row, "f", "q", 10, KeyType::kPut, std::string(100, 'x'), 1));
  }
  t.AddFile("aaaa0000", big, 1);
  ThreeFiles(&t);
  CompactOptions o = Opts(CompactRequest::kMinor);
  o.selection.min_size = 1000;  // the small files stay "in ratio" below this size
  CompactReport rep;
  ASSERT_TRUE(RunCompact(t.family_dir, o, &rep).ok());
  const StoreResult& s = rep.stores[0];
  EXPECT_EQ(s.inputs, (V{"aaaa0001", "aaaa0002", "aaaa0003"}));
  EXPECT_FALSE(s.all_files);
  EXPECT_EQ(ReadCells(t.family_dir + "/" + s.output),
            (V{"r1/q@200=v2", "r2/q@150:DeleteColumn", "r3/@300:DeleteFamily", "r4/q@1=z"}));
  auto r = Reader::Open(t.family_dir + "/" + s.output);
  EXPECT_EQ((*r)->file_info().GetBool(fileinfo::kMajorCompaction), false);
  EXPECT_EQ(Names(t.family_dir).size(), 2u);
}

TEST(CompactSelect, ExploringPolicy) {
  auto files = [](std::vector<uint64_t> sizes) {
    std::vector<CandidateFile> v;
    for (size_t i = 0; i < sizes.size(); ++i) {
      CandidateFile c;
      c.name = std::to_string(i);
      c.size = sizes[i];
      c.sequence_id = static_cast<int64_t>(i);
      v.push_back(c);
    }
    return v;
  };
  SelectionConfig c;
  c.min_size = 10;
  using I = std::vector<size_t>;
  EXPECT_EQ(SelectMinorCompaction(files({5, 5}), c), I{});          // fewer than 3
  EXPECT_EQ(SelectMinorCompaction(files({5, 5, 5, 5}), c), (I{0, 1, 2, 3}));
  EXPECT_EQ(SelectMinorCompaction(files({1000, 20, 20, 20}), c), (I{1, 2, 3}));
  EXPECT_EQ(SelectMinorCompaction(files({100, 20, 20, 20, 1000}), c), (I{1, 2, 3}));
  std::vector<uint64_t> twelve(12, 50);
  EXPECT_EQ(SelectMinorCompaction(files(twelve), c).size(), 10u);   // max files
  auto ex = files({5, 5, 5, 5});
  ex[1].exclude_from_minor = true;
  EXPECT_EQ(SelectMinorCompaction(ex, c), (I{0, 2, 3}));
}

TEST(CompactSelect, SequenceOrderExpiryAndHashSetOrder) {
  std::vector<CandidateFile> v(3);
  v[0].name = "b", v[0].sequence_id = 5, v[0].size = 10, v[0].max_timestamp = 100;
  v[1].name = "a", v[1].sequence_id = 5, v[1].size = 20, v[1].max_timestamp = 50;
  v[2].name = "c", v[2].sequence_id = 1, v[2].size = 1, v[2].max_timestamp = 10;
  SortBySequenceId(&v);
  EXPECT_EQ(v[0].name, "c");
  EXPECT_EQ(v[1].name, "a");  // same seqid: bigger first
  // ttl 1000 at now 1080: files with max ts < 80 expire, never the last one.
  EXPECT_EQ(SelectExpiredFiles(v, 0, 1000, 1080), (std::vector<size_t>{0, 1}));
  EXPECT_TRUE(SelectExpiredFiles(v, 1, 1000, 1080).empty());          // MIN_VERSIONS > 0
  EXPECT_TRUE(SelectExpiredFiles(v, 0, INT64_MAX, 1080).empty());     // FOREVER
  // String.hashCode: "b" = 98 (bucket 2), "a" = 97 (bucket 1), "q" = 113 (bucket 1).
  EXPECT_EQ(JavaHashSetOrder({"b", "q", "a"}), (V{"q", "a", "b"}));
}

TEST(Compact, WholeFileExpiryRemovesWithoutRewriting) {
  FamilyDescriptor f = FamilyDescriptor::WithDefaults("f");
  f.SetValue("TTL", "100");  // seconds
  Table t("compact-expiry", f);
  t.AddFile("aaaa0001", {P("old", "q", kNow - 500000, "x", 1)}, 1);
  t.AddFile("aaaa0002", {P("new", "q", kNow - 1000, "y", 2)}, 2);
  CompactReport rep;
  ASSERT_TRUE(RunCompact(t.table_dir, Opts(), &rep).ok());
  const StoreResult& s = rep.stores[0];
  EXPECT_EQ(s.expired, (V{"aaaa0001"}));
  EXPECT_EQ(s.inputs, (V{"aaaa0002"}));
  EXPECT_EQ(ReadCells(t.family_dir + "/" + s.output), (V{"new/q@" + std::to_string(kNow - 1000) + "=y"}));
  EXPECT_EQ(Names(t.root + "/archive/data/default/t/" + t.region + "/f"), (V{"aaaa0001", "aaaa0002"}));
}

TEST(Compact, DryRunWritesNothingAndPredictsTheRun) {
  Table t("compact-dry");
  ThreeFiles(&t);
  CompactOptions o = Opts();
  o.dry_run = true;
  CompactReport dry;
  ASSERT_TRUE(RunCompact(t.table_dir, o, &dry).ok());
  EXPECT_EQ(Names(t.family_dir), (V{"aaaa0001", "aaaa0002", "aaaa0003"}));
  EXPECT_FALSE(fs::exists(t.root + "/archive"));
  EXPECT_GT(dry.stores[0].bytes_out, 0u);
  CompactReport real;
  ASSERT_TRUE(RunCompact(t.table_dir, Opts(), &real).ok());
  EXPECT_EQ(dry.stores[0].stats.output_cells, real.stores[0].stats.output_cells);
  EXPECT_EQ(dry.stores[0].stats.dropped(), real.stores[0].stats.dropped());
}

TEST(Compact, RefusesUncleanRegionsUnlessForced) {
  Table t("compact-refuse");
  ThreeFiles(&t);
  fs::create_directories(t.region_dir + "/recovered.edits");
  test::WriteFileOrDie(t.region_dir + "/recovered.edits/0000000000000000012", "edits");
  CompactReport rep;
  Status s = RunCompact(t.table_dir, Opts(), &rep);
  EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
  ASSERT_EQ(rep.refused.size(), 1u);
  EXPECT_NE(rep.refused[0].find("recovered.edits"), std::string::npos);
  EXPECT_EQ(Names(t.family_dir).size(), 3u);

  fs::create_directories(t.root + "/WALs/host,16020,1");
  test::WriteFileOrDie(t.root + "/WALs/host,16020,1/wal.1", "x");
  fs::create_directories(t.region_dir + "/.tmp");
  test::WriteFileOrDie(t.region_dir + "/.tmp/0123abcd", "x");
  CompactReport rep2;
  EXPECT_FALSE(RunCompact(t.table_dir, Opts(), &rep2).ok());
  EXPECT_EQ(rep2.refused.size(), 3u);

  CompactOptions o = Opts();
  o.force = true;
  CompactReport rep3;
  ASSERT_TRUE(RunCompact(t.table_dir, o, &rep3).ok());
  EXPECT_EQ(Names(t.family_dir).size(), 1u);
}

TEST(Compact, CompactsDaughterReferencesAndSkipsReferencedParents) {
  Table t("compact-refs");
  ThreeFiles(&t);
  // A daughter region holding a reference to the parent's file (more in compact_refs_test.cc).
  const std::string daughter_region = "0123456789abcdef0123456789abcdef";
  std::string daughter = t.table_dir + "/" + daughter_region + "/f";
  fs::create_directories(daughter);
  std::string ref;
  Reference::ForRow("r2", Reference::Range::kTop).EncodeTo(&ref);
  test::WriteFileOrDie(daughter + "/aaaa0001." + t.region, ref);
  CompactOptions o = Opts();
  o.force = true;  // not even --force compacts a parent its daughters read
  CompactReport rep;
  Status s = RunCompact(t.table_dir, o, &rep);
  EXPECT_TRUE(s.ok()) << s.ToString();  // skipped, not refused: HBase never opens it again
  EXPECT_TRUE(rep.refused.empty());
  EXPECT_EQ(Names(t.family_dir).size(), 3u);
  std::string output, parent_skipped;
  for (const auto& st : rep.stores) {
    if (st.region == daughter_region) output = st.output;
    if (st.region == t.region) parent_skipped = st.skipped;
  }
  EXPECT_NE(parent_skipped.find("split parent still referenced"), std::string::npos)
      << parent_skipped;
  ASSERT_FALSE(output.empty());
  EXPECT_EQ(Names(daughter), V{output});
  EXPECT_EQ(ReadCells(daughter + "/" + output), (V{"r2/q@100=x", "r3/q@100=y"}));
  EXPECT_EQ(Names(t.root + "/archive/data/default/t/" + daughter_region + "/f"),
            V{"aaaa0001." + t.region});
}

// --- crash safety -------------------------------------------------------------------------

// What HBase opens: family files minus those named in another present file's
// COMPACTION_EVENT_KEY; their cells, merged in file-name order of the set.
std::multiset<std::string> EffectiveCells(const std::string& family_dir, V* names) {
  V all = Names(family_dir);
  std::set<std::string> compacted;
  for (const auto& n : all) {
    auto r = Reader::Open(family_dir + "/" + n);
    if (!r.ok()) continue;
    if (auto ev = (*r)->file_info().Get(fileinfo::kCompactionEvent)) {
      for (const auto& m : all)
        if (m != n && ev->ToString().find(m) != std::string::npos) compacted.insert(m);
    }
  }
  std::multiset<std::string> cells;
  names->clear();
  for (const auto& n : all) {
    if (compacted.count(n)) continue;
    names->push_back(n);
    for (const auto& c : ReadCells(family_dir + "/" + n)) cells.insert(c);
  }
  return cells;
}


TEST(Compact, SigkillAtEveryCheckpointLosesNothing) {
  Table pristine("compact-kill-pristine");
  ThreeFiles(&pristine);
  V old_names;
  const auto old_cells = EffectiveCells(pristine.family_dir, &old_names);
  const std::multiset<std::string> new_cells = {"r1/q@200=v2", "r4/q@1=z"};
  int crashes = 0;
  for (int n = 1; n < 50; ++n) {
    Table t("compact-kill");
    ThreeFiles(&t);
    bool crashed = RunAndCrashAt(t.table_dir, n);
    V names;
    auto cells = EffectiveCells(t.family_dir, &names);
    if (names == old_names) {
      EXPECT_EQ(cells, old_cells) << "crash point " << n;
    } else {
      EXPECT_EQ(names.size(), 1u) << "crash point " << n;
      EXPECT_EQ(cells, new_cells) << "crash point " << n;
    }
    // A rerun (which may itself be killed once during recovery) ends clean.
    if (crashed) {
      RunAndCrashAt(t.table_dir, 1);
      CompactReport rep;
      ASSERT_TRUE(RunCompact(t.table_dir, Opts(), &rep).ok()) << "crash point " << n;
    }
    V final_names = Names(t.family_dir);
    ASSERT_EQ(final_names.size(), 1u) << "crash point " << n;
    EXPECT_EQ(ReadCells(t.family_dir + "/" + final_names[0]),
              (V{"r1/q@200=v2", "r4/q@1=z"})) << "crash point " << n;
    EXPECT_FALSE(fs::exists(t.region_dir + "/.tmp")) << "crash point " << n;
    V archived = Names(t.root + "/archive/data/default/t/" + t.region + "/f");
    for (const auto& o : old_names)
      EXPECT_NE(std::find(archived.begin(), archived.end(), o), archived.end())
          << o << " not archived, crash point " << n;
    if (!crashed) break;
    ++crashes;
  }
  EXPECT_GE(crashes, 7);  // journal, output started/written/verified, commit, 3 disposals
  std::cerr << "crash points tested: " << crashes << "\n";
}

// --- real data ----------------------------------------------------------------------------

TEST(Compact, RealSnapshotRegionsMatchTheExpectedSurvivors) {
  HFILE_REQUIRE_REAL_DATA();
  const std::string snap =
      test::RealDataDir() + "/riverbed/snapshot/testdata/test_snapshot_v1";
  SnapshotOptions so;
  so.extra_data_dirs = {snap + "/data"};
  auto s = Snapshot::Open(snap, so);
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  const std::string root = test::NewTempDir("compact-real");
  TableDescriptor d = s->descriptor();
  const std::string table_dir = root + "/data/" + d.name().namespace_name + "/" + d.name().qualifier;
  fs::create_directories(table_dir + "/.tabledesc");
  std::string bytes;
  d.EncodeTo(&bytes);
  test::WriteFileOrDie(table_dir + "/.tabledesc/" + TableInfoFileNameFor(1), bytes);
  uint64_t files = 0;
  for (const auto& r : s->regions()) {
    for (const auto& fam : r.families) {
      std::string dir = table_dir + "/" + r.info.EncodedName() + "/" + fam.name;
      fs::create_directories(dir);
      for (const auto& f : fam.files) {
        ASSERT_FALSE(f.path.empty());
        fs::copy_file(f.path, dir + "/" + f.name.name);
        ++files;
      }
    }
  }
  ASSERT_EQ(files, 6u);
  CompactReport rep;
  CompactOptions o = Opts();
  ASSERT_TRUE(RunCompact(table_dir, o, &rep).ok());
  std::map<std::string, std::string> survivors;  // row -> value
  uint64_t in = 0, out = 0;
  for (const auto& st : rep.stores) {
    ASSERT_TRUE(st.skipped.empty()) << st.skipped;
    EXPECT_EQ(st.inputs.size(), 2u);
    in += st.stats.input_cells, out += st.stats.output_cells;
    auto r = Reader::Open(table_dir + "/" + st.region + "/" + st.family + "/" + st.output);
    ASSERT_TRUE(r.ok());
    auto it = (*r)->NewIterator();
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      const Cell& c = it->cell();
      EXPECT_EQ(c.type(), 4) << Describe(c);
      EXPECT_TRUE(survivors.emplace(c.row().ToString(), c.value.ToString()).second)
          << "two versions of " << c.row().ToString();
    }
  }
  std::map<std::string, std::string> expected;
  for (const char* f : {"apple", "banana", "fig", "grape", "mango"})
    expected[f] = std::string("value_") + f + "_v2";
  for (const char* f : {"date", "kiwi", "lemon", "peach", "raspberry", "strawberry"})
    expected[f] = std::string("value_") + f + "_v1";
  EXPECT_EQ(survivors, expected);
  std::cerr << "real data: " << in << " cells in, " << out << " out, 3 regions\n";
}

}  // namespace
}  // namespace hfile::region

namespace hfile::region {
namespace {

// --- inputs a writing tool must refuse (issue 10: nothing is ever lost) ---

CellData Fam(const char* family, const char* row, int64_t ts, const char* v, uint64_t seq) {
  return CellData::Make(row, family, "q", ts, KeyType::kPut, v, seq);
}

std::map<std::string, std::string> Snapshot(const std::string& dir) {
  std::map<std::string, std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file()) out[e.path().string()] = test::ReadFileOrDie(e.path().string());
  return out;
}

// A store file of family `d` moved into family `f`'s directory (what renaming a family by moving
// files produces): compaction would rewrite d's cells as f's store. Refused; the good store of
// family g beside it is still compacted, and the summary says which was committed.
TEST(CompactInputs, RefusesCellsOfAnotherFamilyAndCommitsTheOtherStores) {
  Table t("compact-wrong-family", FamilyDescriptor::WithDefaults("f"), "", "", {"g"});
  t.AddFile("aaaa0001", {P("r1", "q", 100, "v1", 1)}, 1);
  t.AddFile("aaaa0002", {Fam("d", "r2", 100, "moved", 2)}, 2);
  t.AddFile("bbbb0001", {Fam("g", "r1", 100, "g1", 3)}, 3, {}, "g");
  t.AddFile("bbbb0002", {Fam("g", "r2", 100, "g2", 4)}, 4, {}, "g");
  const auto f_before = Snapshot(t.family_dir);
  CompactReport rep;
  Status s = RunCompact(t.table_dir, Opts(), &rep);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(s.message().find("1 store(s) committed, 1 not committed (" + t.region + "/f)"),
            std::string::npos)
      << s.ToString();
  ASSERT_EQ(rep.stores.size(), 2u);
  const StoreResult& f = rep.stores[0].family == "f" ? rep.stores[0] : rep.stores[1];
  const StoreResult& g = rep.stores[0].family == "f" ? rep.stores[1] : rep.stores[0];
  EXPECT_FALSE(f.committed);
  EXPECT_NE(f.status.message().find("of family 'd'"), std::string::npos) << f.status.ToString();
  EXPECT_EQ(Snapshot(t.family_dir), f_before);  // untouched
  EXPECT_TRUE(g.committed && g.status.ok()) << g.status.ToString();
  EXPECT_EQ(Names(t.region_dir + "/g").size(), 1u);
  EXPECT_FALSE(fs::exists(t.root + "/archive/data/default/t/" + t.region + "/f"));
  EXPECT_FALSE(fs::exists(t.region_dir + "/.tmp/hfile.journal"));

  // The tool: exit 2, and the text summary names the store that was not committed.
  std::ostringstream out, err;
  const char* argv[] = {"hfile-compact", t.table_dir.c_str()};
  EXPECT_EQ(cli::RunCompactTool(2, argv, out, err), cli::kExitCorrupt);
  EXPECT_NE(out.str().find(t.region + "/f: NOT COMMITTED"), std::string::npos) << out.str();
  EXPECT_NE(err.str().find("1 not committed (" + t.region + "/f)"), std::string::npos)
      << err.str();
}

// Cells outside the region's range: refused, or with --force carried and counted.
TEST(CompactInputs, RefusesCellsOutsideTheRegionUnlessForced) {
  Table t("compact-out-of-range", FamilyDescriptor::WithDefaults("f"), "b", "m");
  t.AddFile("aaaa0001", {P("c", "q", 100, "in", 1), P("z", "q", 100, "out", 2)}, 2);
  t.AddFile("aaaa0002", {P("d", "q", 100, "in", 3)}, 3);
  const auto before = Snapshot(t.family_dir);
  CompactReport rep;
  Status s = RunCompact(t.table_dir, Opts(), &rep);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  ASSERT_EQ(rep.stores.size(), 1u);
  EXPECT_NE(rep.stores[0].status.message().find("outside the region's range"), std::string::npos)
      << rep.stores[0].status.ToString();
  EXPECT_EQ(Snapshot(t.family_dir), before);

  CompactOptions o = Opts();
  o.force = true;
  CompactReport forced;
  ASSERT_TRUE(RunCompact(t.table_dir, o, &forced).ok());
  ASSERT_EQ(forced.stores.size(), 1u);
  EXPECT_EQ(forced.stores[0].out_of_range, 1u);
  EXPECT_EQ(ReadCells(t.family_dir + "/" + forced.stores[0].output),
            (V{"c/q@100=in", "d/q@100=in", "z/q@100=out"}));
}

// A cancel request (SIGINT/SIGTERM in the tools) rolls the store back: nothing committed, no
// temp file, no journal; a rerun then compacts.
TEST(CompactInputs, CancelRollsBack) {
  Table t("compact-cancel");
  ThreeFiles(&t);
  const auto before = Snapshot(t.family_dir);
  std::atomic<bool> cancel{true};
  CompactOptions o = Opts();
  o.cancel = &cancel;
  CompactReport rep;
  Status s = RunCompact(t.table_dir, o, &rep);
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_EQ(Snapshot(t.family_dir), before);
  EXPECT_TRUE(!fs::exists(t.region_dir + "/.tmp") || fs::is_empty(t.region_dir + "/.tmp"));
  CompactReport again;
  ASSERT_TRUE(RunCompact(t.table_dir, Opts(), &again).ok());
  EXPECT_EQ(Names(t.family_dir).size(), 1u);
}

// The defects README's D1, D2 and D5: a copy of the HBase 2.2.3 root dir whose namespace store
// file is replaced by a damaged one. Every variant: exit 2 (or 3), nothing committed, nothing
// archived, the file untouched; with --trust-inputs too.
class CompactDefects : public ::testing::TestWithParam<std::string> {};

TEST_P(CompactDefects, DamagedNamespaceFileIsRefused) {
  HFILE_REQUIRE_REAL_DATA();
  HFILE_REQUIRE_DEFECTS();
  const std::string defects = test::DefectsDir();
  const std::string root = test::NewTempDir("compact-defect");
  fs::copy(test::RealDataDir() + "/hbase-2.2.3-rootdir", root + "/r", fs::copy_options::recursive);
  fs::remove_all(root + "/r/WALs");
  for (const auto& e : fs::recursive_directory_iterator(root + "/r"))
    fs::permissions(e.path(), fs::perms::owner_write, fs::perm_options::add);
  const std::string table = root + "/r/data/hbase/namespace";
  const std::string ns_file =
      table + "/077a6e561e777ff7d7b235487e686aa9/info/644db0f0580544e7a93dece6f0b429b1";
  std::string bad;
  if (GetParam() == "trailer-version-flipped") {  // D5: the last byte flipped
    bad = test::ReadFileOrDie(ns_file);
    bad.back() = static_cast<char>(bad.back() ^ 0xFF);
  } else {
    bad = test::ReadFileOrDie(defects + "/" + GetParam() + ".hfile");
  }
  test::WriteFileOrDie(ns_file, bad);
  for (bool trust : {false, true}) {
    std::ostringstream out, err;
    std::vector<const char*> argv = {"hfile-compact", "--major", table.c_str()};
    if (trust) argv.push_back("--trust-inputs");
    const int code = cli::RunCompactTool(static_cast<int>(argv.size()), argv.data(), out, err);
    EXPECT_TRUE(code == cli::kExitCorrupt || code == cli::kExitUnreadable)
        << code << "\n" << out.str() << err.str();
    EXPECT_NE(out.str().find("NOT COMMITTED"), std::string::npos) << out.str();
    EXPECT_EQ(test::ReadFileOrDie(ns_file), bad);
    EXPECT_EQ(Names(fs::path(ns_file).parent_path().string()).size(), 1u);
    EXPECT_FALSE(fs::exists(root + "/r/archive/data/hbase/namespace"));
  }
}

INSTANTIATE_TEST_SUITE_P(Defects, CompactDefects,
                         ::testing::Values("namespace-trailer-byte848-flipped",   // D1
                                           "trailer-says-empty-namespace",       // D2
                                           "trailer-version-flipped"),           // D5
                         [](const auto& info) {
                           std::string n = info.param;
                           std::replace(n.begin(), n.end(), '-', '_');
                           return n;
                         });

}  // namespace
}  // namespace hfile::region
