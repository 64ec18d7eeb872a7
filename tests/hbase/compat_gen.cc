// hfilekit-compat-gen: writes, with OUR writer, the settings matrix that HBase 2.6.4 must read
// (tests/hbase/check_writer_matrix.sh runs HBase's reader on every file and compares).
//
//   hfilekit-compat-gen --testdata testdata/hbase --out DIR
//
// Writes into DIR, for every case NAME:
//   NAME.hfile           our file
//   NAME.expected.jsonl  the cells we appended (canonical "cell" records)
//   NAME.ours.jsonl      what OUR reader reports for the file: trailer, fileinfo, cells, then a
//                        "bloom" pair per probe and a "seek" record per seek target, in the
//                        harness's `read` format and order
// and once: probes.jsonl, seeks.jsonl (shared by every case) and cases.tsv (NAME, settings).
//
// Cells come from the harness's committed fixtures (HBase's CellGenerator: every cell type,
// tags, empty and non-ASCII qualifiers, \x00\xFF rows, values larger than a 4 KiB block) and from
// a seeded generator here (large values for blocks bigger than every codec's MAX_INPUT).
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>

#include "compat_gen.h"
#include "hfile/dump.h"
#include "hfile/reader.h"
#include "hfile/writer.h"

namespace hfile::compat {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct Case {
  std::string name;
  const std::vector<OwnedCell>* cells;
  WriterOptions options;
};

std::vector<OwnedCell> StripTags(std::vector<OwnedCell> cells) {
  for (auto& c : cells) c.tags.clear();
  return cells;
}

// HBase's order (CellComparatorImpl), sequence id descending last; drop duplicate keys.
void SortCells(std::vector<OwnedCell>* cells) {
  std::sort(cells->begin(), cells->end(), [](const OwnedCell& a, const OwnedCell& b) {
    int r = CompareKeys(ComparatorKind::kDefault, a.key, b.key);
    return r != 0 ? r < 0 : a.seqid > b.seqid;
  });
  cells->erase(std::unique(cells->begin(), cells->end(),
                           [](const OwnedCell& a, const OwnedCell& b) { return a.key == b.key; }),
               cells->end());
}

// Seeded cells with big values: 400 cells over 100 rows, values 0..3000 bytes of compressible
// text, every 25th cell 20000 bytes and one 300000-byte value (larger than every codec's
// MAX_INPUT), all five cell types, 0-2 tags, sequence ids. std::mt19937_64 is specified by the
// standard, so the cells are the same everywhere.
std::vector<OwnedCell> BigCells() {
  std::mt19937_64 rng(20261129);
  const char* words[] = {"alpha ", "bravo ", "charlie ", "delta ", "echo ", "foxtrot ", "golf "};
  std::vector<OwnedCell> cells;
  const uint8_t types[] = {4, 4, 4, 4, 8, 12, 14, 10};
  for (int i = 0; i < 400; ++i) {
    OwnedCell c;
    std::string row = fmt::format("big-{:05d}", i / 4);
    uint8_t type = types[rng() % 8];
    std::string qual = (type == 14 || type == 10) ? "" : fmt::format("q{}", rng() % 6);
    int64_t ts = 1700000000000 + static_cast<int64_t>(rng() % 100000);
    AppendKey(&c.key, row, "f", qual, ts, type);
    size_t len = i == 201 ? 300000 : i % 25 == 7 ? 20000 : rng() % 3001;
    if (type != 4) len = 0;
    while (c.value.size() < len) {
      if (rng() % 4 == 0) {
        c.value.push_back(static_cast<char>(rng() & 0xFF));
      } else {
        c.value += words[rng() % 7];
      }
    }
    c.value.resize(len);
    for (uint64_t t = rng() % 3; t > 0; --t) {
      std::string v = fmt::format("tag-{}", rng() % 100);
      c.tags.push_back(0);
      c.tags.push_back(static_cast<char>(v.size() + 1));
      c.tags.push_back(101);
      c.tags += v;
    }
    c.seqid = rng() % 10 == 0 ? 0 : 1 + rng() % 100000;
    cells.push_back(std::move(c));
  }
  SortCells(&cells);
  return cells;
}

// Cells at the format's limits: a 32767-byte row (Short.MAX_VALUE), a 20000-byte qualifier,
// 32363 bytes of tags on one cell (one tag value of 20000 bytes; our Writer refuses more than
// 32767, which HBase 2.6.4 cannot read back), a 2 MiB value, timestamps 0 and
// INT64_MAX - 1, sequence id 2^62, rows that differ only in a last 0x00 / 0xFF byte or are
// prefixes of the next, every cell type; with 256-byte blocks nearly every cell closes one.
std::vector<OwnedCell> EdgeCells() {
  using namespace std::string_literals;
  std::vector<OwnedCell> cells;
  auto add = [&](std::string row, std::string q, int64_t ts, uint8_t type, std::string value,
                 std::vector<std::pair<uint8_t, std::string>> tags, uint64_t seqid) {
    OwnedCell c;
    AppendKey(&c.key, row, "f", q, ts, type);
    c.value = std::move(value);
    for (auto& [t, v] : tags) {
      size_t len = v.size() + 1;
      c.tags.push_back(static_cast<char>(len >> 8));
      c.tags.push_back(static_cast<char>(len));
      c.tags.push_back(static_cast<char>(t));
      c.tags += v;
    }
    c.seqid = seqid;
    cells.push_back(std::move(c));
  };
  const int64_t kMaxTs = INT64_MAX - 1;
  std::string text;
  for (int i = 0; text.size() < (2u << 20); ++i) text += fmt::format("line {} of a big value\n", i);
  add("", "q", 5, 4, "empty row", {}, 1);
  add("a", "", kMaxTs, 14, "", {{101, "df"}}, 2);
  add("a", "", kMaxTs, 10, "", {}, 3);
  add("a", "", 0, 4, "ts0", {}, 4);
  add("a", "q", 7, 12, "", {}, uint64_t{1} << 62);
  add("a", "q", 7, 8, "", {}, 5);
  add("a", "q", 7, 4, "", {}, 6);
  add("a", std::string(20000, 'Q'), 1, 4, "long qualifier", {}, 7);
  add("a\x00"s, "q", 1, 4, text, {}, 8);  // 2 MiB value
  std::vector<std::pair<uint8_t, std::string>> many;
  many.push_back({102, std::string(20000, 'T')});
  for (int i = 0; i < 120; ++i) many.push_back({static_cast<uint8_t>(i % 256), std::string(100, 'a' + i % 26)});
  add("a\x00\x00"s, "q", 1, 4, "many tags", many, 9);
  add("a\xFF", "q", 1, 4, "v", {{8, std::string("\x00\x00\x00\x00\x00\x00\x00\x01", 8)}}, 10);
  add("a\xFF\xFF", "q", 1, 4, "v", {}, 0);
  add(std::string(32767, 'r'), "q", 1, 4, "longest row", {{101, "x"}}, 11);
  add(std::string(32767, 'r').replace(32766, 1, "s"), "q", 1, 4, "longest row 2", {}, 12);
  add("s", "q", 1, 4, std::string(70000, '\0'), {}, 13);
  add("s\x00"s, "q", 1, 4, "", {}, 14);
  SortCells(&cells);
  return cells;
}

std::string Str(const Slice& s) {
  std::string out;
  AppendJsonBinary(&out, s);
  return out;
}

void AddProbesAndSeeks(const std::vector<OwnedCell>& cells, size_t step, std::vector<std::string>* probes,
                       std::vector<std::string>* seeks) {
  for (size_t i = 0; i < cells.size(); i += step) {
    Cell c = cells[i].view();
    std::string row = Str(c.row()), fam = Str(c.family()), q = Str(c.qualifier());
    if (c.row().empty()) continue;  // a Get needs a row (HBase: "Row length is 0")
    probes->push_back(fmt::format("{{\"row\":{},\"family\":{},\"qualifier\":{}}}", row, fam, q));
    probes->push_back(fmt::format("{{\"row\":{},\"family\":{},\"qualifier\":null}}", row, fam));
    seeks->push_back(fmt::format("{{\"row\":{}}}", row));
    if (c.row().size() < 32767) {  // HBase refuses rows longer than Short.MAX_VALUE
      std::string miss = Str(c.row().ToString() + "x");
      probes->push_back(fmt::format("{{\"row\":{},\"family\":{},\"qualifier\":{}}}", miss, fam, q));
      seeks->push_back(fmt::format("{{\"row\":{}}}", miss));
    }
    seeks->push_back(fmt::format(
        "{{\"row\":{},\"family\":{},\"qualifier\":{},\"timestamp\":{},\"type\":\"{}\"}}", row, fam,
        q, c.timestamp(), KeyTypeName(c.type())));
    seeks->push_back(fmt::format(
        "{{\"row\":{},\"family\":{},\"qualifier\":{},\"timestamp\":{},\"type\":\"Put\"}}", row,
        fam, q, c.timestamp() - 1));
  }
}

std::vector<std::string> ReadLines(const std::string& path) {
  std::vector<std::string> out;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) out.push_back(line);
  return out;
}

