// ReadMetaTable and `hfile verify --table`'s hbase:meta comparison over roots built here: a
// table's region dirs and hbase:meta store files written with the project's writer (meta cell
// order), and the real roots of the shared corpus that have an hbase:meta.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <sstream>

#include "hfile/writer.h"
#include "region/meta_table.h"
#include "region/region_info.h"
#include "region/region_set.h"
#include "region/table_descriptor.h"
#include "region/vector_iterator.h"
#include "region/verify_region.h"
#include "../testutil.h"

namespace hfile::region {
namespace {

namespace fs = std::filesystem;
using Sev = LayoutProblem::Severity;

RegionInfo Region(const std::string& start, const std::string& end, uint64_t id = 1000) {
  RegionInfo r;
  r.table = TableName{"default", "t"};
  r.start_key = start;
  r.end_key = end;
  r.region_id = id;
  return r;
}

// A root with table default:t (family f, no store files: the comparison is about regions) and
// an hbase:meta region dir whose info family the tests fill.
struct Root {
  std::string root, table_dir, meta_info;

  explicit Root(const std::string& name) {
    root = test::NewTempDir(name);
    table_dir = root + "/data/default/t";
    fs::create_directories(table_dir + "/.tabledesc");
    TableDescriptor d(TableName{"default", "t"});
    d.AddFamily(FamilyDescriptor::WithDefaults("f"));
    std::string bytes;
    d.EncodeTo(&bytes);
    test::WriteFileOrDie(table_dir + "/.tabledesc/" + TableInfoFileNameFor(1), bytes);
    std::string meta_dir = MetaRegionDirPath(root);
    meta_info = meta_dir + "/info";
    fs::create_directories(meta_info);
    RegionInfo m;
    m.table = TableName{"hbase", "meta"};
    m.region_id = 1;
    bytes.clear();
    m.EncodeTo(&bytes);
    test::WriteFileOrDie(meta_dir + "/.regioninfo", bytes);
  }

