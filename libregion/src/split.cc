// SplitFile, PlanRegionSplit / RunRegionSplit (region/split.h): a file's cells routed by row into
// verified outputs (StoreWriter), and a region's store files rewritten per half (RewriteStore)
// into two staged daughter dirs, committed by one table transaction (region/commit.h).
#include "region/split.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <filesystem>

#include "fs_util.h"
#include "hfile/input_check.h"
#include "hfile/reader.h"
#include "hfile/rewrite.h"
#include "region/commit.h"
#include "region/compact.h"
#include "region/layout.h"
#include "region/schema_writer.h"
#include "region/store_rewrite.h"
#include "region/store_writer.h"
#include "region/target.h"

namespace hfile::region {

namespace {

namespace fs = std::filesystem;

Status CheckBoundaries(const std::vector<std::string>& b) {
  if (b.empty()) return Status::InvalidArgument("no split row given");
  for (size_t i = 0; i < b.size(); ++i) {
    if (b[i].empty()) return Status::InvalidArgument("a split row must not be empty");
    if (i > 0 && !(b[i - 1] < b[i]))
      return Status::InvalidArgument("split rows must be sorted and distinct");
  }
  return Status::OK();
}

// The settings and file info `in` was written with (copyHFileHalf keeps every non-reserved
// file-info key but DATA_BLOCK_ENCODING, which the writer writes for its own blocks).
Result<WriterOptions> SettingsOf(const Reader& in) {
  HFILE_ASSIGN_OR_RETURN(WriterOptions w, WriterOptionsFromFile(in));
  HFILE_ASSIGN_OR_RETURN(w.block_size, InferBlockSize(in));
  std::erase_if(w.extra_file_info,
                [](const auto& kv) { return kv.first == "DATA_BLOCK_ENCODING"; });
  w.create_time_ms = NowMs();
  return w;
}

Status MakeDir(const std::string& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return Status::IOError("cannot create " + dir, ec.message());
  return SyncDir(fs::path(dir).parent_path().string());
}

// "<n>.seqid" -> n
std::optional<int64_t> SeqIdMarker(const std::string& name) {
  if (!name.ends_with(".seqid")) return std::nullopt;
  const std::string n = name.substr(0, name.size() - 6);
  if (n.empty() || !std::all_of(n.begin(), n.end(), ::isdigit) || n.size() > 18) return std::nullopt;
  return std::stoll(n);
}

}  // namespace

Status SplitFile(const std::string& path, const FileSplitOptions& o, FileSplitResult* result) {
  HFILE_RETURN_IF_ERROR(CheckBoundaries(o.boundaries));
  if (!IsDirectory(o.out_dir)) return Status::NotFound(o.out_dir, "no such output directory");
  HFILE_ASSIGN_OR_RETURN(auto reader, Reader::Open(path));
  InputCheckOptions ico;
  ico.full = o.verify_input;
  HFILE_RETURN_IF_ERROR(CheckInput(*reader, ico));
  HFILE_ASSIGN_OR_RETURN(WriterOptions settings, SettingsOf(*reader));

  const std::string staging = JoinPath(o.out_dir, "." + NewStagingName("split"));
  HFILE_RETURN_IF_ERROR(MakeDir(staging));
  auto cleanup = [&](Status s) {
    std::error_code ec;
    fs::remove_all(staging, ec);
    return s;
  };
  std::vector<StoreOutput> outputs;
  uint64_t n = 0;
  {
    StoreWriterOptions wo;
    wo.dir = staging;
    wo.writer = settings;
    wo.boundaries = o.boundaries;
    wo.cancel = o.cancel;
    auto w = StoreWriter::Open(wo);
    if (!w.ok()) return cleanup(w.status());
    auto it = reader->NewIterator();
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      if (Status s = (*w)->Add(it->cell()); !s.ok()) return cleanup(s.WithContext(path));
      ++n;
    }
    if (Status s = it->status(); !s.ok()) return cleanup(s);
    if (Status s = CheckCellsRead(*reader, n); !s.ok()) return cleanup(s);
    auto out = (*w)->Finish();
    if (!out.ok()) return cleanup(out.status());
    outputs = std::move(*out);
  }
  result->cells = n;
  for (const auto& out : outputs) {
    const std::string to = JoinPath(o.out_dir, out.name);
    if (PathExists(to)) return cleanup(Status::IOError("output exists", to));
    if (Status s = RenameFile(out.path, to); !s.ok()) return cleanup(s);
    result->outputs.push_back({out.range, to, out.cells, out.file_size});
  }
  HFILE_RETURN_IF_ERROR(SyncDir(o.out_dir));
  return cleanup(Status::OK());
}

