// MeasureTable: the advisor's figures per family, from trailers and file info of every store
// file and from a bounded stream of cells (each file gets an equal share of the family's
// budget, so a sample covers every region rather than the first files).
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <set>

#include "hfile/coding.h"
#include "hfile/file_info.h"
#include "hfile/rewrite.h"
#include "region/advise.h"
#include "region/store_file_reader.h"

namespace hfile::region {

namespace {

constexpr size_t kMaxRowTimestamps = 4096;

// FNV-1a: a fingerprint that does not depend on the standard library's hash.
uint64_t Fnv(const Slice& s, uint64_t h = 1469598103934665603ull) {
  for (size_t i = 0; i < s.size(); ++i) h = (h ^ s.byte(i)) * 1099511628211ull;
  return h;
}

std::optional<int64_t> CellTtlTag(const Slice& tags) {
  Slice in = tags;
  while (in.size() >= 3) {
    const uint16_t len = DecodeFixed16BE(in.data());
    if (len < 1 || in.size() < 2u + len) return std::nullopt;
    if (in.byte(2) == 8) {  // TagType.TTL_TAG_TYPE: int64 BE milliseconds
      if (len != 9) return std::nullopt;
      return static_cast<int64_t>(DecodeFixed64BE(in.data() + 3));
    }
    in.remove_prefix(2 + len);
  }
  return std::nullopt;
}

// Streams up to `budget` bytes of one store file's cells into `m`.
Status StreamCells(const StoreFileReader& sr, const FamilyDescriptor& fd, int64_t now_ms,
                   uint64_t budget, std::set<std::string>* qualifiers, FamilyMeasure* m,
                   bool* truncated) {
  auto it = sr.NewIterator();
  std::string row, column;
  uint64_t run = 0, bytes = 0;
  std::vector<int64_t> row_ts;
  const int64_t ttl_ms = fd.ttl_ms();
  const int64_t oldest = ttl_ms == INT64_MAX ? INT64_MIN : now_ms - ttl_ms;
  auto end_row = [&] {
    if (row_ts.empty()) return;
    std::sort(row_ts.begin(), row_ts.end());
    row_ts.erase(std::unique(row_ts.begin(), row_ts.end()), row_ts.end());
    uint64_t h = Fnv(row);
    for (int64_t ts : row_ts) h = Fnv(Slice(reinterpret_cast<const char*>(&ts), 8), h);
    m->row_ts_hash += h;
    m->row_hash += Fnv(row, 7);
    row_ts.clear();
  };
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    if (bytes >= budget) {
      *truncated = true;
      break;
    }
    const Cell& c = it->cell();
    const uint64_t size = KeyValueSize(c);
    bytes += size;
    // Keys that are not KeyValue keys (a raw-bytes file in a family dir) have no row or column.
    if (!IsValidKey(c.key)) continue;
    ++m->cells;
    m->cell_bytes += size;
    m->key_bytes += c.key.size();
    m->value_bytes += c.value.size();
    m->max_cell = std::max(m->max_cell, size);
    if (size > (uint64_t{10} << 20)) ++m->cells_over_10mb;
    if (size > (uint64_t{50} << 20)) ++m->cells_over_50mb;
    const int bucket = size == 0 ? 0 : 63 - __builtin_clzll(size);
    if (m->size_histogram.size() <= static_cast<size_t>(bucket))
      m->size_histogram.resize(bucket + 1);
    ++m->size_histogram[bucket];
    if (IsDeleteType(c.type())) ++m->delete_markers;
    const int64_t ts = c.timestamp();
    if (!IsDeleteType(c.type()) && ts < oldest) ++m->expired_cells;
    if (auto t = CellTtlTag(c.tags); t && ttl_ms != INT64_MAX && *t > ttl_ms) {
      ++m->cell_ttl_beyond_family;
      m->max_cell_ttl_ms = std::max(m->max_cell_ttl_ms, *t);
    }
    if (c.row() != Slice(row)) {
      end_row();
      row = c.row().ToString();
      ++m->rows;
      column.clear();
      run = 0;
    }
    // A wide row's timestamps are not all kept: memory stays bounded, the fingerprint is then
    // incomplete and the written-together rule is not applied.
    if (row_ts.size() < kMaxRowTimestamps)
      row_ts.push_back(ts);
    else
      m->fingerprint_partial = true;
    if (c.qualifier() != Slice(column) || run == 0) {
      column = c.qualifier().ToString();
      run = 0;
      if (qualifiers->size() < kQualifierCap)
        qualifiers->insert(column);
      else if (!qualifiers->count(column))
        m->qualifiers_capped = true;
    }
    if (c.type() == static_cast<uint8_t>(KeyType::kPut))
      m->max_versions_seen = std::max<uint64_t>(m->max_versions_seen, ++run);
  }
  end_row();
  return it->status().WithContext(sr.file().path);
}

// The same cells written with the family's settings under its name and under a one-character
// name: what the name costs after the codec and encoding.
Status NameTrial(const Reader& in, const FamilyDescriptor& fd, uint64_t budget,
                 const std::string& dir, FamilyMeasure* m) {
  HFILE_ASSIGN_OR_RETURN(WriterOptions o, WriterOptionsFromFile(in));
  o.create_time_ms = 0;
  // The family's settings, not the file's: what the name costs once the table is as described.
  o.compression = fd.compression();
  o.encoding = fd.data_block_encoding();
  o.block_size = static_cast<uint32_t>(fd.block_size());
  o.bloom_type = fd.bloom_type();
  o.bloom_prefix_length = fd.bloom_prefix_length();
  struct Owned {
    std::string key, value, tags;
    uint64_t seq;
  };
  std::vector<Owned> cells;
  uint64_t bytes = 0;
  auto it = in.NewIterator();
  for (it->SeekToFirst(); it->Valid() && bytes < budget; it->Next()) {
    const Cell& c = it->cell();
    cells.push_back({c.key.ToString(), c.value.ToString(), c.tags.ToString(), c.sequence_id});
    bytes += KeyValueSize(c);
  }
  HFILE_RETURN_IF_ERROR(it->status().WithContext(in.path()));
  auto write = [&](bool rename, uint64_t* size) -> Status {
    const std::string path = dir + "/.hfile-advise-" + NewStoreFileName();
    HFILE_ASSIGN_OR_RETURN(auto w, Writer::Create(path, o));
    std::string key;
    for (const auto& c : cells) {
      Slice k(c.key);
      if (rename && IsValidKey(k)) {
        key.clear();
        AppendKey(&key, KeyRow(k), "x", KeyQualifier(k), KeyTimestamp(k), KeyTypeByte(k));
        k = Slice(key);
      }
      HFILE_RETURN_IF_ERROR(w->Append(Cell{k, c.value, c.tags, c.seq}));
    }
    WriterStats st;
    HFILE_RETURN_IF_ERROR(w->Finish(&st));
    *size = st.file_size;
    std::error_code ec;
    std::filesystem::remove(path, ec);
    return Status::OK();
  };
  HFILE_RETURN_IF_ERROR(write(false, &m->name_trial_size));
  HFILE_RETURN_IF_ERROR(write(true, &m->short_name_trial_size));
  m->trial_cell_bytes = bytes;
  return Status::OK();
}

// `opened`: the file opened (its trailer figures count) but its cells could not all be read.
Finding Unreadable(const std::string& family, const std::string& region, const StoreFile& f,
                   const Status& s, bool opened) {
  Finding x;
  x.code = "unreadable-file";
  x.severity = AdviceSeverity::kError;
  x.family = family;
  x.region = region;
  x.message = opened ? fmt::format(
                           "{}: its cells cannot all be read (its trailer's figures count, "
                           "its cells up to the damage): {}",
                           f.path, s.ToString())
                     : fmt::format("{}: cannot be read, left out of every figure: {}", f.path,
                                   s.ToString());
  x.fix = "hfile verify " + ShellWord(f.path);
  return x;
}

}  // namespace

