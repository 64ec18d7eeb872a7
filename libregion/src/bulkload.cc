#include "region/bulkload.h"

#include <fmt/format.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <set>

#include "fs_util.h"
#include "hfile/escape.h"
#include "region/cell_sorter.h"
#include "region/layout.h"
#include "region/line_source.h"
#include "region/store_writer.h"
#include "region/vector_iterator.h"

namespace hfile::region {

namespace {

namespace fs = std::filesystem;

constexpr char kStagingMark[] = ".hfile-bulkload-";

// The out dir's parent and name, for the staging dir next to it.
void SplitOut(const std::string& out, std::string* parent, std::string* name) {
  fs::path p = fs::path(out).lexically_normal();
  if (p.filename().empty()) p = p.parent_path();
  *name = p.filename().string();
  *parent = p.has_parent_path() ? p.parent_path().string() : ".";
}

bool PidAlive(long pid) {
  return pid > 0 && (::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM);
}

// Staging dirs of runs for the same out dir: ".<name>.hfile-bulkload-<pid>".
std::vector<std::pair<std::string, long>> StagingDirs(const std::string& parent,
                                                      const std::string& name) {
  std::vector<std::pair<std::string, long>> out;
  auto entries = ListDir(parent);
  if (!entries.ok()) return out;
  const std::string prefix = "." + name + kStagingMark;
  for (const auto& e : *entries) {
    if (!e.is_dir || e.name.compare(0, prefix.size(), prefix) != 0) continue;
    const std::string digits = e.name.substr(prefix.size());
    if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos) continue;
    out.emplace_back(JoinPath(parent, e.name), std::atol(digits.c_str()));
  }
  return out;
}

// Input sizes on disk; a compressed input is assumed to hold five times its size.
uint64_t SpillEstimate(const std::vector<std::pair<std::string, uint64_t>>& inputs) {
  uint64_t total = 0;
  for (const auto& [name, size] : inputs)
    total += CompressionFromName(name) != Compression::kNone ? size * 5 : size;
  return total;
}

Result<std::vector<BulkLoadRegion>> LoadRegions(const std::string& table_dir) {
  HFILE_ASSIGN_OR_RETURN(auto entries, ListDir(table_dir));
  std::vector<BulkLoadRegion> regions;
  for (const auto& e : entries) {
    if (!e.is_dir || !IsRegionDirName(e.name)) continue;
    const std::string ri = JoinPath(JoinPath(table_dir, e.name), ".regioninfo");
    if (!PathExists(ri)) continue;  // not a region HBase would open either
    HFILE_ASSIGN_OR_RETURN(RegionInfo info, ReadRegionInfoFile(ri));
    // A split parent kept for its daughters' references: not a region rows go to.
    if (info.split && info.offline) continue;
    if (info.replica_id != 0) continue;
    regions.push_back(BulkLoadRegion{info, e.name});
  }
  if (regions.empty()) return Status::NotFound("no region (.regioninfo) in table dir", table_dir);
  std::sort(regions.begin(), regions.end(), [](const BulkLoadRegion& a, const BulkLoadRegion& b) {
    return a.info.start_key < b.info.start_key;
  });
  // The regions must tile the row space, as completebulkload's RegionLocator sees it.
  if (!regions.front().info.start_key.empty()) {
    return Status::Corruption("the table's first region does not start at the empty row",
                              regions.front().encoded_name);
  }
  for (size_t i = 0; i + 1 < regions.size(); ++i) {
    const RegionInfo& a = regions[i].info;
    const RegionInfo& b = regions[i + 1].info;
    if (a.end_key.empty() || a.end_key != b.start_key) {
      return Status::Corruption(fmt::format(
          "the table's regions have a {} between {} (end '{}') and {} (start '{}')",
          a.end_key.empty() || a.end_key > b.start_key ? "overlap" : "hole",
          regions[i].encoded_name, ToStringBinary(a.end_key), regions[i + 1].encoded_name,
          ToStringBinary(b.start_key)));
    }
  }
  if (!regions.back().info.end_key.empty()) {
    return Status::Corruption("the table's last region does not end at the empty row",
                              regions.back().encoded_name);
  }
  return regions;
}

}  // namespace

