#include "region/schema_writer.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>

#include "../testutil.h"
#include "region/layout.h"

namespace hfile::region {
namespace {

namespace fs = std::filesystem;
using test::NewTempDir;
using test::ReadFileOrDie;

std::string Slurp(const std::string& path) { return ReadFileOrDie(path); }

void Spit(const std::string& path, const std::string& data) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream(path, std::ios::binary) << data;
}

std::set<std::string> Names(const std::string& dir) {
  std::set<std::string> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) out.insert(e.path().filename().string());
  return out;
}

// Every regular file under `dir`, as relative path -> contents.
std::map<std::string, std::string> Tree(const std::string& dir) {
  std::map<std::string, std::string> out;
  std::error_code ec;
  if (!fs::exists(dir)) return out;
  for (const auto& e : fs::recursive_directory_iterator(dir, ec))
    if (e.is_regular_file()) out[fs::relative(e.path(), dir).string()] = Slurp(e.path().string());
  return out;
}

TableDescriptor Desc(const std::string& qualifier, const std::vector<std::string>& families,
                     const std::string& versions = "1") {
  TableDescriptor d(TableName{"default", qualifier});
  d.SetValue("IS_META", "false");
  for (const auto& f : families) {
    FamilyDescriptor fd = FamilyDescriptor::WithDefaults(f);
    fd.SetValue("VERSIONS", versions);
    d.AddFamily(std::move(fd));
  }
  return d;
}

std::string Encoded(const TableDescriptor& d) {
  std::string s;
  d.EncodeTo(&s);
  return s;
}

std::string NewTableDir(const std::string& test, const std::string& qualifier = "t1") {
  std::string root = NewTempDir(test);
  std::string t = root + "/data/default/" + qualifier;
  fs::create_directories(t);
  return t;
}

