// The reader's I/O counters through a table read (DumpRegionSetCells): a row or prefix read
// touches only the regions and store files HBase's read path would, and each store's figures
// are what those reads must cost. The table is a small `docs`: family m (title, owner, size,
// mtime), family b (an HTML body, three versions), three regions of one folder each, three
// store files per store; and its one-family twin (every column in m).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "hfile/cell.h"
#include "hfile/reader.h"
#include "hfile/writer.h"
#include "region/region_dump.h"
#include "region/region_info.h"
#include "region/region_set.h"
#include "region/table_descriptor.h"
#include "reader_internal.h"
#include "region/vector_iterator.h"
#include "split_table.h"
#include "testutil.h"

namespace hfile::region {
namespace {

// Folder hashes: one per region ['', 4) [4, 8) [8, '').
const char* const kFolders[] = {"1f00", "5a00", "9c00"};

std::string Row(int folder, int doc) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "d%03d", doc);
  return std::string(kFolders[folder]) + buf;
}

std::string Body(const std::string& row, int rev) {
  std::string s = "<html><head><title>" + row + "</title></head><body>";
  for (int i = 0; s.size() < 3000; ++i) {
    s += "<p>" + row + " revision " + std::to_string(rev) + " paragraph " + std::to_string(i) +
         "</p>";
  }
  return s + "</body></html>";
}

// The cells of one document: m's four columns, b's body at three timestamps (in family `b`,
// or in `m` for the twin).
void AddDoc(std::vector<CellData>* cells, const std::string& row, bool twin) {
  const std::string m = "m", b = twin ? "m" : "b";
  cells->push_back(CellData::Make(row, m, "title", 1000, KeyType::kPut, "Title of " + row));
  cells->push_back(CellData::Make(row, m, "owner", 1000, KeyType::kPut, "owner-" + row.substr(4)));
  cells->push_back(CellData::Make(row, m, "size", 1000, KeyType::kPut, "3072"));
  cells->push_back(CellData::Make(row, m, "mtime", 1000, KeyType::kPut, "1700000000000"));
  for (int rev = 1; rev <= 3; ++rev)
    cells->push_back(CellData::Make(row, b, "html", 1000 * rev, KeyType::kPut, Body(row, rev)));
}

void WriteStoreFile(const std::string& path, std::vector<CellData> cells, uint32_t block_size,
                    int64_t max_seq) {
  std::stable_sort(cells.begin(), cells.end(), [](const CellData& a, const CellData& b) {
    return CompareKeys(ComparatorKind::kDefault, a.key, b.key) < 0;
  });
  WriterOptions o;
  o.block_size = block_size;
  o.bloom_type = BloomType::kRow;
  o.max_seq_id = max_seq;
  o.major_compaction = false;
  auto w = Writer::Create(path, o);
  ASSERT_TRUE(w.ok()) << w.status().ToString();
  for (const auto& c : cells) ASSERT_TRUE((*w)->Append(c.view()).ok());
  ASSERT_TRUE((*w)->Finish().ok());
}

// Store files per region: A even docs 0-58, B odd docs 1-59 (same key range), C docs 100-119
// (after both). Returns the table dir.
std::string MakeDocsTable(const std::string& name, bool twin) {
  std::string root = test::NewTempDir(name);
  std::string table_dir = root + "/data/default/docs";
  std::filesystem::create_directories(table_dir + "/.tabledesc");
  TableDescriptor d(TableName{"default", "docs"});
  d.AddFamily(FamilyDescriptor::WithDefaults("m"));
  if (!twin) d.AddFamily(FamilyDescriptor::WithDefaults("b"));
  std::string bytes;
  d.EncodeTo(&bytes);
  test::WriteFileOrDie(table_dir + "/.tabledesc/" + TableInfoFileNameFor(1), bytes);
  const std::string bounds[] = {"", "4", "8", ""};
  for (int f = 0; f < 3; ++f) {
    RegionInfo info;
    info.table = TableName{"default", "docs"};
    info.start_key = bounds[f];
    info.end_key = bounds[f + 1];
    info.region_id = 1000;
    std::string dir = table_dir + "/" + info.EncodedName();
    bytes.clear();
    info.EncodeTo(&bytes);
    std::filesystem::create_directories(dir);
    test::WriteFileOrDie(dir + "/.regioninfo", bytes);
    struct Part {
      const char* name;
      int first, last, step;
      int64_t seq;
    };
    for (Part p : {Part{"aaaa", 0, 58, 2, 10}, Part{"bbbb", 1, 59, 2, 20},
                   Part{"cccc", 100, 119, 1, 30}}) {
      std::vector<CellData> cells;
      for (int doc = p.first; doc <= p.last; doc += p.step) AddDoc(&cells, Row(f, doc), twin);
      std::vector<CellData> m, b;
      for (auto& c : cells) (KeyFamily(c.key) == Slice("m") ? m : b).push_back(std::move(c));
      std::filesystem::create_directories(dir + "/m");
      WriteStoreFile(dir + "/m/" + p.name + "0000000000000000000000000000", m, 1024, p.seq);
      if (!twin) {
        std::filesystem::create_directories(dir + "/b");
        WriteStoreFile(dir + "/b/" + p.name + "0000000000000000000000000000", b, 8192, p.seq);
      }
    }
  }
  return table_dir;
}

