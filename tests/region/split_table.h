// A synthetic split layout built in a temp dir from real HBase-written HFiles (riverbed
// test_snapshot_v1), for tests of code that reads or rewrites whole tables:
//
//   <root>/data/default/t/.tabledesc/           family cf, defaults
//     first  ['', f)   kA2 + HFileLink t=0123abcd-kA1 -> <root>/archive/data/default/t/0123abcd/cf/kA1
//     parent [f, r)    kF1, kF2; .regioninfo split=true offline=true
//     a      [f, l)    kF1.<parent>, kF2.<parent>  BOTTOM references at row "l"
//     b      [l, r)    kF1.<parent>, kF2.<parent>  TOP references at row "l"
//     last   [r, '')   kZ1_SeqId_42_ (bulk-loaded), kZ2
//
// Tests using it must start with HFILE_REQUIRE_REAL_DATA().
#ifndef HFILE_TESTS_REGION_SPLIT_TABLE_H_
#define HFILE_TESTS_REGION_SPLIT_TABLE_H_

#include <filesystem>
#include <string>

#include "region/region_info.h"
#include "region/store_file_name.h"
#include "region/table_descriptor.h"
#include "testutil.h"

namespace hfile::region {

constexpr char kF1[] = "4c4c62c0398e4080a0cad46b8520260a";  // [f, r): fig grape mango ...
constexpr char kF2[] = "daff862e92b7485d9b34c23b65e4304a";  // [f, r), delete-family bloom
constexpr char kA1[] = "499cb3f72c934ff5ab8d6e0470927f4d";  // ['', f)
constexpr char kA2[] = "4510584e596a4e3d81899ac58eb5f5e5";  // ['', f)
constexpr char kZ1[] = "542d55e3241c4dbcaf81b30fdb6c5b0d";  // [r, '')
constexpr char kZ2[] = "e44529f5b1c24979b2ffc3937dc50fdd";  // [r, '')

inline std::string SnapshotV1() {
  return test::RealDataDir() + "/riverbed/snapshot/testdata/test_snapshot_v1";
}
inline std::string RealFile(const std::string& region, const char* name) {
  return SnapshotV1() + "/data/test_snapshot/" + region + "/cf/" + name;
}

struct SyntheticTable {
  std::string root, table_dir;
  RegionInfo parent, first, a, b, last;
  std::string last_cf;
};

inline RegionInfo Info(const std::string& start, const std::string& end, uint64_t id) {
  RegionInfo r;
  r.table = *TableName::Parse("t");
  r.start_key = start;
  r.end_key = end;
  r.region_id = id;
  return r;
}

inline void WriteRegion(const std::string& table_dir, const RegionInfo& info) {
  std::string dir = table_dir + "/" + info.EncodedName();
  std::filesystem::create_directories(dir + "/cf");
  std::string bytes;
  info.EncodeTo(&bytes);
  test::WriteFileOrDie(dir + "/.regioninfo", bytes);
}

inline SyntheticTable MakeTable(const std::string& temp_name) {
  SyntheticTable t;
  t.root = test::NewTempDir(temp_name);
  t.table_dir = t.root + "/data/default/t";
  std::filesystem::create_directories(t.table_dir + "/.tabledesc");
  TableDescriptor desc(*TableName::Parse("t"));
  desc.AddFamily(FamilyDescriptor::WithDefaults("cf"));
  std::string d;
  desc.EncodeTo(&d);
  test::WriteFileOrDie(t.table_dir + "/.tabledesc/" + TableInfoFileNameFor(1), d);

  const std::string r0 = "01872b010dca896e3bb6d9c5650d2231";
  const std::string r1 = "3efacbde293c7a0a735dd9a803dc058e";
  const std::string r2 = "451664e14acdb5e7e00f1bfd85fd8bf5";
  t.first = Info("", "f", 1000);
  t.parent = Info("f", "r", 1000);
  t.parent.split = t.parent.offline = true;
  t.a = Info("f", "l", 2000);
  t.b = Info("l", "r", 2000);
  t.last = Info("r", "", 1000);
  for (const auto* r : {&t.first, &t.parent, &t.a, &t.b, &t.last}) WriteRegion(t.table_dir, *r);
  auto cf = [&](const RegionInfo& r) { return t.table_dir + "/" + r.EncodedName() + "/cf/"; };
  // First region: a plain file and an HFileLink to a file archived under another region.
  std::filesystem::copy_file(RealFile(r0, kA2), cf(t.first) + kA2);
  std::string archived = t.root + "/archive/data/default/t/0123abcd/cf/";
  std::filesystem::create_directories(archived);
  std::filesystem::copy_file(RealFile(r0, kA1), archived + kA1);
  test::WriteFileOrDie(cf(t.first) + "t=0123abcd-" + kA1, "");
  // Split parent [f, r) and its daughters' references at row "l".
  const std::string penc = t.parent.EncodedName();
  for (const char* f : {kF1, kF2}) {
    std::filesystem::copy_file(RealFile(r1, f), cf(t.parent) + f);
    std::string bottom, top;
    Reference::ForRow("l", Reference::Range::kBottom).EncodeTo(&bottom);
    Reference::ForRow("l", Reference::Range::kTop).EncodeTo(&top);
    test::WriteFileOrDie(cf(t.a) + f + "." + penc, bottom);
    test::WriteFileOrDie(cf(t.b) + f + "." + penc, top);
  }
  // Last region: one file bulk-loaded with sequence id 42.
  std::filesystem::copy_file(RealFile(r2, kZ1), cf(t.last) + kZ1 + "_SeqId_42_");
  std::filesystem::copy_file(RealFile(r2, kZ2), cf(t.last) + kZ2);
  t.last_cf = cf(t.last);
  return t;
}

}  // namespace hfile::region

#endif  // HFILE_TESTS_REGION_SPLIT_TABLE_H_
