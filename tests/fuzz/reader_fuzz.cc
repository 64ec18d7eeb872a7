// The whole reader over the input as a file: Open, a full scan, seeks to keys seen in the scan
// and to the index and file info keys, MidKey, meta blocks, bloom probes, VerifyFile and
// DumpFile with every section to a null stream. The reader runs with its production options:
// its own checks (a block's claim against the trailer's totals and max_block_size, checked
// before allocating) are what keep a hostile size field from taking memory.
#include <ostream>

#include "fuzz_util.h"
#include "hfile/dump.h"
#include "hfile/reader.h"
#include "hfile/verify.h"

namespace {

void Exercise(const hfile::Reader& r) {
  using namespace hfile;
  std::vector<std::string> probes;
  if (auto k = r.first_key()) probes.push_back(*k);
  if (auto k = r.last_key()) probes.push_back(*k);
  auto mid = r.MidKey();
  if (mid.ok() && mid->has_value()) probes.push_back(**mid);

  std::vector<std::string> rows;
  auto it = r.NewIterator();
  uint32_t h = 0;
  size_t n = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next(), ++n) {
    const Cell& c = it->cell();
    h += fuzz::Touch(c.key) + fuzz::Touch(c.value) + fuzz::Touch(c.tags);
    if ((n & (n - 1)) == 0) {  // cells 0, 1, 2, 4, 8, ...
      probes.push_back(c.key.ToString());
      if (r.comparator() != ComparatorKind::kRawBytes) rows.push_back(c.row().ToString());
    }
  }
  (void)it->status();
  probes.push_back("");
  probes.push_back(std::string(20, '\xff'));
  for (const auto& row : rows) probes.push_back(FirstOnRowKey(row));
  for (const auto& key : probes) {
    it->Seek(key);
    if (it->Valid()) h += fuzz::Touch(it->cell().key);
    if (it->Valid()) it->Next();
  }
  // Bounded reads of a row (IteratorOptions::upper_bound): the next-indexed-key checks run on
  // whatever the damaged index holds.
  for (const auto& row : rows) {
    IteratorOptions bound;
    bound.upper_bound = FirstOnRowKey(row + std::string(1, '\0'));
    auto b = r.NewIterator(bound);
    size_t k = 0;
    for (b->Seek(FirstOnRowKey(row)); b->Valid() && k < 64; b->Next(), ++k)
      h += fuzz::Touch(b->cell().key);
  }
  h += static_cast<uint32_t>(r.io_stats().data.count);
  for (const auto& name : r.MetaBlockNames()) {
    auto b = r.ReadMetaBlock(name);
    if (b.ok()) h += fuzz::Touch(*b);
  }
  rows.push_back("");
  rows.push_back("no-such-row");
  for (const auto& row : rows) {
    (void)r.BloomMightContainColumn(row, "f", "q");
    (void)r.BloomMightContainRow(row);
    (void)r.DeleteFamilyBloomMightContain(row);
  }
  if (h == 0xdeadbeef) std::abort();  // keeps the reads
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace hfile;
  fuzz::MemFile file(data, size);
  ReaderOptions ro;
  for (bool verify_checksums : {true, false}) {
    ro.verify_checksums = verify_checksums;
    auto r = Reader::Open(file.path(), ro);
    if (r.ok()) Exercise(**r);
  }

  VerifyOptions vo;
  VerifyReport report = VerifyFile(file.path(), vo);
  std::ostream null(nullptr);
  PrintVerifyReport(report, false, null);
  PrintVerifyReport(report, true, null);

  DumpOptions d;
  d.print_cells = d.print_meta = d.print_block_index = d.print_block_headers = true;
  d.check_row_order = d.print_stats = d.verbose = true;
  DumpResult result;
  (void)DumpFile(file.path(), d, null, null, &result);
  d.json = true;
  d.byte_format = ByteFormat::kHex;
  d.seek_row = "row";
  (void)DumpFile(file.path(), d, null, null, &result);
  return 0;
}