struct Read {
  std::string out;
  RegionDumpResult result;
};

Read Dump(const std::string& table_dir, DumpOptions o, std::vector<std::string> families) {
  auto set = OpenTableRegions(table_dir);
  EXPECT_TRUE(set.ok()) << set.status().ToString();
  RegionDumpOptions ro;
  ro.dump = std::move(o);
  ro.dump.print_cells = true;
  ro.families = std::move(families);
  std::ostringstream out, err;
  Read r;
  EXPECT_TRUE(DumpRegionSetCells(*set, ro, out, err, &r.result).ok()) << err.str();
  EXPECT_EQ(err.str(), "");
  r.out = out.str();
  return r;
}

DumpOptions GetRow(const std::string& row) {
  DumpOptions o;
  o.seek_row = row;
  return o;
}
DumpOptions Prefix(const std::string& p) {
  DumpOptions o;
  o.prefix = p;
  return o;
}

// The data blocks an index seek to `row` must read, from the file's own index: the block the
// row's first-on-row key falls in and every following one whose index key still sorts before
// the next row.
uint64_t BlocksHoldingRow(const std::string& path, const std::string& row) {
  auto r = Reader::Open(path);
  EXPECT_TRUE(r.ok());
  auto index = (*r)->DataBlockIndex();
  EXPECT_TRUE(index.ok());
  const std::string first = FirstOnRowKey(row), bound = FirstOnRowKey(row + std::string(1, '\0'));
  size_t i = 0;
  while (i + 1 < index->size() &&
         CompareKeys(ComparatorKind::kDefault, (*index)[i + 1].key, first) <= 0)
    ++i;
  uint64_t n = 1;
  while (i + 1 < index->size() &&
         CompareKeys(ComparatorKind::kDefault, (*index)[i + 1].key, bound) < 0) {
    ++i;
    ++n;
  }
  return n;
}

// The printed cell lines of `out` (region headers dropped).
std::string CellLines(const std::string& out) {
  std::istringstream in(out);
  std::string line, cells;
  while (std::getline(in, line))
    if (line.rfind("K: ", 0) == 0) cells += line + "\n";
  return cells;
}

// The cell lines of a full dump whose row is `row`.
std::string FullDumpRows(const std::string& table_dir, const std::string& prefix,
                         std::vector<std::string> families) {
  std::istringstream in(CellLines(Dump(table_dir, DumpOptions(), std::move(families)).out));
  std::string line, cells;
  while (std::getline(in, line))
    if (line.rfind("K: " + prefix, 0) == 0) cells += line + "\n";
  return cells;
}

class IoStatsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    docs_ = new std::string(MakeDocsTable("io_stats_docs", false));
    twin_ = new std::string(MakeDocsTable("io_stats_twin", true));
  }
  static std::string* docs_;
  static std::string* twin_;
};
std::string* IoStatsTest::docs_ = nullptr;
std::string* IoStatsTest::twin_ = nullptr;

// What Reader::Open of `path` alone costs.
IoStats OpenCost(const std::string& path) {
  auto r = Reader::Open(path);
  EXPECT_TRUE(r.ok());
  return (*r)->io_stats();
}

std::string StoreFilePath(const std::string& table_dir, const std::string& region,
                          const std::string& family, const char* name) {
  return table_dir + "/" + region + "/" + family + "/" + name + "0000000000000000000000000000";
}

