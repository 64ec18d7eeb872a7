// hfile-bulkload-floor: the write floor of `hfile bulkload` (scripts/bench.sh --bulkload-only).
// The same cells that bulkload wrote, already sorted, written again by the store writer with the
// same family settings and region cuts: no parsing, no sort, no spill. What is left is what any
// bulk loader must do: encode, compress, checksum, write, fsync and verify each file.
//
//   hfile-bulkload-floor dump --out CELLS HFILE...
//       untimed preparation: the cells of HFILE... (in the order given) into a cells file
//       (tests/bench/bench_data.h; the same format hfile-bench writes from).
//   hfile-bulkload-floor write --table TABLE_DIR --family F --cells CELLS --out DIR
//                              [--splits FILE]
//       the cells of CELLS into DIR through a StoreWriter with WriterOptionsForFamily of F (tags
//       uncompressed, as bulkload writes them), cut at FILE's rows (one per line); prints
//       {"cells":N,"bytes":B,"files":K,"seconds":S} (S: from opening CELLS to the last file
//       verified).
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "bench_data.h"
#include "hfile/reader.h"
#include "region/store_writer.h"
#include "region/table_descriptor.h"

namespace hfile::bench {
namespace {

void PutU32(std::string* s, uint32_t v) {
  for (int i = 3; i >= 0; --i) s->push_back(static_cast<char>(v >> (8 * i)));
}
void PutU64(std::string* s, uint64_t v) {
  for (int i = 7; i >= 0; --i) s->push_back(static_cast<char>(v >> (8 * i)));
}

Status Dump(const std::string& out, const std::vector<std::string>& inputs, uint64_t* cells) {
  std::unique_ptr<FILE, int (*)(FILE*)> f(fopen(out.c_str(), "wb"), fclose);
  if (!f) return Status::IOError("cannot create", out);
  std::string buf = "HFKCELL1";
  for (const std::string& in : inputs) {
    HFILE_ASSIGN_OR_RETURN(auto r, Reader::Open(in));
    auto it = r->NewIterator();
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      const Cell& c = it->cell();
      if (!c.tags.empty()) return Status::InvalidArgument("cells with tags are not supported", in);
      PutU32(&buf, static_cast<uint32_t>(c.key.size()));
      PutU32(&buf, static_cast<uint32_t>(c.value.size()));
      PutU64(&buf, c.sequence_id);
      buf.append(c.key.data(), c.key.size());
      buf.append(c.value.data(), c.value.size());
      ++*cells;
      if (buf.size() > (8 << 20)) {
        if (fwrite(buf.data(), 1, buf.size(), f.get()) != buf.size()) {
          return Status::IOError("write failed", out);
        }
        buf.clear();
      }
    }
    HFILE_RETURN_IF_ERROR(it->status());
  }
  if (fwrite(buf.data(), 1, buf.size(), f.get()) != buf.size()) {
    return Status::IOError("write failed", out);
  }
  return Status::OK();
}

Status Write(std::map<std::string, std::string>& a) {
  auto t0 = std::chrono::steady_clock::now();
  HFILE_ASSIGN_OR_RETURN(auto desc, region::ReadTableDescriptor(a["table"]));
  const region::FamilyDescriptor* fam = desc.descriptor.FindFamily(Slice(a["family"]));
  if (fam == nullptr) return Status::InvalidArgument("no such family", a["family"]);
  region::StoreWriterOptions o;
  o.dir = a["out"];
  o.writer = region::WriterOptionsForFamily(*fam, /*compaction_output=*/false, false);
  o.writer.compress_tags = false;  // as hfile-bulkload (HFileOutputFormat2) writes
  if (!a["splits"].empty()) {
    std::ifstream in(a["splits"]);
    for (std::string line; std::getline(in, line);) {
      if (!line.empty()) o.boundaries.push_back(line);
    }
  }
  HFILE_ASSIGN_OR_RETURN(auto cells, CellFileReader::Open(a["cells"]));
  HFILE_ASSIGN_OR_RETURN(auto w, region::StoreWriter::Open(std::move(o)));
  Cell c;
  uint64_t n = 0, bytes = 0;
  while (cells->Next(&c)) {
    HFILE_RETURN_IF_ERROR(w->Add(c));
    ++n;
    bytes += KeyValueSize(c);
  }
  HFILE_RETURN_IF_ERROR(cells->status());
  HFILE_ASSIGN_OR_RETURN(auto outputs, w->Finish());
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  printf("{\"cells\":%llu,\"bytes\":%llu,\"files\":%zu,\"seconds\":%.3f}\n",
         static_cast<unsigned long long>(n), static_cast<unsigned long long>(bytes),
         outputs.size(), s);
  return Status::OK();
}

int Main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: hfile-bulkload-floor dump|write --key value ... [HFILE...]\n");
    return 1;
  }
  std::string cmd = argv[1];
  std::map<std::string, std::string> a;
  std::vector<std::string> files;
  for (int i = 2; i < argc; ++i) {
    if (strncmp(argv[i], "--", 2) == 0 && i + 1 < argc) {
      a[argv[i] + 2] = argv[i + 1];
      ++i;
    } else {
      files.push_back(argv[i]);
    }
  }
  Status s;
  if (cmd == "dump") {
    uint64_t cells = 0;
    s = Dump(a["out"], files, &cells);
    if (s.ok()) printf("{\"cells\":%llu}\n", static_cast<unsigned long long>(cells));
  } else if (cmd == "write") {
    s = Write(a);
  } else {
    s = Status::InvalidArgument("unknown command", cmd);
  }
  if (!s.ok()) {
    fprintf(stderr, "hfile-bulkload-floor: %s\n", s.ToString().c_str());
    return 1;
  }
  return 0;
}

}  // namespace
}  // namespace hfile::bench

int main(int argc, char** argv) { return hfile::bench::Main(argc, argv); }
