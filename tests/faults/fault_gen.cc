// hfk-fault-gen: deterministic inputs for the fault-injection suite (tests/faults/README.md).
//
//   hfk-fault-gen hfile OUT CELLS VALUE_BYTES   one HFile (NONE, 64 KiB blocks, ROW bloom)
//   hfk-fault-gen table ROOT FILES CELLS        ROOT/data/default/t: one region, families
//                                               a (NONE) and b (GZ), 4 KiB blocks, FILES
//                                               flush-like store files of CELLS cells each
//                                               (overlapping rows, newer versions, deletes;
//                                               in a some 40 KB values)
//   hfk-fault-gen families TABLE_DIR            the families of the descriptor HBase would
//                                               read (ReadTableDescriptor), one per line
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "hfile/writer.h"
#include "region/family_descriptor.h"
#include "region/region_info.h"
#include "region/table_descriptor.h"
#include "region/vector_iterator.h"

namespace fs = std::filesystem;
using namespace hfile;
using namespace hfile::region;

namespace {

// A value of `n` bytes that compresses somewhat (text-like), varying with `seed`.
std::string Value(uint64_t seed, size_t n) {
  static const char kWords[][8] = {"alpha ", "bravo ", "charlie", "delta ", "echo ",
                                   "foxtrot", "golf ", "hotel ", "india ", "juliet "};
  std::string v;
  uint64_t x = seed * 6364136223846793005ULL + 1442695040888963407ULL;
  while (v.size() < n) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    v += kWords[(x >> 33) % 10];
    v += static_cast<char>('0' + (x >> 40) % 10);
  }
  v.resize(n);
  return v;
}

void Sort(std::vector<CellData>* cells) {
  std::stable_sort(cells->begin(), cells->end(), [](const CellData& a, const CellData& b) {
    int c = CompareKeys(ComparatorKind::kDefault, a.key, b.key);
    return c != 0 ? c < 0 : a.sequence_id > b.sequence_id;
  });
}

bool WriteFile(const std::string& path, std::vector<CellData> cells, WriterOptions o) {
  Sort(&cells);
  auto w = Writer::Create(path, o);
  if (!w.ok()) {
    std::cerr << w.status().ToString() << "\n";
    return false;
  }
  for (const auto& c : cells) {
    if (Status s = (*w)->Append(c.view()); !s.ok()) {
      std::cerr << s.ToString() << "\n";
      return false;
    }
  }
  if (Status s = (*w)->Finish(); !s.ok()) {
    std::cerr << s.ToString() << "\n";
    return false;
  }
  return true;
}

bool WriteBytes(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  return static_cast<bool>(out);
}

int GenHFile(const std::string& out, uint64_t cells, size_t value_bytes) {
  std::vector<CellData> v;
  v.reserve(cells);
  for (uint64_t i = 0; i < cells; ++i) {
    v.push_back(CellData::Make(fmt::format("row{:08d}", i), "f", fmt::format("q{}", i % 3),
                               1700000000000 + static_cast<int64_t>(i), KeyType::kPut,
                               Value(i, value_bytes), i + 1));
  }
  WriterOptions o;
  o.create_time_ms = 1700000000000;
  o.max_seq_id = static_cast<int64_t>(cells);
  o.major_compaction = false;
  return WriteFile(out, std::move(v), o) ? 0 : 1;
}

int GenTable(const std::string& root, int files, int cells) {
  const std::string table_dir = root + "/data/default/t";
  TableDescriptor d(TableName{"default", "t"});
  FamilyDescriptor a = FamilyDescriptor::WithDefaults("a");
  a.SetValue("BLOCKSIZE", "4096");
  FamilyDescriptor b = FamilyDescriptor::WithDefaults("b");
  b.SetValue("BLOCKSIZE", "4096");
  b.SetValue("COMPRESSION", "GZ");
  d.AddFamily(a);
  d.AddFamily(b);
  fs::create_directories(table_dir + "/.tabledesc");
  std::string bytes;
  d.EncodeTo(&bytes);
  if (!WriteBytes(table_dir + "/.tabledesc/" + TableInfoFileNameFor(1), bytes)) return 1;
  RegionInfo ri;
  ri.table = d.name();
  ri.region_id = 1700000000000;
  const std::string region_dir = table_dir + "/" + ri.EncodedName();
  std::string rb;
  ri.EncodeTo(&rb);
  fs::create_directories(region_dir);
  if (!WriteBytes(region_dir + "/.regioninfo", rb)) return 1;
  uint64_t seq = 1;
  for (const FamilyDescriptor* fam : {&a, &b}) {
    const std::string family_dir = region_dir + "/" + fam->name();
    fs::create_directories(family_dir);
    WriterOptions o;
    o.block_size = 4096;
    o.compression = fam->compression();
    o.create_time_ms = 1700000000000;
    o.major_compaction = false;
    for (int f = 0; f < files; ++f) {
      // Flush f: rows f*cells/2 .. f*cells/2 + cells (half overlap with the previous flush), a
      // newer version of each, every 17th row deleted (DeleteColumn) by the next flush.
      std::vector<CellData> v;
      for (int i = 0; i < cells; ++i) {
        const int row = f * cells / 2 + i;
        const int64_t ts = 1700000000000 + f * 1000 + i;
        if (f > 0 && row % 17 == 0) {
          v.push_back(CellData::Make(fmt::format("row{:06d}", row), fam->name(), "q", ts,
                                     KeyType::kDeleteColumn, "", seq++));
        } else {
          // Family a: some values larger than the writer's 32 KiB direct-write threshold, so
          // that output is written while cells are appended, not only when the file is closed.
          const size_t n = fam->name() == "a" && row % 250 == 7 ? 40000 : 40 + row % 90;
          v.push_back(CellData::Make(fmt::format("row{:06d}", row), fam->name(), "q", ts,
                                     KeyType::kPut, Value(row * 31 + f, n), seq++));
        }
      }
      o.max_seq_id = static_cast<int64_t>(seq - 1);
      // Names as a flush writes them: 32 hex digits, increasing with the flush.
      const std::string name = fmt::format("{:08x}{:024x}", 0xf0000000u + f, seq);
      if (!WriteFile(family_dir + "/" + name, std::move(v), o)) return 1;
    }
  }
  std::cout << table_dir << "\n";
  return 0;
}

int PrintFamilies(const std::string& table_dir) {
  auto d = ReadTableDescriptor(table_dir);
  if (!d.ok()) {
    std::cerr << d.status().ToString() << "\n";
    return 1;
  }
  for (const auto& f : d->descriptor.families()) std::cout << f.name() << "\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> a(argv + 1, argv + argc);
  if (a.size() == 4 && a[0] == "hfile") return GenHFile(a[1], std::stoull(a[2]), std::stoul(a[3]));
  if (a.size() == 4 && a[0] == "table") return GenTable(a[1], std::stoi(a[2]), std::stoi(a[3]));
  if (a.size() == 2 && a[0] == "families") return PrintFamilies(a[1]);
  std::cerr << "usage: hfk-fault-gen hfile OUT CELLS VALUE_BYTES | table ROOT FILES CELLS | "
               "families TABLE_DIR\n";
  return 1;
}