// Runs `fn` in a child that SIGKILLs itself at its nth checkpoint. Returns true if the child
// was killed, false if it finished first (then it must have succeeded).
bool RunKilledAt(int nth, const std::function<Status(const SchemaWriteOptions&)>& fn) {
  pid_t pid = ::fork();
  if (pid == 0) {
    int count = 0;
    SchemaWriteOptions o;
    o.now_ms = 1700000000123;
    o.checkpoint = [&](const std::string&) {
      if (++count == nth) ::raise(SIGKILL);
    };
    Status s = fn(o);
    ::_exit(s.ok() ? 0 : 1);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (WIFSIGNALED(status)) {
    EXPECT_EQ(WTERMSIG(status), SIGKILL);
    return true;
  }
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "child failed at nth=" << nth;
  return false;
}

std::vector<std::string> Steps(const std::function<Status(const SchemaWriteOptions&)>& fn) {
  std::vector<std::string> steps;
  SchemaWriteOptions o;
  o.now_ms = 1700000000123;
  o.checkpoint = [&](const std::string& s) { steps.push_back(s); };
  EXPECT_TRUE(fn(o).ok());
  return steps;
}

TEST(WriteTableDescriptor, CreatesFirstDescriptor) {
  std::string t = NewTableDir("schema_create");
  TableDescriptor d = Desc("t1", {"a", "b"});
  auto path = WriteTableDescriptor(t, d);
  ASSERT_TRUE(path.ok()) << path.status().ToString();
  const std::string bytes = Encoded(d);
  EXPECT_EQ(*path, t + "/.tabledesc/" + TableInfoFileNameFor(1, bytes.size()));
  EXPECT_EQ(Names(t + "/.tabledesc"), std::set<std::string>{TableInfoFileNameFor(1, bytes.size())});
  EXPECT_EQ(Slurp(*path), bytes);
  auto loaded = ReadTableDescriptor(t);
  ASSERT_TRUE(loaded.ok());
  EXPECT_EQ(Encoded(loaded->descriptor), bytes);
  EXPECT_EQ(loaded->file_name.sequence, 1u);
  EXPECT_EQ(loaded->file_name.content_length, bytes.size());
}

TEST(WriteTableDescriptor, CreatesTheTableDir) {
  std::string root = NewTempDir("schema_mkdir");
  auto path = WriteTableDescriptor(root + "/data/ns1/t2",
                                   [] {
                                     TableDescriptor d(TableName{"ns1", "t2"});
                                     d.AddFamily(FamilyDescriptor::WithDefaults("f"));
                                     return d;
                                   }());
  ASSERT_TRUE(path.ok()) << path.status().ToString();
  EXPECT_TRUE(ReadTableDescriptor(root + "/data/ns1/t2").ok());
}

TEST(WriteTableDescriptor, NumbersAfterOldStyleAndLengthNames) {
  std::string t = NewTableDir("schema_seq");
  // A 2.4-style name, as the shared 2.2.3 root dir has them.
  const std::string v1 = Encoded(Desc("t1", {"a"}));
  Spit(t + "/.tabledesc/.tableinfo.0000000001", v1);
  TableDescriptor d2 = Desc("t1", {"a", "b"});
  auto p2 = WriteTableDescriptor(t, d2);
  ASSERT_TRUE(p2.ok()) << p2.status().ToString();
  EXPECT_EQ(fs::path(*p2).filename().string(), TableInfoFileNameFor(2, Encoded(d2).size()));
  EXPECT_EQ(Names(t + "/.tabledesc"), std::set<std::string>{fs::path(*p2).filename().string()});

  // Without the length (for 2.4-managed tables) after a 2.6 name.
  TableDescriptor d3 = Desc("t1", {"a", "b"}, "3");
  SchemaWriteOptions o;
  o.length_in_name = false;
  auto p3 = WriteTableDescriptor(t, d3, o);
  ASSERT_TRUE(p3.ok());
  EXPECT_EQ(fs::path(*p3).filename().string(), ".tableinfo.0000000003");
  auto loaded = ReadTableDescriptor(t);
  ASSERT_TRUE(loaded.ok());
  EXPECT_EQ(loaded->path, *p3);
  EXPECT_EQ(Encoded(loaded->descriptor), Encoded(d3));
}

TEST(WriteTableDescriptor, NewestWinsAndOlderFilesGo) {
  std::string t = NewTableDir("schema_newest");
  const std::string v3 = Encoded(Desc("t1", {"a"}));
  const std::string v7 = Encoded(Desc("t1", {"a"}, "7"));
  Spit(t + "/.tabledesc/.tableinfo.0000000003", v3);
  Spit(t + "/.tabledesc/" + TableInfoFileNameFor(7, v7.size()), v7);
  // A half-written newer file (2.5+ writes in place; its name holds the full length).
  Spit(t + "/.tabledesc/" + TableInfoFileNameFor(9, v7.size() + 10), v7);
  Spit(t + "/.tabledesc/unrelated", "x");  // not a .tableinfo name: left alone, as HBase does
  auto before = ReadTableDescriptor(t);
  ASSERT_TRUE(before.ok());
  EXPECT_EQ(before->file_name.sequence, 7u);

  TableDescriptor d = Desc("t1", {"a", "c"});
  auto p = WriteTableDescriptor(t, d);
  ASSERT_TRUE(p.ok());
  // Past every name, the broken one included, so that the new file sorts first.
  EXPECT_EQ(fs::path(*p).filename().string(), TableInfoFileNameFor(10, Encoded(d).size()));
  EXPECT_EQ(Names(t + "/.tabledesc"),
            (std::set<std::string>{fs::path(*p).filename().string(), "unrelated"}));
  auto after = ReadTableDescriptor(t);
  ASSERT_TRUE(after.ok());
  EXPECT_EQ(Encoded(after->descriptor), Encoded(d));
}

TEST(WriteTableDescriptor, RemovesStaleTempAndRefusesMismatch) {
  std::string t = NewTableDir("schema_stale");
  Spit(t + "/.tabledesc/.tmp/.tableinfo.0000000001.99", "half");
  ASSERT_TRUE(WriteTableDescriptor(t, Desc("t1", {"a"})).ok());
  EXPECT_FALSE(fs::exists(t + "/.tabledesc/.tmp"));

  auto wrong = WriteTableDescriptor(t, Desc("other", {"a"}));
  EXPECT_TRUE(wrong.status().IsInvalidArgument()) << wrong.status().ToString();
  TableDescriptor bad = Desc("t1", {"a"});
  FamilyDescriptor f = FamilyDescriptor::WithDefaults("z");
  f.SetValue("VERSIONS", "many");
  bad.AddFamily(f);
  EXPECT_TRUE(WriteTableDescriptor(t, bad).status().IsInvalidArgument());
  EXPECT_EQ(Names(t + "/.tabledesc").size(), 1u);
}

// SIGKILL after every filesystem step: the table always has the old or the new descriptor, the
// new one from the rename on, and the next write cleans up whatever the killed one left.
TEST(WriteTableDescriptor, KilledAtEveryStepLeavesOldOrNew) {
  const std::string v1 = Encoded(Desc("t1", {"a"}));
  TableDescriptor next = Desc("t1", {"a", "b"}, "4");
  const std::string v2 = Encoded(next);
  auto prepare = [&](const std::string& name) {
    std::string t = NewTableDir(name);
    Spit(t + "/.tabledesc/.tableinfo.0000000001", v1);
    Spit(t + "/.tabledesc/.tmp/.tableinfo.0000000002.5", "stale");
    return t;
  };
  std::string probe = prepare("schema_kill_probe");
  auto steps = Steps([&](const SchemaWriteOptions& o) {
    return WriteTableDescriptor(probe, next, o).status();
  });
  const auto renamed = std::find(steps.begin(), steps.end(), "renamed") - steps.begin();
  ASSERT_LT(renamed, static_cast<long>(steps.size()));
  ASSERT_GE(steps.size(), 5u);

  for (int n = 1;; ++n) {
    std::string t = prepare("schema_kill_" + std::to_string(n));
    bool killed = RunKilledAt(n, [&](const SchemaWriteOptions& o) {
      return WriteTableDescriptor(t, next, o).status();
    });
    auto loaded = ReadTableDescriptor(t);
    ASSERT_TRUE(loaded.ok()) << "killed at step " << n << ": " << loaded.status().ToString();
    const std::string got = Encoded(loaded->descriptor);
    EXPECT_TRUE(got == v1 || got == v2) << "step " << n;
    if (n > renamed || !killed) {
      EXPECT_EQ(got, v2) << "step " << n << " after the rename";
    } else {
      EXPECT_EQ(got, v1) << "step " << n << " before the rename";
    }
    // The next write starts from whatever is there.
    TableDescriptor third = Desc("t1", {"a", "b"}, "5");
    auto p = WriteTableDescriptor(t, third);
    ASSERT_TRUE(p.ok()) << p.status().ToString();
    EXPECT_EQ(Names(t + "/.tabledesc"), std::set<std::string>{fs::path(*p).filename().string()});
    EXPECT_EQ(Encoded(ReadTableDescriptor(t)->descriptor), Encoded(third));
    if (!killed) {
      EXPECT_EQ(n, static_cast<int>(steps.size()) + 1);
      break;
    }
  }
}

RegionInfo Region(const std::string& start, const std::string& end, uint64_t id = 1700000000000) {
  RegionInfo r;
  r.table = TableName{"default", "t1"};
  r.start_key = start;
  r.end_key = end;
  r.region_id = id;
  return r;
}

TEST(WriteRegionInfo, WritesDelimitedFormViaTmp) {
  std::string t = NewTableDir("schema_ri");
  RegionInfo r = Region("", "");
  const std::string dir = t + "/" + r.EncodedName();
  std::vector<std::string> steps;
  SchemaWriteOptions o;
  o.checkpoint = [&](const std::string& s) { steps.push_back(s); };
  ASSERT_TRUE(WriteRegionInfo(dir, r, o).ok());
  std::string expected;
  r.EncodeTo(&expected);
  EXPECT_EQ(Slurp(dir + "/.regioninfo"), expected);
  EXPECT_EQ(Names(dir), std::set<std::string>{".regioninfo"});  // .tmp/ went again
  EXPECT_NE(std::find(steps.begin(), steps.end(), "tmp-written"), steps.end());
  auto back = ReadRegionInfoFile(dir + "/.regioninfo");
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->EncodedName(), r.EncodedName());

  // Another run's .tmp/ content stays (a compaction journal lives there).
  Spit(dir + "/.tmp/hfile.journal", "j");
  ASSERT_TRUE(WriteRegionInfo(dir, r).ok());
  EXPECT_EQ(Names(dir + "/.tmp"), std::set<std::string>{"hfile.journal"});

  EXPECT_TRUE(WriteRegionInfo(t + "/0123abcd", r).IsInvalidArgument());
  RegionInfo replica = r;
  replica.replica_id = 1;
  EXPECT_TRUE(WriteRegionInfo(dir, replica).IsInvalidArgument());
}

