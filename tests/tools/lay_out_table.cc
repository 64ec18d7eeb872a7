// lay_out_table ROOT STATEMENT [REGION_ID]: lays out an HBase shell `create` statement's table
// under ROOT/data/<ns>/<table>: its descriptor, one region dir per split range with its
// .regioninfo, and every family's dir in each. A test and demo helper for making tables to load
// (with `hfile bulkload --into`) and read, no journal, no hbase:meta rows; `hfile create` is the
// tool for real roots. REGION_ID (default a fixed 1764547200000) keeps the encoded names stable.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "region/region_info.h"
#include "region/schema_writer.h"
#include "region/shell_statement.h"

namespace {

int Fail(const std::string& what) {
  std::fprintf(stderr, "lay_out_table: %s\n", what.c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace hfile::region;
  if (argc < 3 || argc > 4) return Fail("usage: lay_out_table ROOT STATEMENT [REGION_ID]");
  const std::string root = argv[1];
  const uint64_t region_id = argc == 4 ? std::strtoull(argv[3], nullptr, 10) : 1764547200000ull;
  auto st = ParseCreateStatement(argv[2]);
  if (!st.ok()) return Fail(st.status().ToString());
  auto desc = DescriptorForCreate(*st);
  if (!desc.ok()) return Fail(desc.status().ToString());
  auto splits = SplitKeysForCreate(*st);
  if (!splits.ok()) return Fail(splits.status().ToString());
  const std::string table_dir =
      root + "/data/" + st->table.namespace_name + "/" + st->table.qualifier;
  if (std::filesystem::exists(table_dir)) return Fail(table_dir + " exists");
  auto written = WriteTableDescriptor(table_dir, *desc);
  if (!written.ok()) return Fail(written.status().ToString());
  std::vector<std::string> bounds{""};
  bounds.insert(bounds.end(), splits->begin(), splits->end());
  bounds.push_back("");
  for (size_t i = 0; i + 1 < bounds.size(); ++i) {
    RegionInfo info;
    info.table = st->table;
    info.start_key = bounds[i];
    info.end_key = bounds[i + 1];
    info.region_id = region_id;
    hfile::Status s = WriteRegionInfo(table_dir + "/" + info.EncodedName(), info);
    if (!s.ok()) return Fail(s.ToString());
  }
  for (const auto& f : st->families) {
    hfile::Status s = CreateFamilyDirs(table_dir, f.name);
    if (!s.ok()) return Fail(s.ToString());
  }
  std::printf("%s\n", table_dir.c_str());
  return 0;
}
