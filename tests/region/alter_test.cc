// Offline alter: descriptor diff and effects, rewrites under the new settings, add/drop, refusals,
// dry run, the CLI, and SIGKILL at every step leaving a table HBase can open with nothing lost.
#include "region/alter.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <set>
#include <sstream>

#include "cli_common.h"
#include "hfile/reader.h"
#include "region/region_set.h"
#include "region/shell_statement.h"
#include "region/store_file_reader.h"
#include "split_table.h"
#include "store_fixture.h"
#include "testutil.h"

namespace hfile::region {
namespace {

namespace fs = std::filesystem;
using store_fixture::Table;
using store_fixture::WriteStoreFile;
using Cells = std::multiset<std::string>;

constexpr int64_t kNow = 1700000000000;

CellData V(const char* row, const char* family, int64_t ts, const char* v, uint64_t seq) {
  return CellData::Make(row, family, "q", ts, KeyType::kPut, v, seq);
}

// docs-like table: family m (3 flushes, up to 3 versions of a row), family b (one file).
struct Docs : Table {
  explicit Docs(const std::string& name) : Table(name, {"m", "b"}) {
    FamilyDescriptor m = FamilyDescriptor::WithDefaults("m");
    m.SetValue(family_key::kVersions, "3");
    TableDescriptor d(TableName{"default", "t"});
    d.AddFamily(m);
    d.AddFamily(FamilyDescriptor::WithDefaults("b"));
    std::string bytes;
    d.EncodeTo(&bytes);
    fs::remove(table_dir + "/.tabledesc/" + TableInfoFileNameFor(1));
    test::WriteFileOrDie(table_dir + "/.tabledesc/" + TableInfoFileNameFor(1), bytes);
    WriteStoreFile(Family("m") + "aaaa0001", {V("r1", "m", 100, "v1", 1), V("r2", "m", 100, "x", 2)}, 2);
    WriteStoreFile(Family("m") + "aaaa0002", {V("r1", "m", 200, "v2", 3), V("r3", "m", 100, "y", 4)}, 4);
    WriteStoreFile(Family("m") + "aaaa0003", {V("r1", "m", 300, "v3", 5)}, 5);
    WriteStoreFile(Family("b") + "bbbb0001", {V("r1", "b", 100, "body", 6)}, 6);
  }
};

// Every cell HBase would read from the table, as "row/family:q@ts=value".
Cells TableCells(const std::string& table_dir) {
  Cells out;
  auto set = OpenTableRegions(table_dir);
  EXPECT_TRUE(set.ok()) << set.status().ToString();
  if (!set.ok()) return out;
  for (const auto& r : set->regions)
    for (const auto& f : r.families)
      for (const auto& sf : f.store_files) {
        auto reader = StoreFileReader::Open(sf);
        EXPECT_TRUE(reader.ok()) << reader.status().ToString();
        if (!reader.ok()) continue;
        auto it = (*reader)->NewIterator();
        for (it->SeekToFirst(); it->Valid(); it->Next()) {
          const Cell& c = it->cell();
          out.insert(c.row().ToString() + "/" + c.family().ToString() + ":" +
                     c.qualifier().ToString() + "@" + std::to_string(c.timestamp()) + "=" +
                     c.value.ToString());
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

AlterOptions Opts() {
  AlterOptions o;
  o.compaction.now_ms = kNow;
  return o;
}

Result<TableDescriptor> Altered(const std::string& table_dir, const std::string& statement) {
  HFILE_ASSIGN_OR_RETURN(auto st, ParseAlterStatement(statement));
  HFILE_ASSIGN_OR_RETURN(auto current, ReadTableDescriptor(table_dir));
  return ApplyAlter(current.descriptor, st);
}

Status Alter(const std::string& table_dir, const std::string& statement,
             AlterOptions o = Opts(), AlterReport* report = nullptr) {
  HFILE_ASSIGN_OR_RETURN(TableDescriptor after, Altered(table_dir, statement));
  HFILE_ASSIGN_OR_RETURN(AlterPlan plan, PlanAlter(table_dir, after, o));
  AlterReport local;
  return RunAlter(plan, o, report ? report : &local);
}

const Cells kAfterVersions1 = {"r1/m:q@300=v3", "r2/m:q@100=x", "r3/m:q@100=y",
                               "r1/b:q@100=body"};

TEST(AlterEffects, FormatCellsAndReadTimeAttributes) {
  EXPECT_EQ(EffectOfFamilyAttribute("COMPRESSION"), AlterEffect::kFormat);
  EXPECT_EQ(EffectOfFamilyAttribute("BLOCKSIZE"), AlterEffect::kFormat);
  EXPECT_EQ(EffectOfFamilyAttribute("BLOOMFILTER"), AlterEffect::kFormat);
  EXPECT_EQ(EffectOfFamilyAttribute("DATA_BLOCK_ENCODING"), AlterEffect::kFormat);
  EXPECT_EQ(EffectOfFamilyAttribute("VERSIONS"), AlterEffect::kCells);
  EXPECT_EQ(EffectOfFamilyAttribute("TTL"), AlterEffect::kCells);
  EXPECT_EQ(EffectOfFamilyAttribute("BLOCKCACHE"), AlterEffect::kNone);
  EXPECT_EQ(EffectOfFamilyAttribute("IN_MEMORY"), AlterEffect::kNone);
}

// The seeds' example: a codec and block size change reaches the old files at once.
TEST(Alter, CodecAndBlockSizeRewriteTheFamilyNow) {
  Docs t("alter-codec");
  const auto b_before = Files(t.Family("b"));
  AlterReport rep;
  Status s = Alter(t.table_dir,
                   "alter 't', {NAME => 'm', BLOCKSIZE => 8192, COMPRESSION => 'GZ', VERSIONS => 1}",
                   Opts(), &rep);
  ASSERT_TRUE(s.ok()) << s.ToString();
  auto d = ReadTableDescriptor(t.table_dir);
  ASSERT_TRUE(d.ok());
  const FamilyDescriptor* m = d->descriptor.FindFamily("m");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->compression(), Compression::kGz);
  EXPECT_EQ(m->block_size(), 8192);
  EXPECT_EQ(m->max_versions(), 1);
  EXPECT_EQ(rep.descriptor_path, d->path);
  const auto m_files = Files(t.Family("m"));
  ASSERT_EQ(m_files.size(), 1u);
  auto r = Reader::Open(t.Family("m") + m_files[0]);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ((*r)->trailer().compression(), Compression::kGz);
  EXPECT_EQ(Files(t.Family("b")), b_before);  // the other family is untouched
  EXPECT_EQ(TableCells(t.table_dir), kAfterVersions1);
  EXPECT_EQ(Files(t.root + "/archive/data/default/t/" + t.info.EncodedName() + "/m").size(), 3u);
  EXPECT_FALSE(fs::exists(t.table_dir + "/.hfile-journal"));
}

// --keep-cells: the new codec reaches every file, and no compaction rule runs (the versions
// VERSIONS => 1 would drop stay; the descriptor says 1 for HBase's next compaction).
TEST(Alter, KeepCellsReencodesEveryCellWithoutRules) {
  Docs t("alter-keep-cells");
  const Cells before = TableCells(t.table_dir);
  AlterOptions o = Opts();
  o.compaction.keep_cells = true;
  ASSERT_TRUE(
      Alter(t.table_dir, "alter 't', {NAME => 'm', COMPRESSION => 'GZ', VERSIONS => 1}", o).ok());
  EXPECT_EQ(TableCells(t.table_dir), before);
  const auto files = Files(t.Family("m"));
  ASSERT_EQ(files.size(), 1u);
  auto r = Reader::Open(t.Family("m") + files[0]);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ((*r)->trailer().compression(), Compression::kGz);
  EXPECT_EQ((*r)->file_info().GetBool(fileinfo::kMajorCompaction), false);
  // A cell-rule change alone rewrites nothing under --keep-cells.
  const auto now = Files(t.Family("m"));
  ASSERT_TRUE(Alter(t.table_dir, "alter 't', {NAME => 'm', VERSIONS => 2}", o).ok());
  EXPECT_EQ(Files(t.Family("m")), now);
}

TEST(Alter, ReadTimeAttributesRewriteNothing) {
  Docs t("alter-blockcache");
  const auto before = Files(t.Family("m"));
  ASSERT_TRUE(Alter(t.table_dir, "alter 't', {NAME => 'm', BLOCKCACHE => false}").ok());
  EXPECT_EQ(Files(t.Family("m")), before);
  auto d = ReadTableDescriptor(t.table_dir);
  EXPECT_FALSE(d->descriptor.FindFamily("m")->block_cache_enabled());
}

TEST(Alter, NoCompactWritesTheDescriptorOnly) {
  Docs t("alter-nocompact");
  const auto before = Files(t.Family("m"));
  AlterOptions o = Opts();
  o.compact = false;
  ASSERT_TRUE(Alter(t.table_dir, "alter 't', {NAME => 'm', COMPRESSION => 'GZ'}", o).ok());
  EXPECT_EQ(Files(t.Family("m")), before);
  EXPECT_EQ(ReadTableDescriptor(t.table_dir)->descriptor.FindFamily("m")->compression(),
            Compression::kGz);
}

TEST(Alter, AddAndDropFamilies) {
  Docs t("alter-add-drop");
  ASSERT_TRUE(Alter(t.table_dir, "alter 't', {NAME => 'x', VERSIONS => 1, TTL => 86400}").ok());
  EXPECT_TRUE(fs::is_directory(t.region_dir + "/x"));
  auto d = ReadTableDescriptor(t.table_dir);
  ASSERT_NE(d->descriptor.FindFamily("x"), nullptr);
  EXPECT_EQ(d->descriptor.FindFamily("x")->ttl_seconds(), 86400);

  const Cells before = TableCells(t.table_dir);
  ASSERT_TRUE(Alter(t.table_dir, "alter 't', 'delete' => 'b'").ok());
  EXPECT_EQ(ReadTableDescriptor(t.table_dir)->descriptor.FindFamily("b"), nullptr);
  EXPECT_FALSE(fs::exists(t.region_dir + "/b"));
  EXPECT_EQ(Files(t.root + "/archive/data/default/t/" + t.info.EncodedName() + "/b"),
            (std::vector<std::string>{"bbbb0001"}));
  Cells m_only = before;
  m_only.erase("r1/b:q@100=body");
  EXPECT_EQ(TableCells(t.table_dir), m_only);
}

TEST(Alter, DryRunWritesNothing) {
  Docs t("alter-dry");
  const auto before = test::ListFilesRecursive(t.root);
  AlterOptions o = Opts();
  o.compaction.dry_run = true;
  AlterReport rep;
  ASSERT_TRUE(Alter(t.table_dir, "alter 't', {NAME => 'm', VERSIONS => 1}", o, &rep).ok());
  EXPECT_EQ(test::ListFilesRecursive(t.root), before);
  ASSERT_EQ(rep.compaction.stores.size(), 1u);
  EXPECT_EQ(rep.compaction.stores[0].stats.output_cells, 3u);
  EXPECT_EQ(rep.compaction.stores[0].stats.dropped_versions, 2u);
}

// The dry run's bytes out come from the exact output cells and a trial write of a sample under
// the new settings: within 15% of the real run (a NONE -> GZ change halves the size, which the
// inputs' own ratio would not predict).
TEST(Alter, DryRunEstimateIsWithin15PercentOfTheRun) {
  Table t("alter-estimate", {"m"});
  for (int f = 0; f < 3; ++f) {
    std::vector<CellData> cells;
    for (int i = 0; i < 3000; ++i) {
      char row[16];
      std::snprintf(row, sizeof row, "row-%06d", i * 3 + f);
      std::string value = "document title " + std::to_string(i % 97) + " owner user" +
                          std::to_string(i % 13) + " size " + std::to_string(i * 7919 % 100000);
      cells.push_back(CellData::Make(row, "m", "title", 100 + f, KeyType::kPut, value,
                                     static_cast<uint64_t>(f * 10000 + i + 1)));
    }
    WriteStoreFile(t.Family("m") + "aaaa000" + std::to_string(f + 1), cells, (f + 1) * 10000);
  }
  const std::string statement = "alter 't', {NAME => 'm', COMPRESSION => 'GZ', BLOCKSIZE => 16384}";
  AlterOptions dry = Opts();
  dry.compaction.dry_run = true;
  AlterReport estimate, real;
  ASSERT_TRUE(Alter(t.table_dir, statement, dry, &estimate).ok());
  ASSERT_TRUE(Alter(t.table_dir, statement, Opts(), &real).ok());
  ASSERT_EQ(estimate.compaction.stores.size(), 1u);
  ASSERT_EQ(real.compaction.stores.size(), 1u);
  const double e = static_cast<double>(estimate.compaction.stores[0].bytes_out);
  const double r = static_cast<double>(real.compaction.stores[0].bytes_out);
  EXPECT_NEAR(e / r, 1.0, 0.15) << "estimated " << e << ", written " << r;
  EXPECT_LT(r, 0.6 * static_cast<double>(real.compaction.stores[0].bytes_in));
}

// What HBase's split leaves (daughters' References into an offline parent) is no reason to
// refuse: the daughters are rewritten with the new codec as real files, the parent is left.
TEST(Alter, RewritesSplitDaughtersAndLeavesTheParent) {
  HFILE_REQUIRE_REAL_DATA();
  SyntheticTable t = MakeTable("alter-split");
  auto cf = [&](const RegionInfo& r) { return t.table_dir + "/" + r.EncodedName() + "/cf/"; };
  const auto parent_before = Files(cf(t.parent));
  AlterReport rep;
  Status s = Alter(t.table_dir, "alter 't', {NAME => 'cf', COMPRESSION => 'GZ'}", Opts(), &rep);
  ASSERT_TRUE(s.ok()) << s.ToString();
  for (const auto* r : {&t.a, &t.b}) {
    const auto files = Files(cf(*r));
    ASSERT_EQ(files.size(), 1u) << r->EncodedName();
    EXPECT_EQ(files[0].find('.'), std::string::npos) << files[0] << ": still a Reference";
    auto reader = Reader::Open(cf(*r) + files[0]);
    ASSERT_TRUE(reader.ok()) << reader.status().ToString();
    EXPECT_EQ((*reader)->trailer().compression(), Compression::kGz);
  }
  EXPECT_EQ(Files(cf(t.parent)), parent_before);
  bool skipped = false;
  for (const auto& sr : rep.compaction.stores)
    skipped = skipped || (sr.region == t.parent.EncodedName() && !sr.skipped.empty());
  EXPECT_TRUE(skipped);
  EXPECT_FALSE(fs::exists(t.table_dir + "/.hfile-journal"));
}

TEST(Alter, RefusesAnUncleanTable) {
  Docs t("alter-unclean");
  fs::create_directories(t.region_dir + "/recovered.edits");
  test::WriteFileOrDie(t.region_dir + "/recovered.edits/0000000000000000012", "edits");
  const auto before = test::ListFilesRecursive(t.root);
  Status s = Alter(t.table_dir, "alter 't', {NAME => 'm', COMPRESSION => 'GZ'}");
  EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
  EXPECT_EQ(test::ListFilesRecursive(t.root), before);
}

// SIGKILL at every step: the table is always one HBase opens (a descriptor that reads, store
// files that read, each store's cells the old ones or the rewritten ones), and a rerun of the
// same alter finishes it.
TEST(Alter, SigkillAtEveryStepLosesNothingAndARerunFinishes) {
  const std::string statement = "alter 't', {NAME => 'm', COMPRESSION => 'GZ', VERSIONS => 1}";
  Docs pristine("alter-kill-pristine");
  const Cells old_cells = TableCells(pristine.table_dir);
  int crashes = 0;
  for (int n = 1; n < 20; ++n) {
    Docs t("alter-kill");
    pid_t pid = ::fork();
    if (pid == 0) {
      AlterOptions o = Opts();
      int count = 0;
      o.compaction.checkpoint = [&](const std::string&) {
        if (++count == n) ::raise(SIGKILL);
      };
      ::_exit(Alter(t.table_dir, statement, o).ok() ? 0 : 1);
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    const bool crashed = WIFSIGNALED(status);
    if (!crashed) EXPECT_EQ(WEXITSTATUS(status), 0) << "step " << n;
    crashes += crashed;
    ASSERT_TRUE(ReadTableDescriptor(t.table_dir).ok()) << "step " << n;
    const Cells now = TableCells(t.table_dir);
    EXPECT_TRUE(now == old_cells || now == kAfterVersions1) << "step " << n;
    Status rerun = Alter(t.table_dir, statement);
    ASSERT_TRUE(rerun.ok()) << "rerun after step " << n << ": " << rerun.ToString();
    EXPECT_EQ(TableCells(t.table_dir), kAfterVersions1) << "step " << n;
    EXPECT_EQ(Files(t.Family("m")).size(), 1u) << "step " << n;
    auto r = Reader::Open(t.Family("m") + Files(t.Family("m"))[0]);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ((*r)->trailer().compression(), Compression::kGz) << "step " << n;
    EXPECT_FALSE(fs::exists(t.table_dir + "/.hfile-journal")) << "step " << n;
    if (!crashed) break;
  }
  EXPECT_GE(crashes, 5);
}

// The tool: the seeds' statement form with a root dir, the flag form, and a bad statement.
TEST(AlterTool, StatementAndFlagFormsAndUsageErrors) {
  Docs t("alter-tool");
  auto run = [](std::vector<std::string> args, std::string* text) {
    std::vector<const char*> argv{"hfile-alter"};
    for (const auto& a : args) argv.push_back(a.c_str());
    std::ostringstream out, err;
    int code = cli::RunAlterTool(static_cast<int>(argv.size()), argv.data(), out, err);
    *text = out.str() + err.str();
    return code;
  };
  std::string text;
  EXPECT_EQ(run({t.root, "alter 't', {NAME => 'm', BLOCKSIZE => 8192, COMPRESSION => 'ZSTD'}",
                 "--now", std::to_string(kNow)},
                &text),
            cli::kExitOk)
      << text;
  EXPECT_NE(text.find("COMPRESSION: NONE -> ZSTD"), std::string::npos) << text;
  EXPECT_EQ(ReadTableDescriptor(t.table_dir)->descriptor.FindFamily("m")->compression(),
            Compression::kZstd);
  EXPECT_EQ(run({t.table_dir, "--family", "m", "--set", "COMPRESSION=GZ", "--json"}, &text),
            cli::kExitOk)
      << text;
  EXPECT_NE(text.find("\"kind\":\"alter\""), std::string::npos) << text;
  EXPECT_EQ(ReadTableDescriptor(t.table_dir)->descriptor.FindFamily("m")->compression(),
            Compression::kGz);
  EXPECT_EQ(run({t.root, "alter 't', {NAME => 'm', BLOCKSIZE => 100}"}, &text), cli::kExitUsage)
      << text;
  EXPECT_NE(text.find("BLOCKSIZE"), std::string::npos) << text;
  EXPECT_EQ(run({t.root, "alter 't', {NAME => 'm', COMPRESSION => 'NOPE'}"}, &text),
            cli::kExitUsage)
      << text;
  EXPECT_EQ(run({t.root + "/nope", "alter 't', {NAME => 'm', VERSIONS => 2}"}, &text),
            cli::kExitUnreadable)
      << text;
}

}  // namespace
}  // namespace hfile::region
