// Compact: per region (under an flock on the region directory) finish or roll back an
// interrupted run, then per store: merge -> CompactionIterator -> Writer in .tmp/ -> VerifyFile
// -> rename into the family dir -> archive the replaced files (region/compact.h).
#include <fcntl.h>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <sys/file.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>

#include "compact_internal.h"
#include "fs_util.h"
#include "hfile/input_check.h"
#include "hfile/reader.h"
#include "hfile/rewrite.h"
#include "hfile/verify.h"
#include "input_guard.h"
#include "region/compact.h"
#include "region/merging_iterator.h"
#include "region/store_file_reader.h"
#include "region/table_descriptor.h"

namespace hfile::region {

namespace {

// Counts what the merge reads (for the dry-run estimate and progress).
class CountingIterator : public CellIterator {
 public:
  CountingIterator(std::unique_ptr<CellIterator> in, std::function<void(uint64_t)> progress)
      : in_(std::move(in)), progress_(std::move(progress)) {}
  bool Valid() const override { return in_->Valid(); }
  void SeekToFirst() override { in_->SeekToFirst(); Count(); }
  void Seek(const Slice& k) override { in_->Seek(k); Count(); }
  void Next() override { in_->Next(); Count(); }
  const Cell& cell() const override { return in_->cell(); }
  Status status() const override { return in_->status(); }
  uint64_t bytes() const { return bytes_; }
  uint64_t cells() const { return cells_; }

 private:
  void Count() {
    if (!in_->Valid()) return;
    const Cell& c = in_->cell();
    bytes_ += KeyValueSize(c);
    if ((++cells_ & 0x3FFF) == 0 && progress_) progress_(cells_);
  }
  std::unique_ptr<CellIterator> in_;
  std::function<void(uint64_t)> progress_;
  uint64_t bytes_ = 0, cells_ = 0;
};

// The dry run's trial write: this many blocks of the output, at most.
constexpr uint64_t kTrialBlocks = 256;

double SecondsSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Holds an exclusive flock on a region directory (so two runs never interleave).
class RegionLock {
 public:
  ~RegionLock() {
    if (fd_ >= 0) ::close(fd_);
  }
  Status Acquire(const std::string& dir) {
    fd_ = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd_ < 0) return Status::IOError("cannot open", dir);
    if (::flock(fd_, LOCK_EX | LOCK_NB) != 0)
      return Status::NotSupported("another hfile-compact holds the lock on", dir);
    return Status::OK();
  }