// Our reader's view of `path`, in the harness's `read` format (minus the check record).
Status DescribeWithOurReader(const std::string& path, const std::vector<std::string>& probes,
                             const std::vector<std::string>& seeks, std::ostream& out) {
  DumpOptions o;
  o.json = true;
  o.print_cells = true;
  o.print_meta = true;
  std::ostringstream dump, err;
  HFILE_RETURN_IF_ERROR(DumpFile(path, o, dump, err, nullptr));
  std::istringstream lines(dump.str());
  for (std::string line; std::getline(lines, line);) {
    json j = json::parse(line);
    auto kind = j.value("kind", "");
    // Our records name their file ("path"); the harness's do not.
    if (auto at = line.find(",\"path\":" + j["path"].dump()); at != std::string::npos)
      line.erase(at, 8 + j["path"].dump().size());
    // Nor the schema version of hfile-json(7).
    if (auto at = line.find(",\"v\":1"); at != std::string::npos) line.erase(at, 6);
    if (kind == "trailer" || kind == "cell") out << line << "\n";
    // Our dump adds a "decoded" rendering; the harness prints raw key and value only.
    if (kind == "fileinfo")
      out << "{\"kind\":\"fileinfo\",\"key\":" << j["key"].dump() << ",\"value\":"
          << j["value"].dump() << "}\n";
  }
  HFILE_ASSIGN_OR_RETURN(auto reader, Reader::Open(path));
  for (const auto& p : probes) {
    json j = json::parse(p);
    std::string row = Unbinary(j["row"]), fam = Unbinary(j["family"]);
    Result<bool> general = j["qualifier"].is_null()
                               ? reader->BloomMightContainRow(row)
                               : reader->BloomMightContainColumn(row, fam, Unbinary(j["qualifier"]));
    HFILE_RETURN_IF_ERROR(general.status());
    HFILE_ASSIGN_OR_RETURN(bool df, reader->DeleteFamilyBloomMightContain(row));
    std::string q = j["qualifier"].is_null() ? "null" : Str(Unbinary(j["qualifier"]));
    for (auto [filter, answer] : {std::pair{"general", *general}, std::pair{"delete_family", df}}) {
      out << fmt::format(
          "{{\"kind\":\"bloom\",\"filter\":\"{}\",\"row\":{},\"family\":{},\"qualifier\":{},"
          "\"answer\":{}}}\n",
          filter, Str(row), Str(fam), q, answer ? "true" : "false");
    }
  }
  auto it = reader->NewIterator();
  for (const auto& s : seeks) {
    json j = json::parse(s);
    std::string row = Unbinary(j["row"]);
    std::string key;
    if (j.contains("family")) {
      AppendKey(&key, row, Unbinary(j["family"]), Unbinary(j["qualifier"]),
                JsonInteger(j["timestamp"]), TypeByName(j["type"]));
    } else {
      key = FirstOnRowKey(row);
    }
    it->Seek(key);
    HFILE_RETURN_IF_ERROR(it->status());
    out << "{\"kind\":\"seek\",\"target\":" << s
        << ",\"at\":" << (it->Valid() ? CellJson(it->cell()) : "null") << "}\n";
  }
  return Status::OK();
}