Result<RegionSplitPlan> PlanRegionSplit(const std::string& region_dir,
                                        const RegionSplitOptions& options) {
  HFILE_ASSIGN_OR_RETURN(Target target, ResolveTarget(region_dir));
  if (target.kind != Target::Kind::kRegion)
    return Status::InvalidArgument("not a region directory", region_dir);
  RegionSplitPlan plan;
  plan.root_dir = target.root_dir;
  plan.table_dir = target.table_dir;
  plan.region_dir = target.region_dir;
  plan.encoded_name = target.encoded_region();
  HFILE_ASSIGN_OR_RETURN(plan.parent, ReadRegionInfoFile(JoinPath(plan.region_dir, ".regioninfo")));
  if (plan.parent.IsMeta()) return Status::NotSupported("hbase:meta is never split", region_dir);
  if (plan.parent.split)
    return Status::NotSupported("the region's .regioninfo is marked split (a parent of an "
                                "earlier split)", region_dir);
  if (plan.parent.replica_id != 0)
    return Status::NotSupported("a replica region cannot be split", region_dir);
  plan.recovery = DescribeRecovery(CommitScope{plan.table_dir, ""});
  // Another tool's follow-up work (an alter's rewrites) lives in the same journal: a split's
  // transaction would replace it.
  HFILE_ASSIGN_OR_RETURN(auto journal, ReadJournal(CommitScope{plan.table_dir, ""}));
  if (journal && journal->state == JournalState::State::kPending)
    return Status::NotSupported(fmt::format(
        "the table's journal holds pending work of hfile-{}; run hfile-{} on the table to "
        "finish it before splitting", journal->transaction.tool, journal->transaction.tool),
        plan.table_dir);

  // Compact's checks: online/unclean (refusals, --force) and what must never be touched.
  CompactOptions check;
  check.dry_run = true;
  check.force = options.force;
  HFILE_ASSIGN_OR_RETURN(CompactionPlan cp, PlanCompaction(plan.region_dir, check));
  for (const auto& r : cp.regions) {
    for (const auto& why : r.blockers) plan.refused.push_back(why);
    if (!options.force)
      for (const auto& why : r.refusals) plan.refused.push_back(why);
    for (const auto& sp : r.stores) {
      if (!sp.error.ok()) return sp.error.WithContext(r.encoded_name + "/" + sp.family);
      for (const auto& f : sp.files)
        if (f.reference)
          return Status::NotSupported(fmt::format(
              "{}/{} holds a Reference ({}): the region is a daughter of an unfinished split; "
              "compact it (hfile compact) before splitting it again, as HBase does",
              r.encoded_name, sp.family, f.name));
    }
  }

  // The FILE store-file tracker lists a store's files in .filelist/: daughters written without
  // one would read as empty stores.
  HFILE_ASSIGN_OR_RETURN(RegionDir scanned, ScanRegionDir(plan.root_dir, plan.region_dir));
  for (const auto& f : scanned.families)
    if (f.tracker)
      return Status::NotSupported(fmt::format(
          "family {} uses the FILE store-file tracker (.filelist/); splitting such a region "
          "offline is not supported", f.name), region_dir);

  SplitPointOptions spo;
  spo.split_row = options.split_row;
  spo.count_sides = true;
  HFILE_ASSIGN_OR_RETURN(plan.point, ComputeSplitPoint(plan.root_dir, plan.region_dir, spo));
  if (!plan.point.split_row) {
    const std::string why = plan.point.no_split_reason.empty() ? "no split point"
                                                               : plan.point.no_split_reason;
    if (options.split_row) return Status::InvalidArgument("cannot split at the given row: " + why);
    return Status::NotSupported("HBase would not split this region: " + why, region_dir);
  }
  plan.split_row = *plan.point.split_row;
  if (!plan.parent.ContainsRow(plan.split_row))
    return Status::InvalidArgument("the split row is outside the region", plan.split_row);
  if (plan.split_row == plan.parent.start_key)
    return Status::InvalidArgument("the split row is the region's start key", plan.split_row);

  int64_t now = options.now_ms ? options.now_ms : NowMs();
  uint64_t rid = static_cast<uint64_t>(now);
  if (rid <= plan.parent.region_id) rid = plan.parent.region_id + 1;
  for (RegionInfo* d : {&plan.daughter_a, &plan.daughter_b}) {
    d->table = plan.parent.table;
    d->region_id = rid;
  }
  plan.daughter_a.start_key = plan.parent.start_key;
  plan.daughter_a.end_key = plan.split_row;
  plan.daughter_b.start_key = plan.split_row;
  plan.daughter_b.end_key = plan.parent.end_key;
  return plan;
}