  void AddDir(const RegionInfo& r) const {
    std::string dir = table_dir + "/" + r.EncodedName();
    fs::create_directories(dir + "/f");
    std::string bytes;
    r.EncodeTo(&bytes);
    test::WriteFileOrDie(dir + "/.regioninfo", bytes);
  }
};

// The meta cells of one region row (info:regioninfo and info:state) at timestamp `ts`.
void AddRow(std::vector<CellData>* cells, const RegionInfo& r, const std::string& state,
            int64_t ts = 100, uint64_t seq = 5) {
  std::string v;
  r.EncodeMetaValueTo(&v);
  cells->push_back(CellData::Make(r.RegionName(), "info", "regioninfo", ts, KeyType::kPut, v, seq));
  cells->push_back(CellData::Make(r.RegionName(), "info", "state", ts, KeyType::kPut, state, seq));
}

// Writes `cells` (sorted here in meta order) as an hbase:meta flush with MAX_SEQ_ID `max_seq`.
void WriteMetaFile(const std::string& path, std::vector<CellData> cells, int64_t max_seq) {
  std::stable_sort(cells.begin(), cells.end(), [](const CellData& a, const CellData& b) {
    return CompareKeys(ComparatorKind::kMeta, a.key, b.key) < 0;
  });
  WriterOptions o;
  o.comparator = ComparatorKind::kMeta;
  o.max_seq_id = max_seq;
  auto w = Writer::Create(path, o);
  ASSERT_TRUE(w.ok()) << w.status().ToString();
  for (const auto& c : cells) ASSERT_TRUE((*w)->Append(c.view()).ok());
  ASSERT_TRUE((*w)->Finish().ok());
}

RegionVerifyReport Verify(const Root& root) {
  auto set = OpenTableRegions(root.root, "default:t");
  EXPECT_TRUE(set.ok()) << set.status().ToString();
  RegionVerifyOptions o;
  o.check_meta = true;
  return VerifyRegionSet(*set, o);
}

// The meta findings of a report, as "finding region" strings, sorted.
std::vector<std::string> MetaFindings(const RegionVerifyReport& report) {
  std::vector<std::string> out;
  for (const auto& p : report.problems)
    if (!p.finding.empty()) out.push_back(p.finding + " " + p.region);
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> Sorted(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  return v;
}

std::string Text(const RegionVerifyReport& report, bool json = false) {
  std::ostringstream s;
  PrintRegionVerifyReport(report, json, false, s);
  return s.str();
}

TEST(MetaVerify, AgreeingMetaAndDirsAreClean) {
  Root root("meta_clean");
  RegionInfo a = Region("", "g"), b = Region("g", "p"), c = Region("p", "");
  std::vector<CellData> cells;
  for (const auto& r : {a, b, c}) {
    root.AddDir(r);
    AddRow(&cells, r, "OPEN");
  }
  // Other tables' rows, before and after t's in meta order: not t's regions.
  RegionInfo other = Region("", "k"), other_ns = Region("", "");
  other.table = TableName{"default", "s"};
  other_ns.table = TableName{"ns", "t"};
  AddRow(&cells, other, "OPEN");
  AddRow(&cells, other_ns, "OPEN");
  WriteMetaFile(root.meta_info + "/0123456789abcdef0123456789abcdef", cells, 10);

  auto all = ReadMetaTable(root.root);
  ASSERT_TRUE(all.ok()) << all.status().ToString();
  EXPECT_EQ(all->regions.size(), 5u);
  const TableName t{"default", "t"};
  auto meta = ReadMetaTable(root.root, {}, &t);
  ASSERT_TRUE(meta.ok()) << meta.status().ToString();
  ASSERT_EQ(meta->regions.size(), 3u);
  EXPECT_EQ(meta->regions[0].info.EncodedName(), a.EncodedName());
  EXPECT_EQ(meta->regions[1].info.start_key, "g");
  EXPECT_EQ(meta->regions[2].state, "OPEN");
  EXPECT_TRUE(meta->wal_files.empty());

  RegionVerifyReport report = Verify(root);
  EXPECT_TRUE(report.clean()) << Text(report);
  EXPECT_TRUE(report.meta_checked);
  EXPECT_EQ(report.meta_regions, 3u);
  EXPECT_TRUE(MetaFindings(report).empty()) << Text(report);
  EXPECT_NE(Text(report).find("3 rows of the table compared with its region directories"),
            std::string::npos) << Text(report);
}

TEST(MetaVerify, OfflineSplitBeforeTheMetaFix) {
  // What `hfile split` leaves: the parent's dir archived, two daughter dirs, meta unchanged.
  Root root("meta_offline_split");
  RegionInfo parent = Region("", ""), a = Region("", "m", 2000), b = Region("m", "", 2000);
  root.AddDir(a);
  root.AddDir(b);
  std::vector<CellData> cells;
  AddRow(&cells, parent, "CLOSED");
  WriteMetaFile(root.meta_info + "/0123456789abcdef0123456789abcdef", cells, 10);

  RegionVerifyReport report = Verify(root);
  EXPECT_TRUE(report.corrupt());
  EXPECT_EQ(MetaFindings(report),
            Sorted({"dir_not_in_meta " + a.EncodedName(),
                                      "dir_not_in_meta " + b.EncodedName(),
                                      "meta_region_without_dir " + parent.EncodedName()}))
      << Text(report);
  // The dirs alone tile the key space: only the meta comparison finds something.
  EXPECT_EQ(report.errors, 3u) << Text(report);
  std::string json = Text(report, true);
  EXPECT_NE(json.find("\"finding\":\"dir_not_in_meta\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"finding\":\"meta_region_without_dir\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"meta\":{\"path\":"), std::string::npos) << json;
  EXPECT_NE(json.find("\"regions\":1,\"wal_files\":[]}"), std::string::npos) << json;

  // After the fix (the parent's row gone, CLOSED daughter rows): clean.
  fs::remove_all(root.meta_info);
  fs::create_directories(root.meta_info);
  cells.clear();
  AddRow(&cells, a, "CLOSED");
  AddRow(&cells, b, "CLOSED");
  WriteMetaFile(root.meta_info + "/0123456789abcdef0123456789abcdef", cells, 11);
  report = Verify(root);
  EXPECT_TRUE(report.clean()) << Text(report);
  EXPECT_TRUE(MetaFindings(report).empty()) << Text(report);
  EXPECT_EQ(report.meta_regions, 2u);
}

TEST(MetaVerify, HolesOverlapsAndDifferingRegionInfo) {
  Root root("meta_holes");
  RegionInfo a = Region("", "g"), b = Region("g", "p"), c = Region("p", "");
  for (const auto& r : {a, b, c}) root.AddDir(r);
  // Meta's RegionInfo of b ends at "m" (the encoded name does not hash the end key): a hole
  // ['m', 'p') in meta; and a live region x ['k', 's') with no dir overlaps b and c.
  RegionInfo b_meta = b;
  b_meta.end_key = "m";
  RegionInfo x = Region("k", "s", 3000);
  std::vector<CellData> cells;
  AddRow(&cells, a, "OPEN");
  AddRow(&cells, b_meta, "OPEN");
  AddRow(&cells, c, "OPEN");
  AddRow(&cells, x, "OPEN");
  WriteMetaFile(root.meta_info + "/0123456789abcdef0123456789abcdef", cells, 10);

  RegionVerifyReport report = Verify(root);
  EXPECT_TRUE(report.corrupt());
  // Meta's live regions in start-key order: a [,g) b [g,m) x [k,s) c [p,): x overlaps b, c
  // overlaps x.
  EXPECT_EQ(MetaFindings(report),
            Sorted({"meta_overlap " + x.EncodedName(),
                                      "meta_overlap " + c.EncodedName(),
                                      "meta_region_without_dir " + x.EncodedName(),
                                      "meta_regioninfo_differs " + b.EncodedName()}))
      << Text(report);
  std::string text = Text(report);
  EXPECT_NE(text.find("meta vs dir: end key 'm' vs 'p'"), std::string::npos) << text;

  // Only the differing end key: a hole in meta's key space.
  fs::remove_all(root.meta_info);
  fs::create_directories(root.meta_info);
  cells.clear();
  AddRow(&cells, a, "OPEN");
  AddRow(&cells, b_meta, "OPEN");
  AddRow(&cells, c, "OPEN");
  WriteMetaFile(root.meta_info + "/0123456789abcdef0123456789abcdef", cells, 11);
  report = Verify(root);
  EXPECT_EQ(MetaFindings(report),
            Sorted({"meta_hole " + c.EncodedName(),
                                      "meta_regioninfo_differs " + b.EncodedName()}))
      << Text(report);
  EXPECT_NE(Text(report).find("hbase:meta: hole: no region covers ['m', 'p')"),
            std::string::npos) << Text(report);
}

TEST(MetaVerify, SplitParentsAreLeftOutAndMergeParentsNoted) {
  Root root("meta_parents");
  // An online split not yet cleaned up: the parent's row says split+offline, state SPLIT; its
  // dir is already archived. Daughters a, b. A merge of b's neighbours c and d into m: m's row
  // names c and d, whose dirs are still there.
  RegionInfo parent = Region("", "p"), a = Region("", "g", 2000), b = Region("g", "p", 2000);
  RegionInfo c = Region("p", "t"), d = Region("t", ""), m = Region("p", "", 4000);
  parent.split = parent.offline = true;
  for (const auto& r : {a, b, c, d, m}) root.AddDir(r);
  std::vector<CellData> cells;
  AddRow(&cells, parent, "SPLIT");
  AddRow(&cells, a, "OPEN");
  AddRow(&cells, b, "OPEN");
  AddRow(&cells, m, "OPEN");
  for (const auto& [q, p] : {std::pair{"merge0000", c}, std::pair{"merge0001", d}}) {
    std::string v;
    p.EncodeMetaValueTo(&v);
    cells.push_back(CellData::Make(m.RegionName(), "info", q, 100, KeyType::kPut, v, 5));
  }
  WriteMetaFile(root.meta_info + "/0123456789abcdef0123456789abcdef", cells, 10);

  auto set = OpenTableRegions(root.root, "default:t");
  ASSERT_TRUE(set.ok());
  RegionVerifyOptions o;
  o.check_meta = true;
  RegionVerifyReport report = VerifyRegionSet(*set, o);
  std::vector<std::string> findings = MetaFindings(report);
  EXPECT_EQ(findings,
            Sorted({"dir_merge_parent " + c.EncodedName(),
                                      "dir_merge_parent " + d.EncodedName(),
                                      "meta_parent_without_dir " + parent.EncodedName()}))
      << Text(report);
  for (const auto& p : report.problems)
    if (!p.finding.empty()) {
      EXPECT_NE(p.severity, Sev::kError) << p.what;
    }
  // Meta's merge parents are not live dirs either: no overlap of m with c and d.
  EXPECT_TRUE(report.clean()) << Text(report);
  // Without meta the dirs alone overlap (c and d are not recognisable as merge parents).
  RegionVerifyReport dirs_only = VerifyRegionSet(*set, {});
  EXPECT_TRUE(dirs_only.corrupt());
  EXPECT_NE(Text(dirs_only).find("overlap: ['p', '') overlaps region"), std::string::npos)
      << Text(dirs_only);
}

TEST(MetaVerify, SplitParentCoveredPastItsEndByAMergedDaughter) {
  // HBase split P ['', 'p') into a ['', 'g') and b ['g', 'p'), then merged b with its neighbour
  // n ['p', '') into m ['g', ''); P's dir (flagged split) is still there: covered by a and m.
  Root root("meta_parent_merged");
  RegionInfo p = Region("", "p"), a = Region("", "g", 2000), m = Region("g", "", 3000);
  p.split = p.offline = true;
  for (const auto& r : {p, a, m}) root.AddDir(r);
  std::vector<CellData> cells;
  AddRow(&cells, p, "SPLIT");
  AddRow(&cells, a, "OPEN");
  AddRow(&cells, m, "OPEN");
  WriteMetaFile(root.meta_info + "/0123456789abcdef0123456789abcdef", cells, 10);
  RegionVerifyReport report = Verify(root);
  EXPECT_TRUE(report.clean()) << Text(report);
  EXPECT_EQ(report.warnings, 0u) << Text(report);
  // Without a's dir the parent's start is not covered.
  fs::remove_all(root.table_dir + "/" + a.EncodedName());
  report = Verify(root);
  EXPECT_NE(Text(report).find("split parent ['', 'p') is not covered by live regions"),
            std::string::npos) << Text(report);
}

TEST(MetaVerify, NewestVersionWinsAndDeletesAreHonoured) {
  Root root("meta_versions");
  RegionInfo a = Region("", "g"), b = Region("g", ""), gone = Region("g", "k", 500);
  root.AddDir(a);
  root.AddDir(b);
  // Older flush: b's RegionInfo with a wrong end key, and a region `gone` (no dir).
  RegionInfo b_old = b;
  b_old.end_key = "x";
  std::vector<CellData> old_cells;
  AddRow(&old_cells, a, "OPEN", 100, 5);
  AddRow(&old_cells, b_old, "OPEN", 100, 5);
  AddRow(&old_cells, gone, "OPEN", 100, 5);
  WriteMetaFile(root.meta_info + "/00000000000000000000000000000001", old_cells, 10);
  // Newer flush: b's right RegionInfo at a later timestamp; `gone`'s row deleted (as
  // MetaTableAccessor.deleteRegionInfo does: a DeleteFamily of info).
  std::vector<CellData> new_cells;
  AddRow(&new_cells, b, "OPEN", 200, 15);
  new_cells.push_back(
      CellData::Make(gone.RegionName(), "info", "", 150, KeyType::kDeleteFamily, "", 15));
  WriteMetaFile(root.meta_info + "/00000000000000000000000000000002", new_cells, 20);

  auto meta = ReadMetaTable(root.root);
  ASSERT_TRUE(meta.ok()) << meta.status().ToString();
  EXPECT_EQ(meta->store_files, 2u);
  ASSERT_EQ(meta->regions.size(), 2u);
  EXPECT_EQ(meta->regions[1].info.end_key, "");
  RegionVerifyReport report = Verify(root);
  EXPECT_TRUE(report.clean()) << Text(report);
  EXPECT_TRUE(MetaFindings(report).empty()) << Text(report);
}

TEST(MetaVerify, MetaWalsWithEditsAreNamed) {
  std::string header = "PWAL";
  header += '\x03';
  header += "abc";  // a 3-byte WALHeader
  EXPECT_TRUE(WalFileHasNoEntries(header));
  std::string closed = header + "xy" + std::string("\x00\x00\x00\x02", 4) + "LAWP";
  EXPECT_TRUE(WalFileHasNoEntries(closed));
  EXPECT_FALSE(WalFileHasNoEntries(header + "an entry"));
  EXPECT_FALSE(WalFileHasNoEntries(header + "entry" + std::string("\x00\x00\x00\x02", 4) + "LAWP"));
  EXPECT_FALSE(WalFileHasNoEntries("junk"));

  Root root("meta_wals");
  RegionInfo a = Region("", "");
  root.AddDir(a);
  std::vector<CellData> cells;
  AddRow(&cells, a, "OPEN");
  WriteMetaFile(root.meta_info + "/0123456789abcdef0123456789abcdef", cells, 10);
  std::string wals = root.root + "/WALs/rs1,16020,1";
  fs::create_directories(wals);
  test::WriteFileOrDie(wals + "/rs1%2C16020%2C1.1.meta", closed);       // no edits: not named
  test::WriteFileOrDie(wals + "/rs1%2C16020%2C1.2", header + "entry");  // not meta's
  RegionVerifyReport report = Verify(root);
  EXPECT_TRUE(report.meta_wals.empty());
  EXPECT_TRUE(MetaFindings(report).empty()) << Text(report);

  test::WriteFileOrDie(wals + "/rs1%2C16020%2C1.meta.3.meta", header + "an entry");
  report = Verify(root);
  EXPECT_TRUE(report.clean()) << Text(report);  // a warning: the view may be stale
  ASSERT_EQ(report.meta_wals.size(), 1u);
  EXPECT_EQ(MetaFindings(report), Sorted({"meta_wal_edits "}));
  EXPECT_NE(Text(report).find("(edits in its WALs not read)"), std::string::npos);
}

TEST(MetaVerify, NoMetaNoComparison) {
  Root root("meta_absent");
  root.AddDir(Region("", ""));
  // Not asked (the default: a bare table dir may be a copy meta does not describe).
  auto set = OpenTableRegions(root.table_dir);
  ASSERT_TRUE(set.ok());
  RegionVerifyReport report = VerifyRegionSet(*set, {});
  EXPECT_TRUE(report.clean()) << Text(report);
  EXPECT_FALSE(report.meta_checked);
  // Asked, but the root has no hbase:meta.
  fs::remove_all(MetaRegionDirPath(root.root));
  report = Verify(root);
  EXPECT_TRUE(report.clean()) << Text(report);
  EXPECT_FALSE(report.meta_checked);
  EXPECT_TRUE(ReadMetaTable(root.root).status().IsNotFound());
}

// The real roots of the corpus with an hbase:meta: meta agrees with every table's dirs.
TEST(MetaVerifyReal, RealRootsAgree) {
  HFILE_REQUIRE_REAL_DATA();
  const std::string real = test::RealDataDir();
  struct Case {
    const char* root;
    const char* table;
    uint64_t regions;
  };
  for (const Case& c : {Case{"hbase-2.2.3-rootdir", "hbase:namespace", 1},
                        Case{"hbase-4.0-snapshot-rootdir", "default:my_table", 1},
                        Case{"hbase-0.98-rootdir/hbase", "default:test", 1},
                        Case{"hbase-0.98-rootdir/hbase", "hbase:namespace", 1}}) {
    SCOPED_TRACE(std::string(c.root) + " " + c.table);
    auto set = OpenTableRegions(real + "/" + c.root, c.table);
    ASSERT_TRUE(set.ok()) << set.status().ToString();
    RegionVerifyOptions o;
    o.check_meta = true;
    RegionVerifyReport report = VerifyRegionSet(*set, o);
    EXPECT_TRUE(report.meta_checked);
    EXPECT_EQ(report.meta_regions, c.regions) << Text(report);
    for (const auto& p : report.problems)
      if (!p.finding.empty()) {
        EXPECT_EQ(p.finding, "meta_wal_edits") << p.what;
      }
    EXPECT_TRUE(report.clean()) << Text(report);
  }
}

}  // namespace
}  // namespace hfile::region