// --bulkload DIR: HFiles shaped as HFileOutputFormat2 writes them for completebulkload
// (sequence ids 0, BULKLOAD_TIMESTAMP / BULKLOAD_SOURCE_TASK / EXCLUDE_FROM_MINOR_COMPACTION /
// MAJOR_COMPACTION_KEY=false, TIMERANGE, blooms), for a table pre-split at row-00004 and
// row-00050:
//   DIR/hfiles/f/*: the tagged fixture cells in family f, one file per region (loaded as is);
//   DIR/hfiles/g/all: the 800 3-level cells in family g, one file across all three regions
//                     (BulkLoadHFilesTool must split it: HBase reads our file and rewrites it);
//   DIR/script.jsonl: the harness cluster script (create, bulkload, raw scan);
//   DIR/expected.jsonl: what the raw scan must return (client scans carry no tags or seqids).
// TTL tags (type 8) are dropped from the cells: HBase would expire those cells in a scan; and
// of cells with equal keys only the first is kept (a scan shows one).
Status WriteBulkLoad(const std::string& testdata, const std::string& dir) {
  fs::create_directories(dir + "/hfiles/f");
  fs::create_directories(dir + "/hfiles/g");
  auto f_cells = LoadCells(testdata + "/none-none-row-crc32c-tags.cells.jsonl");
  for (auto& c : f_cells) {
    std::string kept;
    for (size_t off = 0; off + 3 <= c.tags.size();) {
      size_t len = (static_cast<uint8_t>(c.tags[off]) << 8) | static_cast<uint8_t>(c.tags[off + 1]);
      if (static_cast<uint8_t>(c.tags[off + 2]) != 8) kept.append(c.tags, off, 2 + len);
      off += 2 + len;
    }
    c.tags = kept;
    c.seqid = 0;
  }
  std::vector<OwnedCell> g_cells;
  for (const auto& d : LoadCells(testdata + "/none-none-row-crc32c-notags-3level.cells.jsonl")) {
    OwnedCell c;
    Cell v = d.view();
    AppendKey(&c.key, v.row(), "g", v.qualifier(), v.timestamp(), v.type());
    c.value = d.value;
    g_cells.push_back(std::move(c));
  }
  // A scan shows one cell per key (ScanWildcardColumnTracker skips a cell with the timestamp
  // and type of the one before it), so keep only the first of equal keys: the scan must then
  // return every cell we wrote.
  for (auto* cells : {&f_cells, &g_cells}) {
    cells->erase(std::unique(cells->begin(), cells->end(),
                             [](const OwnedCell& a, const OwnedCell& b) { return a.key == b.key; }),
                 cells->end());
  }
  auto bulk_options = [](Compression c, DataBlockEncoding e, BloomType b) {
    WriterOptions o;
    o.compression = c;
    o.encoding = e;
    o.bloom_type = b;
    o.block_size = 1024;
    o.create_time_ms = kHarnessCreateTime;
    o.bulkload_timestamp = kHarnessCreateTime;
    o.bulkload_source_task = "hfilekit-compat-gen";
    o.major_compaction = false;
    o.exclude_from_minor_compaction = false;
    return o;
  };
  auto write = [](const std::string& path, const WriterOptions& o, const std::vector<OwnedCell>& cells,
                  size_t begin, size_t end) -> Status {
    HFILE_ASSIGN_OR_RETURN(auto w, Writer::Create(path, o));
    for (size_t i = begin; i < end; ++i) HFILE_RETURN_IF_ERROR(w->Append(cells[i].view()));
    return w->Finish();
  };
  // f: split at the region boundary row-00004.
  size_t cut = 0;
  while (cut < f_cells.size() && f_cells[cut].view().row().ToString() < "row-00004") ++cut;
  HFILE_RETURN_IF_ERROR(write(dir + "/hfiles/f/region0",
                              bulk_options(Compression::kSnappy, DataBlockEncoding::kFastDiff, BloomType::kRow),
                              f_cells, 0, cut));
  HFILE_RETURN_IF_ERROR(write(dir + "/hfiles/f/region1",
                              bulk_options(Compression::kGz, DataBlockEncoding::kPrefix, BloomType::kRowCol),
                              f_cells, cut, f_cells.size()));
  HFILE_RETURN_IF_ERROR(write(dir + "/hfiles/g/all",
                              bulk_options(Compression::kZstd, DataBlockEncoding::kRowIndexV1, BloomType::kRow),
                              g_cells, 0, g_cells.size()));

  std::vector<OwnedCell> all = f_cells;
  all.insert(all.end(), g_cells.begin(), g_cells.end());
  std::stable_sort(all.begin(), all.end(), [](const OwnedCell& a, const OwnedCell& b) {
    return CompareKeys(ComparatorKind::kDefault, a.key, b.key) < 0;
  });
  std::ofstream expected(dir + "/expected.jsonl");
  for (const auto& c : all) expected << CellJson(Cell{Slice(c.key), Slice(c.value), Slice(), 0}) << "\n";
  std::ofstream script(dir + "/script.jsonl");
  script << R"({"op":"create","table":"bulk","splits":["row-00004","row-00050"],"families":[)"
         << R"({"name":"f","max_versions":1000},{"name":"g","compression":"SNAPPY","max_versions":1000}]})" << "\n"
         << R"({"op":"bulkload","table":"bulk","dir":)" << json(fs::absolute(dir + "/hfiles").string()).dump() << "}\n"
         << R"({"op":"scan","table":"bulk"})" << "\n";
  return Status::OK();
}