TEST(WriteRegionInfo, KilledAtEveryStepLeavesOldOrNew) {
  RegionInfo old_info = Region("", "");
  RegionInfo new_info = old_info;
  new_info.offline = true;  // same dir, other bytes
  std::string old_bytes, new_bytes;
  old_info.EncodeTo(&old_bytes);
  new_info.EncodeTo(&new_bytes);
  for (int n = 1;; ++n) {
    std::string t = NewTableDir("schema_ri_kill_" + std::to_string(n));
    const std::string dir = t + "/" + old_info.EncodedName();
    Spit(dir + "/.regioninfo", old_bytes);
    bool killed = RunKilledAt(n, [&](const SchemaWriteOptions& o) {
      return WriteRegionInfo(dir, new_info, o);
    });
    const std::string got = Slurp(dir + "/.regioninfo");
    EXPECT_TRUE(got == old_bytes || got == new_bytes) << "step " << n;
    if (!killed) {
      EXPECT_EQ(got, new_bytes);
      break;
    }
  }
}

// A table with three regions; family "b" has files everywhere, a FILE-tracker .filelist/ in
// one region, and the archive already holds one of the names.
struct MultiRegionTable {
  std::string root, table;
  std::vector<std::string> regions;

  explicit MultiRegionTable(const std::string& name) {
    root = NewTempDir(name);
    table = root + "/data/default/t1";
    std::vector<RegionInfo> infos = {Region("", "g"), Region("g", "p"), Region("p", "")};
    for (const auto& r : infos) {
      const std::string dir = table + "/" + r.EncodedName();
      EXPECT_TRUE(WriteRegionInfo(dir, r).ok());
      regions.push_back(r.EncodedName());
    }
    EXPECT_TRUE(WriteTableDescriptor(table, Desc("t1", {"a", "b"})).ok());
    for (size_t i = 0; i < regions.size(); ++i) {
      const std::string r = table + "/" + regions[i];
      Spit(r + "/a/aaaa000" + std::to_string(i), "keep-a");
      Spit(r + "/b/bbbb000" + std::to_string(i), "file-b-" + std::to_string(i));
      Spit(r + "/b/cccc000" + std::to_string(i), "other-b");
    }
    Spit(table + "/" + regions[1] + "/b/.filelist/f1", "tracker");
    fs::create_directories(table + "/.tmp");      // not a region dir
    fs::create_directories(table + "/notregion");  // neither ([0-9a-f]+ only)
  }
  std::string Archive(size_t i, const std::string& family) const {
    return root + "/archive/data/default/t1/" + regions[i] + "/" + family;
  }
};