TEST_F(IoStatsTest, DocumentOpenOfFamilyMReadsOneRegionOneFileTheRowsBlocks) {
  const std::string region = OpenTableRegions(*docs_)->regions[1].encoded_name;
  IoStats open;
  for (const char* f : {"aaaa", "bbbb", "cccc"})
    open += OpenCost(StoreFilePath(*docs_, region, "m", f));
  bool saw_one_block = false;
  for (int doc = 2; doc < 60; doc += 2) {  // d000 precedes bbbb's first row
    const std::string row = Row(1, doc);
    SCOPED_TRACE(row);
    Read r = Dump(*docs_, GetRow(row), {"m"});
    // One region header only (not every region after the row), one store: m's.
    EXPECT_EQ(r.result.regions, 1u);
    ASSERT_EQ(r.result.stores.size(), 1u);
    const StoreIoStats& s = r.result.stores[0];
    EXPECT_EQ(s.table, "docs");
    EXPECT_EQ(s.region, region);
    EXPECT_EQ(s.family, "m");
    EXPECT_EQ(s.files, 3u);
    EXPECT_EQ(s.files_opened, 3u);
    EXPECT_EQ(s.skipped_range, 1u);  // cccc: docs 100-119
    EXPECT_EQ(s.skipped_bloom, 1u);  // bbbb: odd docs, same range
    EXPECT_EQ(s.files_read, 1u);
    // The bloom chunk of the two files whose range admits the row; no index block (one level);
    // of aaaa the blocks holding the row, no block after them.
    EXPECT_EQ(s.io.bloom.count, 2u);
    EXPECT_EQ(s.io.index.count, 0u);
    const uint64_t blocks = BlocksHoldingRow(StoreFilePath(*docs_, region, "m", "aaaa"), row);
    EXPECT_EQ(s.io.data.count, blocks);
    saw_one_block = saw_one_block || blocks == 1;
    EXPECT_EQ(s.io.meta.count, 0u);
    EXPECT_EQ(s.io.other.count, 0u);
    EXPECT_EQ(s.io.cache_hits, 0u);
    // The opens, then one read per bloom chunk and data block.
    EXPECT_EQ(s.io.open.count, open.open.count);
    EXPECT_EQ(s.io.open.bytes, open.open.bytes);
    EXPECT_EQ(s.io.read_calls, open.read_calls + 2 + blocks);
    EXPECT_LE(s.io.data.bytes, blocks * 1400);
    // The same cells as a full dump shows for that row.
    EXPECT_EQ(CellLines(r.out), FullDumpRows(*docs_, row, {"m"}));
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1 + 4);
  }
  EXPECT_TRUE(saw_one_block);
}

TEST_F(IoStatsTest, DocumentOpenOfBothFamilies) {
  const std::string row = Row(2, 20);
  Read r = Dump(*docs_, GetRow(row), {});
  EXPECT_EQ(r.result.regions, 1u);
  ASSERT_EQ(r.result.stores.size(), 2u);
  for (const auto& s : r.result.stores) {
    EXPECT_EQ(s.region, r.result.stores[0].region);
    EXPECT_EQ(s.files_read, 1u) << s.family;
    EXPECT_EQ(s.skipped_bloom, 1u) << s.family;
    EXPECT_EQ(s.skipped_range, 1u) << s.family;
    EXPECT_GE(s.io.data.count, 1u) << s.family;
  }
  // b's three 3 KB versions cost more than m's four small cells.
  ASSERT_EQ(r.result.stores[0].family, "b");
  ASSERT_EQ(r.result.stores[1].family, "m");
  EXPECT_GT(r.result.stores[0].io.data.bytes, 4 * r.result.stores[1].io.data.bytes);
  EXPECT_EQ(CellLines(r.out), FullDumpRows(*docs_, row, {}));
}