int Main(int argc, char** argv) {
  std::string testdata, out_dir, only, bulkload;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string a = argv[i];
    if (a == "--testdata") testdata = argv[i + 1];
    else if (a == "--out") out_dir = argv[i + 1];
    else if (a == "--only") only = argv[i + 1];  // substring of case names
    else if (a == "--bulkload") bulkload = argv[i + 1];
    else {
      std::cerr << "unknown option " << a << "\n";
      return 2;
    }
  }
  if (!testdata.empty() && !bulkload.empty()) {
    Status s = WriteBulkLoad(testdata, bulkload);
    if (!s.ok()) std::cerr << "hfilekit-compat-gen: " << s.ToString() << "\n";
    return s.ok() ? 0 : 1;
  }
  if (testdata.empty() || out_dir.empty()) {
    std::cerr << "usage: hfilekit-compat-gen --testdata testdata/hbase --out DIR [--only SUBSTR]\n"
                 "       hfilekit-compat-gen --testdata testdata/hbase --bulkload DIR\n";
    return 2;
  }
  fs::create_directories(out_dir);

  const auto tagged = LoadCells(testdata + "/none-none-row-crc32c-tags.cells.jsonl");
  const auto untagged = StripTags(tagged);
  const auto deep = LoadCells(testdata + "/none-none-row-crc32c-notags-3level.cells.jsonl");
  const auto big = BigCells();
  const auto edge = EdgeCells();
  const auto edge_untagged = StripTags(edge);
  const std::vector<OwnedCell> none;

  std::vector<std::string> probes = ReadLines(testdata + "/probes.jsonl"), seeks;
  for (const char* r : {"", "a", "row-0", "zzz", "row-00000\\\\x00"})
    seeks.push_back(fmt::format("{{\"row\":\"{}\"}}", r));
  AddProbesAndSeeks(tagged, 10, &probes, &seeks);
  AddProbesAndSeeks(deep, 40, &probes, &seeks);
  AddProbesAndSeeks(big, 30, &probes, &seeks);
  AddProbesAndSeeks(edge, 1, &probes, &seeks);

  const Compression codecs[] = {Compression::kNone, Compression::kGz,   Compression::kSnappy,
                                Compression::kLz4,  Compression::kZstd, Compression::kLzo};
  const DataBlockEncoding encodings[] = {DataBlockEncoding::kNone, DataBlockEncoding::kPrefix,
                                         DataBlockEncoding::kDiff, DataBlockEncoding::kFastDiff,
                                         DataBlockEncoding::kRowIndexV1};
  const BloomType blooms[] = {BloomType::kNone, BloomType::kRow, BloomType::kRowCol,
                              BloomType::kRowPrefixFixedLength};
  const ChecksumType checksums[] = {ChecksumType::kNull, ChecksumType::kCrc32,
                                    ChecksumType::kCrc32c};
  auto lower = [](std::string_view s) {
    std::string r(s);
    for (char& c : r) c = static_cast<char>(tolower(static_cast<unsigned char>(c)));
    return r;
  };
  auto base = [&](Compression c, DataBlockEncoding e, BloomType b) {
    WriterOptions o;  // what a RegionServer flush writes (as the harness's gen does)
    o.compression = c;
    o.encoding = e;
    o.bloom_type = b;
    o.bloom_prefix_length = 8;
    o.block_size = 4096;
    o.create_time_ms = kHarnessCreateTime;
    o.major_compaction = false;
    o.compaction_event = std::vector<std::string>{};
    return o;
  };
  auto name = [&](Compression c, DataBlockEncoding e, BloomType b, ChecksumType k,
                  const std::string& tags, const std::string& variant) {
    return fmt::format("{}-{}-{}-{}-{}{}", lower(CompressionName(c)), lower(DataBlockEncodingName(e)),
                       lower(BloomTypeName(b)), lower(ChecksumTypeName(k)), tags, variant);
  };

  std::vector<Case> cases;
  // A: every codec x every encoding x {no tags, raw tags, dictionary-compressed tags}.
  for (auto c : codecs)
    for (auto e : encodings)
      for (int t = 0; t < 3; ++t) {
        WriterOptions o = base(c, e, BloomType::kRow);
        o.include_tags = t > 0;
        o.compress_tags = t == 2;
        const char* tn[] = {"notags", "rawtags", "tags"};
        cases.push_back({name(c, e, BloomType::kRow, o.checksum_type, tn[t], ""),
                         t == 0 ? &untagged : &tagged, o});
      }
  // B: every bloom x every checksum x tags on/off, codec and encoding rotating.
  int rot = 0;
  for (auto b : blooms)
    for (auto k : checksums)
      for (int t = 0; t < 2; ++t, ++rot) {
        Compression c = codecs[rot % 6];
        DataBlockEncoding e = encodings[rot % 5];
        WriterOptions o = base(c, e, b);
        o.checksum_type = k;
        o.include_tags = t == 1;
        cases.push_back({name(c, e, b, k, t ? "tags" : "notags", "-b"), t ? &tagged : &untagged, o});
      }
  // C: 3-level indexes (512-byte blocks, 256-byte index chunks) and D: small bloom chunks.
  const std::tuple<Compression, DataBlockEncoding, BloomType> deep_cases[] = {
      {Compression::kNone, DataBlockEncoding::kNone, BloomType::kRow},
      {Compression::kSnappy, DataBlockEncoding::kFastDiff, BloomType::kRow},
      {Compression::kZstd, DataBlockEncoding::kRowIndexV1, BloomType::kRowCol},
      {Compression::kGz, DataBlockEncoding::kPrefix, BloomType::kRowPrefixFixedLength},
      {Compression::kLz4, DataBlockEncoding::kDiff, BloomType::kNone},
      {Compression::kLzo, DataBlockEncoding::kNone, BloomType::kRow}};
  for (auto [c, e, b] : deep_cases) {
    WriterOptions o = base(c, e, b);
    o.include_tags = false;
    o.block_size = 512;
    o.index_block_max_size = 256;
    o.index_min_entries = 4;
    cases.push_back({name(c, e, b, o.checksum_type, "notags", "-3level"), &deep, o});
  }
  for (auto [b, chunk] : {std::pair{BloomType::kRow, 8}, std::pair{BloomType::kRowCol, 32},
                          std::pair{BloomType::kRowPrefixFixedLength, 16}}) {
    WriterOptions o = base(Compression::kNone, DataBlockEncoding::kNone, b);
    o.include_tags = false;
    o.bloom_chunk_size = chunk;
    cases.push_back({name(Compression::kNone, DataBlockEncoding::kNone, b, o.checksum_type,
                          "notags", "-bloomchunks"), &deep, o});
  }
  // E: empty files, every bloom type.
  rot = 0;
  for (auto b : blooms) {
    Compression c = codecs[(rot * 2) % 6];
    DataBlockEncoding e = encodings[(rot++ * 3) % 5];
    WriterOptions o = base(c, e, b);
    cases.push_back({name(c, e, b, o.checksum_type, "tags", "-empty"), &none, o});
  }
  // F: 512 bytes per checksum.
  for (auto [c, e, k] : {std::tuple{Compression::kNone, DataBlockEncoding::kNone, ChecksumType::kCrc32c},
                         std::tuple{Compression::kGz, DataBlockEncoding::kFastDiff, ChecksumType::kCrc32},
                         std::tuple{Compression::kZstd, DataBlockEncoding::kPrefix, ChecksumType::kNull}}) {
    WriterOptions o = base(c, e, BloomType::kRow);
    o.checksum_type = k;
    o.bytes_per_checksum = 512;
    cases.push_back({name(c, e, BloomType::kRow, k, "tags", "-bpc512"), &tagged, o});
  }
  // G: 600000-byte blocks of big values: bodies larger than every codec's MAX_INPUT.
  for (auto c : codecs)
    for (auto e : {DataBlockEncoding::kNone, DataBlockEncoding::kFastDiff}) {
      WriterOptions o = base(c, e, BloomType::kRow);
      o.block_size = 600000;
      cases.push_back({name(c, e, BloomType::kRow, o.checksum_type, "tags", "-bigblocks"), &big, o});
    }

  // H: cells at the format's limits, 256-byte blocks, every codec, every encoding.
  rot = 0;
  for (auto c : codecs)
    for (auto e : encodings) {
      BloomType b = blooms[rot % 4];
      WriterOptions o = base(c, e, b);
      o.block_size = 256;
      o.include_tags = rot % 2 == 0;
      o.index_block_max_size = 1024;
      o.index_min_entries = 4;
      cases.push_back({name(c, e, b, o.checksum_type, o.include_tags ? "tags" : "notags", "-edge"),
                       o.include_tags ? &edge : &edge_untagged, o});
      ++rot;
    }

  auto write_lines = [&](const std::string& path, const std::vector<std::string>& lines) {
    std::ofstream f(path);
    for (const auto& l : lines) f << l << "\n";
  };
  write_lines(out_dir + "/probes.jsonl", probes);
  write_lines(out_dir + "/seeks.jsonl", seeks);
  std::ofstream manifest(out_dir + "/cases.tsv");
  int written = 0;
  for (auto& c : cases) {
    if (!only.empty() && c.name.find(only) == std::string::npos) continue;
    SetMaxSeqId(*c.cells, &c.options);
    const std::string path = out_dir + "/" + c.name + ".hfile";
    auto w = Writer::Create(path, c.options);
    Status s = w.status();
    std::ofstream expected(out_dir + "/" + c.name + ".expected.jsonl");
    if (s.ok()) {
      for (const auto& cell : *c.cells) {
        s = (*w)->Append(cell.view());
        if (!s.ok()) break;
        expected << CellJson(cell.view()) << "\n";
      }
    }
    if (s.ok()) s = (*w)->Finish();
    if (s.ok()) {
      std::ofstream ours(out_dir + "/" + c.name + ".ours.jsonl");
      s = DescribeWithOurReader(path, probes, seeks, ours);
    }
    if (!s.ok()) {
      std::cerr << c.name << ": " << s.ToString() << "\n";
      return 1;
    }
    const WriterOptions& o = c.options;
    manifest << c.name << "\t"
             << fmt::format("compression={} encoding={} bloom={} checksum={} bpc={} block={} "
                            "tags={} compress_tags={} index_max={} index_min={} bloom_chunk={} "
                            "cells={}",
                            CompressionName(o.compression), DataBlockEncodingName(o.encoding),
                            BloomTypeName(o.bloom_type), ChecksumTypeName(o.checksum_type),
                            o.bytes_per_checksum, o.block_size, o.include_tags, o.compress_tags,
                            o.index_block_max_size, o.index_min_entries, o.bloom_chunk_size,
                            c.cells->size())
             << "\n";
    ++written;
  }
  std::cerr << "hfilekit-compat-gen: " << written << " files in " << out_dir << "\n";
  return 0;
}

}  // namespace
}  // namespace hfile::compat

int main(int argc, char** argv) {
  try {
    return hfile::compat::Main(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "hfilekit-compat-gen: " << e.what() << "\n";
    return 1;
  }
}