Status MeasureTable(const RegionSet& set, const AdviseOptions& options, Advice* advice) {
  if (!set.descriptor) return set.descriptor_status;
  const TableDescriptor& desc = *set.descriptor;
  std::vector<const RegionDir*> regions;
  for (const auto& r : set.regions)
    if (!set.IsSplitParent(r)) regions.push_back(&r);
  for (const auto* r : regions) advice->regions.push_back(r->encoded_name);
  advice->region_bytes.assign(regions.size(), 0);
  std::string tmp = options.tmp_dir;
  if (tmp.empty()) {
    const char* t = std::getenv("TMPDIR");
    tmp = t && *t ? t : "/tmp";
  }

  for (const FamilyDescriptor& fd : desc.families()) {
    FamilyMeasure m;
    m.name = fd.name();
    m.region_bytes.assign(regions.size(), 0);
    m.region_files.assign(regions.size(), 0);
    // Every file, in region order.
    struct Entry {
      size_t region;
      const StoreFile* file;
    };
    std::vector<Entry> files;
    for (size_t i = 0; i < regions.size(); ++i) {
      const FamilyDir* dir = regions[i]->FindFamily(fd.name());
      if (!dir) continue;
      for (const auto& f : dir->store_files) files.push_back({i, &f});
    }
    const uint64_t budget = options.sample_blocks == 0
                                ? UINT64_MAX
                                : options.sample_blocks * static_cast<uint64_t>(fd.block_size());
    const uint64_t share =
        files.empty() ? 0 : std::max<uint64_t>(budget / files.size(), fd.block_size());
    std::set<std::string> qualifiers;
    std::string largest;  // the biggest readable HFile: where the trials sample
    uint64_t largest_size = 0;
    const int64_t ttl_ms = fd.ttl_ms();
    size_t done = 0;
    for (const Entry& e : files) {
      if (options.progress && (done++ % 16 == 0))
        options.progress(
            fmt::format("measuring family {} ({} of {} files)", fd.name(), done, files.size()));
      auto sr = StoreFileReader::Open(*e.file);
      if (!sr.ok()) {
        advice->findings.push_back(
            Unreadable(fd.name(), advice->regions[e.region], *e.file, sr.status(), false));
        continue;
      }
      const Reader& r = (*sr)->hfile();
      const uint64_t size = r.file_size();
      ++m.store_files;
      m.bytes += size;
      m.trailer_cells += r.trailer().entry_count;
      m.region_bytes[e.region] += size;
      ++m.region_files[e.region];
      advice->region_bytes[e.region] += size;
      m.file_sizes.push_back(size);
      if (!e.file->reference && size > largest_size) {
        largest_size = size;
        largest = e.file->target_path;
      }
      if (auto v = r.file_info().Get(fileinfo::kTimeRange)) {
        if (auto tr = DecodeTimeRange(*v); tr && tr->max >= tr->min) {
          m.min_ts = std::min(m.min_ts, tr->min);
          m.max_ts = std::max(m.max_ts, tr->max);
          if (ttl_ms != INT64_MAX && tr->max < advice->now_ms - ttl_ms) {
            ++m.expired_files;
            m.expired_file_bytes += size;
          }
        }
      }
      if (r.trailer().compression() != fd.compression()) ++m.files_other_codec;
      if (r.data_block_encoding() != fd.data_block_encoding()) ++m.files_other_encoding;
      if (r.bloom_type() != fd.bloom_type()) ++m.files_other_bloom;
      // Only a file of several blocks says its block size (every block but the last reaches it).
      if (r.trailer().data_index_count > 1) {
        if (auto bs = InferBlockSize(r); bs.ok() && *bs < static_cast<uint32_t>(fd.block_size()))
          ++m.files_smaller_blocks;
      }
      bool truncated = false;
      Status s = StreamCells(**sr, fd, advice->now_ms, share, &qualifiers, &m, &truncated);
      if (!s.ok()) {
        advice->findings.push_back(
            Unreadable(fd.name(), advice->regions[e.region], *e.file, s, true));
        continue;
      }
      if (truncated) m.sampled = true;
    }
    m.distinct_qualifiers = qualifiers.size();
    for (uint64_t b : m.region_bytes) m.regions_with_files += b > 0;
    if (m.sampled)
      advice->sampling.push_back(fmt::format(
          "family {}: {} of {} cells streamed (about {} bytes from each of {} files; "
          "--sample-blocks {})",
          fd.name(), m.cells, m.trailer_cells, share, m.store_files, options.sample_blocks));

    if (!largest.empty() && options.trial_blocks > 0) {
      if (options.progress) options.progress("trial rewrites of family " + fd.name());
      auto in = Reader::Open(largest);
      Status s = in.status();
      const uint64_t trial_budget = options.trial_blocks * static_cast<uint64_t>(fd.block_size());
      if (s.ok()) s = NameTrial(**in, fd, trial_budget, tmp, &m);
      CompareOptions co;
      co.sample_blocks = options.trial_blocks;
      co.tmp_dir = tmp;
      CompareReport rep;
      // Codec trials of a few hundred bytes measure file overhead, not codecs.
      const bool enough = m.trial_cell_bytes >= kMinTrialCellBytes;
      if (s.ok() && !enough)
        advice->sampling.push_back(fmt::format(
            "family {}: no codec trials ({} cell bytes in its largest file, fewer than {})",
            fd.name(), m.trial_cell_bytes, kMinTrialCellBytes));
      if (s.ok() && enough) s = CompareRewrites(largest, co, &rep);
      if (s.ok() && enough) {
        for (const auto& row : rep.rows)
          m.trials.push_back({row.candidate.compression, row.candidate.encoding,
                              row.candidate.block_size, row.output_size, row.ratio, row.write_mb_s,
                              row.read_mb_s});
        advice->sampling.push_back(
            fmt::format("family {}: trial rewrites of {} cells ({} bytes) of {}", fd.name(),
                        rep.cells, rep.cell_bytes, largest));
      } else if (!s.ok()) {
        Finding f;
        f.code = "trial-failed";
        f.severity = AdviceSeverity::kWarn;
        f.family = fd.name();
        f.message = "trial rewrites could not run: " + s.ToString();
        advice->findings.push_back(std::move(f));
        m.trials.clear();
      }
    }
    advice->families.push_back(std::move(m));
  }
  return Status::OK();
}

