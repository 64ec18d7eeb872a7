// Offline copy-family: every cell under the new name with everything else kept (sequence ids,
// tags, file info, bulk-load names), one file per file, the descriptor, --drop-old, refusals,
// the dry run, and SIGKILL at every step leaving OLD whole or NEW complete; a rerun finishes.
#include "region/copy_family.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <set>

#include "hfile/reader.h"
#include "region/region_set.h"
#include "region/layout.h"
#include "region/store_file_reader.h"
#include "region/store_file_sequence.h"
#include "store_fixture.h"
#include "testutil.h"

namespace hfile::region {
namespace {

namespace fs = std::filesystem;
using store_fixture::Table;
using store_fixture::WriteStoreFile;
using Cells = std::multiset<std::string>;

constexpr int64_t kNow = 1700000000000;

CellData V(const char* row, const char* family, int64_t ts, const char* v, uint64_t seq,
           KeyType type = KeyType::kPut) {
  return CellData::Make(row, family, "q", ts, type, v, seq);
}

struct Docs : Table {
  explicit Docs(const std::string& name) : Table(name, {"m", "b"}) {
    FamilyDescriptor m = FamilyDescriptor::WithDefaults("m");
    m.SetValue(family_key::kVersions, "3");
    m.SetValue(family_key::kCompression, "GZ");
    TableDescriptor d(TableName{"default", "t"});
    d.AddFamily(m);
    d.AddFamily(FamilyDescriptor::WithDefaults("b"));
    std::string bytes;
    d.EncodeTo(&bytes);
    fs::remove(table_dir + "/.tabledesc/" + TableInfoFileNameFor(1));
    test::WriteFileOrDie(table_dir + "/.tabledesc/" + TableInfoFileNameFor(1), bytes);
    WriteStoreFile(Family("m") + "aaaa0001",
                   {V("r1", "m", 100, "v1", 1), V("r2", "m", 100, "x", 2)}, 2);
    WriteStoreFile(Family("m") + "aaaa0002",
                   {V("r1", "m", 200, "v2", 3), V("r3", "m", 100, "", 4, KeyType::kDeleteColumn)}, 4);
    WriteStoreFile(Family("m") + "aaaa0003_SeqId_9_", {V("r4", "m", 300, "v3", 0)}, 9);
    WriteStoreFile(Family("b") + "bbbb0001", {V("r1", "b", 100, "body", 6)}, 6);
  }
};

// Cells of a family (family aside), as HBase reads its store files, with sequence ids.
Cells FamilyCells(const std::string& table_dir, const std::string& family) {
  Cells out;
  auto set = OpenTableRegions(table_dir);
  EXPECT_TRUE(set.ok()) << set.status().ToString();
  if (!set.ok()) return out;
  for (const auto& r : set->regions)
    for (const auto& f : r.families) {
      if (f.name != family) continue;
      for (const auto& sf : f.store_files) {
        auto reader = StoreFileReader::Open(sf);
        EXPECT_TRUE(reader.ok()) << reader.status().ToString();
        if (!reader.ok()) continue;
        auto it = (*reader)->NewIterator();
        for (it->SeekToFirst(); it->Valid(); it->Next()) {
          const Cell& c = it->cell();
          EXPECT_EQ(c.family().ToString(), family);
          out.insert(c.row().ToString() + ":" + c.qualifier().ToString() + "@" +
                     std::to_string(c.timestamp()) + "/" + std::to_string(c.type()) + "=" +
                     c.value.ToString() + "#" + std::to_string(c.sequence_id));
        }
      }
    }
  return out;
}

std::vector<std::string> Files(const std::string& dir) {
  std::vector<std::string> out;
  if (!fs::exists(dir)) return out;
  for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

CopyFamilyOptions Opts(const std::string& from = "m", const std::string& to = "n") {
  CopyFamilyOptions o;
  o.from = from;
  o.to = to;
  o.now_ms = kNow;
  return o;
}

Status Copy(const std::string& table_dir, const CopyFamilyOptions& o,
            CopyFamilyReport* report = nullptr) {
  HFILE_ASSIGN_OR_RETURN(CopyFamilyPlan plan, PlanCopyFamily(table_dir, o));
  CopyFamilyReport r;
  return RunCopyFamily(plan, o, report ? report : &r);
}

TEST(CopyFamily, EveryCellUnderTheNewNameWithEverythingKept) {
  Docs t("copy-family-basic");
  const Cells before = FamilyCells(t.table_dir, "m");
  ASSERT_EQ(before.size(), 5u);
  CopyFamilyReport rep;
  Status s = Copy(t.table_dir, Opts(), &rep);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_TRUE(rep.verified);
  EXPECT_EQ(rep.files_in, 3u);
  EXPECT_EQ(rep.files_out, 3u);
  EXPECT_EQ(rep.cells, 5u);
  EXPECT_EQ(FamilyCells(t.table_dir, "n"), before);
  EXPECT_EQ(FamilyCells(t.table_dir, "m"), before);  // OLD untouched
  // One file per file; the bulk-loaded name keeps its sequence id.
  const auto names = Files(t.Family("n"));
  ASSERT_EQ(names.size(), 3u);
  EXPECT_EQ(std::count_if(names.begin(), names.end(),
                          [](const std::string& n) { return n.ends_with("_SeqId_9_"); }),
            1);
  // File info kept: each copy's MAX_SEQ_ID is its source's.
  std::multiset<int64_t> seqs;
  for (const auto& n : names) {
    auto r = Reader::Open(t.Family("n") + n);
    ASSERT_TRUE(r.ok());
    seqs.insert((*r)->file_info().GetInt64(fileinfo::kMaxSeqId).value_or(-1));
    EXPECT_EQ((*r)->trailer().compression(), Compression::kGz);  // NEW has OLD's settings
  }
  EXPECT_EQ(seqs, (std::multiset<int64_t>{2, 4, 9}));
  // The descriptor: NEW is OLD under another name; OLD stays.
  auto d = ReadTableDescriptor(t.table_dir);
  ASSERT_TRUE(d.ok());
  const FamilyDescriptor* n = d->descriptor.FindFamily("n");
  ASSERT_NE(n, nullptr);
  EXPECT_EQ(n->max_versions(), 3);
  EXPECT_EQ(n->compression(), Compression::kGz);
  EXPECT_NE(d->descriptor.FindFamily("m"), nullptr);
  EXPECT_FALSE(fs::exists(t.table_dir + "/.hfile-journal"));
  for (const auto& e : fs::directory_iterator(t.table_dir))
    EXPECT_FALSE(e.path().filename().string().starts_with(".hfile-")) << e.path();
}

// What HBase leaves after splitting a region until the daughters are compacted: the parent
// (offline, split) keeps its files, the daughters hold BOTTOM/TOP References to them, one to a
// bulk-loaded file. The copy reads each Reference as its half and writes it as a real file;
// the parent is neither refused nor copied.
struct SplitDocs : Table {
  RegionInfo a, b;
  explicit SplitDocs(const std::string& name) : Table(name, {"m"}) {
    WriteStoreFile(Family("m") + "aaaa0001",
                   {V("r1", "m", 100, "v1", 1), V("r7", "m", 100, "v7", 2)}, 2);
    WriteStoreFile(Family("m") + "aaaa0002_SeqId_9_",
                   {V("r2", "m", 300, "b2", 0), V("r8", "m", 300, "b8", 0)}, 9);
    info.split = info.offline = true;
    std::string bytes;
    info.EncodeTo(&bytes);
    test::WriteFileOrDie(region_dir + "/.regioninfo", bytes);
    a = info;
    a.split = a.offline = false;
    a.region_id = 2000;
    b = a;
    a.end_key = b.start_key = "r5";
    for (const auto* d : {&a, &b}) {
      const std::string dir = Daughter(*d);
      fs::create_directories(dir + "/m");
      bytes.clear();
      d->EncodeTo(&bytes);
      test::WriteFileOrDie(dir + "/.regioninfo", bytes);
      std::string ref;
      Reference::ForRow("r5", d == &a ? Reference::Range::kBottom : Reference::Range::kTop)
          .EncodeTo(&ref);
      for (const char* f : {"aaaa0001", "aaaa0002_SeqId_9_"})
        test::WriteFileOrDie(dir + "/m/" + f + "." + info.EncodedName(), ref);
    }
    WriteStoreFile(Daughter(b) + "/m/bbbb0001", {V("r9", "m", 100, "v9", 20)}, 20);
  }
  std::string Daughter(const RegionInfo& r) const { return table_dir + "/" + r.EncodedName(); }
};

// One region's cells of `family` as HBase reads them (References as halves, bulk-loaded files
// with their name's sequence id), family aside; and the MAX_SEQ_ID HBase gives each file.
Cells RegionCells(const std::string& root, const std::string& region_dir, const std::string& family,
                  std::multiset<int64_t>* file_seqs = nullptr) {
  Cells out;
  auto desc = ReadTableDescriptor(fs::path(region_dir).parent_path().string());
  EXPECT_TRUE(desc.ok());
  if (!desc.ok()) return out;
  auto r = ScanRegionDir(root, region_dir, &desc->descriptor);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  if (!r.ok() || !r->FindFamily(family)) return out;
  for (const auto& sf : r->FindFamily(family)->store_files) {
    auto seq = ReadStoreFileSequence(sf);
    EXPECT_TRUE(seq.ok());
    if (file_seqs && seq.ok()) file_seqs->insert(seq->sequence_id);
    auto reader = StoreFileReader::Open(sf);
    EXPECT_TRUE(reader.ok()) << reader.status().ToString();
    if (!reader.ok()) continue;
    auto it = (*reader)->NewIterator();
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      const Cell& c = it->cell();
      out.insert(c.row().ToString() + "@" + std::to_string(c.timestamp()) + "=" +
                 c.value.ToString() + "#" + std::to_string(c.sequence_id));
    }
  }
  return out;
}

TEST(CopyFamily, SplitDaughtersReferencesBecomeRealHalves) {
  for (bool drop : {false, true}) {
    SCOPED_TRACE(drop ? "--drop-old" : "OLD kept");
    SplitDocs t(drop ? "copy-family-split-drop" : "copy-family-split");
    std::multiset<int64_t> seqs_a, seqs_b;
    const Cells a = RegionCells(t.root, t.Daughter(t.a), "m", &seqs_a);
    const Cells b = RegionCells(t.root, t.Daughter(t.b), "m", &seqs_b);
    // The TOP half of the bulk-loaded file reads as 9 + 1 (HStoreFile), its cells too.
    ASSERT_EQ(a, (Cells{"r1@100=v1#1", "r2@300=b2#9"}));
    ASSERT_EQ(b, (Cells{"r7@100=v7#2", "r8@300=b8#10", "r9@100=v9#20"}));
    CopyFamilyOptions o = Opts();
    o.drop_old = drop;
    CopyFamilyReport rep;
    Status s = Copy(t.table_dir, o, &rep);
    ASSERT_TRUE(s.ok()) << s.ToString();
    EXPECT_TRUE(rep.verified);
    EXPECT_EQ(rep.files_in, 5u);  // the daughters' files; not the parent's
    std::multiset<int64_t> new_a, new_b;
    EXPECT_EQ(RegionCells(t.root, t.Daughter(t.a), "n", &new_a), a);
    EXPECT_EQ(RegionCells(t.root, t.Daughter(t.b), "n", &new_b), b);
    EXPECT_EQ(new_a, seqs_a);  // {2, 9}: as HBase numbered the References
    EXPECT_EQ(new_b, seqs_b);  // {3, 10, 20}
    const auto names_b = Files(t.Daughter(t.b) + "/n");
    EXPECT_EQ(names_b.size(), 3u);
    EXPECT_EQ(std::count_if(names_b.begin(), names_b.end(),
                            [](const std::string& n) { return n.ends_with("_SeqId_10_"); }),
              1);
    for (const auto& d : {t.a, t.b})
      for (const auto& n : Files(t.Daughter(d) + "/n"))
        EXPECT_EQ(n.find('.'), std::string::npos) << n << ": a Reference";
    EXPECT_TRUE(Files(t.Family("n")).empty());  // the parent: HBase never opens it
    if (drop) {
      EXPECT_FALSE(fs::exists(t.Family("m")));
      EXPECT_FALSE(fs::exists(t.Daughter(t.a) + "/m"));
      const std::string archive = t.root + "/archive/data/default/t/";
      EXPECT_EQ(Files(archive + t.info.EncodedName() + "/m").size(), 2u);
      EXPECT_EQ(Files(archive + t.b.EncodedName() + "/m").size(), 3u);
    } else {
      EXPECT_EQ(RegionCells(t.root, t.Daughter(t.b), "m"), b);  // OLD untouched
      EXPECT_EQ(Files(t.Family("m")).size(), 2u);
    }
  }
}

TEST(CopyFamily, SetOverridesAndDropOldArchives) {
  Docs t("copy-family-drop");
  const Cells before = FamilyCells(t.table_dir, "m");
  CopyFamilyOptions o = Opts();
  o.set = {{"COMPRESSION", "ZSTD"}, {"VERSIONS", "5"}};
  o.drop_old = true;
  CopyFamilyReport rep;
  Status s = Copy(t.table_dir, o, &rep);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_TRUE(rep.dropped);
  EXPECT_EQ(FamilyCells(t.table_dir, "n"), before);
  EXPECT_FALSE(fs::exists(t.Family("m")));
  EXPECT_EQ(Files(t.root + "/archive/data/default/t/" + fs::path(t.region_dir).filename().string() + "/m").size(), 3u);
  auto d = ReadTableDescriptor(t.table_dir);
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->descriptor.FindFamily("m"), nullptr);
  ASSERT_NE(d->descriptor.FindFamily("n"), nullptr);
  EXPECT_EQ(d->descriptor.FindFamily("n")->max_versions(), 5);
  for (const auto& name : Files(t.Family("n"))) {
    auto r = Reader::Open(t.Family("n") + name);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ((*r)->trailer().compression(), Compression::kZstd);
  }
  EXPECT_FALSE(fs::exists(t.table_dir + "/.hfile-journal"));
}

TEST(CopyFamily, CompactWritesOneFilePerStore) {
  Docs t("copy-family-compact");
  CopyFamilyOptions o = Opts();
  o.compact = true;
  ASSERT_TRUE(Copy(t.table_dir, o).ok());
  EXPECT_EQ(Files(t.Family("n")).size(), 1u);
  EXPECT_EQ(Files(t.Family("m")).size(), 3u);
}

TEST(CopyFamily, Refusals) {
  Docs t("copy-family-refuse");
  const auto before = test::ListFilesRecursive(t.root);
  EXPECT_TRUE(Copy(t.table_dir, Opts("m", "b")).IsInvalidArgument());   // NEW exists
  EXPECT_TRUE(Copy(t.table_dir, Opts("x", "n")).IsInvalidArgument());   // no OLD
  EXPECT_TRUE(Copy(t.table_dir, Opts("m", "m")).IsInvalidArgument());
  EXPECT_TRUE(Copy(t.table_dir, Opts("m", "a/b")).IsInvalidArgument());
  CopyFamilyOptions bad = Opts();
  bad.set = {{"BLOCKSIZE", "12"}};
  EXPECT_FALSE(Copy(t.table_dir, bad).ok());
  EXPECT_TRUE(Copy(t.region_dir, Opts()).IsInvalidArgument());         // not a table dir
  fs::create_directories(t.region_dir + "/recovered.edits");
  test::WriteFileOrDie(t.region_dir + "/recovered.edits/0000000000000000012", "edits");
  const auto with_edits = test::ListFilesRecursive(t.root);
  EXPECT_TRUE(Copy(t.table_dir, Opts()).IsNotSupported());              // unclean
  EXPECT_EQ(test::ListFilesRecursive(t.root), with_edits);
  (void)before;
}

TEST(CopyFamily, DryRunWritesNothing) {
  Docs t("copy-family-dry");
  const auto before = test::ListFilesRecursive(t.root);
  CopyFamilyOptions o = Opts();
  o.dry_run = true;
  CopyFamilyReport rep;
  ASSERT_TRUE(Copy(t.table_dir, o, &rep).ok());
  EXPECT_EQ(rep.files_in, 3u);
  EXPECT_EQ(rep.cells, 5u);
  EXPECT_GT(rep.bytes_out, 0u);
  EXPECT_GT(rep.estimated_seconds, 0.0);  // measured: the dry run's own passes, scaled
  EXPECT_LT(rep.estimated_seconds, 60.0);
  EXPECT_EQ(test::ListFilesRecursive(t.root), before);
}

// SIGKILL at every step: OLD always reads whole; NEW is absent or complete; the rerun of the same
// command finishes (with --drop-old: OLD archived only after NEW is committed and verified).
TEST(CopyFamily, SigkillAtEveryStepLosesNothingAndARerunFinishes) {
  Docs pristine("copy-family-kill-pristine");
  const Cells old_cells = FamilyCells(pristine.table_dir, "m");
  int crashes = 0;
  for (int n = 1; n < 40; ++n) {
    Docs t("copy-family-kill");
    CopyFamilyOptions o = Opts();
    o.drop_old = true;
    pid_t pid = ::fork();
    if (pid == 0) {
      int count = 0;
      CopyFamilyOptions k = o;
      k.checkpoint = [&](const std::string&) {
        if (++count == n) ::raise(SIGKILL);
      };
      ::_exit(Copy(t.table_dir, k).ok() ? 0 : 1);
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    const bool crashed = WIFSIGNALED(status);
    if (!crashed) EXPECT_EQ(WEXITSTATUS(status), 0) << "step " << n;
    crashes += crashed;
    auto d = ReadTableDescriptor(t.table_dir);
    ASSERT_TRUE(d.ok()) << "step " << n;
    // Whatever the descriptor names reads whole.
    if (d->descriptor.FindFamily("m")) EXPECT_EQ(FamilyCells(t.table_dir, "m"), old_cells) << n;
    if (d->descriptor.FindFamily("n")) EXPECT_EQ(FamilyCells(t.table_dir, "n"), old_cells) << n;
    EXPECT_TRUE(d->descriptor.FindFamily("m") || d->descriptor.FindFamily("n")) << n;
    // Killed after the very end: the rerun finds nothing to copy and says so.
    const bool finished = !d->descriptor.FindFamily("m") &&
                          !fs::exists(t.table_dir + "/.hfile-journal");
    Status rerun = Copy(t.table_dir, o);
    if (finished) {
      EXPECT_TRUE(rerun.IsInvalidArgument()) << rerun.ToString();
    } else {
      ASSERT_TRUE(rerun.ok()) << "rerun after step " << n << ": " << rerun.ToString();
    }
    auto after = ReadTableDescriptor(t.table_dir);
    ASSERT_TRUE(after.ok());
    EXPECT_EQ(after->descriptor.FindFamily("m"), nullptr) << n;
    EXPECT_EQ(FamilyCells(t.table_dir, "n"), old_cells) << n;
    EXPECT_FALSE(fs::exists(t.table_dir + "/.hfile-journal")) << n;
    if (!crashed) break;
  }
  EXPECT_GE(crashes, 8);
}

}  // namespace
}  // namespace hfile::region
