// PlanCopyFamily / RunCopyFamily (region/copy_family.h): the family rename as a transform of the
// store rewrite, committed through the table's journal, verified, then the optional drop.
#include "region/copy_family.h"

#include <fmt/format.h>
#include <isa-l/crc64.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <filesystem>

#include "fs_util.h"
#include "hfile/file_info.h"
#include "hfile/reader.h"
#include "region/commit.h"
#include "region/compact.h"
#include "region/merging_iterator.h"
#include "region/schema_writer.h"
#include "region/shell_statement.h"
#include "region/store_file_reader.h"
#include "region/store_rewrite.h"

namespace hfile::region {

namespace {

namespace fs = std::filesystem;

constexpr char kDropPending[] = "drop ";

// A digest of a cell stream with the family left out: CRC-64 (ISA-L's, which runs at memory
// speed) over every field of every cell, the fixed-size ones and the lengths hashed as one small
// header, plus the count. It guards against accidental differences, not an adversary.
struct CellDigest {
  uint64_t crc = 0;
  uint64_t cells = 0;
  void Bytes(const void* p, size_t n) {
    if (n > 0) crc = crc64_ecma_refl(crc, static_cast<const uint8_t*>(p), n);
  }
  // `sequence`: the reader's rule for the file's cells (a bulk-loaded file's cells all read
  // with the file's sequence id), for cells read raw.
  void Add(const Cell& c, const StoreFileSequence& sequence) {
    uint64_t seq = c.sequence_id;
    if (sequence.reset_cell_sequence_ids && sequence.sequence_id >= 0)
      seq = static_cast<uint64_t>(sequence.sequence_id);
    Add(c, seq);
  }
  void Add(const Cell& c) { Add(c, c.sequence_id); }
  void Add(const Cell& c, uint64_t seq) {
    const Slice row = c.row(), q = c.qualifier();
    struct {
      uint32_t row, qualifier, value, tags;
      int64_t timestamp;
      uint64_t seq;
      uint8_t type;
    } head{static_cast<uint32_t>(row.size()), static_cast<uint32_t>(q.size()),
           static_cast<uint32_t>(c.value.size()), static_cast<uint32_t>(c.tags.size()),
           c.timestamp(), seq, c.type()};
    Bytes(&head, offsetof(decltype(head), type) + sizeof(head.type));
    Bytes(row.data(), row.size());
    Bytes(q.data(), q.size());
    Bytes(c.value.data(), c.value.size());
    Bytes(c.tags.data(), c.tags.size());
    ++cells;
  }
  bool operator==(const CellDigest& o) const { return crc == o.crc && cells == o.cells; }
  std::string ToString() const { return fmt::format("{} cells, {:016x}", cells, crc); }
};

// The merged stream of `files` as HBase reads it (StoreFileReader, scanner order).
Result<CellDigest> DigestStore(const std::vector<StoreFile>& files) {
  std::vector<std::unique_ptr<StoreFileReader>> readers;
  std::vector<std::unique_ptr<CellIterator>> its;
  for (const auto& f : files) {
    HFILE_ASSIGN_OR_RETURN(auto r, StoreFileReader::Open(f));
    its.push_back(r->NewIterator());
    readers.push_back(std::move(r));
  }
  const ComparatorKind kind =
      readers.empty() ? ComparatorKind::kDefault : readers[0]->hfile().comparator();
  auto it = NewMergingIterator(std::move(its), kind);
  CellDigest d;
  for (it->SeekToFirst(); it->Valid(); it->Next()) d.Add(it->cell());
  HFILE_RETURN_IF_ERROR(it->status());
  return d;
}

bool IsTopReference(const StoreFile& f) { return f.reference && f.reference->top(); }

// How the input was written, so that its copy is written alike: the new family's settings,
// the input's cell format and the file info HBase's store code reads.
// `top`: the input is a TOP Reference, whose file HBase gives MAX_SEQ_ID + 1; the real half
// written for it carries that number itself.
WriterOptions OutputSettingsFor(const FamilyDescriptor& family, const Reader& in, bool top) {
  const FileInfo& fi = in.file_info();
  const std::optional<bool> major = fi.GetBool(fileinfo::kMajorCompaction);
  const bool compacted = major.value_or(false) || fi.Get(fileinfo::kCompactionEvent).has_value();
  WriterOptions w = WriterOptionsForFamily(family, compacted, major.value_or(false));
  w.comparator = in.comparator();
  w.include_tags = fi.Get(fileinfo::kMaxTagsLen).has_value();
  w.include_mvcc = fi.GetInt32(fileinfo::kKeyValueVersion).value_or(0) ==
                   fileinfo::kKeyValueVersionWithMvcc;
  w.create_time_ms = fi.GetInt64(fileinfo::kCreateTimeTs).value_or(0);
  if (auto v = fi.GetInt64(fileinfo::kMaxSeqId)) w.max_seq_id = *v + (top ? 1 : 0);
  w.major_compaction = major;
  // The files it names are OLD's; none of them is in NEW, so it names none.
  if (fi.Get(fileinfo::kCompactionEvent)) w.compaction_event = std::vector<std::string>{};
  if (auto v = fi.GetInt64(fileinfo::kBulkloadTimestamp)) w.bulkload_timestamp = *v;
  if (auto v = fi.Get(fileinfo::kBulkloadSourceTask)) w.bulkload_source_task = v->ToString();
  if (auto v = fi.GetBool(fileinfo::kExcludeFromMinorCompaction))
    w.exclude_from_minor_compaction = *v;
  return w;
}

// A bulk-loaded input's "_SeqId_<n>_", which HBase reads as every cell's sequence id; a TOP
// Reference to such a file reads as n + 1 (HStoreFile), so its real half is named n + 1.
std::string NameSuffix(const StoreFile& f) {
  if (!f.name.bulk_load_seq_id) return "";
  return fmt::format("_SeqId_{}_", *f.name.bulk_load_seq_id + (IsTopReference(f) ? 1 : 0));
}

double SecondsSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void Check(const CopyFamilyOptions& o, const char* step) {
  if (o.checkpoint) o.checkpoint(step);
}

Result<std::vector<std::string>> PendingDrops(const std::string& table_dir) {
  std::vector<std::string> out;
  HFILE_ASSIGN_OR_RETURN(auto j, ReadJournal(CommitScope{table_dir, ""}));
  if (j)
    for (const auto& p : j->transaction.pending)
      if (p.starts_with(kDropPending)) out.push_back(p.substr(sizeof(kDropPending) - 1));
  return out;
}

// The store files of `family` in `region` as the table's layout lists them.
Result<std::vector<StoreFile>> StoreFiles(const Target& t, const TableDescriptor& desc,
                                          const std::string& region, const std::string& family) {
  HFILE_ASSIGN_OR_RETURN(RegionDir r, ScanRegionDir(t.root_dir, JoinPath(t.table_dir, region), &desc));
  const FamilyDir* f = r.FindFamily(family);
  return f ? f->store_files : std::vector<StoreFile>();
}

// NEW equals OLD in every region: the merged streams, family aside.
Status VerifyStores(const CopyFamilyPlan& plan, const TableDescriptor& desc,
                    const CopyFamilyOptions& o) {
  for (const auto& region : plan.regions) {
    if (std::find(plan.split_parents.begin(), plan.split_parents.end(), region) !=
        plan.split_parents.end())
      continue;
    HFILE_ASSIGN_OR_RETURN(auto old_files, StoreFiles(plan.target, desc, region, o.from));
    HFILE_ASSIGN_OR_RETURN(auto new_files, StoreFiles(plan.target, desc, region, o.to));
    // Not the files HBase drops on open (named in another file's COMPACTION_EVENT_KEY).
    std::vector<StoreFile> kept;
    for (const auto& f : old_files) {
      bool skipped = false;
      for (const auto& s : plan.skipped) skipped = skipped || s.starts_with(region + "/" + f.name.name + ":");
      if (!skipped) kept.push_back(f);
    }
    HFILE_ASSIGN_OR_RETURN(CellDigest a, DigestStore(kept));
    HFILE_ASSIGN_OR_RETURN(CellDigest b, DigestStore(new_files));
    if (!(a == b))
      return Status::Corruption(fmt::format("{}: family {} ({}) differs from {} ({})", region,
                                            o.to, b.ToString(), o.from, a.ToString()));
  }
  return Status::OK();
}

Status StageDescriptor(const CopyFamilyPlan& plan, const TableDescriptor& desc,
                       const std::string& staging, Transaction* t, std::string* path) {
  HFILE_ASSIGN_OR_RETURN(TableDescriptorFile file, NextTableDescriptorFile(plan.target.table_dir, desc));
  HFILE_RETURN_IF_ERROR(WriteFileDurably(JoinPath(JoinPath(plan.target.table_dir, staging), file.name),
                                         file.bytes));
  t->Put(staging + "/" + file.name, ".tabledesc/" + file.name);
  for (const auto& old : file.older) t->Delete(".tabledesc/" + old);
  *path = JoinPath(JoinPath(plan.target.table_dir, ".tabledesc"), file.name);
  return Status::OK();
}

Status CreateDir(const std::string& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return Status::IOError("cannot create " + dir, ec.message());
  return SyncDir(fs::path(dir).parent_path().string());
}

// The second transaction: OLD out of the descriptor, its dirs archived.
Status DropOld(const CopyFamilyPlan& plan, const TableDescriptor& with_both,
               const CopyFamilyOptions& o, CopyFamilyReport* report) {
  TableDescriptor without = TableDescriptor(with_both.name());
  for (const auto& [k, v] : with_both.values()) without.SetValue(k, v);
  for (const auto& f : with_both.families())
    if (f.name() != o.from) without.AddFamily(f);
  const CommitScope scope{plan.target.table_dir, ""};
  CommitOptions copts;
  copts.now_ms = o.now_ms;
  copts.checkpoint = o.checkpoint;
  Transaction t;
  t.tool = "copy-family";
  t.staging = "." + NewStagingName("copy-family");
  t.pending = {kDropPending + o.from};  // kept until the caller clears it
  HFILE_RETURN_IF_ERROR(BeginTransaction(scope, t, copts));
  Status s = CreateDir(JoinPath(plan.target.table_dir, t.staging));
  if (s.ok()) s = StageDescriptor(plan, without, t.staging, &t, &report->descriptor_path);
  if (!s.ok()) {
    (void)AbortTransaction(scope);
    return s;
  }
  t.DropFamily(o.from, o.delete_dropped);
  HFILE_RETURN_IF_ERROR(CommitTransaction(scope, t, copts));
  report->dropped = true;
  return Status::OK();
}

}  // namespace

Result<CopyFamilyPlan> PlanCopyFamily(const std::string& table_dir, const CopyFamilyOptions& o) {
  CopyFamilyPlan plan;
  HFILE_ASSIGN_OR_RETURN(plan.target, ResolveTarget(table_dir));
  if (plan.target.kind != Target::Kind::kTable)
    return Status::InvalidArgument("copy-family works on a whole table; give its table dir",
                                   table_dir);
  const std::string& tdir = plan.target.table_dir;
  HFILE_ASSIGN_OR_RETURN(auto loaded, ReadTableDescriptor(tdir));
  plan.before = std::move(loaded.descriptor);
  plan.recovery = DescribeRecovery(CommitScope{tdir, ""});
  const FamilyDescriptor* old = plan.before.FindFamily(o.from);
  if (o.from == o.to) return Status::InvalidArgument("the new name is the old one", o.to);
  if (!IsFamilyDirName(o.to) || o.to.find(':') != std::string::npos)
    return Status::InvalidArgument("not a valid family name", o.to);
  HFILE_ASSIGN_OR_RETURN(const std::vector<std::string> drops, PendingDrops(tdir));
  const bool drop_pending =
      std::find(drops.begin(), drops.end(), o.from) != drops.end() && plan.before.FindFamily(o.to);
  if (!old && !drop_pending)
    return Status::InvalidArgument(fmt::format("table {} has no family {}",
                                               plan.before.name().ToString(), o.from));
  if (plan.before.FindFamily(o.to) && !drop_pending)
    return Status::InvalidArgument(fmt::format(
        "table {} already has a family {} (copy-family only creates a new family)",
        plan.before.name().ToString(), o.to));
  plan.resume_drop = drop_pending;
  if (old && old->is_mob())
    return Status::NotSupported(fmt::format(
        "family {} is a MOB family (IS_MOB => true): its values live in MOB files that "
        "copy-family does not rewrite", o.from));

  // NEW: OLD's attributes under the new name, then the overrides, as the shell would apply them.
  plan.after = plan.before;
  if (!plan.resume_drop) {
    plan.after.AddFamily(old->Renamed(o.to));
    if (!o.set.empty()) {
      std::vector<std::string> sets;
      for (const auto& [k, v] : o.set) sets.push_back(k + "=" + v);
      HFILE_ASSIGN_OR_RETURN(FamilyChange change, FamilyChangeFromFlags(o.to, sets));
      AlterStatement st;
      st.table = plan.before.name();
      st.families.push_back(std::move(change));
      HFILE_ASSIGN_OR_RETURN(plan.after, ApplyAlter(plan.after, st));
    }
    HFILE_RETURN_IF_ERROR(plan.after.Validate());
  }

  // Compact's view of OLD's stores: the online/unclean checks, the files HBase would open.
  CompactOptions check;
  check.dry_run = true;
  check.families = {o.from};
  check.force = o.force;
  check.descriptor = &plan.before;
  if (plan.resume_drop) check.families.clear();
  HFILE_ASSIGN_OR_RETURN(CompactionPlan cp, PlanCompaction(tdir, check));
  for (const auto& r : cp.regions) {
    plan.regions.push_back(r.encoded_name);
    if (r.referenced_split_parent) {
      // What HBase leaves after a split until the daughters are compacted: not a reason to
      // refuse a copy, which reads the daughters' References as their halves. HBase never
      // opens the parent again (its split/offline flags are expected; the root's WALs are
      // checked in every other region).
      plan.split_parents.push_back(r.encoded_name);
      continue;
    }
    for (const auto& why : r.blockers) plan.refused.push_back(r.encoded_name + ": " + why);
    if (!o.force)
      for (const auto& why : r.refusals) plan.refused.push_back(r.encoded_name + ": " + why);
    if (plan.resume_drop) continue;
    for (const auto& sp : r.stores) {
      if (sp.family != o.from) continue;
      if (!sp.error.ok()) return sp.error.WithContext(r.encoded_name + "/" + sp.family);
      if (!sp.skip_reason.empty() && !sp.files.empty())
        return Status::NotSupported(r.encoded_name + "/" + sp.family, sp.skip_reason);
      for (const auto& name : sp.already_compacted)
        plan.skipped.push_back(r.encoded_name + "/" + name +
                               ": named in another file's COMPACTION_EVENT_KEY (HBase drops it)");
      for (const auto& c : sp.files) {
        FileCopy fc;
        fc.region = r.encoded_name;
        fc.input = c.entry;
        fc.bytes = c.size;
        plan.bytes += c.size;
        plan.files.push_back(std::move(fc));
      }
    }
  }
  return plan;
}

Status RunCopyFamily(const CopyFamilyPlan& in_plan, const CopyFamilyOptions& o,
                     CopyFamilyReport* report) {
  const auto t0 = std::chrono::steady_clock::now();
  if (!in_plan.refused.empty())
    return Status::NotSupported(fmt::format(
        "the table looks online or unclean ({} region(s) refused, see above); nothing was "
        "changed (--force overrides the online/unclean checks)", in_plan.refused.size()));
  CopyFamilyPlan plan = in_plan;
  const std::string& tdir = plan.target.table_dir;
  const CommitScope scope{tdir, ""};
  CommitOptions copts;
  copts.now_ms = o.now_ms;
  copts.checkpoint = o.checkpoint;
  DirLock lock;
  if (!o.dry_run) {
    HFILE_RETURN_IF_ERROR(lock.Acquire(tdir));
    if (!plan.recovery.empty()) {
      HFILE_RETURN_IF_ERROR(RecoverTransaction(scope, copts, &report->recovered));
      HFILE_ASSIGN_OR_RETURN(plan, PlanCopyFamily(tdir, o));
    }
  }
  if (plan.resume_drop && !plan.before.FindFamily(o.from)) {
    // The drop was committed; only its pending line was left.
    report->dropped = true;
    HFILE_RETURN_IF_ERROR(SetPending(scope, "copy-family", {}));
    report->seconds = SecondsSince(t0);
    return Status::OK();
  }
  if (plan.resume_drop) {
    HFILE_RETURN_IF_ERROR(VerifyStores(plan, plan.before, o));
    report->verified = true;
    Check(o, "copy-verified");
    HFILE_RETURN_IF_ERROR(DropOld(plan, plan.before, o, report));
    HFILE_RETURN_IF_ERROR(SetPending(scope, "copy-family", {}));
    report->seconds = SecondsSince(t0);
    return Status::OK();
  }
  const FamilyDescriptor& fam = *plan.after.FindFamily(o.to);
  uint64_t total_cells = 0, done_cells = 0;
  std::vector<std::unique_ptr<StoreFileReader>> heads;  // file info of each input
  for (const auto& f : plan.files) {
    HFILE_ASSIGN_OR_RETURN(auto r, StoreFileReader::Open(f.input));
    total_cells += r->hfile().trailer().entry_count;
    heads.push_back(std::move(r));
  }

  Transaction t;
  t.tool = "copy-family";
  t.staging = "." + NewStagingName("copy-family");
  if (o.drop_old) t.pending.push_back(kDropPending + o.from);
  const std::string staging = JoinPath(tdir, t.staging);
  if (!o.dry_run) {
    HFILE_RETURN_IF_ERROR(BeginTransaction(scope, t, copts));
  }
  auto fail = [&](Status s) {
    if (!o.dry_run) (void)AbortTransaction(scope);
    return s;
  };
  if (!o.dry_run) {
    if (Status s = CreateDir(staging); !s.ok()) return fail(s);
  }
  for (size_t i = 0; i < plan.files.size(); ++i) {
    FileCopy& f = plan.files[i];
    StoreRewriteOptions ro;
    ro.family = o.from;
    ro.verify_inputs = o.verify_inputs;
    // What the copy read (as HBase reads OLD's file), and what its output holds as the
    // StoreWriter's verification reads it back: equal, family aside, before anything commits.
    CellDigest read, written;
    const std::string to = o.to;
    ro.transform = [&read, to](std::unique_ptr<CellIterator> it) {
      return NewFamilyRenameIterator(std::move(it), to, [&read](const Cell& c) { read.Add(c); });
    };
    const StoreFileSequence sequence = heads[i]->sequence();
    ro.writer.on_verified_cell = [&written, sequence](size_t, const Cell& c) {
      written.Add(c, sequence);
    };
    ro.writer.writer = OutputSettingsFor(fam, heads[i]->hfile(), IsTopReference(f.input));
    ro.writer.write_empty = true;  // one file per file: even an empty half stays a file
    ro.writer.name_suffix = NameSuffix(f.input);
    ro.writer.cancel = o.cancel;
    if (o.progress) {
      const std::string label = f.region + "/" + f.input.name.name;
      const uint64_t base = done_cells;
      ro.progress = [&o, label, base, total_cells](uint64_t n, uint64_t) {
        o.progress(label, base + n, total_cells);
      };
    }
    ro.estimate_only = o.dry_run;
    if (!o.dry_run) {
      ro.writer.dir = JoinPath(staging, f.region);
      if (Status s = CreateDir(ro.writer.dir); !s.ok()) return fail(s);
    }
    StoreRewriteResult rr;
    if (Status s = RewriteStore({f.input}, ro, &rr); !s.ok())
      return fail(s.WithContext("copying " + f.input.path));
    done_cells += rr.cells_read;
    report->estimated_seconds += rr.estimated_seconds;
    f.cells = rr.cells_written;
    f.bytes_out = rr.bytes_out;
    report->files_in += 1;
    report->cells += rr.cells_written;
    report->bytes_in += f.bytes;
    report->bytes_out += rr.bytes_out;
    if (!o.dry_run) {
      if (rr.outputs.size() != 1) return fail(Status::Corruption("no output for", f.input.path));
      if (!(written == read))
        return fail(Status::Corruption(fmt::format(
            "{} reads back as {}, its source {} as {}", rr.outputs[0].path, written.ToString(),
            f.input.path, read.ToString())));
      f.output = rr.outputs[0].name;
      t.Put(t.staging + "/" + f.region + "/" + f.output, f.region + "/" + o.to + "/" + f.output);
      report->files_out += 1;
    }
    if (o.cancel && o.cancel->load(std::memory_order_relaxed))
      return fail(Status::IOError("interrupted", "nothing was committed"));
  }
  report->family_bytes_saved = (static_cast<int64_t>(o.from.size()) -
                                static_cast<int64_t>(o.to.size())) *
                               static_cast<int64_t>(report->cells);
  if (o.dry_run) {
    report->seconds = SecondsSince(t0);
    return Status::OK();
  }
  // NEW's dir in every region, then its files (HBase opens no dir its descriptor does not
  // name), then the descriptor: a crash part way leaves what the descriptor names whole.
  Transaction commit = t;
  commit.steps.clear();
  for (const auto& r : plan.regions) commit.MakeDir(r + "/" + o.to);
  commit.steps.insert(commit.steps.end(), t.steps.begin(), t.steps.end());
  if (Status s = StageDescriptor(plan, plan.after, t.staging, &commit, &report->descriptor_path);
      !s.ok())
    return fail(s);
  if (Status s = SyncDir(staging); !s.ok()) return fail(s);
  HFILE_RETURN_IF_ERROR(CommitTransaction(scope, commit, copts));

  // Every output's cells were compared with its source's as the verification read them back.
  // What is left to check is that each committed file is the one verified and that HBase's
  // store will read it with the source's sequence ids (its name and file info): no re-read.
  for (size_t i = 0; i < plan.files.size(); ++i) {
    const FileCopy& f = plan.files[i];
    HFILE_ASSIGN_OR_RETURN(auto files, StoreFiles(plan.target, plan.after, f.region, o.to));
    auto it = std::find_if(files.begin(), files.end(),
                           [&](const StoreFile& s) { return s.name.name == f.output; });
    if (it == files.end() || it->size != f.bytes_out)
      return Status::Corruption("the committed copy is missing or not the one verified",
                                f.region + "/" + o.to + "/" + f.output);
    HFILE_ASSIGN_OR_RETURN(StoreFileSequence seq, ReadStoreFileSequence(*it));
    const StoreFileSequence& want = heads[i]->sequence();
    if (seq.sequence_id != want.sequence_id || seq.bulk_loaded != want.bulk_loaded ||
        seq.reset_cell_sequence_ids != want.reset_cell_sequence_ids)
      return Status::Corruption(fmt::format(
          "{} reads with sequence id {}, its source {} with {}", it->path, seq.sequence_id,
          f.input.path, want.sequence_id));
  }
  report->verified = true;
  Check(o, "copy-verified");
  if (o.drop_old) {
    HFILE_RETURN_IF_ERROR(DropOld(plan, plan.after, o, report));
    HFILE_RETURN_IF_ERROR(SetPending(scope, "copy-family", {}));
  }
  if (o.compact) {
    CompactOptions co;
    co.request = CompactRequest::kMajor;
    co.families = {o.to};
    co.now_ms = o.now_ms;
    co.force = o.force;
    co.verify_inputs = false;  // just written and verified
    co.cancel = o.cancel;
    co.checkpoint = o.checkpoint;
    HFILE_ASSIGN_OR_RETURN(CompactionPlan cp, PlanCompaction(tdir, co));
    CompactReport cr;
    HFILE_RETURN_IF_ERROR(Compact(cp, co, &cr));
  }
  Check(o, "copy-done");
  report->seconds = SecondsSince(t0);
  return Status::OK();
}

}  // namespace hfile::region
