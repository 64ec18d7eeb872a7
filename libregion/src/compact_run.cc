// Compact: per region (under an flock on the region directory) finish or roll back an
// interrupted transaction, then per store: plan -> RewriteStore (merge -> CompactionIterator ->
// StoreWriter, staged in <region>/.tmp/) -> one transaction through the commit journal (put
// the output into the family dir, dispose the replaced files) (region/compact.h).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <chrono>
#include <filesystem>

#include "fs_util.h"
#include "region/commit.h"
#include "region/compact.h"
#include "region/store_rewrite.h"
#include "region/table_descriptor.h"

namespace hfile::region {

namespace {

double SecondsSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The family's settings plus the file info HBase's compactor writes.
WriterOptions OutputSettings(const FamilyDescriptor& f, const StorePlan& sp,
                             const CompactOptions& o) {
  WriterOptions w = WriterOptionsForFamily(f, /*compaction_output=*/true, sp.major);
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

bool Cancelled(const CompactOptions& o) {
  return o.cancel && o.cancel->load(std::memory_order_relaxed);
}

std::string Rel(const StorePlan& sp, const std::string& name) {
  return sp.encoded_region + "/" + sp.family + "/" + name;
}

Status RunStore(const CompactionPlan& plan, const StorePlan& sp, const FamilyDescriptor& family,
                const CompactOptions& o, int64_t now, StoreResult* r) {
  const auto t0 = std::chrono::steady_clock::now();
  for (const auto& in : sp.inputs) r->inputs.push_back(in.name), r->bytes_in += in.size;
  for (const auto& e : sp.expired) r->expired.push_back(e.name);
  r->major = sp.major;
  r->all_files = sp.all_files;
  const CommitScope scope{plan.table_dir, sp.encoded_region};
  CommitOptions copts;
  copts.now_ms = o.now_ms;
  copts.checkpoint = o.checkpoint;
  Transaction t;
  t.tool = "compact";

  if (!sp.inputs.empty()) {
    const CompactionOptions co = MatcherOptions(family, sp, o, now);
    StoreRewriteOptions ro;
    ro.family = sp.family;
    ro.start_key = sp.start_key;
    ro.end_key = sp.end_key;
    ro.carry_out_of_range = o.force;
    ro.verify_inputs = o.verify_inputs;
    CompactionStats* stats = &r->stats;
    if (!o.keep_cells)
      ro.transform = [&co, stats](std::unique_ptr<CellIterator> in) {
        return NewCompactionIterator(std::move(in), co, stats);
      };
    ro.writer.writer = OutputSettings(family, sp, o);
    ro.writer.write_empty = true;
    ro.writer.cancel = o.cancel;
    ro.writer.checkpoint = o.checkpoint;
    const std::string label = sp.encoded_region + "/" + sp.family;
    if (o.progress) {
      ro.progress = [label, &o](uint64_t n, uint64_t total) { o.progress(label, n, total); };
    }
    if (o.verify_progress) {
      ro.writer.on_verified_cell = [label, &o, n = uint64_t{0}](size_t, const Cell&) mutable {
        if (++n == 1 || (n & 0x3FFF) == 0) o.verify_progress(label, n);
      };
    }
    std::vector<StoreFile> inputs;
    for (const auto& in : sp.inputs) inputs.push_back(in.entry);
    StoreRewriteResult rr;
    auto finish_stats = [&] {
      r->out_of_range = rr.out_of_range;
      r->cell_bytes_out = rr.cell_bytes_out;
      r->bytes_out = rr.bytes_out;
      if (o.keep_cells) r->stats.input_cells = r->stats.output_cells = rr.cells_read;
    };
    if (o.dry_run) {
      ro.estimate_only = true;
      HFILE_RETURN_IF_ERROR(RewriteStore(inputs, ro, &rr));
      finish_stats();
      r->seconds = SecondsSince(t0);
      return Status::OK();
    }
    t.staging = sp.encoded_region + "/.tmp/" + NewStagingName("compact");
    HFILE_RETURN_IF_ERROR(BeginTransaction(scope, t, copts));
    auto rollback = [&](Status s) {
      (void)AbortTransaction(scope);
      return s;
    };
    const std::string staging = JoinPath(plan.table_dir, t.staging);
    std::error_code ec;
    std::filesystem::create_directory(staging, ec);
    if (ec) return rollback(Status::IOError("cannot create " + staging, ec.message()));
    if (Status s = SyncDir(JoinPath(sp.region_dir, ".tmp")); !s.ok()) return rollback(s);
    ro.writer.dir = staging;
    if (Status s = RewriteStore(inputs, ro, &rr); !s.ok()) return rollback(s);
    finish_stats();
    if (rr.outputs.size() != 1)
      return rollback(Status::Corruption("the compaction wrote no output", staging));
    if (Cancelled(o)) return rollback(Status::IOError("interrupted", "the store was rolled back"));
    r->output = rr.outputs[0].name;
    t.Put(t.staging + "/" + r->output, Rel(sp, r->output));
  }
  if (o.dry_run) {
    r->seconds = SecondsSince(t0);
    return Status::OK();
  }
  for (const auto& name : sp.inputs) t.Dispose(Rel(sp, name.name), o.delete_replaced);
  for (const auto& name : r->expired) t.Dispose(Rel(sp, name), o.delete_replaced);
  for (const auto& name : sp.already_compacted) t.Dispose(Rel(sp, name), o.delete_replaced);
  Status s = CommitTransaction(scope, t, copts);
  if (!s.ok()) {
    // Committed once the commit record is durable: a rerun rolls forward from there.
    auto j = ReadJournal(scope);
    r->committed = j.ok() && *j && (*j)->state == JournalState::State::kCommit;
    if (!r->committed) (void)AbortTransaction(scope);
    return s;
  }
  r->committed = true;
  const size_t replaced = sp.inputs.size() + r->expired.size() + sp.already_compacted.size();
  (o.delete_replaced ? r->deleted : r->archived) = replaced;
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
  // An interrupted table-level transaction (alter, copy-family, split) is finished first; every
  // region is then planned again, under the descriptor it leaves.
  const bool table_recovered = !o.dry_run && !plan.recovery.empty();
  if (table_recovered) {
    DirLock table_lock;
    HFILE_RETURN_IF_ERROR(table_lock.Acquire(plan.table_dir));
    CommitOptions copts;
    copts.now_ms = o.now_ms;
    copts.checkpoint = o.checkpoint;
    HFILE_RETURN_IF_ERROR(
        RecoverTransaction(CommitScope{plan.table_dir, ""}, copts, &report->recovered));
  }
  for (const RegionPlan& planned : plan.regions) {
    if (stop) break;
    if (planned.referenced_split_parent) {
      // What HBase leaves after a split until the daughters are compacted: HBase never opens
      // the parent again, and the daughters' References read its files, so it is left as it
      // is (not an error: compacting the daughters is what frees it).
      for (const StorePlan& sp : planned.stores) {
        StoreResult r;
        r.region = planned.encoded_name;
        r.family = sp.family;
        r.skipped = planned.blockers.front();
        report->stores.push_back(std::move(r));
      }
      continue;
    }
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
    const RegionPlan* rp = &planned;
    const TableDescriptor* desc = &plan.descriptor;
    DirLock lock;
    CompactionPlan replanned;
    if (!o.dry_run) {
      if (Status s = lock.Acquire(planned.path); !s.ok()) {
        report->refused.push_back(planned.encoded_name + ": " + s.ToString());
        result = s;
        continue;
      }
      if (!planned.recovery.empty() || table_recovered) {
        CommitOptions copts;
        copts.now_ms = o.now_ms;
        copts.checkpoint = o.checkpoint;
        HFILE_RETURN_IF_ERROR(RecoverTransaction(CommitScope{plan.table_dir, planned.encoded_name},
                                                 copts, &report->recovered));
        CompactOptions again = o;
        again.force = true;
        HFILE_ASSIGN_OR_RETURN(replanned, PlanCompaction(planned.path, again));
        if (replanned.regions.size() != 1) return Status::IOError("region vanished", planned.path);
        rp = &replanned.regions[0];
        desc = &replanned.descriptor;
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
        const FamilyDescriptor* fam = desc->FindFamily(sp.family);
        s = fam ? RunStore(plan, sp, *fam, o, o.now_ms, &r)
                : Status::NotFound("the descriptor no longer has the family", sp.family);
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