namespace {

Status RunLocked(const RegionSplitPlan& plan, const RegionSplitOptions& o,
                 RegionSplitReport* report) {
  const CommitScope scope{plan.table_dir, ""};
  CommitOptions copts;
  copts.now_ms = o.now_ms;
  copts.checkpoint = o.checkpoint;
  HFILE_ASSIGN_OR_RETURN(RegionDir parent, ScanRegionDir(plan.root_dir, plan.region_dir));
  CompactOptions check;
  check.dry_run = true;
  check.force = true;
  HFILE_ASSIGN_OR_RETURN(CompactionPlan cp, PlanCompaction(plan.region_dir, check));
  if (cp.regions.size() != 1) return Status::Corruption("the region was not planned", plan.region_dir);
  const RegionPlan& rp = cp.regions[0];

  int64_t max_seq = -1;
  for (const auto& e : parent.recovered_edits)
    if (auto n = SeqIdMarker(e)) max_seq = std::max(max_seq, *n);
  for (const auto& sp : rp.stores)
    for (const auto& f : sp.files) max_seq = std::max(max_seq, f.sequence_id);
  report->max_sequence_id = max_seq;

  Transaction t;
  t.tool = "split";
  t.staging = "." + NewStagingName("split");
  HFILE_RETURN_IF_ERROR(BeginTransaction(scope, t, copts));
  auto rollback = [&](Status s) {
    (void)AbortTransaction(scope);
    return s;
  };
  const std::string staging = JoinPath(plan.table_dir, t.staging);
  const std::string enc_a = plan.daughter_a.EncodedName(), enc_b = plan.daughter_b.EncodedName();
  const std::string dir_a = JoinPath(staging, enc_a), dir_b = JoinPath(staging, enc_b);
  const std::string work = JoinPath(staging, "work");
  for (const auto& d : {staging, dir_a, dir_b, work})
    if (Status s = MakeDir(d); !s.ok()) return rollback(s);
  for (const auto& [dir, info] : {std::pair{dir_a, &plan.daughter_a}, {dir_b, &plan.daughter_b}}) {
    if (Status s = WriteRegionInfo(dir, *info); !s.ok()) return rollback(s);
    for (const auto& fam : parent.families)
      if (Status s = MakeDir(JoinPath(dir, fam.name)); !s.ok()) return rollback(s);
    if (max_seq > 0) {
      const std::string re = JoinPath(dir, "recovered.edits");
      if (Status s = MakeDir(re); !s.ok()) return rollback(s);
      if (Status s = WriteFileDurably(JoinPath(re, fmt::format("{}.seqid", max_seq)), "");
          !s.ok())
        return rollback(s);
    }
  }

  for (const auto& sp : rp.stores) {
    for (const auto& f : sp.files) {
      SplitFileResult fr;
      fr.family = sp.family;
      fr.input = f.name;
      auto reader = Reader::Open(f.entry.target_path);
      if (!reader.ok()) return rollback(reader.status());
      auto settings = SettingsOf(**reader);
      if (!settings.ok()) return rollback(settings.status().WithContext(f.path));
      StoreRewriteOptions ro;
      ro.family = sp.family;
      ro.start_key = plan.parent.start_key;
      ro.end_key = plan.parent.end_key;
      ro.carry_out_of_range = o.force;
      ro.verify_inputs = o.verify_inputs;
      ro.writer.dir = work;
      ro.writer.writer = *settings;
      ro.writer.boundaries = {plan.split_row};
      ro.writer.cancel = o.cancel;
      ro.writer.checkpoint = o.checkpoint;
      StoreRewriteResult rr;
      if (Status s = RewriteStore({f.entry}, ro, &rr); !s.ok())
        return rollback(s.WithContext(sp.encoded_region + "/" + sp.family + "/" + f.name));
      const std::string suffix =
          f.entry.name.bulk_load_seq_id
              ? fmt::format("_SeqId_{}_", *f.entry.name.bulk_load_seq_id)
              : "";
      for (const auto& out : rr.outputs) {
        const bool a = out.range == 0;
        const std::string name = out.name + suffix;
        const std::string to = JoinPath(JoinPath(a ? dir_a : dir_b, sp.family), name);
        if (Status s = RenameFile(out.path, to); !s.ok()) return rollback(s);
        (a ? fr.outputs_a : fr.outputs_b).push_back((a ? enc_a : enc_b) + "/" + sp.family + "/" + name);
        (a ? fr.cells_a : fr.cells_b) += out.cells;
      }
      report->files.push_back(std::move(fr));
    }
    for (const auto& d : {dir_a, dir_b})
      if (Status s = SyncDir(JoinPath(d, sp.family)); !s.ok()) return rollback(s);
  }
  {
    std::error_code ec;
    fs::remove_all(work, ec);
    if (ec) return rollback(Status::IOError("cannot remove " + work, ec.message()));
  }
  if (o.cancel && o.cancel->load()) return rollback(Status::IOError("interrupted", "the split was rolled back"));
  if (o.checkpoint) o.checkpoint("split-staged");
  t.Put(t.staging + "/" + enc_a, enc_a);
  t.Put(t.staging + "/" + enc_b, enc_b);
  t.Archive(plan.encoded_name);
  Status s = CommitTransaction(scope, t, copts);
  if (!s.ok()) {
    auto j = ReadJournal(scope);
    const bool committed = j.ok() && *j && (*j)->state == JournalState::State::kCommit;
    if (!committed) (void)AbortTransaction(scope);
    return s;
  }
  return Status::OK();
}

}  // namespace

