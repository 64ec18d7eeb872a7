// CreateTable: the layout HBase's CreateTableProcedure leaves (descriptor, one region per range,
// shared region id, MD5 names, .regioninfo, family dirs), a new root's hbase.version, region
// boundaries for SPLITS and NUMREGIONS, refusals (nothing written), dry run, and SIGKILL at every
// checkpoint: no table or the whole table, and a rerun finishes.
#include "region/create_table.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "region/layout.h"
#include "region/meta_table.h"
#include "region/region_info.h"
#include "region/split.h"
#include "region/table_descriptor.h"
#include "testutil.h"

namespace hfile::region {
namespace {

namespace fs = std::filesystem;

constexpr int64_t kNow = 1764633600000;  // 2025-12-02T00:00:00Z
constexpr char kDocs[] =
    "create 'docs', {NAME => 'm', VERSIONS => 1, BLOOMFILTER => 'ROW', DATA_BLOCK_ENCODING => "
    "'FAST_DIFF', COMPRESSION => 'SNAPPY', BLOCKSIZE => 16384}, {NAME => 'b', VERSIONS => 3, "
    "TTL => 7776000, COMPRESSION => 'ZSTD', BLOCKSIZE => 131072, BLOCKCACHE => false}, "
    "{SPLITS => ['2', '4', '6', '8', 'a', 'c', 'e']}";

CreateTableOptions Options(const std::string& root, const std::string& statement = kDocs) {
  CreateTableOptions o;
  o.root = root;
  o.statement = statement;
  o.now_ms = kNow;
  return o;
}

// Every path under `dir`, relative, sorted (directories with a trailing '/').
std::vector<std::string> Tree(const std::string& dir) {
  std::vector<std::string> out;
  if (!fs::exists(dir)) return out;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    std::string rel = fs::relative(e.path(), dir).string();
    out.push_back(e.is_directory() ? rel + "/" : rel);
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(CreateTable, DocsOnANewRootIsLaidOutAsHBaseWould) {
  const std::string root = test::NewTempDir("create-docs") + "/hbase";
  auto r = CreateTable(Options(root));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_TRUE(r->root_initialised);
  EXPECT_FALSE(r->finished_interrupted);
  EXPECT_EQ(r->table_dir, root + "/data/default/docs");
  EXPECT_EQ(test::ReadFileOrDie(root + "/hbase.version"), std::string("PBUF\x0a\x01"
                                                                      "8",
                                                                      7));
  EXPECT_FALSE(fs::exists(root + "/.tmp"));
  EXPECT_FALSE(fs::exists(root + "/hbase.id"));    // the master's to make
  EXPECT_FALSE(fs::exists(root + "/data/hbase"));  // hbase:meta is bootstrapped by HBase

  // The descriptor on disk is DescriptorForCreate's, named as 2.5+ names it.
  auto loaded = ReadTableDescriptor(r->table_dir);
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  auto st = ParseCreateStatement(kDocs);
  ASSERT_TRUE(st.ok());
  auto want = DescriptorForCreate(*st);
  ASSERT_TRUE(want.ok());
  std::string a, b;
  loaded->descriptor.EncodeTo(&a);
  want->EncodeTo(&b);
  EXPECT_EQ(a, b);
  EXPECT_EQ(loaded->file_name.sequence, 1u);
  EXPECT_EQ(loaded->file_name.content_length, std::optional<uint64_t>(a.size()));
  EXPECT_EQ(r->descriptor_file, fs::path(loaded->path).filename().string());
  const FamilyDescriptor* m = loaded->descriptor.FindFamily("m");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->block_size(), 16384);
  EXPECT_EQ(loaded->descriptor.FindFamily("b")->ttl_seconds(), 7776000);

  // Eight regions chaining "" .. "", one id, MD5 names, .regioninfo and both family dirs each.
  auto bounds = ReadTableBoundaries(r->table_dir);
  ASSERT_TRUE(bounds.ok()) << bounds.status().ToString();
  EXPECT_EQ(bounds->boundaries, (std::vector<std::string>{"2", "4", "6", "8", "a", "c", "e"}));
  ASSERT_EQ(r->regions.size(), 8u);
  for (size_t i = 0; i < r->regions.size(); ++i) {
    const RegionInfo& info = r->regions[i];
    EXPECT_EQ(info.region_id, static_cast<uint64_t>(kNow));
    EXPECT_EQ(info.start_key, i == 0 ? "" : r->split_keys[i - 1]);
    EXPECT_EQ(info.end_key, i == 7 ? "" : r->split_keys[i]);
    EXPECT_EQ(bounds->regions[i], info.EncodedName());
    EXPECT_EQ(info.EncodedName().size(), 32u);
    const std::string dir = r->table_dir + "/" + info.EncodedName();
    auto onfs = ReadRegionInfoFile(dir + "/.regioninfo");
    ASSERT_TRUE(onfs.ok()) << onfs.status().ToString();
    EXPECT_EQ(onfs->RegionName(), info.RegionName());
    EXPECT_FALSE(onfs->offline);
    EXPECT_FALSE(onfs->split);
    EXPECT_TRUE(fs::is_directory(dir + "/m"));
    EXPECT_TRUE(fs::is_directory(dir + "/b"));
    EXPECT_EQ(Tree(dir), (std::vector<std::string>{".regioninfo", "b/", "m/"}));
  }
  // Nothing else: no journal, no staging dir.
  std::vector<std::string> layout{"docs/", "docs/.tabledesc/",
                                  "docs/.tabledesc/" + r->descriptor_file};
  for (const auto& info : r->regions)
    for (const char* s : {"/", "/.regioninfo", "/b/", "/m/"})
      layout.push_back("docs/" + info.EncodedName() + s);
  std::sort(layout.begin(), layout.end());
  EXPECT_EQ(Tree(root + "/data/default"), layout);
  // Our own reader sees the table as HBase would.
  auto rd = RootDir::Open(root);
  ASSERT_TRUE(rd.ok());
  auto tables = rd->ListTables();
  ASSERT_TRUE(tables.ok());
  ASSERT_EQ(tables->size(), 1u);
  EXPECT_EQ((*tables)[0].ToString(), "docs");
}

TEST(CreateTable, NoSplitsIsOneRegionAndNumRegionsFollowsTheAlgorithm) {
  const std::string root = test::NewTempDir("create-one");
  auto one = CreateTable(Options(root, "create 't1', 'f'"));
  ASSERT_TRUE(one.ok()) << one.status().ToString();
  ASSERT_EQ(one->regions.size(), 1u);
  EXPECT_EQ(one->regions[0].start_key, "");
  EXPECT_EQ(one->regions[0].end_key, "");
  EXPECT_TRUE(one->root_initialised);  // an empty dir is a new root

  auto hex = CreateTable(
      Options(root, "create 't2', 'f', {NUMREGIONS => 4, SPLITALGO => 'HexStringSplit'}"));
  ASSERT_TRUE(hex.ok()) << hex.status().ToString();
  EXPECT_FALSE(hex->root_initialised);
  EXPECT_EQ(hex->split_keys, (std::vector<std::string>{"40000000", "80000000", "c0000000"}));
  auto bounds = ReadTableBoundaries(hex->table_dir);
  ASSERT_TRUE(bounds.ok()) << bounds.status().ToString();
  EXPECT_EQ(bounds->boundaries, hex->split_keys);

  // Keys given out of order are sorted, as Admin.createTable does; binary escapes decoded.
  auto bin = CreateTable(Options(root, "create 't3', 'f', SPLITS => ['\\x10', '\\x01']"));
  ASSERT_TRUE(bin.ok()) << bin.status().ToString();
  EXPECT_EQ(bin->split_keys, (std::vector<std::string>{"\x01", "\x10"}));
  EXPECT_EQ(bin->regions[1].start_key, "\x01");
  EXPECT_EQ(bin->regions[1].end_key, "\x10");
}

// The progress callback: every region's .regioninfo, then each family's dirs, counted to the
// totals; a dry run stages nothing and reports nothing.
TEST(CreateTable, ProgressCountsRegionsThenFamilyDirs) {
  const std::string root = test::NewTempDir("create-progress");
  std::vector<std::string> calls;
  CreateTableOptions o =
      Options(root, "create 't', 'a', 'b', {NUMREGIONS => 5, SPLITALGO => 'HexStringSplit'}");
  o.progress = [&calls](const char* what, uint64_t done, uint64_t total) {
    calls.push_back(std::string(what) + " " + std::to_string(done) + "/" + std::to_string(total));
  };
  o.dry_run = true;
  ASSERT_TRUE(CreateTable(o).ok());
  EXPECT_TRUE(calls.empty());
  o.dry_run = false;
  auto r = CreateTable(o);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(calls, (std::vector<std::string>{"regions 1/5", "regions 2/5", "regions 3/5",
                                             "regions 4/5", "regions 5/5", "family dirs 5/10",
                                             "family dirs 10/10"}));
}

TEST(CreateTable, StatementFromAFile) {
  const std::string dir = test::NewTempDir("create-file");
  test::WriteFileOrDie(dir + "/stmt.rb", std::string(kDocs) + "\n");
  CreateTableOptions o = Options(dir + "/hbase", "");
  o.statement_file = dir + "/stmt.rb";
  auto r = CreateTable(o);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->regions.size(), 8u);
}

TEST(CreateTable, RefusalsWriteNothing) {
  const std::string dir = test::NewTempDir("create-refuse");
  const std::string root = dir + "/hbase";
  ASSERT_TRUE(CreateTable(Options(root, "create 't', 'f'")).ok());
  const auto before = Tree(root);

  auto again = CreateTable(Options(root, "create 't', 'g'"));
  ASSERT_FALSE(again.ok());
  EXPECT_TRUE(again.status().IsInvalidArgument()) << again.status().ToString();
  EXPECT_NE(again.status().ToString().find("already exists"), std::string::npos);

  auto ns = CreateTable(Options(root, "create 'ns1:t', 'f'"));
  ASSERT_FALSE(ns.ok());
  EXPECT_TRUE(ns.status().IsInvalidArgument());
  EXPECT_NE(ns.status().ToString().find("namespace 'ns1' does not exist"), std::string::npos);

  auto sys = CreateTable(Options(root, "create 'hbase:t', 'f'"));
  EXPECT_TRUE(sys.status().IsInvalidArgument()) << sys.status().ToString();

  auto bad = CreateTable(Options(root, "create 'u', {NAME => 'f', BLOCKSIZE => 100}"));
  EXPECT_TRUE(bad.status().IsInvalidArgument()) << bad.status().ToString();
  auto dup = CreateTable(Options(root, "create 'u', 'f', SPLITS => ['a', 'a']"));
  EXPECT_TRUE(dup.status().IsInvalidArgument()) << dup.status().ToString();

  CreateTableOptions dry = Options(root, "create 'u', 'f'");
  dry.dry_run = true;
  auto plan = CreateTable(dry);
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  EXPECT_EQ(plan->regions.size(), 1u);
  EXPECT_EQ(Tree(root), before);

  // A directory that is neither empty nor an HBase root gets nothing.
  const std::string other = dir + "/other";
  fs::create_directories(other);
  test::WriteFileOrDie(other + "/notes.txt", "x");
  auto foreign = CreateTable(Options(other, "create 't', 'f'"));
  EXPECT_TRUE(foreign.status().IsInvalidArgument()) << foreign.status().ToString();
  EXPECT_EQ(Tree(other), std::vector<std::string>{"notes.txt"});
  // A dry run on a new root writes nothing either.
  CreateTableOptions fresh = Options(dir + "/fresh");
  fresh.dry_run = true;
  auto fp = CreateTable(fresh);
  ASSERT_TRUE(fp.ok()) << fp.status().ToString();
  EXPECT_TRUE(fp->root_initialised);
  auto real = CreateTable(Options(dir + "/fresh2"));
  ASSERT_TRUE(real.ok()) << real.status().ToString();
  EXPECT_EQ(fp->descriptor_file, real->descriptor_file);  // the name a real run writes
  EXPECT_FALSE(fs::exists(dir + "/fresh"));
}

// A run killed inside the root's initialisation (before hbase.version is renamed into place)
// leaves .tmp/ with a partial version file: the root is still new to a rerun.
TEST(CreateTable, ARootLeftHalfInitialisedIsStillNew) {
  const std::string root = test::NewTempDir("create-half-root");
  fs::create_directories(root + "/.tmp");
  test::WriteFileOrDie(root + "/.tmp/hbase.version", "PB");
  auto r = CreateTable(Options(root, "create 't', 'f'"));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_TRUE(r->root_initialised);
  EXPECT_EQ(test::ReadFileOrDie(root + "/hbase.version"), HBaseVersionFileBytes());
  EXPECT_FALSE(fs::exists(root + "/.tmp"));
  // Anything else in .tmp/ is not ours: refused.
  const std::string other = test::NewTempDir("create-other-tmp");
  fs::create_directories(other + "/.tmp");
  test::WriteFileOrDie(other + "/.tmp/x", "x");
  EXPECT_TRUE(CreateTable(Options(other, "create 't', 'f'")).status().IsInvalidArgument());
}

TEST(CreateTable, AnotherNamespaceNeedsItsDirOrTheOption) {
  const std::string root = test::NewTempDir("create-ns");
  CreateTableOptions o = Options(root, "create 'ns1:t', 'f'");
  o.create_namespace = true;
  auto r = CreateTable(o);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_TRUE(r->namespace_created);
  EXPECT_TRUE(fs::is_directory(root + "/data/ns1/t/.tabledesc"));
  // The dir exists now: a second table there needs no option.
  auto second = CreateTable(Options(root, "create 'ns1:u', 'f'"));
  ASSERT_TRUE(second.ok()) << second.status().ToString();
  EXPECT_FALSE(second->namespace_created);
}

// Runs CreateTable in a child that SIGKILLs itself at the `n`th checkpoint. True if it crashed.
bool CreateCrashedAt(CreateTableOptions o, int n) {
  pid_t pid = ::fork();
  if (pid == 0) {
    int count = 0;
    o.checkpoint = [&](const std::string&) {
      if (++count == n) ::raise(SIGKILL);
    };
    ::_exit(CreateTable(o).ok() ? 0 : 1);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  const bool crashed = WIFSIGNALED(status);
  if (!crashed) EXPECT_EQ(WEXITSTATUS(status), 0) << "step " << n;
  return crashed;
}

TEST(CreateTable, KilledAtEveryStepLeavesNoTableOrTheWholeTableAndARerunFinishes) {
  const std::string ref_root = test::NewTempDir("create-ref") + "/hbase";
  auto ref = CreateTable(Options(ref_root));
  ASSERT_TRUE(ref.ok());
  const auto want = Tree(ref->table_dir);
  int steps = 0;
  for (int n = 1;; ++n) {
    const std::string root = test::NewTempDir("create-kill-" + std::to_string(n)) + "/hbase";
    const bool crashed = CreateCrashedAt(Options(root), n);
    const std::string table = root + "/data/default/docs";
    if (fs::exists(table)) {
      EXPECT_EQ(Tree(table), want) << "step " << n << ": a partial table";
    }
    // The rerun (the same command) leaves the whole table, once.
    auto r = CreateTable(Options(root));
    if (fs::exists(table) && !r.ok()) {
      // Only a table a completed earlier run left is refused as existing.
      EXPECT_NE(r.status().ToString().find("already exists"), std::string::npos)
          << "step " << n << ": " << r.status().ToString();
    } else {
      ASSERT_TRUE(r.ok()) << "step " << n << ": " << r.status().ToString();
    }
    EXPECT_EQ(Tree(table), want) << "step " << n;
    EXPECT_EQ(Tree(root + "/data/default"), Tree(ref_root + "/data/default")) << "step " << n;
    EXPECT_EQ(test::ReadFileOrDie(root + "/hbase.version"), HBaseVersionFileBytes());
    if (!crashed) {
      steps = n - 1;
      break;
    }
  }
  // Root init, journal intent, descriptor, region infos, family dirs, staged, commit, put, done.
  EXPECT_GE(steps, 8);
}

// The namespace's journal is shared: a create of another table first finishes (or rolls back)
// what an interrupted one left.
bool CreateCrashedAtStep(CreateTableOptions o, const std::string& step) {
  pid_t pid = ::fork();
  if (pid == 0) {
    o.checkpoint = [&](const std::string& s) {
      if (s == step) ::raise(SIGKILL);
    };
    ::_exit(CreateTable(o).ok() ? 0 : 1);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFSIGNALED(status);
}

TEST(CreateTable, AnotherTablesInterruptedCreateIsFinishedOrRolledBackFirst) {
  const std::string root = test::NewTempDir("create-other");
  ASSERT_TRUE(CreateCrashedAtStep(Options(root, "create 'a', 'f'"), "staged"));
  EXPECT_TRUE(fs::exists(root + "/data/default/.hfile-journal"));
  auto b = CreateTable(Options(root, "create 'b', 'f'"));
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_FALSE(b->finished_interrupted);
  EXPECT_EQ(b->recovered.size(), 1u);
  EXPECT_EQ(Tree(root + "/data/default").front(), "b/");  // 'a' rolled back, nothing left
  EXPECT_FALSE(fs::exists(root + "/data/default/a"));

  ASSERT_TRUE(CreateCrashedAtStep(Options(root, "create 'c', 'f'"), "commit-written"));
  EXPECT_FALSE(fs::exists(root + "/data/default/c"));
  auto d = CreateTable(Options(root, "create 'd', 'f'"));
  ASSERT_TRUE(d.ok()) << d.status().ToString();
  EXPECT_FALSE(d->finished_interrupted);
  EXPECT_TRUE(fs::exists(root + "/data/default/c/.tabledesc"));  // rolled forward
  EXPECT_TRUE(fs::exists(root + "/data/default/d/.tabledesc"));
  EXPECT_FALSE(fs::exists(root + "/data/default/.hfile-journal"));
  for (const auto& e : Tree(root + "/data/default")) EXPECT_NE(e[0], '.') << e;
}

TEST(CreateTable, SplitsFile) {
  const std::string dir = test::NewTempDir("create-splits-file");
  test::WriteFileOrDie(dir + "/splits.txt", "m\nd\n\\x00z\n");
  auto r = CreateTable(
      Options(dir + "/hbase", "create 't', 'f', SPLITS_FILE => '" + dir + "/splits.txt'"));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->split_keys, (std::vector<std::string>{std::string("\0z", 2), "d", "m"}));
  auto bounds = ReadTableBoundaries(r->table_dir);
  ASSERT_TRUE(bounds.ok()) << bounds.status().ToString();
  EXPECT_EQ(bounds->boundaries, r->split_keys);
}

// hbase:meta's table:state, as real HBase 2.2.3 and 4.0-SNAPSHOT roots record it; none in a
// root hfile-create made (HBase writes hbase:meta on its first start).
TEST(MetaTableState, RealRootsAndANewOne) {
  const std::string fresh = test::NewTempDir("create-state") + "/hbase";
  ASSERT_TRUE(CreateTable(Options(fresh, "create 't', 'f'")).ok());
  EXPECT_TRUE(ReadMetaTableState(fresh, *TableName::Parse("t")).status().IsNotFound());
  HFILE_REQUIRE_REAL_DATA();
  const std::string real = test::RealDataDir();
  auto ns = ReadMetaTableState(real + "/hbase-2.2.3-rootdir", *TableName::Parse("hbase:namespace"));
  ASSERT_TRUE(ns.ok()) << ns.status().ToString();
  EXPECT_EQ(*ns, std::optional<std::string>("ENABLED"));
  auto mt = ReadMetaTableState(real + "/hbase-4.0-snapshot-rootdir", *TableName::Parse("my_table"));
  ASSERT_TRUE(mt.ok()) << mt.status().ToString();
  EXPECT_EQ(*mt, std::optional<std::string>("ENABLED"));
  auto none = ReadMetaTableState(real + "/hbase-2.2.3-rootdir", *TableName::Parse("nosuch"));
  ASSERT_TRUE(none.ok()) << none.status().ToString();
  EXPECT_FALSE(none->has_value());
}

}  // namespace
}  // namespace hfile::region
