// CompareRewrites: writes the input's cells (or a sample) with each candidate setting to a
// scratch file and measures size, write speed and full-scan read speed.
#include <fmt/format.h>

#include <chrono>
#include <filesystem>

#include "compression.h"
#include "hfile/rewrite.h"

namespace hfile {

namespace {

struct OwnedCell {
  std::string key, value, tags;
  uint64_t seq;
};

}  // namespace

Status CompareRewrites(const std::string& in_path, const CompareOptions& options,
                       CompareReport* report) {
  HFILE_ASSIGN_OR_RETURN(auto in, Reader::Open(in_path));
  HFILE_ASSIGN_OR_RETURN(WriterOptions base, WriterOptionsFromFile(*in));
  HFILE_ASSIGN_OR_RETURN(base.block_size, InferBlockSize(*in));

  // Load the cells (the sample) once so that every trial writes the same input from memory.
  const uint64_t budget = options.sample_blocks == 0
                              ? UINT64_MAX
                              : options.sample_blocks * uint64_t{base.block_size};
  std::vector<OwnedCell> cells;
  uint64_t bytes = 0;
  auto it = in->NewIterator();
  for (it->SeekToFirst(); it->Valid() && bytes < budget; it->Next()) {
    const Cell& c = it->cell();
    cells.push_back({c.key.ToString(), c.value.ToString(), c.tags.ToString(), c.sequence_id});
    bytes += KeyValueSize(c);
  }
  HFILE_RETURN_IF_ERROR(it->status().WithContext(in_path));
  report->cells = cells.size();
  report->cell_bytes = bytes;

  std::vector<CompareCandidate> candidates = options.candidates;
  if (candidates.empty()) {
    for (int i = 0; i < kNumCompressions; ++i) {
      const auto c = static_cast<Compression>(i);
      if (!CompressionAvailable(c)) continue;
      for (DataBlockEncoding e : {DataBlockEncoding::kNone, DataBlockEncoding::kFastDiff}) {
        candidates.push_back({c, e, base.block_size});
      }
    }
    candidates.push_back({base.compression, base.encoding, 16384});
    candidates.push_back({base.compression, base.encoding, 262144});
  }
  const std::string dir = options.tmp_dir.empty()
                              ? std::filesystem::path(in_path).parent_path().string()
                              : options.tmp_dir;
  const std::string scratch =
      (dir.empty() ? std::string(".") : dir) + "/.hfile-compare-" + NewStoreFileName();
  const double mb = static_cast<double>(bytes) / (1024.0 * 1024.0);
  for (size_t i = 0; i < candidates.size(); ++i) {
    const CompareCandidate& cand = candidates[i];
    if (options.on_candidate) options.on_candidate(i, candidates.size(), cand);
    WriterOptions o = base;
    o.compression = cand.compression;
    o.encoding = cand.encoding;
    o.block_size = cand.block_size;
    o.compression_level = cand.level;
    CompareRow row;
    row.candidate = cand;
    const auto t0 = std::chrono::steady_clock::now();
    {
      HFILE_ASSIGN_OR_RETURN(auto w, Writer::Create(scratch, o));
      for (const auto& c : cells) {
        HFILE_RETURN_IF_ERROR(w->Append(Cell{c.key, c.value, c.tags, c.seq}));
      }
      WriterStats st;
      HFILE_RETURN_IF_ERROR(w->Finish(&st));
      row.output_size = st.file_size;
    }
    const double wsec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const auto t1 = std::chrono::steady_clock::now();
    uint64_t n = 0;
    {
      HFILE_ASSIGN_OR_RETURN(auto r, Reader::Open(scratch));
      auto ri = r->NewIterator();
      for (ri->SeekToFirst(); ri->Valid(); ri->Next()) ++n;
      HFILE_RETURN_IF_ERROR(ri->status());
    }
    const double rsec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
    std::error_code ec;
    std::filesystem::remove(scratch, ec);
    if (n != cells.size()) return Status::Corruption("trial file read back a different cell count");
    row.ratio = row.output_size ? static_cast<double>(bytes) / row.output_size : 0;
    row.write_mb_s = wsec > 0 ? mb / wsec : 0;
    row.read_mb_s = rsec > 0 ? mb / rsec : 0;
    report->rows.push_back(row);
  }
  return Status::OK();
}

}  // namespace hfile