TEST_F(IoStatsTest, FolderListingReadsOnlyFamilyMOfOneRegion) {
  Read r = Dump(*docs_, Prefix(kFolders[0]), {"m"});
  EXPECT_EQ(r.result.regions, 1u);
  ASSERT_EQ(r.result.stores.size(), 1u);
  const StoreIoStats& s = r.result.stores[0];
  EXPECT_EQ(s.family, "m");
  EXPECT_EQ(s.skipped_bloom, 0u);  // a ROW bloom does not answer for a scan
  EXPECT_EQ(s.skipped_range, 0u);
  EXPECT_EQ(s.files_read, 3u);
  EXPECT_EQ(s.io.bloom.count, 0u);
  // Every data block of the three m files, nothing else: the folder is the whole region.
  uint64_t blocks = 0;
  for (const char* f : {"aaaa", "bbbb", "cccc"}) {
    auto reader = Reader::Open(StoreFilePath(*docs_, s.region, "m", f));
    ASSERT_TRUE(reader.ok());
    blocks += (*reader)->DataBlockIndex()->size();
  }
  EXPECT_EQ(s.io.data.count, blocks);
  EXPECT_EQ(CellLines(r.out), FullDumpRows(*docs_, kFolders[0], {"m"}));
  EXPECT_EQ(r.result.cells, 80u * 4);

  // The twin holds the bodies in the same family: the same listing reads them all.
  Read t = Dump(*twin_, Prefix(kFolders[0]), {"m"});
  ASSERT_EQ(t.result.stores.size(), 1u);
  EXPECT_GT(t.result.stores[0].io.data.bytes, 10 * s.io.data.bytes);
  EXPECT_EQ(t.result.cells, 80u * 7);
}

TEST_F(IoStatsTest, TwinReadsMoreBytesForTheSameRow) {
  const std::string row = Row(0, 30);
  Read r = Dump(*docs_, GetRow(row), {"m"});
  Read t = Dump(*twin_, GetRow(row), {"m"});
  ASSERT_EQ(r.result.stores.size(), 1u);
  ASSERT_EQ(t.result.stores.size(), 1u);
  EXPECT_GT(t.result.stores[0].io.data.bytes, 4 * r.result.stores[0].io.data.bytes);
}

TEST_F(IoStatsTest, ARowBetweenTheFilesRangesReadsNoBlock) {
  // After aaaa's and bbbb's last rows (d058, d059), before cccc's first (d100).
  Read r = Dump(*docs_, GetRow(Row(1, 80)), {"m", "b"});
  ASSERT_EQ(r.result.stores.size(), 2u);
  for (const auto& s : r.result.stores) {
    EXPECT_EQ(s.files_read, 0u);
    EXPECT_EQ(s.skipped_range, 3u);
    EXPECT_EQ(s.skipped_bloom, 0u);
    EXPECT_EQ(s.io.AfterOpen().count, 0u);
  }
  EXPECT_EQ(r.result.cells, 0u);
}

TEST_F(IoStatsTest, RangeReadStopsAtTheUpperBound) {
  DumpOptions o;
  o.from_row = Row(2, 0);
  o.to_row = Row(2, 2);
  Read r = Dump(*docs_, o, {"m"});
  ASSERT_EQ(r.result.stores.size(), 1u);
  const StoreIoStats& s = r.result.stores[0];
  EXPECT_EQ(s.files_read, 2u);  // cccc is past the range
  EXPECT_EQ(s.io.data.count, 2u);  // the first block of aaaa and of bbbb
  EXPECT_EQ(r.result.cells, 2u * 4);
  EXPECT_EQ(CellLines(r.out),
            FullDumpRows(*docs_, Row(2, 0), {"m"}) + FullDumpRows(*docs_, Row(2, 1), {"m"}));
}

TEST_F(IoStatsTest, PrintIoStatsTextAndJson) {
  Read r = Dump(*docs_, GetRow(Row(1, 10)), {"m"});
  std::ostringstream text, json;
  PrintIoStats(r.result.stores, false, text);
  PrintIoStats(r.result.stores, true, json);
  const StoreIoStats& s = r.result.stores[0];
  EXPECT_NE(text.str().find("io-stats docs " + s.region +
                            " m: files 3 opened 3 skipped 2 (range 1, bloom 1) read 1; blocks "
                            "data " + std::to_string(s.io.data.count) + " (" +
                            std::to_string(s.io.data.bytes) + " B) index 0 (0 B) bloom 2 (" +
                            std::to_string(s.io.bloom.bytes) + " B) meta 0 (0 B); at open "),
            std::string::npos)
      << text.str();
  EXPECT_NE(text.str().find("\nio-stats total (1 stores): files 3 opened 3"), std::string::npos)
      << text.str();
  EXPECT_NE(json.str().find("{\"kind\":\"io_stats\",\"v\":1,\"table\":\"docs\",\"region\":\"" +
                            s.region +
                            "\",\"family\":\"m\",\"files\":3,\"files_opened\":3,"
                            "\"files_skipped_range\":1,\"files_skipped_bloom\":1,\"files_read\":1,"
                            "\"data_blocks\":" + std::to_string(s.io.data.count) + ","),
            std::string::npos)
      << json.str();
  EXPECT_NE(json.str().find("{\"kind\":\"io_stats_total\",\"v\":1,\"stores\":1,\"files\":3,"),
            std::string::npos);
}

