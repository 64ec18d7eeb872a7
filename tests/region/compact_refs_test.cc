// Offline compaction of split daughters: References are read as their half of the parent's file
// and HFileLinks as their target, the output is a plain HFile, the reference and link files are
// archived, and the parent's files and link targets stay (REGION_LAYOUT §5.3-5.4, §6.9).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "hfile/reader.h"
#include "hfile/writer.h"
#include "region/compact.h"
#include "region/layout.h"
#include "region/region_info.h"
#include "region/store_file_reader.h"
#include "region/table_descriptor.h"
#include "region/vector_iterator.h"
#include "split_table.h"
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

// "row/qualifier@ts[:type][=value]#seqid"
std::string Describe(const Cell& c) {
  std::string s = c.row().ToString() + "/" + c.qualifier().ToString() + "@" +
                  std::to_string(c.timestamp());
  if (c.type() != 4) s += ":" + KeyTypeName(c.type());
  if (!c.value.empty()) s += "=" + c.value.ToString();
  return s + "#" + std::to_string(c.sequence_id);
}

V Cells(CellIterator* it) {
  V out;
  for (it->SeekToFirst(); it->Valid(); it->Next()) out.push_back(Describe(it->cell()));
  EXPECT_TRUE(it->status().ok()) << it->status().ToString();
  return out;
}

V ReadCells(const std::string& path) {
  auto r = Reader::Open(path);
  EXPECT_TRUE(r.ok()) << path << ": " << r.status().ToString();
  if (!r.ok()) return {};
  return Cells((*r)->NewIterator().get());
}