Result<std::vector<std::string>> ReadSplitsFile(const std::string& path) {
  HFILE_ASSIGN_OR_RETURN(std::string text, ReadWholeFile(path));
  std::vector<std::string> rows;
  size_t start = 0, line = 0;
  while (start < text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string::npos) nl = text.size();
    std::string l = text.substr(start, nl - start);
    start = nl + 1;
    ++line;
    if (!l.empty() && l.back() == '\r') l.pop_back();
    if (l.empty()) continue;
    auto row = FromStringBinary(l);
    if (!row) {
      return Status::InvalidArgument(fmt::format("{}:{}: not a row (\\xNN escapes): {}", path,
                                                 line, l));
    }
    if (!rows.empty() && !(rows.back() < *row)) {
      return Status::InvalidArgument(
          fmt::format("{}:{}: split rows must be sorted and distinct: {}", path, line, l));
    }
    rows.push_back(std::move(*row));
  }
  return rows;
}

Result<BulkLoadPlan> PlanBulkLoad(const BulkLoadOptions& o) {
  if (o.table_dir.empty()) return Status::InvalidArgument("a table is required");
  if (o.out_dir.empty()) return Status::InvalidArgument("an output directory is required");
  BulkLoadPlan plan;
  HFILE_ASSIGN_OR_RETURN(LoadedTableDescriptor desc, ReadTableDescriptor(o.table_dir));
  plan.table = desc.descriptor.name().ToString();
  if (o.create_splits > 0 && o.split_rows)
    return Status::InvalidArgument("--splits and --create-splits exclude each other");
  plan.create_splits = o.create_splits;
  if (o.create_splits > 0) {
    // Ranges come from the data (RunBulkLoad): none known yet.
  } else if (o.split_rows) {
    const auto& rows = *o.split_rows;
    for (size_t i = 0; i < rows.size(); ++i) {
      if (rows[i].empty()) return Status::InvalidArgument("a split row is empty");
      if (i > 0 && !(rows[i - 1] < rows[i]))
        return Status::InvalidArgument("split rows must be sorted and distinct",
                                       ToStringBinary(rows[i]));
    }
    for (size_t i = 0; i <= rows.size(); ++i) {
      BulkLoadRegion r;
      r.info.table = desc.descriptor.name();
      r.info.start_key = i == 0 ? "" : rows[i - 1];
      r.info.end_key = i == rows.size() ? "" : rows[i];
      r.encoded_name = "range-" + std::to_string(i);
      plan.regions.push_back(std::move(r));
    }
  } else {
    HFILE_ASSIGN_OR_RETURN(plan.regions, LoadRegions(o.table_dir));
  }
  for (size_t i = 1; i < plan.regions.size(); ++i)
    plan.boundaries.push_back(plan.regions[i].info.start_key);

  const ImportOptions& im = o.import;
  std::vector<std::string> names;
  if (im.layout) {
    if (im.layout->visibility >= 0) {
      return Status::InvalidArgument(
          "HBASE_CELL_VISIBILITY is not supported offline: visibility tags hold the cluster's "
          "label ordinals");
    }
    std::set<std::string> seen, missing;
    for (const auto& c : im.layout->columns) {
      if (c.kind != ColumnSpec::Kind::kCell || !seen.insert(c.family).second) continue;
      if (desc.descriptor.FindFamily(c.family) == nullptr) missing.insert(c.family);
      names.push_back(c.family);
    }
    if (!missing.empty()) {
      std::string m, have;
      for (const auto& f : missing) m += (m.empty() ? "" : ", ") + f;
      for (const auto& f : desc.descriptor.families())
        have += (have.empty() ? "" : ", ") + f.name();
      // ImportTsv's check, with its wording.
      return Status::InvalidArgument(fmt::format(
          "Column Families [{}] specified in importtsv.columns does not match with any of the "
          "table {} column families [{}]",
          m, plan.table, have));
    }
  } else {
    for (const auto& f : desc.descriptor.families()) names.push_back(f.name());
  }
  for (const auto& n : names) {
    const FamilyDescriptor* f = desc.descriptor.FindFamily(n);
    BulkLoadFamily bf{n, WriterOptionsForFamily(*f, /*compaction_output=*/false, false)};
    // HFileOutputFormat2's HFileContext leaves tag compression at its default, off, whatever
    // the family's COMPRESS_TAGS says.
    bf.writer.compress_tags = false;
    plan.families.push_back(std::move(bf));
  }

  std::vector<std::string> inputs = o.inputs.empty() ? std::vector<std::string>{"-"} : o.inputs;
  for (const auto& in : inputs) {
    if (in == "-") {
      plan.inputs.emplace_back(in, 0);
      continue;
    }
    struct stat st;
    if (::stat(in.c_str(), &st) != 0) {
      if (errno == ENOENT) return Status::NotFound(in, "No such file or directory");
      return ErrnoStatus("cannot stat input", in);
    }
    if (S_ISDIR(st.st_mode)) return Status::InvalidArgument("input is a directory", in);
    plan.inputs.emplace_back(in, static_cast<uint64_t>(st.st_size));
  }
  plan.estimated_spill_bytes = SpillEstimate(plan.inputs);
  plan.max_file_size = o.max_file_size > 0
                           ? o.max_file_size
                           : static_cast<uint64_t>(std::max<int64_t>(
                                 1, desc.descriptor.max_file_size()));
  plan.temp_dir = o.temp_dir;
  if (plan.temp_dir.empty()) {
    const char* t = std::getenv("TMPDIR");
    plan.temp_dir = t != nullptr && *t != '\0' ? t : "/tmp";
  }

  if (fs::path(o.out_dir).lexically_normal() == fs::path(o.table_dir).lexically_normal())
    return Status::InvalidArgument("the output directory is the table's directory");
  std::error_code ec;
  if (fs::exists(o.out_dir, ec)) {
    if (!fs::is_directory(o.out_dir, ec))
      return Status::InvalidArgument("output exists and is not a directory", o.out_dir);
    if (!fs::is_empty(o.out_dir, ec)) {
      // As FileOutputFormat refuses an existing output directory: a finished run's files are
      // never mixed with a new run's.
      return Status::InvalidArgument("output directory already exists and is not empty",
                                     o.out_dir);
    }
  }
  std::string parent, name;
  SplitOut(o.out_dir, &parent, &name);
  plan.staging_dir = JoinPath(parent, "." + name + kStagingMark + std::to_string(::getpid()));
  for (const auto& [dir, pid] : StagingDirs(parent, name)) {
    if (PidAlive(pid)) {
      return Status::InvalidArgument(
          fmt::format("another bulk load (pid {}) is writing {} ({})", pid, o.out_dir, dir));
    }
    plan.warnings.push_back("a killed run's staging directory will be removed: " + dir);
  }
  return plan;
}