// A bloom chunk that fails its checksum excludes nothing, as StoreFileReader proceeds without
// it: the row's cells are printed, a warning names the file, the dump does not fail.
// The file's line of a LocateRow JSON output (its "file" field is `name`...).
std::string LocateLine(const std::string& out, const char* name) {
  std::istringstream in(out);
  std::string line;
  while (std::getline(in, line))
    if (line.find("\"file\":\"" + std::string(name)) != std::string::npos) return line;
  return "";
}

size_t Count(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
  return n;
}

// --locate decides as the Get path does (DumpRegionSetCells -w): one region, cccc out by its
// range, the other file of the same range out by its bloom; the read file's blocks are those
// an index seek to the row reads, and its cell count the row's cells.
TEST_F(IoStatsTest, LocateRowNamesTheRegionTheFilesTheBloomsAnswersAndTheBlocks) {
  auto set = OpenTableRegions(*docs_);
  ASSERT_TRUE(set.ok());
  const std::string region = set->regions[1].encoded_name;
  bool saw_two_blocks = false;
  for (int doc = 2; doc < 59; ++doc) {  // d059 is past aaaa's last row (d058)
    const std::string row = Row(1, doc);
    SCOPED_TRACE(row);
    RegionDumpOptions ro;
    ro.dump.json = true;
    ro.families = {"m"};
    std::ostringstream out, err;
    LocateResult result;
    ASSERT_TRUE(LocateRow(*set, row, ro, out, err, &result).ok()) << err.str();
    EXPECT_EQ(err.str(), "");
    EXPECT_EQ(result.regions, 1u);
    EXPECT_EQ(result.files, 3u);
    EXPECT_EQ(result.files_may_hold, 1u);
    const uint64_t cells = Count(FullDumpRows(*docs_, row, {"m"}), "\n");
    EXPECT_EQ(result.cells, cells);
    EXPECT_EQ(Read(Dump(*docs_, GetRow(row), {"m"})).result.stores[0].files_read, 1u);
    const std::string& o = out.str();
    EXPECT_EQ(o.rfind("{\"kind\":\"locate_region\",\"v\":1,\"path\":", 0), 0u) << o;
    EXPECT_NE(o.find("\"region\":\"" + region + "\",\"row\":\"" + row +
                     "\",\"region_name\":\"docs,4,1000." + region +
                     ".\",\"start_key\":\"4\","
                     "\"end_key\":\"8\"}"),
              std::string::npos)
        << o;
    const char* hit = doc % 2 ? "bbbb" : "aaaa";
    const char* miss = doc % 2 ? "aaaa" : "bbbb";
    const std::string read = LocateLine(o, hit);
    EXPECT_NE(read.find("\"in_key_range\":true,\"bloom_type\":\"ROW\",\"bloom\":"
                        "\"might_contain\",\"read\":true,"),
              std::string::npos)
        << read;
    EXPECT_NE(read.find(",\"cells\":" + std::to_string(cells) + "}"), std::string::npos) << read;
    const uint64_t blocks = BlocksHoldingRow(StoreFilePath(*docs_, region, "m", hit), row);
    EXPECT_EQ(Count(read, "\"offset\":"), blocks) << read;
    saw_two_blocks = saw_two_blocks || blocks > 1;
    EXPECT_NE(LocateLine(o, miss).find("\"in_key_range\":true,\"bloom_type\":\"ROW\","
                                       "\"bloom\":\"absent\",\"read\":false,\"blocks\":[],"
                                       "\"cells\":0}"),
              std::string::npos)
        << o;
    EXPECT_NE(LocateLine(o, "cccc").find("\"in_key_range\":false,\"bloom_type\":\"ROW\","
                                         "\"bloom\":\"not_checked\",\"read\":false,"),
              std::string::npos)
        << o;
  }
  EXPECT_TRUE(saw_two_blocks);
  // Text: the region line and one line per file.
  RegionDumpOptions ro;
  ro.families = {"m"};
  std::ostringstream out, err;
  ASSERT_TRUE(LocateRow(*set, Row(1, 2), ro, out, err, nullptr).ok());
  EXPECT_EQ(out.str().rfind("region " + region + " ['4', '8') holds row '" + Row(1, 2) + "'\n", 0),
            0u)
      << out.str();
  EXPECT_EQ(Count(out.str(), "\n"), 2u + 3u) << out.str();
  // A family the table lacks.
  ro.families = {"nope"};
  EXPECT_TRUE(LocateRow(*set, Row(1, 2), ro, out, err, nullptr).IsInvalidArgument());
}