Result<Advice> AdviseTable(const AdviseOptions& options) {
  Result<RegionSet> set = options.root_dir.empty()
                              ? OpenTableRegions(options.table_dir)
                              : OpenTableRegions(options.root_dir, options.table);
  if (!set.ok()) return set.status();
  if (!set->descriptor) return set->descriptor_status;
  Advice a;
  a.options = options;
  a.options.progress = nullptr;
  a.table = set->descriptor->name().ToString();
  a.table_dir = set->path;
  a.now_ms = options.now_ms != 0 ? options.now_ms
                                 : std::chrono::duration_cast<std::chrono::milliseconds>(
                                       std::chrono::system_clock::now().time_since_epoch())
                                       .count();
  HFILE_RETURN_IF_ERROR(MeasureTable(*set, options, &a));
  ApplySchemaRules(*set->descriptor, a, &a.findings);
  ApplyDataRules(*set->descriptor, a, &a.findings);
  ApplyLayoutRules(*set->descriptor, a, &a.findings);
  // HBase's own tables (hbase:meta, hbase:namespace, ...) keep the schema HBase gives them:
  // their findings are facts to know, not changes to make.
  if (set->descriptor->name().namespace_name == "hbase") {
    for (auto& f : a.findings)
      if (f.code != "unreadable-file")
        f.fix = "none: " + a.table + " is HBase's own table, its schema is HBase's";
  }
  return a;
}

std::string_view AdviceSeverityName(AdviceSeverity s) {
  switch (s) {
    case AdviceSeverity::kInfo:
      return "info";
    case AdviceSeverity::kWarn:
      return "warn";
    case AdviceSeverity::kError:
      return "error";
  }
  return "?";
}

}  // namespace hfile::region