 private:
  int fd_ = -1;
};

WriterOptions OutputSettings(const FamilyDescriptor& f, const StorePlan& sp,
                             const CompactOptions& o) {
  WriterOptions w;
  w.block_size = static_cast<uint32_t>(f.block_size());
  w.compression = f.compaction_compression(sp.major);
  w.encoding = f.data_block_encoding();
  w.bloom_type = f.bloom_type();
  w.bloom_prefix_length = f.bloom_prefix_length();
  w.compress_tags = f.compress_tags();
  w.flavor = o.flavor;
  w.include_tags = false;
  w.include_mvcc = false;
  int64_t max_seq = -1;
  std::vector<std::string> names;
  for (const auto& in : sp.inputs) {
    w.include_tags = w.include_tags || in.max_tags_len > 0;
    w.include_mvcc = w.include_mvcc || in.max_memstore_ts > 0 ||
                     (in.bulk_loaded && in.sequence_id > 0);
    max_seq = std::max(max_seq, in.sequence_id);
    names.push_back(in.name);
  }
  w.create_time_ms = NowMs();
  w.max_seq_id = max_seq;
  w.major_compaction = sp.all_files && !o.keep_cells;  // kept delete markers: not major
  w.compaction_event = JavaHashSetOrder(names);
  return w;
}

CompactionOptions MatcherOptions(const FamilyDescriptor& f, const StorePlan& sp,
                                 const CompactOptions& o, int64_t now) {
  CompactionOptions co = CompactionOptions::ForFamily(
      f, sp.all_files ? CompactionKind::kMajor : CompactionKind::kMinor, now);
  co.time_to_purge_deletes_ms = o.time_to_purge_deletes_ms;
  if (sp.all_files) {
    co.earliest_put_ts = INT64_MAX;
    for (const auto& in : sp.inputs)
      co.earliest_put_ts = in.earliest_put_ts ? std::min(co.earliest_put_ts, *in.earliest_put_ts)
                                              : INT64_MIN;
    std::vector<CompactionInputFile> files;
    for (const auto& in : sp.inputs) files.push_back({in.max_memstore_ts, in.modification_time_ms});
    auto zero = SequenceIdZeroingThreshold(files, true, now, o.keep_seq_id_period_days);
    if (zero && *zero > 0 && !f.new_version_behavior()) co.zero_sequence_ids_up_to = zero;
  }
  return co;
}

struct OpenInputs {
  std::vector<std::unique_ptr<StoreFileReader>> readers;
  CountingIterator* counter = nullptr;
  std::vector<InputGuard*> guards;  // per input: cells read (a half reads fewer), checks
  std::unique_ptr<CellIterator> compacted;
  uint64_t total_cells = 0;
};

// Opens every input as HBase's StoreFileScanner reads it: a Reference's half of the parent's
// file, a link's target, bulk-loaded files with their file sequence id. Each file is checked
// before any of its cells is used, and guarded while it streams (family, region range).
Status OpenMerge(const StorePlan& sp, const CompactionOptions& co, const CompactOptions& o,
                 CompactionStats* stats, OpenInputs* out) {
  std::vector<std::unique_ptr<CellIterator>> its;
  InputCheckOptions check;
  check.full = o.verify_inputs;
  for (const auto& in : sp.inputs) {  // already in scanner order
    HFILE_ASSIGN_OR_RETURN(auto r, StoreFileReader::Open(in.entry));
    HFILE_RETURN_IF_ERROR(CheckInput(r->hfile(), check));
    out->total_cells += r->hfile().trailer().entry_count;
    InputGuardOptions g;
    g.path = in.path;
    g.family = sp.family;
    g.start_key = sp.start_key;
    g.end_key = sp.end_key;
    g.comparator = r->hfile().comparator();
    g.carry_out_of_range = o.force;
    auto it = std::make_unique<InputGuard>(r->NewIterator(), std::move(g));
    out->guards.push_back(it.get());
    its.push_back(std::move(it));
    out->readers.push_back(std::move(r));
  }
  const ComparatorKind kind =
      out->readers.empty() ? ComparatorKind::kDefault : out->readers[0]->hfile().comparator();
  std::function<void(uint64_t)> progress;
  if (o.progress) {
    std::string label = sp.encoded_region + "/" + sp.family;
    uint64_t total = out->total_cells;
    progress = [label, total, &o](uint64_t n) { o.progress(label, n, total); };
  }
  auto counting =
      std::make_unique<CountingIterator>(NewMergingIterator(std::move(its), kind), progress);
  out->counter = counting.get();
  out->compacted = o.keep_cells ? std::move(counting)
                                : NewCompactionIterator(std::move(counting), co, stats);
  out->compacted->SeekToFirst();
  return Status::OK();
}

// After the merge: every whole file gave as many cells as its trailer says (a Reference reads
// only its half of the parent's file, which CheckInput checked whole).
Status CheckInputsRead(const StorePlan& sp, const OpenInputs& in, StoreResult* r) {
  for (size_t i = 0; i < in.readers.size(); ++i) {
    r->out_of_range += in.guards[i]->out_of_range();
    if (sp.inputs[i].reference) continue;
    HFILE_RETURN_IF_ERROR(CheckCellsRead(in.readers[i]->hfile(), in.guards[i]->cells()));
  }
  return Status::OK();
}

bool Cancelled(const CompactOptions& o) {
  return o.cancel && o.cancel->load(std::memory_order_relaxed);
}

void Check(const CompactOptions& o, const std::string& step) {
  if (o.checkpoint) o.checkpoint(step);
}

Status RunStore(const CompactionPlan& plan, const StorePlan& sp, const FamilyDescriptor& family,
                const CompactOptions& o, int64_t now, const Disposal& disposal, StoreResult* r) {
  const auto t0 = std::chrono::steady_clock::now();
  for (const auto& in : sp.inputs) r->inputs.push_back(in.name), r->bytes_in += in.size;
  for (const auto& e : sp.expired) r->expired.push_back(e.name);
  r->major = sp.major;
  r->all_files = sp.all_files;
  CompactionStats& stats = r->stats;
  Journal j;
  j.family = sp.family;
  for (const auto& in : sp.inputs) j.inputs.push_back(in.name);
  j.expired = r->expired;
  j.compacted = sp.already_compacted;

  if (!sp.inputs.empty()) {
    CompactionOptions co = MatcherOptions(family, sp, o, now);
    WriterOptions wo = OutputSettings(family, sp, o);
    OpenInputs in;
    HFILE_RETURN_IF_ERROR(OpenMerge(sp, co, o, &stats, &in));
    CellIterator* it = in.compacted.get();
    if (o.dry_run) {
      // Bytes out: the output's cells are known exactly; what they take on disk under the
      // output settings is measured by writing the first of them (up to kTrialBlocks blocks)
      // with those settings to a scratch file outside the table. Scaling by the inputs' own
      // ratio instead would miss every codec, encoding or block size change.
      const uint64_t trial_budget = kTrialBlocks * uint64_t{wo.block_size};
      const std::string trial =
          (std::filesystem::temp_directory_path() / (".hfile-trial-" + NewStoreFileName()))
              .string();
      auto tw = Writer::Create(trial, wo);
      uint64_t out_bytes = 0, trial_bytes = 0;
      for (; it->Valid(); it->Next()) {
        const uint64_t b = KeyValueSize(it->cell());
        out_bytes += b;
        if (tw.ok() && trial_bytes < trial_budget && (*tw)->Append(it->cell()).ok())
          trial_bytes += b;
      }
      HFILE_RETURN_IF_ERROR(it->status());
      HFILE_RETURN_IF_ERROR(CheckInputsRead(sp, in, r));
      if (o.keep_cells) stats.input_cells = stats.output_cells = in.counter->cells();
      WriterStats ts;
      const bool trial_ok = tw.ok() && trial_bytes > 0 && (*tw)->Finish(&ts).ok() && ts.file_size;
      std::error_code ec;
      std::filesystem::remove(trial, ec);
      r->cell_bytes_out = out_bytes;
      if (trial_ok) {
        r->bytes_out = static_cast<uint64_t>(static_cast<double>(out_bytes) *
                                             static_cast<double>(ts.file_size) /
                                             static_cast<double>(trial_bytes));
      }
      r->seconds = SecondsSince(t0);
      return Status::OK();
    }
    j.output = NewStoreFileName();
    HFILE_RETURN_IF_ERROR(WriteJournal(sp.region_dir, j));
    Check(o, "journal-written");
    const std::string tmp_path = JoinPath(JoinPath(sp.region_dir, ".tmp"), j.output);
    auto rollback = [&](Status s) {
      std::vector<std::string> ignored;
      (void)RecoverRegion(sp.region_dir, [&](const std::string&) { return disposal; }, nullptr,
                          &ignored);
      return s;
    };
    {
      auto w = Writer::Create(tmp_path, wo);
      if (!w.ok()) return rollback(w.status());
      bool first = true;
      uint64_t n = 0;
      for (; it->Valid(); it->Next()) {
        if (Status s = (*w)->Append(it->cell()); !s.ok()) {
          // The Writer refuses a cell only when it breaks the order; else it is the output.
          if (s.IsInvalidArgument())
            return rollback(Status::Corruption("inputs out of order: " + s.ToString()));
          return rollback(s.WithContext("writing " + tmp_path));
        }
        if (first) Check(o, "output-started"), first = false;
        if ((++n & 0xFFF) == 0 && Cancelled(o))
          return rollback(Status::IOError("interrupted", "the store was rolled back"));
      }
      if (!it->status().ok()) return rollback(it->status());
      if (Status s = CheckInputsRead(sp, in, r); !s.ok()) return rollback(s);
      if (o.keep_cells) stats.input_cells = stats.output_cells = in.counter->cells();
      WriterStats ws;
      if (Status s = (*w)->Finish(&ws); !s.ok()) return rollback(s.WithContext("writing " + tmp_path));
      r->bytes_out = ws.file_size;
      r->cell_bytes_out = ws.unencoded_cell_bytes;
    }
    Check(o, "output-written");
    VerifyReport rep = VerifyFile(tmp_path, VerifyOptions());
    if (rep.open_status.IsIOError() || rep.open_status.IsNotFound())
      return rollback(rep.open_status.WithContext("verifying " + tmp_path));
    if (!rep.io_error.ok()) return rollback(rep.io_error.WithContext("verifying " + tmp_path));
    if (!rep.clean() || rep.cells != stats.output_cells) {
      return rollback(Status::Corruption(fmt::format(
          "verification of {} failed ({} cells, expected {}): {}", tmp_path, rep.cells,
          stats.output_cells,
          rep.problems.empty() ? rep.open_status.ToString() : rep.problems[0].what)));
    }
    Check(o, "output-verified");
    if (Cancelled(o)) return rollback(Status::IOError("interrupted", "the store was rolled back"));
    if (::rename(tmp_path.c_str(), JoinPath(sp.family_dir, j.output).c_str()) != 0)
      return rollback(Status::IOError(
          fmt::format("cannot move the output {} into {}", tmp_path, sp.family_dir),
          std::strerror(errno)));
    r->output = j.output;
    r->committed = true;  // from here on a rerun rolls forward
    HFILE_RETURN_IF_ERROR(SyncDir(sp.family_dir));
    HFILE_RETURN_IF_ERROR(SyncDir(JoinPath(sp.region_dir, ".tmp")));
    Check(o, "committed");
  } else if (o.dry_run) {
    r->seconds = SecondsSince(t0);
    return Status::OK();
  } else {
    HFILE_RETURN_IF_ERROR(WriteJournal(sp.region_dir, j));  // nothing to commit: dispose only
    r->committed = true;
    Check(o, "journal-written");
  }
  for (const auto& name : j.Replaced()) {
    HFILE_RETURN_IF_ERROR(DisposeStoreFile(sp.family_dir, name, disposal));
    ++(disposal.archive_dir.empty() ? r->deleted : r->archived);
    Check(o, "disposed");
  }
  HFILE_RETURN_IF_ERROR(RemoveJournal(sp.region_dir));
  Check(o, "done");
  (void)plan;
  r->seconds = SecondsSince(t0);
  return Status::OK();
}

}  // namespace