V Names(const std::string& dir) {
  V out;
  if (!fs::exists(dir)) return out;
  for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

// Reads every file of a directory (name -> bytes), to prove it was left alone.
std::map<std::string, std::string> Contents(const std::string& dir) {
  std::map<std::string, std::string> out;
  for (const auto& n : Names(dir)) out[n] = test::ReadFileOrDie(dir + "/" + n);
  return out;
}

std::string WriteHFile(const std::string& path, std::vector<CellData> cells, int64_t max_seq) {
  std::stable_sort(cells.begin(), cells.end(), [](const CellData& a, const CellData& b) {
    return CompareKeys(ComparatorKind::kDefault, a.key, b.key) < 0;
  });
  WriterOptions o;
  o.max_seq_id = max_seq;
  o.major_compaction = false;
  auto w = Writer::Create(path, o);
  EXPECT_TRUE(w.ok());
  for (const auto& c : cells) EXPECT_TRUE((*w)->Append(c.view()).ok());
  EXPECT_TRUE((*w)->Finish().ok());
  return path;
}

// A split as HBase 2.5+ leaves it, family "f", split row "r3":
//   parent ['', '') split/offline: aaaa0001 (r1..r6, MAX_SEQ_ID 5),
//                                  bbbb0002_SeqId_12_ (bulk-loaded: r2, r4, DeleteColumn r5),
//                                  cccc0003 (r0 only, MAX_SEQ_ID 7)
//   a ['', r3): BOTTOM references to aaaa0001 and bbbb0002_SeqId_12_, HFileLink t=<parent>-cccc0003
//   b [r3, ''): TOP references to aaaa0001 and bbbb0002_SeqId_12_ (cccc0003 lies below the split)
struct Split {
  std::string root, table_dir, parent_dir, a_dir, b_dir;
  std::string penc, a, b;

  explicit Split(const std::string& name) {
    root = test::NewTempDir(name);
    table_dir = root + "/data/default/t";
    TableDescriptor d(TableName{"default", "t"});
    d.AddFamily(FamilyDescriptor::WithDefaults("f"));
    fs::create_directories(table_dir + "/.tabledesc");
    std::string bytes;
    d.EncodeTo(&bytes);
    test::WriteFileOrDie(table_dir + "/.tabledesc/" + TableInfoFileNameFor(1), bytes);
    RegionInfo p = Region("", "", 1000), ra = Region("", "r3", 2000), rb = Region("r3", "", 2000);
    p.split = p.offline = true;
    penc = p.EncodedName(), a = ra.EncodedName(), b = rb.EncodedName();
    parent_dir = Write(p), a_dir = Write(ra), b_dir = Write(rb);

    const std::string pf = parent_dir + "/f/";
    WriteHFile(pf + "aaaa0001", {P("r1", "q", 100, "v1", 1), P("r2", "q", 100, "v2", 2),
                                 P("r3", "q", 100, "v3", 3), P("r4", "q", 100, "v4", 4),
                                 P("r5", "q", 100, "v5", 5), P("r6", "q", 100, "v6", 5)}, 5);
    WriteHFile(pf + "bbbb0002_SeqId_12_",
               {P("r2", "q2", 200, "w2", 0), P("r4", "q2", 200, "w4", 0),
                CellData::Make("r5", "f", "q", 150, KeyType::kDeleteColumn, "", 0)}, 3);
    WriteHFile(pf + "cccc0003", {P("r0", "q", 100, "z", 7)}, 7);
    for (const char* f : {"aaaa0001", "bbbb0002_SeqId_12_"}) {
      std::string bottom, top;
      Reference::ForRow("r3", Reference::Range::kBottom).EncodeTo(&bottom);
      Reference::ForRow("r3", Reference::Range::kTop).EncodeTo(&top);
      test::WriteFileOrDie(a_dir + "/f/" + f + "." + penc, bottom);
      test::WriteFileOrDie(b_dir + "/f/" + f + "." + penc, top);
    }
    test::WriteFileOrDie(a_dir + "/f/t=" + penc + "-cccc0003", "");
  }

  static RegionInfo Region(const std::string& start, const std::string& end, uint64_t id) {
    RegionInfo r;
    r.table = TableName{"default", "t"};
    r.start_key = start;
    r.end_key = end;
    r.region_id = id;
    return r;
  }
  std::string Write(const RegionInfo& r) {
    std::string dir = table_dir + "/" + r.EncodedName();
    fs::create_directories(dir + "/f");
    std::string bytes;
    r.EncodeTo(&bytes);
    test::WriteFileOrDie(dir + "/.regioninfo", bytes);
    return dir;
  }
  std::string Archive(const std::string& region) const {
    return root + "/archive/data/default/t/" + region + "/f";
  }
};

// What a region server reads from a family dir: every entry through StoreFileReader, minus
// the entries named in another entry's COMPACTION_EVENT_KEY.
std::multiset<std::string> EffectiveCells(const Split& s, const std::string& family_dir,
                                          V* names) {
  auto dir = ScanFamilyDir(s.root, s.table_dir, family_dir);
  EXPECT_TRUE(dir.ok()) << dir.status().ToString();
  std::vector<std::unique_ptr<StoreFileReader>> readers;
  for (const auto& sf : dir->store_files) {
    auto r = StoreFileReader::Open(sf);
    EXPECT_TRUE(r.ok()) << sf.path << ": " << r.status().ToString();
    if (r.ok()) readers.push_back(std::move(*r));
  }
  std::set<std::string> compacted;
  for (const auto& r : readers)
    if (auto ev = r->hfile().file_info().Get(fileinfo::kCompactionEvent))
      for (const auto& other : readers)
        if (other != r && ev->ToString().find(other->file().name.name) != std::string::npos)
          compacted.insert(other->file().name.name);
  std::multiset<std::string> cells;
  names->clear();
  for (const auto& r : readers) {
    if (compacted.count(r->file().name.name)) continue;
    names->push_back(r->file().name.name);
    for (const auto& c : Cells(r->NewIterator().get())) cells.insert(c);
  }
  return cells;
}


// Bottom half: the parent's own mvcc, the bulk-loaded file's cells at its name's seqid 12;
// the linked cccc0003 whole. Top half: bulk-loaded cells at 12 + 1; r5/q is deleted by the
// DeleteColumn, which a compaction of every file drops.
const V kBottom = {"r0/q@100=z#7", "r1/q@100=v1#1", "r2/q@100=v2#2", "r2/q2@200=w2#12"};
const V kTop = {"r3/q@100=v3#3", "r4/q@100=v4#4", "r4/q2@200=w4#13", "r6/q@100=v6#5"};

TEST(CompactRefs, DaughtersRewriteTheirHalvesAndArchiveReferencesAndLinks) {
  Split s("compact-refs-daughters");
  const auto parent_before = Contents(s.parent_dir + "/f");
  for (const std::string* region : {&s.a_dir, &s.b_dir}) {
    CompactReport rep;
    Status st = RunCompact(*region, Opts(), &rep);
    ASSERT_TRUE(st.ok()) << st.ToString();
    ASSERT_EQ(rep.stores.size(), 1u);
    EXPECT_TRUE(rep.stores[0].skipped.empty()) << rep.stores[0].skipped;
    EXPECT_TRUE(rep.stores[0].major && rep.stores[0].all_files);
  }
  V a = Names(s.a_dir + "/f"), b = Names(s.b_dir + "/f");
  ASSERT_EQ(a.size(), 1u);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(ReadCells(s.a_dir + "/f/" + a[0]), kBottom);
  EXPECT_EQ(ReadCells(s.b_dir + "/f/" + b[0]), kTop);
  // MAX_SEQ_ID_KEY = max over the inputs' sequence ids: 12 (bulk name), 12 + 1 for TOP.
  auto ra = Reader::Open(s.a_dir + "/f/" + a[0]);
  auto rb = Reader::Open(s.b_dir + "/f/" + b[0]);
  ASSERT_TRUE(ra.ok() && rb.ok());
  EXPECT_EQ((*ra)->file_info().GetInt64(fileinfo::kMaxSeqId), 12);
  EXPECT_EQ((*rb)->file_info().GetInt64(fileinfo::kMaxSeqId), 13);
  EXPECT_EQ((*ra)->file_info().GetBool(fileinfo::kMajorCompaction), true);
  std::string ev = (*ra)->file_info().Get(fileinfo::kCompactionEvent)->ToString();
  EXPECT_NE(ev.find("aaaa0001." + s.penc), std::string::npos);
  EXPECT_NE(ev.find("t=" + s.penc + "-cccc0003"), std::string::npos);

  // The reference and link files are archived like any input; the parent keeps every file.
  EXPECT_EQ(Names(s.Archive(s.a)), (V{"aaaa0001." + s.penc, "bbbb0002_SeqId_12_." + s.penc,
                                      "t=" + s.penc + "-cccc0003"}));
  EXPECT_EQ(Names(s.Archive(s.b)), (V{"aaaa0001." + s.penc, "bbbb0002_SeqId_12_." + s.penc}));
  EXPECT_EQ(Contents(s.parent_dir + "/f"), parent_before);
  EXPECT_FALSE(fs::exists(s.Archive(s.penc)));

  // No daughter references the parent any more (what the CatalogJanitor waits for); it is
  // still refused for its split flags.
  auto plan = PlanCompaction(s.parent_dir, Opts());
  ASSERT_TRUE(plan.ok());
  EXPECT_TRUE(plan->regions[0].blockers.empty());
  EXPECT_FALSE(plan->regions[0].refusals.empty());

  // A rerun finds nothing to recover or refuse, and changes no cell.
  CompactReport again;
  ASSERT_TRUE(RunCompact(s.a_dir, Opts(), &again).ok());
  EXPECT_TRUE(again.recovered.empty());
  EXPECT_TRUE(again.refused.empty());
  a = Names(s.a_dir + "/f");
  ASSERT_EQ(a.size(), 1u);
  EXPECT_EQ(ReadCells(s.a_dir + "/f/" + a[0]), kBottom);
}

TEST(CompactRefs, ReferenceSizeIsTheReferencedFilesLength) {
  Split s("compact-refs-size");
  CompactOptions o = Opts();
  o.dry_run = true;
  auto plan = PlanCompaction(s.b_dir, o);
  ASSERT_TRUE(plan.ok());
  // The dry run's output estimate counts only the share of each parent file its half read
  // (daughter a drops nothing: a whole-file estimate would equal bytes_in).
  auto plan_a = PlanCompaction(s.a_dir, o);
  ASSERT_TRUE(plan_a.ok());
  CompactReport dry;
  ASSERT_TRUE(Compact(*plan_a, o, &dry).ok());
  ASSERT_EQ(dry.stores.size(), 1u);
  EXPECT_LT(dry.stores[0].bytes_out, dry.stores[0].bytes_in * 3 / 4);
  const StorePlan& sp = plan->regions[0].stores[0];
  ASSERT_EQ(sp.files.size(), 2u);
  for (const auto& f : sp.files) {
    EXPECT_TRUE(f.reference);
    std::string parent_file = f.name.substr(0, f.name.find('.'));
    EXPECT_EQ(f.size, fs::file_size(s.parent_dir + "/f/" + parent_file)) << f.name;
  }
  // Scanner order by sequence id: aaaa0001 (5 + 1) before the bulk-loaded file (12 + 1).
  EXPECT_EQ(sp.files[0].sequence_id, 6);
  EXPECT_EQ(sp.files[1].sequence_id, 13);
  EXPECT_TRUE(sp.files[1].bulk_loaded);
}

TEST(CompactRefs, MinorRequestAfterSplitTakesEveryFile) {
  Split s("compact-refs-minor");
  CompactReport rep;
  ASSERT_TRUE(RunCompact(s.b_dir, Opts(CompactRequest::kMinor), &rep).ok());
  const StoreResult& r = rep.stores[0];
  ASSERT_TRUE(r.skipped.empty()) << r.skipped;  // 2 files < hbase.hstore.compaction.min
  EXPECT_EQ(r.inputs.size(), 2u);
  EXPECT_TRUE(r.all_files);
  EXPECT_FALSE(r.major);
  EXPECT_EQ(ReadCells(s.b_dir + "/f/" + r.output), kTop);  // all files: deletes dropped

  std::vector<CandidateFile> files(12);
  for (size_t i = 0; i < files.size(); ++i) {
    files[i].size = 1000;
    files[i].sequence_id = static_cast<int64_t>(i);
  }
  files[3].reference = true;
  files[5].exclude_from_minor = true;
  SelectionConfig c;
  auto sel = SelectMinorCompaction(files, c);
  ASSERT_EQ(sel.size(), 10u);  // every file, oldest first, cut at max files
  for (size_t i = 0; i < sel.size(); ++i) EXPECT_EQ(sel[i], i);
}

// An input that cannot be read is an error, never a silent skip: the store is refused whole.
TEST(CompactRefs, UnresolvedReferenceRefusesTheStore) {
  Split s("compact-refs-missing");
  fs::remove(s.parent_dir + "/f/aaaa0001");
  CompactReport rep;
  Status st = RunCompact(s.b_dir, Opts(), &rep);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("0 store(s) committed, 1 not committed"), std::string::npos)
      << st.ToString();
  ASSERT_EQ(rep.stores.size(), 1u);
  EXPECT_FALSE(rep.stores[0].committed);
  EXPECT_NE(rep.stores[0].status.ToString().find("referenced parent file missing"),
            std::string::npos)
      << rep.stores[0].status.ToString();
  EXPECT_EQ(Names(s.b_dir + "/f").size(), 2u);
}