TEST(CreateFamilyDirs, EveryRegionExistingOk) {
  MultiRegionTable m("schema_add_family");
  fs::create_directories(m.table + "/" + m.regions[0] + "/c");
  Spit(m.table + "/" + m.regions[0] + "/c/dddd", "x");
  ASSERT_TRUE(CreateFamilyDirs(m.table, "c").ok());
  for (const auto& r : m.regions) EXPECT_TRUE(fs::is_directory(m.table + "/" + r + "/c"));
  EXPECT_TRUE(fs::exists(m.table + "/" + m.regions[0] + "/c/dddd"));
  EXPECT_FALSE(fs::exists(m.table + "/notregion/c"));
  EXPECT_FALSE(fs::exists(m.table + "/.tmp/c"));
  EXPECT_TRUE(CreateFamilyDirs(m.table, "c").ok());
  EXPECT_TRUE(CreateFamilyDirs(m.table, ".hidden").IsInvalidArgument());
  EXPECT_TRUE(CreateFamilyDirs(m.table, "a:b").IsInvalidArgument());
  EXPECT_TRUE(CreateFamilyDirs(m.table, "recovered.edits").IsInvalidArgument());
  // The layout scanner sees the new family dir as HBase would.
  auto desc = Desc("t1", {"a", "b", "c"});
  auto scanned = ScanRegionDir(m.root, m.table + "/" + m.regions[2], &desc);
  ASSERT_TRUE(scanned.ok()) << scanned.status().ToString();
  EXPECT_NE(scanned->FindFamily("c"), nullptr);
}

TEST(ArchiveFamilyDirs, MovesEveryRegionWithCollisions) {
  MultiRegionTable m("schema_archive");
  Spit(m.Archive(0, "b") + "/bbbb0000", "file-b-0");  // same size: HBase keeps it as .<millis>
  SchemaWriteOptions o;
  o.now_ms = 1700000000123;
  ASSERT_TRUE(ArchiveFamilyDirs(m.root, m.table, "b", false, o).ok());
  for (size_t i = 0; i < m.regions.size(); ++i) {
    EXPECT_FALSE(fs::exists(m.table + "/" + m.regions[i] + "/b")) << i;
    EXPECT_TRUE(fs::exists(m.table + "/" + m.regions[i] + "/a/aaaa000" + std::to_string(i)));
    const std::string n = std::to_string(i);
    std::map<std::string, std::string> expect = {{"bbbb000" + n, "file-b-" + n},
                                                 {"cccc000" + n, "other-b"}};
    if (i == 0) expect["bbbb0000.1700000000123"] = "file-b-0";
    if (i == 1) expect[".filelist/f1"] = "tracker";
    EXPECT_EQ(Tree(m.Archive(i, "b")), expect) << i;
  }
  // Idempotent.
  EXPECT_TRUE(ArchiveFamilyDirs(m.root, m.table, "b", false, o).ok());
  EXPECT_TRUE(ArchiveFamilyDirs(m.root, m.table, "nope", false, o).ok());
}