Status Compact(const CompactionPlan& plan, const CompactOptions& options, CompactReport* report) {
  const auto t0 = std::chrono::steady_clock::now();
  CompactOptions o = options;
  if (o.now_ms == 0) o.now_ms = NowMs();
  if (!o.dry_run && !o.delete_replaced && plan.root_dir.empty())
    return Status::InvalidArgument(
        "the table directory is not <root>/data/<ns>/<table>, so the archive cannot be located; "
        "use --delete-replaced to delete replaced files instead", plan.table_dir);
  Status result = Status::OK();
  Status first_failure;
  std::vector<std::string> not_committed;  // "<region>/<family>"
  bool stop = false;
  for (const RegionPlan& planned : plan.regions) {
    if (stop) break;
    if (!planned.blockers.empty() || (!planned.refusals.empty() && !o.force)) {
      for (const auto& why : planned.blockers)
        report->refused.push_back(planned.encoded_name + ": " + why);
      if (!o.force)
        for (const auto& why : planned.refusals)
          report->refused.push_back(planned.encoded_name + ": " + why);
      result = Status::NotSupported(
          "refused region(s) (see above; --force overrides only the online/unclean checks)");
      continue;
    }
    auto disposal_for = [&](const std::string& family) {
      Disposal d;
      d.now_ms = o.now_ms;
      if (!o.delete_replaced)
        d.archive_dir = fmt::format("{}/archive/data/{}/{}/{}/{}", plan.root_dir,
                                    plan.table.namespace_name, plan.table.qualifier,
                                    planned.encoded_name, family);
      return d;
    };
    const RegionPlan* rp = &planned;
    RegionLock lock;
    CompactionPlan replanned;
    if (!o.dry_run) {
      if (Status s = lock.Acquire(planned.path); !s.ok()) {
        report->refused.push_back(planned.encoded_name + ": " + s.ToString());
        result = s;
        continue;
      }
      if (!planned.recovery.empty()) {
        HFILE_RETURN_IF_ERROR(
            RecoverRegion(planned.path, disposal_for, o.checkpoint, &report->recovered));
        CompactOptions again = o;
        again.force = true;
        HFILE_ASSIGN_OR_RETURN(replanned, PlanCompaction(planned.path, again));
        if (replanned.regions.size() != 1) return Status::IOError("region vanished", planned.path);
        rp = &replanned.regions[0];
      }
    }
    for (const StorePlan& sp : rp->stores) {
      StoreResult r;
      r.region = rp->encoded_name;
      r.family = sp.family;
      if (!sp.skip_reason.empty()) {
        r.skipped = sp.skip_reason;
        report->stores.push_back(std::move(r));
        continue;
      }
      Status s = sp.error;
      if (s.ok() && Cancelled(o)) s = Status::IOError("interrupted", "the store was not started");
      if (s.ok()) {
        const FamilyDescriptor* fam = plan.descriptor.FindFamily(sp.family);
        s = RunStore(plan, sp, *fam, o, o.now_ms, disposal_for(sp.family), &r);
      }
      if (!s.ok()) {
        r.status = s;
        if (first_failure.ok()) first_failure = s;
        if (!r.committed) not_committed.push_back(rp->encoded_name + "/" + sp.family);
      }
      report->stores.push_back(std::move(r));
      // A damaged input refuses its own store only; a failing output file system or an
      // interrupt would fail every store after it.
      if (!s.ok() && !s.IsCorruption() && !s.IsNotFound()) {
        stop = true;
        break;
      }
    }
    if (!o.dry_run) {
      std::error_code ec;
      std::filesystem::remove(JoinPath(rp->path, ".tmp"), ec);  // only if empty
    }
  }
  report->seconds = SecondsSince(t0);
  if (!first_failure.ok()) {
    size_t committed = 0;
    for (const auto& st : report->stores) committed += st.committed;
    std::string summary = fmt::format(
        "{} store(s) committed, {} not committed{}{}; first failure: {}", committed,
        not_committed.size(),
        not_committed.empty() ? "" : fmt::format(" ({})", fmt::join(not_committed, ", ")),
        stop ? "; the run stopped there" : "", first_failure.ToString());
    switch (first_failure.code()) {
      case Status::Code::kCorruption: return Status::Corruption(summary);
      case Status::Code::kNotFound: return Status::NotFound(summary);
      case Status::Code::kNotSupported: return Status::NotSupported(summary);
      case Status::Code::kInvalidArgument: return Status::InvalidArgument(summary);
      default: return Status::IOError(summary);
    }
  }
  return result;
}

}  // namespace hfile::region
