#include "region/bulkload.h"

#include <fmt/format.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

#include "fs_util.h"
#include "hfile/escape.h"
#include "region/cell_sorter.h"
#include "region/commit.h"
#include "region/compact.h"
#include "region/layout.h"
#include "region/line_source.h"
#include "region/store_file_sequence.h"
#include "region/store_writer.h"
#include "region/target.h"
#include "region/tool_threads.h"
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

Result<std::vector<BulkLoadRegion>> LoadRegions(const std::string& table_dir,
                                                const std::string& only_region) {
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
    if (!only_region.empty() && e.name != only_region) continue;
    regions.push_back(BulkLoadRegion{info, e.name});
  }
  if (!only_region.empty()) {
    if (regions.empty())
      return Status::NotFound(JoinPath(table_dir, only_region),
                              "no such region to load (a split parent or replica is not one)");
    return regions;
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

bool InRegion(const RegionInfo& r, const Slice& row) {
  return !(row.compare(Slice(r.start_key)) < 0) &&
         (r.end_key.empty() || row.compare(Slice(r.end_key)) < 0);
}

// "<n>.seqid" -> n (the markers HBase writes into recovered.edits/ when it opens a region).
std::optional<int64_t> SeqIdMarker(const std::string& name) {
  if (!name.ends_with(".seqid")) return std::nullopt;
  const std::string n = name.substr(0, name.size() - 6);
  if (n.empty() || n.size() > 18 || n.find_first_not_of("0123456789") != std::string::npos)
    return std::nullopt;
  return std::stoll(n);
}

// --into: the online/unclean checks of every region the rows go to, and the sequence id each
// region's files get: one more than the highest the region holds. Split parents (not in
// `plan->regions`) are left alone, as LoadRegions leaves them.
Status PlanInto(const BulkLoadOptions& o, const TableDescriptor& desc,
                const std::vector<std::string>& families, BulkLoadPlan* plan) {
  plan->into = true;
  const CommitScope scope{o.table_dir, ""};
  plan->recovery = DescribeRecovery(scope);
  HFILE_ASSIGN_OR_RETURN(auto journal, ReadJournal(scope));
  if (journal && journal->state == JournalState::State::kPending)
    return Status::NotSupported(
        fmt::format("the table's journal holds pending work of hfile-{}; run hfile-{} on the "
                    "table to finish it before loading into it",
                    journal->transaction.tool, journal->transaction.tool),
        o.table_dir);
  // A store whose files a tracker lists (2.5+ FILE tracker) would never see a file put into
  // its directory.
  for (const auto& name : families) {
    std::string tracker = desc.store_file_tracker();
    if (auto v = desc.FindFamily(name)->GetConfiguration(table_key::kStoreFileTracker))
      tracker = *v;
    if (tracker != "DEFAULT")
      return Status::NotSupported(fmt::format(
          "family {} uses the store-file tracker {}: HBase would not see files placed into its "
          "directory (use --out and completebulkload)", name, tracker));
  }
  CompactOptions check;
  check.dry_run = true;
  check.force = o.force;
  check.descriptor = &desc;
  HFILE_ASSIGN_OR_RETURN(CompactionPlan cp, PlanCompaction(o.table_dir, check));
  std::map<std::string, BulkLoadRegion*> by_name;
  for (auto& r : plan->regions) by_name[r.encoded_name] = &r;
  for (const auto& r : cp.regions) {
    auto it = by_name.find(r.encoded_name);
    if (it == by_name.end()) {
      plan->skipped.push_back(r.encoded_name +
                              ": not a region rows go to (a split parent or a replica)");
      continue;
    }
    for (const auto& why : r.blockers) plan->refused.push_back(r.encoded_name + ": " + why);
    if (!o.force)
      for (const auto& why : r.refusals) plan->refused.push_back(r.encoded_name + ": " + why);
    for (const auto& sp : r.stores) {
      // Never plan around an unreadable file: its sequence id could be the region's highest.
      if (!sp.error.ok()) return sp.error.WithContext(r.encoded_name + "/" + sp.family);
      if (sp.skip_reason.starts_with("store-file tracker") &&
          std::find(families.begin(), families.end(), sp.family) != families.end())
        return Status::NotSupported(r.encoded_name + "/" + sp.family, sp.skip_reason);
    }
    // The sequence ids of every store (also those compaction leaves alone, e.g. MOB), as
    // HRegion's open takes the maximum over all of them and the markers.
    HFILE_ASSIGN_OR_RETURN(RegionDir dir, ScanRegionDir(cp.root_dir, r.path, &desc));
    int64_t max_seq = 0;
    for (const auto& fam : dir.families) {
      for (const auto& sf : fam.store_files) {
        auto seq = ReadStoreFileSequence(sf);
        if (!seq.ok())
          return seq.status().WithContext("cannot read the sequence id of " + sf.path);
        max_seq = std::max(max_seq, seq->sequence_id);
      }
    }
    for (const auto& e : dir.recovered_edits)
      if (auto n = SeqIdMarker(e)) max_seq = std::max(max_seq, *n);
    it->second->sequence_id = max_seq + 1;
  }
  for (const auto& r : plan->regions)
    if (r.sequence_id < 0)
      return Status::Corruption("the region was not planned", r.encoded_name);
  return Status::OK();
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
  if (o.into) {
    if (!o.out_dir.empty())
      return Status::InvalidArgument("--into and an output directory exclude each other");
    if (o.split_rows || o.create_splits > 0)
      return Status::InvalidArgument(
          "--into loads at the table's own regions: --splits and --create-splits do not apply");
  } else if (o.out_dir.empty()) {
    return Status::InvalidArgument("an output directory (or --into) is required");
  } else if (!o.only_region.empty()) {
    return Status::InvalidArgument("one region is loaded --into the table only");
  }
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
    HFILE_ASSIGN_OR_RETURN(plan.regions, LoadRegions(o.table_dir, o.only_region));
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

  if (o.into) {
    HFILE_RETURN_IF_ERROR(PlanInto(o, desc.descriptor, names, &plan));
    return plan;
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

// --into: rolls the table's transaction back unless released (at the commit, after which only
// RecoverTransaction may finish it).
class TransactionGuard {
 public:
  explicit TransactionGuard(CommitScope scope) : scope_(std::move(scope)) {}
  ~TransactionGuard() {
    if (armed_) (void)AbortTransaction(scope_);
  }
  void Release() { armed_ = false; }

 private:
  CommitScope scope_;
  bool armed_ = true;
};

bool Cancelled(const std::atomic<bool>* c) {
  return c != nullptr && c->load(std::memory_order_relaxed);
}

// The committed files as HBase lists them: each in its region's family dir, the size written
// and verified, read with the region's sequence id as a bulk-loaded file.
Status VerifyPlaced(const BulkLoadOptions& o, const std::vector<BulkLoadFile>& files) {
  HFILE_ASSIGN_OR_RETURN(Target target, ResolveTarget(o.table_dir));
  HFILE_ASSIGN_OR_RETURN(LoadedTableDescriptor desc, ReadTableDescriptor(o.table_dir));
  std::map<std::string, RegionDir> regions;
  for (const auto& f : files) {
    auto it = regions.find(f.region);
    if (it == regions.end()) {
      HFILE_ASSIGN_OR_RETURN(RegionDir r, ScanRegionDir(target.root_dir,
                                                        JoinPath(o.table_dir, f.region),
                                                        &desc.descriptor));
      it = regions.emplace(f.region, std::move(r)).first;
    }
    const FamilyDir* fam = it->second.FindFamily(f.family);
    const std::string name = fs::path(f.path).filename().string();
    const StoreFile* sf = nullptr;
    if (fam != nullptr)
      for (const auto& s : fam->store_files)
        if (s.name.name == name) sf = &s;
    if (sf == nullptr || sf->size != f.file_size)
      return Status::Corruption("the placed file is missing or not the one verified", f.path);
    HFILE_ASSIGN_OR_RETURN(StoreFileSequence seq, ReadStoreFileSequence(*sf));
    if (seq.sequence_id != f.sequence_id || !seq.bulk_loaded || !seq.reset_cell_sequence_ids)
      return Status::Corruption(fmt::format(
          "{} reads with sequence id {} (bulk-loaded: {}), not as a bulk-loaded file of "
          "sequence id {}", f.path, seq.sequence_id, seq.bulk_loaded, f.sequence_id));
  }
  return Status::OK();
}

Status RunPlanned(const BulkLoadPlan& plan, const BulkLoadOptions& o, BulkLoadReport* report);

}  // namespace

Status RunBulkLoad(const BulkLoadPlan& plan, const BulkLoadOptions& o, BulkLoadReport* report) {
  if (!plan.into) return RunPlanned(plan, o, report);
  auto refuse = [](const BulkLoadPlan& p) {
    std::string why;
    for (const auto& r : p.refused) why += (why.empty() ? "" : "; ") + r;
    return Status::NotSupported(fmt::format(
        "the table looks online or unclean ({}); nothing was changed (--force overrides the "
        "online/unclean checks)", why));
  };
  if (!plan.refused.empty()) return refuse(plan);
  DirLock lock;
  HFILE_RETURN_IF_ERROR(lock.Acquire(o.table_dir));
  if (!plan.recovery.empty()) {
    const CommitScope scope{o.table_dir, ""};
    HFILE_ASSIGN_OR_RETURN(auto journal, ReadJournal(scope));
    CommitOptions copts;
    copts.now_ms = o.now_ms;
    HFILE_RETURN_IF_ERROR(RecoverTransaction(scope, copts, &report->recovered));
    // A killed load that had committed is finished by the recovery: the rerun of the same
    // command must not load the same lines a second time.
    if (journal && journal->state == JournalState::State::kCommit &&
        journal->transaction.tool == "bulkload") {
      report->completed_by_recovery = true;
      return Status::OK();
    }
  }
  // Planned again under the lock: the sequence ids of what is there now.
  HFILE_ASSIGN_OR_RETURN(BulkLoadPlan again, PlanBulkLoad(o));
  if (!again.recovery.empty())
    return Status::IOError("the interrupted transaction could not be finished", o.table_dir);
  if (!again.refused.empty()) return refuse(again);
  return RunPlanned(again, o, report);
}

namespace {

using RangeOutputs = std::vector<std::vector<StoreOutput>>;  // one range's, by family

// The writers of one key range of the output: a StoreWriter per family, each cell routed to
// its family's.
class RangeWriter {
 public:
  static Result<std::unique_ptr<RangeWriter>> Open(
      const std::vector<StoreWriterOptions>& families,
      const std::map<std::string, size_t, std::less<>>* writer_of) {
    auto r = std::unique_ptr<RangeWriter>(new RangeWriter(writer_of));
    for (const auto& wo : families) {
      HFILE_ASSIGN_OR_RETURN(auto w, StoreWriter::Open(wo));
      r->writers_.push_back(std::move(w));
    }
    return r;
  }

  Status Add(const Cell& c) {
    const Slice fam = c.family();
    if (w_ == nullptr || fam != Slice(last_family_)) {
      last_family_.assign(fam.data(), fam.size());
      w_ = writers_[writer_of_->find(last_family_)->second].get();
    }
    return w_->Add(c);
  }

  // Every family's outputs (by family), each verified; on error every output is removed.
  Result<RangeOutputs> Finish() {
    RangeOutputs outs;
    for (auto& w : writers_) {
      HFILE_ASSIGN_OR_RETURN(auto o, w->Finish());
      outs.push_back(std::move(o));
    }
    return outs;
  }

 private:
  explicit RangeWriter(const std::map<std::string, size_t, std::less<>>* writer_of)
      : writer_of_(writer_of) {}
  const std::map<std::string, size_t, std::less<>>* writer_of_;
  std::vector<std::unique_ptr<StoreWriter>> writers_;
  std::string last_family_;
  StoreWriter* w_ = nullptr;
};

// Cells copied into one buffer (no allocation per cell once the batch has grown).
struct CellBatch {
  static constexpr size_t kBytes = size_t{1} << 20;
  struct Sizes {
    uint32_t key, value, tags;
    uint64_t sequence_id;
  };
  std::string bytes;
  std::vector<Sizes> cells;

  bool Full(const Cell& c) const {
    return !cells.empty() && bytes.size() + c.key.size() + c.value.size() + c.tags.size() > kBytes;
  }
  void Append(const Cell& c) {
    bytes.append(c.key.data(), c.key.size());
    bytes.append(c.value.data(), c.value.size());
    bytes.append(c.tags.data(), c.tags.size());
    cells.push_back(Sizes{static_cast<uint32_t>(c.key.size()),
                          static_cast<uint32_t>(c.value.size()),
                          static_cast<uint32_t>(c.tags.size()), c.sequence_id});
  }
  void Clear() {
    bytes.clear();
    cells.clear();
  }
};

// A RangeWriter on a thread of its own, fed in batches through a bounded queue: the calling
// thread goes on merging (and feeding the next range) while this range is written and verified.
// Destroyed before Wait() succeeded, it stops the thread and every output is removed.
class AsyncRange {
 public:
  explicit AsyncRange(std::unique_ptr<RangeWriter> writer)
      : writer_(std::move(writer)), filling_(NewBatch()) {
    thread_ = std::thread([this] { Run(); });
  }
  ~AsyncRange() {
    {
      std::lock_guard<std::mutex> l(mu_);
      abort_ = true;
    }
    cv_.notify_all();
    if (thread_.joinable()) thread_.join();
    writer_.reset();  // unless finished: removes its outputs
  }
  AsyncRange(const AsyncRange&) = delete;
  AsyncRange& operator=(const AsyncRange&) = delete;

  // Queues the cell (a copy); the writer thread's error once it has failed.
  Status Add(const Cell& c) {
    if (filling_->Full(c)) HFILE_RETURN_IF_ERROR(Push(/*last=*/false));
    filling_->Append(c);
    return Status::OK();
  }
  // No more cells: the thread finishes the outputs.
  Status Close() { return Push(/*last=*/true); }
  // Waits for the thread: the range's outputs by family, verified.
  Result<RangeOutputs> Wait() {
    thread_.join();
    if (!status_.ok()) return status_;
    return std::move(outputs_);
  }

 private:
  static constexpr size_t kQueued = 4;  // full batches waiting; + one filling, one written

  std::unique_ptr<CellBatch> NewBatch() {
    auto b = std::make_unique<CellBatch>();
    b->bytes.reserve(CellBatch::kBytes);
    return b;
  }

  Status Push(bool last) {
    std::unique_lock<std::mutex> l(mu_);
    cv_.wait(l, [&] { return queue_.size() < kQueued || failed_; });
    if (failed_) return status_;
    queue_.push_back(std::move(filling_));
    last_ = last;
    if (!last) {
      if (!free_.empty()) {
        filling_ = std::move(free_.back());
        free_.pop_back();
      }
    }
    l.unlock();
    cv_.notify_all();
    if (!last && filling_ == nullptr) filling_ = NewBatch();
    return Status::OK();
  }

  void Run() {
    Status s;
    while (true) {
      std::unique_ptr<CellBatch> b;
      bool last = false;
      {
        std::unique_lock<std::mutex> l(mu_);
        cv_.wait(l, [&] { return !queue_.empty() || abort_; });
        if (abort_) return;
        b = std::move(queue_.front());
        queue_.pop_front();
        last = last_ && queue_.empty();
      }
      cv_.notify_all();
      const char* p = b->bytes.data();
      for (const auto& z : b->cells) {
        Cell c{Slice(p, z.key), Slice(p + z.key, z.value), Slice(p + z.key + z.value, z.tags),
               z.sequence_id};
        p += z.key + z.value + z.tags;
        s = writer_->Add(c);
        if (!s.ok()) break;
      }
      if (s.ok() && last) {
        auto outs = writer_->Finish();
        if (outs.ok()) {
          outputs_ = std::move(*outs);
          return;
        }
        s = outs.status();
      }
      if (!s.ok()) {
        {
          std::lock_guard<std::mutex> l(mu_);
          failed_ = true;
          status_ = s;
        }
        cv_.notify_all();
        return;
      }
      b->Clear();
      {
        std::lock_guard<std::mutex> l(mu_);
        free_.push_back(std::move(b));
      }
    }
  }

  std::unique_ptr<RangeWriter> writer_;
  std::unique_ptr<CellBatch> filling_;  // the calling thread's
  std::mutex mu_;
  std::condition_variable cv_;  // a batch queued or taken, a failure, or aborting
  std::deque<std::unique_ptr<CellBatch>> queue_;
  std::vector<std::unique_ptr<CellBatch>> free_;
  bool last_ = false;   // the batch queued last ends the range
  bool failed_ = false;
  bool abort_ = false;
  Status status_;  // the thread's error (set under mu_, read after failed_ or the join)
  RangeOutputs outputs_;
  std::thread thread_;  // last: started once everything above exists
};

// Writes the ranges of a sorter's FinishRanges (`parts`, one iterator per range) on `threads`
// threads at once (this one and helpers), each taking the next range: its cells merged from
// its part of every run and fed to an AsyncRange, so that the last range left still has its
// merge and its writing on two threads. `finished` gets the non-empty ranges' outputs in range
// order; on an error the other threads stop at their next check and nothing is kept. Progress
// is reported from whichever thread passes the next step, one call at a time.
Status WriteRanges(std::vector<std::unique_ptr<CellIterator>>* parts, size_t threads,
                   const std::vector<StoreWriterOptions>& family_options,
                   const std::map<std::string, size_t, std::less<>>& writer_of,
                   const BulkLoadOptions& o, uint64_t total, uint64_t* written,
                   std::vector<std::pair<size_t, RangeOutputs>>* finished) {
  std::vector<std::optional<RangeOutputs>> outputs(parts->size());
  std::atomic<size_t> next{0};
  std::atomic<uint64_t> count{0};
  std::atomic<bool> stop{false};
  std::mutex mu;
  Status first;  // the first error (under mu), set before stop
  std::mutex progress_mu;
  auto fail = [&](const Status& s) {
    std::lock_guard<std::mutex> l(mu);
    if (first.ok()) first = s;
    stop = true;
  };
  auto write_range = [&](size_t r) -> Status {
    CellIterator& it = *(*parts)[r];
    it.SeekToFirst();
    if (!it.Valid()) return it.status();  // no cell in this range: no file
    HFILE_ASSIGN_OR_RETURN(auto w, RangeWriter::Open(family_options, &writer_of));
    AsyncRange range(std::move(w));  // destroyed unfinished: its outputs are removed
    uint64_t n = 0;
    for (; it.Valid(); it.Next()) {
      HFILE_RETURN_IF_ERROR(range.Add(it.cell()));
      if ((++n & 0x3FFF) == 0) {
        const uint64_t c = count.fetch_add(0x4000) + 0x4000;
        if (stop) return Status::IOError("stopped", "another range failed");
        if (Cancelled(o.cancel)) return Status::IOError("interrupted", "nothing was written");
        if (o.progress) {
          std::lock_guard<std::mutex> l(progress_mu);
          o.progress(BulkLoadProgress{"write", 0, 0, c, total});
        }
      }
    }
    count += n & 0x3FFF;
    HFILE_RETURN_IF_ERROR(it.status());
    HFILE_RETURN_IF_ERROR(range.Close());
    HFILE_ASSIGN_OR_RETURN(outputs[r], range.Wait());
    (*parts)[r].reset();  // its readers are released; nothing else of it is needed
    return Status::OK();
  };
  auto work = [&] {
    for (size_t r; !stop && (r = next.fetch_add(1)) < parts->size();) {
      Status s = write_range(r);
      if (!s.ok()) fail(s);
    }
  };
  std::vector<std::thread> helpers;
  for (size_t i = 1; i < threads; ++i) {
    try {
      helpers.emplace_back(work);
    } catch (const std::system_error&) {
      break;  // this thread does the rest
    }
  }
  work();
  for (auto& h : helpers) h.join();
  if (!first.ok()) return first;
  for (size_t r = 0; r < outputs.size(); ++r)
    if (outputs[r]) finished->emplace_back(r, std::move(*outputs[r]));
  *written = count;
  return Status::OK();
}

Status RunPlanned(const BulkLoadPlan& plan, const BulkLoadOptions& o, BulkLoadReport* report) {
  const auto start = std::chrono::steady_clock::now();
  auto finish_time = [&] {
    report->seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  const int64_t now = o.now_ms > 0 ? o.now_ms : NowMs();
  std::string parent, name;
  if (!plan.into) SplitOut(o.out_dir, &parent, &name);
  for (const auto& [dir, pid] :
       plan.into ? std::vector<std::pair<std::string, long>>{} : StagingDirs(parent, name)) {
    if (PidAlive(pid)) continue;
    std::error_code ec;
    fs::remove_all(dir, ec);
    if (ec) return Status::IOError("cannot remove " + dir, ec.message());
    report->removed_stale.push_back(dir);
  }

  // One thread for the tool (`hfile task --threads 1`): the ranges one after another, here.
  const size_t threads =
      static_cast<size_t>(std::max(1, std::min(o.writer_threads, ToolThreads())));
  const bool computed = plan.create_splits > 0;
  // The regions known before the sort, several threads: the sorter cuts its runs at the
  // regions' start keys, and the regions are merged and written in parallel (WriteRanges).
  const bool parallel =
      !computed && o.only_region.empty() && threads > 1 && plan.regions.size() > 1;

  // Parse into the sorter.
  CellSorterOptions so;
  so.memory_bytes = std::max(o.memory_bytes, kMinSorterMemory);
  so.temp_dir = plan.temp_dir;
  so.estimated_spill_bytes = plan.estimated_spill_bytes;
  so.threads = ToolThreads();
  if (parallel) so.range_starts = plan.boundaries;
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
  std::unique_ptr<CellIterator> it;
  std::vector<std::unique_ptr<CellIterator>> parts;  // parallel: one per region
  if (parallel) {
    HFILE_ASSIGN_OR_RETURN(parts, sorter->FinishRanges(threads));
  } else {
    HFILE_ASSIGN_OR_RETURN(it, sorter->Finish());
  }
  if (o.checkpoint) o.checkpoint("sorted");

  // Write: one StoreWriter per family, routing by row into the regions. --into stages in the
  // table dir, named by the transaction's intent record (so a kill is rolled back by recovery).
  const CommitScope scope{o.table_dir, ""};
  CommitOptions copts;
  copts.now_ms = o.now_ms;
  copts.checkpoint = o.checkpoint;
  Transaction t;
  std::string staging = plan.staging_dir;
  std::optional<TransactionGuard> transaction;
  if (plan.into) {
    t.tool = "bulkload";
    t.staging = "." + NewStagingName("bulkload");
    staging = JoinPath(o.table_dir, t.staging);
    HFILE_RETURN_IF_ERROR(BeginTransaction(scope, t, copts));
    transaction.emplace(scope);
  } else {
    std::error_code ec;
    fs::create_directories(parent, ec);
  }
  if (::mkdir(staging.c_str(), 0755) != 0)
    return ErrnoStatus("cannot create staging directory", staging);
  StagingGuard guard(plan.into ? std::string() : staging);  // --into: the transaction's
  std::map<std::string, size_t, std::less<>> writer_of;
  for (size_t i = 0; i < plan.families.size(); ++i) {
    const std::string dir = JoinPath(staging, plan.families[i].name);
    if (::mkdir(dir.c_str(), 0755) != 0) return ErrnoStatus("cannot create", dir);
    writer_of[plan.families[i].name] = i;
  }
  // The output's key ranges (the regions, or with create_splits those cut from the data),
  // each written by a RangeWriter: a StoreWriter per family. With writer_threads > 1 each range
  // is written on a thread of its own (AsyncRange) while this thread merges on, and with
  // regions known before the sort (parallel) the regions are also merged in parallel.
  std::vector<StoreWriterOptions> family_options;
  for (const auto& f : plan.families) {
    StoreWriterOptions wo;
    wo.dir = JoinPath(staging, f.name);
    wo.writer = f.writer;
    wo.writer.create_time_ms = now;
    wo.writer.bulkload_timestamp = now;
    wo.writer.bulkload_source_task = o.source_task;
    wo.writer.major_compaction = true;
    wo.writer.exclude_from_minor_compaction = false;
    wo.roll_bytes = plan.max_file_size;
    wo.cancel = o.cancel;
    family_options.push_back(std::move(wo));
  }
  // Each finished range's outputs by family, in range order.
  std::vector<std::pair<size_t, RangeOutputs>> finished;
  std::unique_ptr<RangeWriter> inline_range;           // threads == 1
  std::deque<std::pair<size_t, std::unique_ptr<AsyncRange>>> async;  // open ranges, in order
  size_t current = 0;  // the range being fed (when inline_range or async.back() is open)
  bool open = false;
  auto collect_front = [&]() -> Status {
    HFILE_ASSIGN_OR_RETURN(auto outs, async.front().second->Wait());
    finished.emplace_back(async.front().first, std::move(outs));
    async.pop_front();
    return Status::OK();
  };
  auto close_range = [&]() -> Status {
    if (!open) return Status::OK();
    open = false;
    if (inline_range) {
      HFILE_ASSIGN_OR_RETURN(auto outs, inline_range->Finish());
      inline_range.reset();
      finished.emplace_back(current, std::move(outs));
      return Status::OK();
    }
    return async.back().second->Close();
  };
  auto open_range = [&](size_t r) -> Status {
    HFILE_RETURN_IF_ERROR(close_range());
    // At most `threads` ranges open: the oldest finished before another starts.
    while (async.size() >= threads) HFILE_RETURN_IF_ERROR(collect_front());
    HFILE_ASSIGN_OR_RETURN(auto w, RangeWriter::Open(family_options, &writer_of));
    if (threads == 1) {
      inline_range = std::move(w);
    } else {
      async.emplace_back(r, std::make_unique<AsyncRange>(std::move(w)));
    }
    current = r;
    open = true;
    return Status::OK();
  };
  auto add = [&](const Cell& c) -> Status {
    return inline_range ? inline_range->Add(c) : async.back().second->Add(c);
  };
  const uint64_t total = sorter->stats().cells_added;
  // create_splits: cut at the first row change once the bytes so far reach the next 1/N of
  // the cells' bytes (as added; duplicates make the ranges a little uneven).
  size_t range = 0;
  uint64_t bytes_so_far = 0;
  std::string last_row;
  uint64_t written = 0;
  if (parallel) {
    HFILE_RETURN_IF_ERROR(WriteRanges(&parts, threads, family_options, writer_of, o, total,
                                      &written, &finished));
  }
  if (it) it->SeekToFirst();
  for (; it && it->Valid(); it->Next()) {
    const Cell& c = it->cell();
    const Slice row = c.row();
    if (computed) {
      if (written > 0 && row != Slice(last_row) && range + 1 < plan.create_splits &&
          bytes_so_far >= (range + 1) * (added_bytes / plan.create_splits)) {
        report->split_rows.push_back(row.ToString());
        ++range;
        HFILE_RETURN_IF_ERROR(open_range(range));
      }
      last_row.assign(row.data(), row.size());
      bytes_so_far += KeyValueSize(c);
    } else if (!o.only_region.empty() && !InRegion(plan.regions[0].info, row)) {
      return Status::Corruption(
          JoinPath(o.table_dir, o.only_region),
          fmt::format("row '{}' is outside the region loaded ['{}', '{}')",
                      ToStringBinary(row.ToString()),
                      ToStringBinary(plan.regions[0].info.start_key),
                      ToStringBinary(plan.regions[0].info.end_key)));
    } else if (open && (range + 1 == plan.regions.size() ||
                        row.compare(Slice(plan.boundaries[range])) < 0)) {
      // still in the range being fed (the sorted order: no row goes back)
    } else {
      while (range + 1 < plan.regions.size() && !(row.compare(Slice(plan.boundaries[range])) < 0))
        ++range;
      HFILE_RETURN_IF_ERROR(open_range(range));
    }
    if (!open) HFILE_RETURN_IF_ERROR(open_range(range));
    HFILE_RETURN_IF_ERROR(add(c));
    if ((++written & 0x3FFF) == 0 && o.progress)
      o.progress(BulkLoadProgress{"write", 0, 0, written, total});
  }
  if (it) HFILE_RETURN_IF_ERROR(it->status());
  if (Cancelled(o.cancel)) return Status::IOError("interrupted", "nothing was written");
  report->cells_written = written;
  report->duplicates_dropped = sorter->stats().duplicates_dropped;
  report->sort_runs = sorter->stats().runs_spilled;
  report->sort_spilled_bytes = sorter->stats().spilled_bytes;
  HFILE_RETURN_IF_ERROR(close_range());
  while (!async.empty()) HFILE_RETURN_IF_ERROR(collect_front());

  // The report's files (and the journal's puts): by family, then region; create_splits by
  // range, then family.
  std::vector<size_t> files_of(plan.families.size(), 0);
  auto report_outputs = [&](size_t r, size_t i, const std::vector<StoreOutput>& outs) {
    const std::string& fam = plan.families[i].name;
    for (const auto& out : outs) {
      const std::string region =
          computed ? "range-" + std::to_string(r) : plan.regions[r].encoded_name;
      BulkLoadFile file{region, fam, JoinPath(JoinPath(o.out_dir, fam), out.name), -1,
                        out.cells, out.file_size};
      if (plan.into) {
        // The name HRegionFileSystem.bulkLoadStoreFile gives a file loaded with sequence id
        // n: a fresh UUID (the staged file's own) + "_SeqId_<n>_".
        file.sequence_id = plan.regions[r].sequence_id;
        const std::string placed =
            fmt::format("{}/{}/{}_SeqId_{}_", region, fam, out.name, file.sequence_id);
        t.Put(t.staging + "/" + fam + "/" + out.name, placed);
        file.path = JoinPath(o.table_dir, placed);
      }
      report->files.push_back(std::move(file));
      report->bytes_written += out.file_size;
    }
    files_of[i] += outs.size();
  };
  if (computed) {
    for (const auto& [r, outs] : finished)
      for (size_t i = 0; i < outs.size(); ++i) report_outputs(r, i, outs[i]);
  } else {
    for (size_t i = 0; i < plan.families.size(); ++i)
      for (const auto& [r, outs] : finished) report_outputs(r, i, outs[i]);
  }
  for (size_t i = 0; i < plan.families.size(); ++i) {
    const std::string& fam = plan.families[i].name;
    const bool empty = files_of[i] == 0;
    const std::string fam_dir = JoinPath(staging, fam);
    if (empty) {
      // No cell of this family: no directory either (completebulkload would list it for nothing).
      if (::rmdir(fam_dir.c_str()) != 0) return ErrnoStatus("cannot remove", fam_dir);
      continue;
    }
    HFILE_RETURN_IF_ERROR(SyncDir(fam_dir));
  }
  HFILE_RETURN_IF_ERROR(SyncDir(staging));
  if (o.checkpoint) o.checkpoint("written");
  if (Cancelled(o.cancel)) return Status::IOError("interrupted", "nothing was written");

  if (plan.into) {
    if (t.steps.empty()) {  // no cell: nothing to load; the guard rolls the intent back
      finish_time();
      return Status::OK();
    }
    // THE COMMIT POINT is the commit record CommitTransaction writes first; from then on only
    // a rerun's recovery (never a roll back) may finish it.
    transaction->Release();
    HFILE_RETURN_IF_ERROR(CommitTransaction(scope, t, copts));
    HFILE_RETURN_IF_ERROR(VerifyPlaced(o, report->files));
    if (o.checkpoint) o.checkpoint("verified");
    if (o.checkpoint) o.checkpoint("published");
    finish_time();
    return Status::OK();
  }

  // Publish: one rename makes every file appear at once (rename(2) replaces an empty dir).
  HFILE_RETURN_IF_ERROR(RenameFile(staging, o.out_dir));
  guard.Release();
  HFILE_RETURN_IF_ERROR(SyncDir(parent));
  if (o.checkpoint) o.checkpoint("published");
  finish_time();
  return Status::OK();
}

}  // namespace

}  // namespace hfile::region