namespace {

// Removes the staging dir unless released.
class StagingGuard {
 public:
  explicit StagingGuard(std::string dir) : dir_(std::move(dir)) {}
  ~StagingGuard() {
    if (!dir_.empty()) {
      std::error_code ec;
      fs::remove_all(dir_, ec);
    }
  }
  void Release() { dir_.clear(); }

 private:
  std::string dir_;
};

bool Cancelled(const std::atomic<bool>* c) {
  return c != nullptr && c->load(std::memory_order_relaxed);
}

}  // namespace

Status RunBulkLoad(const BulkLoadPlan& plan, const BulkLoadOptions& o, BulkLoadReport* report) {
  const auto start = std::chrono::steady_clock::now();
  auto finish_time = [&] {
    report->seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  const int64_t now = o.now_ms > 0 ? o.now_ms : NowMs();
  std::string parent, name;
  SplitOut(o.out_dir, &parent, &name);
  for (const auto& [dir, pid] : StagingDirs(parent, name)) {
    if (PidAlive(pid)) continue;
    std::error_code ec;
    fs::remove_all(dir, ec);
    if (ec) return Status::IOError("cannot remove " + dir, ec.message());
    report->removed_stale.push_back(dir);
  }

  // Parse into the sorter.
  CellSorterOptions so;
  so.memory_bytes = std::max(o.memory_bytes, kMinSorterMemory);
  so.temp_dir = plan.temp_dir;
  so.estimated_spill_bytes = plan.estimated_spill_bytes;
  HFILE_ASSIGN_OR_RETURN(auto sorter, CellSorter::Open(so));

  std::set<std::string, std::less<>> families;
  for (const auto& f : plan.families) families.insert(f.name);
  std::vector<std::string> inputs;
  for (const auto& in : plan.inputs) inputs.push_back(in.first);
  uint64_t input_bytes = 0;
  for (const auto& in : plan.inputs) input_bytes += in.second;
  LineSourceOptions lo;
  lo.max_line_bytes = o.import.max_line_bytes;
  LineSource source(inputs, lo);
  RecordReader reader(o.import, &source, o.import.DefaultTimestamp(now));
  ParsedRecord rec;
  BadLine bad;
  std::string key, tags;
  bool failing = false;  // a bad line without skipping: read on only to count
  uint64_t added_bytes = 0;
  uint64_t records = 0;
  while (true) {
    auto ev = reader.Next(&rec, &bad);
    if (!ev.ok()) {
      report->parse = reader.stats();
      return ev.status();
    }
    if (*ev == RecordReader::Event::kEnd) break;
    if (*ev == RecordReader::Event::kBadLine) {
      if (o.on_bad_line) o.on_bad_line(bad);
      if (!o.import.skip_bad_lines) failing = true;
      continue;
    }
    if ((++records & 0x3FFF) == 0) {
      if (Cancelled(o.cancel)) return Status::IOError("interrupted", "nothing was written");
      if (o.progress)
        o.progress(BulkLoadProgress{"parse", source.bytes_read(), input_bytes,
                                    sorter->stats().cells_added, 0});
    }
    if (failing) continue;
    tags.clear();
    if (rec.ttl_ms > 0) tags = TtlTag(rec.ttl_ms);
    for (const ParsedCell& c : rec.cells) {
      if (families.find(c.family) == families.end()) {
        report->parse = reader.stats();
        return Status::InvalidArgument(fmt::format(
            "{}:{}: family '{}' is not in table {}", rec.input ? *rec.input : "-",
            rec.line_number, ToStringBinary(std::string(c.family)), plan.table));
      }
      key.clear();
      AppendKey(&key, Slice(rec.row.data(), rec.row.size()),
                Slice(c.family.data(), c.family.size()),
                Slice(c.qualifier.data(), c.qualifier.size()), rec.timestamp,
                static_cast<uint8_t>(KeyType::kPut));
      Cell cell{Slice(key), Slice(c.value.data(), c.value.size()), Slice(tags), 0};
      HFILE_RETURN_IF_ERROR(sorter->Add(cell));
      added_bytes += KeyValueSize(cell);
    }
  }
  report->parse = reader.stats();
  report->cells_sorted = sorter->stats().cells_added;
  if (failing) {
    return Status::Corruption(fmt::format(
        "{} bad line(s); nothing was written (--skip-bad-lines skips them)",
        report->parse.bad_lines));
  }
  if (o.checkpoint) o.checkpoint("parsed");
  HFILE_ASSIGN_OR_RETURN(auto it, sorter->Finish());
  if (o.checkpoint) o.checkpoint("sorted");

  // Write: one StoreWriter per family, routing by row into the regions.
  std::error_code ec;
  fs::create_directories(parent, ec);
  if (::mkdir(plan.staging_dir.c_str(), 0755) != 0)
    return ErrnoStatus("cannot create staging directory", plan.staging_dir);
  StagingGuard guard(plan.staging_dir);
  std::map<std::string, size_t, std::less<>> writer_of;
  for (size_t i = 0; i < plan.families.size(); ++i) {
    const std::string dir = JoinPath(plan.staging_dir, plan.families[i].name);
    if (::mkdir(dir.c_str(), 0755) != 0) return ErrnoStatus("cannot create", dir);
    writer_of[plan.families[i].name] = i;
  }
  // One StoreWriter per family; with create_splits a new set per computed range.
  const bool computed = plan.create_splits > 0;
  std::vector<std::unique_ptr<StoreWriter>> writers;
  auto open_writers = [&]() -> Status {
    writers.clear();
    for (const auto& f : plan.families) {
      StoreWriterOptions wo;
      wo.dir = JoinPath(plan.staging_dir, f.name);
      wo.writer = f.writer;
      wo.writer.create_time_ms = now;
      wo.writer.bulkload_timestamp = now;
      wo.writer.bulkload_source_task = o.source_task;
      wo.writer.major_compaction = true;
      wo.writer.exclude_from_minor_compaction = false;
      if (!computed) wo.boundaries = plan.boundaries;
      wo.roll_bytes = plan.max_file_size;
      wo.cancel = o.cancel;
      HFILE_ASSIGN_OR_RETURN(auto w, StoreWriter::Open(std::move(wo)));
      writers.push_back(std::move(w));
    }
    return Status::OK();
  };
  std::vector<size_t> files_of(plan.families.size(), 0);
  auto finish_writers = [&](size_t computed_range) -> Status {
    for (size_t i = 0; i < writers.size(); ++i) {
      HFILE_ASSIGN_OR_RETURN(auto outs, writers[i]->Finish());
      const std::string& fam = plan.families[i].name;
      for (const auto& out : outs) {
        const std::string region = computed ? "range-" + std::to_string(computed_range)
                                            : plan.regions[out.range].encoded_name;
        report->files.push_back(BulkLoadFile{region, fam,
                                             JoinPath(JoinPath(o.out_dir, fam), out.name),
                                             out.cells, out.file_size});
        report->bytes_written += out.file_size;
      }
      files_of[i] += outs.size();
    }
    writers.clear();
    return Status::OK();
  };
  HFILE_RETURN_IF_ERROR(open_writers());
  const uint64_t total = sorter->stats().cells_added;
  // create_splits: cut at the first row change once the bytes so far reach the next 1/N of
  // the cells' bytes (as added; duplicates make the ranges a little uneven).
  size_t range = 0;
  uint64_t bytes_so_far = 0;
  std::string last_row;
  std::string last_family;
  StoreWriter* w = nullptr;
  uint64_t written = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    const Cell& c = it->cell();
    if (computed) {
      const Slice row = c.row();
      if (written > 0 && row != Slice(last_row) && range + 1 < plan.create_splits &&
          bytes_so_far >= (range + 1) * (added_bytes / plan.create_splits)) {
        HFILE_RETURN_IF_ERROR(finish_writers(range));
        HFILE_RETURN_IF_ERROR(open_writers());
        w = nullptr;
        report->split_rows.push_back(row.ToString());
        ++range;
      }
      last_row.assign(row.data(), row.size());
      bytes_so_far += KeyValueSize(c);
    }
    Slice fam = c.family();
    if (w == nullptr || fam != Slice(last_family)) {
      last_family.assign(fam.data(), fam.size());
      w = writers[writer_of.find(last_family)->second].get();
    }
    HFILE_RETURN_IF_ERROR(w->Add(c));
    if ((++written & 0x3FFF) == 0 && o.progress)
      o.progress(BulkLoadProgress{"write", 0, 0, written, total});
  }
  HFILE_RETURN_IF_ERROR(it->status());
  if (Cancelled(o.cancel)) return Status::IOError("interrupted", "nothing was written");
  report->cells_written = written;
  report->duplicates_dropped = sorter->stats().duplicates_dropped;
  report->sort_runs = sorter->stats().runs_spilled;
  report->sort_spilled_bytes = sorter->stats().spilled_bytes;
  HFILE_RETURN_IF_ERROR(finish_writers(range));
  for (size_t i = 0; i < plan.families.size(); ++i) {
    const std::string& fam = plan.families[i].name;
    const bool empty = files_of[i] == 0;
    const std::string fam_dir = JoinPath(plan.staging_dir, fam);
    if (empty) {
      // No cell of this family: no directory either (completebulkload would list it for nothing).
      if (::rmdir(fam_dir.c_str()) != 0) return ErrnoStatus("cannot remove", fam_dir);
      continue;
    }
    HFILE_RETURN_IF_ERROR(SyncDir(fam_dir));
  }
  HFILE_RETURN_IF_ERROR(SyncDir(plan.staging_dir));
  if (o.checkpoint) o.checkpoint("written");
  if (Cancelled(o.cancel)) return Status::IOError("interrupted", "nothing was written");

  // Publish: one rename makes every file appear at once (rename(2) replaces an empty dir).
  HFILE_RETURN_IF_ERROR(RenameFile(plan.staging_dir, o.out_dir));
  guard.Release();
  HFILE_RETURN_IF_ERROR(SyncDir(parent));
  if (o.checkpoint) o.checkpoint("published");
  finish_time();
  return Status::OK();
}

}  // namespace hfile::region
