// `hfile dump` / `hfile verify` on tables, regions and snapshots, run in-process with argv
// arrays: output and exit codes.
#include <gtest/gtest.h>

#include <cstdlib>
#include <sstream>
#include <vector>

#include "cli_common.h"
#include "../testutil.h"

namespace hfile::cli {
namespace {

struct ToolRun {
  int code;
  std::string out, err;
};

ToolRun Dump(std::vector<std::string> args) {
  args.insert(args.begin(), "hfile-dump");
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  std::ostringstream out, err;
  int code = RunDumpTool(static_cast<int>(argv.size()), argv.data(), out, err);
  return {code, out.str(), err.str()};
}

ToolRun Verify(std::vector<std::string> args) {
  args.insert(args.begin(), "hfile-verify");
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  std::ostringstream out, err;
  int code = RunVerifyTool(static_cast<int>(argv.size()), argv.data(), out, err);
  return {code, out.str(), err.str()};
}

size_t CountLines(const std::string& s, const std::string& prefix) {
  size_t n = 0;
  std::istringstream in(s);
  for (std::string line; std::getline(in, line);) n += line.starts_with(prefix);
  return n;
}

std::string Riverbed(const std::string& snap) {
  return test::RealDataDir() + "/riverbed/snapshot/testdata/" + snap;
}

TEST(RegionTools, DescribeSnapshot) {
  HFILE_REQUIRE_REAL_DATA();
  ToolRun r = Dump({"--snapshot", Riverbed("multi_region_snapshot")});
  EXPECT_EQ(r.code, kExitOk) << r.err;
  EXPECT_NE(r.out.find("snapshot multi_region_snapshot of multi_region"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("COLUMN FAMILIES DESCRIPTION\n{NAME => 'cf'"), std::string::npos);
  EXPECT_NE(r.out.find("3 regions (0 split parents), 3 store files"), std::string::npos);
  EXPECT_EQ(CountLines(r.out, "region "), 3u);
  EXPECT_NE(r.out.find("0 problems"), std::string::npos);
  ToolRun j = Dump({"--json", "--snapshot", Riverbed("multi_region_snapshot")});
  EXPECT_EQ(j.code, kExitOk);
  EXPECT_TRUE(j.out.starts_with("{\"kind\":\"snapshot\",\"v\":1,\"path\":")) << j.out;
  EXPECT_NE(j.out.find("\"store_files\":3,"), std::string::npos);
  EXPECT_EQ(CountLines(j.out, "{"), 1u);
}

TEST(RegionTools, CellsInScanOrder) {
  HFILE_REQUIRE_REAL_DATA();
  ToolRun r = Dump({"-p", "--snapshot", Riverbed("multi_region_snapshot")});
  EXPECT_EQ(r.code, kExitOk) << r.err;
  std::vector<std::string> rows;
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);)
    if (line.starts_with("K: ")) rows.push_back(line.substr(3, line.find('/') - 3));
  EXPECT_EQ(rows, (std::vector<std::string>{"apple", "banana", "cherry", "date", "elderberry",
                                            "fig", "grape", "plum", "quince", "raspberry"}));
  EXPECT_NE(r.out.find("Scanned kv count -> 10"), std::string::npos);
  // Row selection and limits work across regions.
  ToolRun w = Dump({"-p", "-w", "fig", "--snapshot", Riverbed("multi_region_snapshot")});
  EXPECT_EQ(CountLines(w.out, "K: "), 1u);
  EXPECT_NE(w.out.find("K: fig/cf:v/"), std::string::npos) << w.out;
  ToolRun l = Dump({"-e", "--limit", "4", "--snapshot", Riverbed("multi_region_snapshot")});
  EXPECT_EQ(CountLines(l.out, "K: "), 4u);
  ToolRun p = Dump({"-e", "--prefix", "b", "--snapshot", Riverbed("multi_region_snapshot")});
  EXPECT_EQ(CountLines(p.out, "K: "), 1u);
  // Families: two in test_snapshot; --family picks one.
  ToolRun f = Dump({"-p", "--family", "cf2", "--snapshot", Riverbed("test_snapshot")});
  EXPECT_EQ(f.code, kExitOk);
  EXPECT_EQ(CountLines(f.out, "K: "), 1u);
  EXPECT_NE(f.out.find("K: row1/cf2:b/"), std::string::npos) << f.out;
  ToolRun both = Dump({"-e", "--snapshot", Riverbed("test_snapshot")});
  EXPECT_EQ(CountLines(both.out, "K: "), 4u);
  // row1's cf1 cell comes before its cf2 cell: families merge inside a row.
  EXPECT_LT(both.out.find("K: row1/cf1:a"), both.out.find("K: row1/cf2:b"));
  EXPECT_LT(both.out.find("K: row1/cf2:b"), both.out.find("K: row2/cf1:a"));
  ToolRun bad = Dump({"-p", "--family", "nope", "--snapshot", Riverbed("test_snapshot")});
  EXPECT_EQ(bad.code, kExitUsage);
  EXPECT_NE(bad.err.find("no family nope"), std::string::npos);
  ToolRun js = Dump({"-p", "--json", "--snapshot", Riverbed("test_snapshot")});
  EXPECT_EQ(CountLines(js.out, "{\"kind\":\"region\""), 1u);
  EXPECT_EQ(CountLines(js.out, "{\"kind\":\"cell\""), 4u);
}

TEST(RegionTools, RootAndTableNames) {
  HFILE_REQUIRE_REAL_DATA();
  const std::string root = test::RealDataDir() + "/hbase-2.2.3-rootdir";
  ToolRun r = Dump({"--root", root, "--table", "hbase:namespace"});
  EXPECT_EQ(r.code, kExitOk) << r.err;
  EXPECT_NE(r.out.find("table hbase:namespace"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("family info: 1 store files"), std::string::npos);
  ToolRun p = Dump({"-p", "--root", root, "--table", "hbase:namespace"});
  EXPECT_EQ(CountLines(p.out, "K: "), 2u);
  ToolRun missing = Dump({"--root", root, "--table", "nope"});
  EXPECT_EQ(missing.code, kExitUnreadable);
  EXPECT_NE(missing.err.find("no table nope"), std::string::npos) << missing.err;
  EXPECT_NE(missing.err.find("hbase:namespace"), std::string::npos);
  EXPECT_EQ(Dump({"--root", root}).code, kExitUsage);
  // verify --root alone checks every table of the root (hbase:meta and hbase:namespace).
  ToolRun all = Verify({"--root", root});
  EXPECT_EQ(all.code, kExitOk) << all.out << all.err;
  EXPECT_NE(all.out.find("data/hbase/meta: OK"), std::string::npos) << all.out;
  EXPECT_NE(all.out.find("data/hbase/namespace: OK"), std::string::npos) << all.out;
  ToolRun v = Verify({"--root", root, "--table", "hbase:meta"});
  EXPECT_EQ(v.code, kExitOk) << v.out;
  EXPECT_NE(v.out.find(": OK (1 regions, 2 store files, 0 errors"), std::string::npos) << v.out;
  // A region dir; -m dumps each HFile it reads (file-level mode).
  ToolRun m = Dump({"-m", "-r", root + "/data/hbase/namespace/077a6e561e777ff7d7b235487e686aa9"});
  EXPECT_EQ(m.code, kExitOk);
  EXPECT_NE(m.out.find("MAX_SEQ_ID_KEY"), std::string::npos);
  ToolRun vj = Verify({"--json", "--snapshot",
                   test::RealDataDir() +
                       "/java-bigtable-hbase/integration-test/data/.hbase-snapshot/test-snapshot"});
  EXPECT_EQ(vj.code, kExitOk) << vj.out;
  EXPECT_TRUE(vj.out.starts_with("{\"kind\":\"snapshot\"")) << vj.out;
  EXPECT_NE(vj.out.find("\"clean\":true,\"errors\":0"), std::string::npos);
}

TEST(RegionTools, OldRootDirs) {
  HFILE_REQUIRE_REAL_DATA();
  std::string tmp = test::NewTempDir("region_tools_old");
  for (const char* tgz : {"hbase-upgrade-fixtures/TestMetaMigrationConvertToPB.tgz",
                          "hbase-upgrade-fixtures/TestNamespaceUpgrade.tgz",
                          "hbase-0.94/hbase-4388-root.dir.tgz"}) {
    std::string cmd = "tar xzf " + test::RealDataDir() + "/" + tgz + " -C " + tmp;
    ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  }
  // 0.92: readable, 100 live rows as HBase's TestMetaMigrationConvertingToPB expects.
  const std::string t92 = tmp + "/TestMetaMigrationConvertToPB/TestTable";
  ToolRun d = Dump({"--table", t92});
  EXPECT_EQ(d.code, kExitOk) << d.err;
  EXPECT_NE(d.out.find("pre-0.96 layout"), std::string::npos);
  EXPECT_NE(d.out.find("17 regions (8 split parents)"), std::string::npos) << d.out;
  EXPECT_NE(d.out.find("HFile v2.0: readable here, but HBase 2 cannot open it"),
            std::string::npos);
  ToolRun e = Dump({"-e", "--table", t92});
  EXPECT_NE(e.out.find("Scanned kv count -> 100"), std::string::npos);
  EXPECT_EQ(Verify({"-q", "--table", t92}).code, kExitOk);
  // 0.94 by root + name; a namespace is refused.
  ToolRun foo = Dump({"-p", "--root", tmp + "/hbase", "--table", "foo"});
  EXPECT_EQ(foo.code, kExitOk) << foo.err;
  EXPECT_EQ(CountLines(foo.out, "K: "), 10u);
  EXPECT_EQ(Dump({"--root", tmp + "/hbase", "--table", "ns1:foo"}).code, kExitUsage);
  // 0.90: HFile v1 cannot be read: exit 3 with the reason.
  ToolRun v90 = Verify({"-q", "--table", tmp + "/hbase-4388-root.dir/TestTable"});
  EXPECT_EQ(v90.code, kExitUnreadable);
  EXPECT_NE(v90.out.find("HFile v1"), std::string::npos) << v90.out;
  ToolRun d90 = Dump({"--table", tmp + "/hbase-4388-root.dir/TestTable"});
  EXPECT_EQ(d90.code, kExitUnreadable);
  EXPECT_NE(d90.out.find("14 store files"), std::string::npos) << d90.out;
}

}  // namespace
}  // namespace hfile::cli