TEST(CompactRefs, SigkillAtEveryCheckpointLosesNothing) {
  Split pristine("compact-refs-kill-pristine");
  V old_names;
  const auto old_cells = EffectiveCells(pristine, pristine.a_dir + "/f", &old_names);
  ASSERT_EQ(old_names.size(), 3u);
  const std::multiset<std::string> new_cells(kBottom.begin(), kBottom.end());
  ASSERT_EQ(old_cells, new_cells);  // nothing in the bottom half is dropped
  int crashes = 0;
  for (int n = 1; n < 30; ++n) {
    Split s("compact-refs-kill");
    const auto parent_before = Contents(s.parent_dir + "/f");
    bool crashed = RunAndCrashAt(s.a_dir, n);
    V names;
    auto cells = EffectiveCells(s, s.a_dir + "/f", &names);
    EXPECT_EQ(cells, new_cells) << "crash point " << n;
    if (names != old_names) {
      EXPECT_EQ(names.size(), 1u) << "crash point " << n;
    }
    if (crashed) {
      RunAndCrashAt(s.a_dir, 1);  // the recovery itself may be killed once
      CompactReport rep;
      ASSERT_TRUE(RunCompact(s.a_dir, Opts(), &rep).ok()) << "crash point " << n;
    }
    V final_names = Names(s.a_dir + "/f");
    ASSERT_EQ(final_names.size(), 1u) << "crash point " << n;
    EXPECT_EQ(ReadCells(s.a_dir + "/f/" + final_names[0]), kBottom) << "crash point " << n;
    EXPECT_FALSE(fs::exists(s.a_dir + "/.tmp")) << "crash point " << n;
    V archived = Names(s.Archive(s.a));
    for (const auto& o : old_names)
      EXPECT_NE(std::find(archived.begin(), archived.end(), o), archived.end())
          << o << " not archived, crash point " << n;
    EXPECT_EQ(Contents(s.parent_dir + "/f"), parent_before) << "crash point " << n;
    if (!crashed) break;
    ++crashes;
  }
  EXPECT_GE(crashes, 8);  // journal, output started/written/verified, commit, 3 disposals
}