TEST(ArchiveFamilyDirs, RefusesACollisionOfAnotherSize) {
  MultiRegionTable m("schema_archive_refuse");
  Spit(m.Archive(2, "b") + "/cccc0002", "a different length");
  Status s = ArchiveFamilyDirs(m.root, m.table, "b", false);
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_NE(s.ToString().find("cccc0002"), std::string::npos);
  // Regions before it were archived; that region's files did not move.
  EXPECT_FALSE(fs::exists(m.table + "/" + m.regions[0] + "/b"));
  EXPECT_EQ(Names(m.table + "/" + m.regions[2] + "/b"),
            (std::set<std::string>{"bbbb0002", "cccc0002"}));
}

TEST(ArchiveFamilyDirs, DeleteInsteadAndBadArguments) {
  MultiRegionTable m("schema_archive_delete");
  ASSERT_TRUE(ArchiveFamilyDirs(m.root, m.table, "b", true).ok());
  for (const auto& r : m.regions) EXPECT_FALSE(fs::exists(m.table + "/" + r + "/b"));
  EXPECT_FALSE(fs::exists(m.root + "/archive"));
  EXPECT_TRUE(ArchiveFamilyDirs(m.root, m.table + "/..", "a", false).IsInvalidArgument());
  EXPECT_TRUE(ArchiveFamilyDirs(m.root + "/data", m.table, "a", false).IsInvalidArgument());
  EXPECT_TRUE(ArchiveFamilyDirs(m.root, m.table, "", false).IsInvalidArgument());
}

TEST(ArchiveFamilyDirs, MobFamilyDir) {
  MultiRegionTable m("schema_archive_mob");
  RegionInfo mob;
  mob.table = TableName{"default", "t1"};
  mob.start_key = ".mob";
  ASSERT_EQ(mob.EncodedName(), "78e317a6e78a0fceb27b9fa0cb9dcf5b");  // REGION_LAYOUT §10
  const std::string mob_dir = m.root + "/mobdir/data/default/t1/" + mob.EncodedName() + "/b";
  Spit(mob_dir + "/mobfile1", "mob");
  ASSERT_TRUE(ArchiveFamilyDirs(m.root, m.table, "b", false).ok());
  EXPECT_FALSE(fs::exists(mob_dir));
  EXPECT_EQ(Slurp(m.root + "/archive/data/default/t1/" + mob.EncodedName() + "/b/mobfile1"),
            "mob");
}

// Killed at every step and run again: every file ends up archived exactly once (the colliding
// one also under its .<millis> name), the family dirs are gone, family "a" is untouched.
TEST(ArchiveFamilyDirs, KilledAtEveryStepThenRerun) {
  for (int n = 1;; ++n) {
    MultiRegionTable m("schema_archive_kill_" + std::to_string(n));
    Spit(m.Archive(0, "b") + "/bbbb0000", "file-b-0");
    bool killed = RunKilledAt(n, [&](const SchemaWriteOptions& o) {
      return ArchiveFamilyDirs(m.root, m.table, "b", false, o);
    });
    // HBase ignores family dirs the descriptor lacks, so a partial state is harmless; the rerun
    // finishes (its own start time may differ for a collision it still has to resolve).
    SchemaWriteOptions o;
    o.now_ms = 1700000000123;
    ASSERT_TRUE(ArchiveFamilyDirs(m.root, m.table, "b", false, o).ok()) << n;
    for (size_t i = 0; i < m.regions.size(); ++i) {
      EXPECT_FALSE(fs::exists(m.table + "/" + m.regions[i] + "/b")) << n;
      const std::string s = std::to_string(i);
      std::map<std::string, std::string> expect = {{"bbbb000" + s, "file-b-" + s},
                                                   {"cccc000" + s, "other-b"}};
      if (i == 0) expect["bbbb0000.1700000000123"] = "file-b-0";
      if (i == 1) expect[".filelist/f1"] = "tracker";
      EXPECT_EQ(Tree(m.Archive(i, "b")), expect) << "step " << n << " region " << i;
      EXPECT_EQ(Tree(m.table + "/" + m.regions[i] + "/a").size(), 1u);
    }
    if (!killed) break;
  }
}

}  // namespace
}  // namespace hfile::region