TEST(IoStatsPruning, AnUnreadableBloomIsNotUsed) {
  const std::string table = MakeDocsTable("io_stats_bad_bloom", false);
  const std::string region = OpenTableRegions(table)->regions[1].encoded_name;
  const std::string path = StoreFilePath(table, region, "m", "bbbb");
  uint64_t chunk;
  {
    auto r = Reader::Open(path);
    ASSERT_TRUE(r.ok());
    ASSERT_TRUE((*r)->rep().general_bloom.has_value());
    chunk = (*r)->rep().general_bloom->chunks.at(0).offset;
  }
  std::string bytes = test::ReadFileOrDie(path);
  bytes[chunk + 40] ^= 0x5a;  // in the chunk's body, past its 33-byte header
  test::WriteFileOrDie(path, bytes);

  auto set = OpenTableRegions(table);
  ASSERT_TRUE(set.ok());
  RegionDumpOptions ro;
  ro.dump = GetRow(Row(1, 10));
  ro.dump.print_cells = true;
  ro.families = {"m"};
  std::ostringstream out, err;
  RegionDumpResult result;
  ASSERT_TRUE(DumpRegionSetCells(*set, ro, out, err, &result).ok());
  EXPECT_NE(err.str().find("hfile-dump: warning: "), std::string::npos) << err.str();
  EXPECT_NE(err.str().find("bbbb0000000000000000000000000000"), std::string::npos) << err.str();
  EXPECT_NE(err.str().find(": bloom not used"), std::string::npos) << err.str();
  ASSERT_EQ(result.stores.size(), 1u);
  EXPECT_EQ(result.stores[0].skipped_bloom, 0u);  // bbbb is read, and holds nothing of the row
  EXPECT_EQ(result.stores[0].files_read, 2u);
  EXPECT_EQ(CellLines(out.str()), FullDumpRows(table, Row(1, 10), {"m"}));
}

// Every row and every one-letter prefix of a table with a split parent, its daughters' BOTTOM
// and TOP references, an HFileLink and a bulk-loaded file (real HBase files): the pruned read
// prints exactly the cells a full dump prints for it, and files are skipped.
TEST(IoStatsPruning, SameCellsAsAFullDumpThroughReferencesAndLinks) {
  HFILE_REQUIRE_REAL_DATA();
  SyntheticTable t = MakeTable("io_stats_split");
  const std::string full = CellLines(Dump(t.table_dir, DumpOptions(), {}).out);
  std::vector<std::string> rows;
  std::istringstream in(full);
  for (std::string line; std::getline(in, line);) {
    std::string row = line.substr(3, line.find('/') - 3);
    if (rows.empty() || rows.back() != row) rows.push_back(row);
  }
  ASSERT_GT(rows.size(), 10u);
  uint64_t skipped = 0, opened = 0;
  for (const auto& row : rows) {
    SCOPED_TRACE(row);
    Read r = Dump(t.table_dir, GetRow(row), {});
    EXPECT_EQ(CellLines(r.out), FullDumpRows(t.table_dir, row + "/", {}));
    EXPECT_EQ(r.result.regions, 1u);
    for (const auto& s : r.result.stores) {
      skipped += s.skipped_range + s.skipped_bloom;
      opened += s.files_opened;
    }
  }
  EXPECT_GT(skipped, 0u);
  EXPECT_LT(skipped, opened);
  for (char c = 'a'; c <= 'z'; ++c) {
    SCOPED_TRACE(std::string(1, c));
    Read r = Dump(t.table_dir, Prefix(std::string(1, c)), {});
    EXPECT_EQ(CellLines(r.out), FullDumpRows(t.table_dir, std::string(1, c), {}));
  }
}

}  // namespace
}  // namespace hfile::region