Status FinishInterruptedSplit(const std::string& table_dir, int64_t now_ms,
                              std::vector<std::string>* log) {
  const CommitScope scope{table_dir, ""};
  HFILE_ASSIGN_OR_RETURN(auto j, ReadJournal(scope));
  if (!j) return Status::NotFound(table_dir, "no interrupted transaction to finish");
  DirLock lock;
  HFILE_RETURN_IF_ERROR(lock.Acquire(table_dir));
  CommitOptions copts;
  copts.now_ms = now_ms;
  return RecoverTransaction(scope, copts, log);
}

Status RunRegionSplit(const RegionSplitPlan& plan, const RegionSplitOptions& options,
                      RegionSplitReport* report) {
  const auto t0 = std::chrono::steady_clock::now();
  if (!plan.refused.empty())
    return Status::NotSupported(fmt::format(
        "the region looks online or unclean ({}); nothing was changed (--force overrides the "
        "online/unclean checks)", fmt::join(plan.refused, "; ")));
  if (options.dry_run) return Status::OK();
  if (plan.root_dir.empty())
    return Status::InvalidArgument(
        "the table directory is not <root>/data/<ns>/<table>, so the parent cannot be archived",
        plan.table_dir);
  DirLock table_lock, region_lock;
  HFILE_RETURN_IF_ERROR(table_lock.Acquire(plan.table_dir));
  if (!plan.recovery.empty()) {
    CommitOptions copts;
    copts.now_ms = options.now_ms;
    copts.checkpoint = options.checkpoint;
    HFILE_RETURN_IF_ERROR(
        RecoverTransaction(CommitScope{plan.table_dir, ""}, copts, &report->recovered));
    // What the recovery left decides: a rolled-forward split archived the parent already.
    if (!IsDirectory(plan.region_dir)) {
      report->seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      return Status::OK();
    }
    RegionSplitOptions again = options;
    again.split_row = plan.split_row;
    HFILE_ASSIGN_OR_RETURN(RegionSplitPlan p, PlanRegionSplit(plan.region_dir, again));
    if (!p.recovery.empty())
      return Status::IOError("the interrupted transaction could not be finished", plan.table_dir);
    HFILE_RETURN_IF_ERROR(region_lock.Acquire(p.region_dir));
    HFILE_RETURN_IF_ERROR(RunLocked(p, options, report));
  } else {
    HFILE_RETURN_IF_ERROR(region_lock.Acquire(plan.region_dir));
    HFILE_RETURN_IF_ERROR(RunLocked(plan, options, report));
  }
  report->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return Status::OK();
}

}  // namespace hfile::region
