// A small table written from scratch for the region-reading tests: table "t" under
// <root>/data/default/t with the given families (defaults), one region ['', ''), and HFiles
// written with the project's Writer (any family in the cells, optional COMPACTION_EVENT_KEY).
#ifndef HFILE_TESTS_REGION_STORE_FIXTURE_H_
#define HFILE_TESTS_REGION_STORE_FIXTURE_H_

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "hfile/writer.h"
#include "region/region_info.h"
#include "region/table_descriptor.h"
#include "region/vector_iterator.h"
#include "testutil.h"

namespace hfile::region::store_fixture {

inline CellData Put(const char* row, const char* family, const char* q, uint64_t seq) {
  return CellData::Make(row, family, q, 100, KeyType::kPut, std::string("v-") + row, seq);
}

// Writes the cells (sorted here) as a flush or compaction output with MAX_SEQ_ID `max_seq`.
inline void WriteStoreFile(const std::string& path, std::vector<CellData> cells, int64_t max_seq,
                           std::optional<std::vector<std::string>> compaction_event = {}) {
  std::stable_sort(cells.begin(), cells.end(), [](const CellData& a, const CellData& b) {
    return CompareKeys(ComparatorKind::kDefault, a.key, b.key) < 0;
  });
  WriterOptions o;
  o.max_seq_id = max_seq;
  o.major_compaction = false;
  o.compaction_event = compaction_event ? compaction_event : std::vector<std::string>{};
  auto w = Writer::Create(path, o);
  ASSERT_TRUE(w.ok()) << w.status().ToString();
  for (const auto& c : cells) ASSERT_TRUE((*w)->Append(c.view()).ok());
  ASSERT_TRUE((*w)->Finish().ok());
}

struct Table {
  std::string root, table_dir, region_dir;
  RegionInfo info;

  Table(const std::string& name, const std::vector<std::string>& families,
        const std::string& start = "", const std::string& end = "") {
    root = test::NewTempDir(name);
    table_dir = root + "/data/default/t";
    std::filesystem::create_directories(table_dir + "/.tabledesc");
    TableDescriptor d(TableName{"default", "t"});
    for (const auto& f : families) d.AddFamily(FamilyDescriptor::WithDefaults(f));
    std::string bytes;
    d.EncodeTo(&bytes);
    test::WriteFileOrDie(table_dir + "/.tabledesc/" + TableInfoFileNameFor(1), bytes);
    info.table = TableName{"default", "t"};
    info.start_key = start;
    info.end_key = end;
    info.region_id = 1000;
    region_dir = table_dir + "/" + info.EncodedName();
    for (const auto& f : families) std::filesystem::create_directories(region_dir + "/" + f);
    bytes.clear();
    info.EncodeTo(&bytes);
    test::WriteFileOrDie(region_dir + "/.regioninfo", bytes);
  }
  std::string Family(const std::string& f) const { return region_dir + "/" + f + "/"; }
};

}  // namespace hfile::region::store_fixture

#endif  // HFILE_TESTS_REGION_STORE_FIXTURE_H_