// --- real HBase-written files -----------------------------------------------------------------

std::string OnlyFile(const std::string& dir) {
  V n = Names(dir);
  EXPECT_EQ(n.size(), 1u) << dir;
  return n.empty() ? "" : dir + "/" + n[0];
}

TEST(CompactRefs, RealSplitTableDaughtersLinksAndBulkLoads) {
  HFILE_REQUIRE_REAL_DATA();
  SyntheticTable t = MakeTable("compact-refs-real");
  auto dir = [&](const RegionInfo& r) { return t.table_dir + "/" + r.EncodedName(); };
  const auto parent_before = Contents(dir(t.parent) + "/cf");
  const std::string link_target =
      t.root + "/archive/data/default/t/0123abcd/cf/" + std::string(kA1);
  const std::string link_target_bytes = test::ReadFileOrDie(link_target);

  // What the daughters must end with: the parent's files compacted as one store, cut at "l";
  // and the first region: its plain file and the link's target compacted as plain files.
  SyntheticTable copy = MakeTable("compact-refs-real-expected");
  auto copy_dir = [&](const RegionInfo& r) { return copy.table_dir + "/" + r.EncodedName(); };
  for (const auto* r : {&copy.a, &copy.b}) fs::remove_all(copy_dir(*r));
  fs::remove(copy_dir(copy.first) + "/cf/t=0123abcd-" + std::string(kA1));
  fs::copy_file(link_target, copy_dir(copy.first) + "/cf/" + std::string(kA1));
  CompactOptions forced = Opts();
  forced.force = true;  // the parent's split flags
  for (const auto* r : {&copy.parent, &copy.first}) {
    CompactReport expected;
    ASSERT_TRUE(RunCompact(copy_dir(*r), forced, &expected).ok());
  }
  V bottom, top;
  for (const auto& c : ReadCells(OnlyFile(copy_dir(copy.parent) + "/cf")))
    (c < "l" ? bottom : top).push_back(c);
  ASSERT_FALSE(bottom.empty());
  ASSERT_FALSE(top.empty());

  CompactReport rep;
  Status st = RunCompact(t.table_dir, Opts(), &rep);
  EXPECT_TRUE(st.ok()) << st.ToString();  // the parent is skipped, as HBase never opens it
  EXPECT_TRUE(rep.refused.empty());
  bool referenced = false;
  for (const auto& s : rep.stores)
    referenced = referenced || (s.region == t.parent.EncodedName() &&
                                s.skipped.find("split parent still referenced") != std::string::npos);
  EXPECT_TRUE(referenced);
  size_t compacted = 0;
  for (const auto& s : rep.stores) compacted += !s.output.empty();
  EXPECT_EQ(compacted, 4u);  // first, a, b, last
  EXPECT_EQ(ReadCells(OnlyFile(dir(t.a) + "/cf")), bottom);
  EXPECT_EQ(ReadCells(OnlyFile(dir(t.b) + "/cf")), top);
  EXPECT_EQ(Contents(dir(t.parent) + "/cf"), parent_before);
  for (const auto* r : {&t.a, &t.b})
    EXPECT_EQ(Names(t.root + "/archive/data/default/t/" + r->EncodedName() + "/cf"),
              (V{std::string(kF1) + "." + t.parent.EncodedName(),
                 std::string(kF2) + "." + t.parent.EncodedName()}));

  // The link was rewritten into the first region's output and archived; its target stays.
  EXPECT_EQ(ReadCells(OnlyFile(dir(t.first) + "/cf")),
            ReadCells(OnlyFile(copy_dir(copy.first) + "/cf")));
  EXPECT_EQ(Names(t.root + "/archive/data/default/t/" + t.first.EncodedName() + "/cf"),
            (V{std::string(kA2), "t=0123abcd-" + std::string(kA1)}));
  ASSERT_TRUE(fs::exists(link_target));
  EXPECT_EQ(test::ReadFileOrDie(link_target), link_target_bytes);

  // The bulk-loaded file's cells carry its name's sequence id 42 into the output.
  const std::string last_output = OnlyFile(dir(t.last) + "/cf");
  auto last = Reader::Open(last_output);
  ASSERT_TRUE(last.ok());
  EXPECT_GE((*last)->file_info().GetInt64(fileinfo::kMaxSeqId).value_or(0), 42);
  size_t at_42 = 0;
  for (const auto& c : ReadCells(last_output))
    at_42 += c.ends_with("#42");
  EXPECT_GT(at_42, 0u);
}

}  // namespace
}  // namespace hfile::region
