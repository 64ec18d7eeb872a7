// PlanAlter / RunAlter (region/alter.h): descriptor diff, the alter journal, the schema writes and
// a major compaction of the families whose files the change affects.
//
// One transaction through the table's commit journal (region/commit.h) puts the new
// .tableinfo in place, removes the older ones, creates added families' dirs and archives dropped
// ones; its pending lines ("rewrite <family>") name the families still to major-compact under
// the new descriptor, and stay in the journal until every store of them is rewritten.
#include "region/alter.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <filesystem>

#include "fs_util.h"
#include "region/commit.h"
#include "region/layout.h"
#include "region/schema_writer.h"

namespace hfile::region {

namespace {

namespace fs = std::filesystem;

constexpr char kRewrite[] = "rewrite ";

// The families an interrupted alter still has to rewrite (its journal's pending lines).
Result<std::vector<std::string>> PendingRewrites(const std::string& table_dir) {
  std::vector<std::string> out;
  HFILE_ASSIGN_OR_RETURN(auto j, ReadJournal(CommitScope{table_dir, ""}));
  if (!j) return out;
  for (const auto& p : j->transaction.pending)
    if (p.starts_with(kRewrite)) out.push_back(p.substr(sizeof(kRewrite) - 1));
  return out;
}

void Diff(const std::vector<std::pair<std::string, std::string>>& a,
          const std::vector<std::pair<std::string, std::string>>& b, const std::string& prefix,
          std::vector<AttributeChange>* out) {
  auto find = [](const auto& v, const std::string& k) -> std::optional<std::string> {
    for (const auto& [key, value] : v)
      if (key == k) return value;
    return std::nullopt;
  };
  for (const auto& [k, v] : b) {
    auto old = find(a, k);
    if (old != v) out->push_back({prefix + k, old, v});
  }
  for (const auto& [k, v] : a)
    if (!find(b, k)) out->push_back({prefix + k, v, std::nullopt});
}

bool Contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}


// Store files and bytes of `family` in every region of the table.
void CountStoreFiles(const std::string& table_dir, const TableDescriptor& desc, FamilyAlter* f) {
  auto regions = ListDir(table_dir);
  if (!regions.ok()) return;
  for (const auto& r : *regions) {
    if (!r.is_dir || !IsRegionDirName(r.name)) continue;
    auto dir = ScanRegionDir("", JoinPath(table_dir, r.name), &desc);
    if (!dir.ok()) continue;
    if (const FamilyDir* fd = dir->FindFamily(f->family)) {
      uint64_t store = 0;
      for (const auto& sf : fd->store_files) {
        ++f->store_files;
        std::error_code ec;
        const uint64_t n = fs::file_size(sf.path, ec);
        if (!ec) store += n;
      }
      f->bytes += store;
      f->stores.emplace_back(r.name + "/" + f->family, store);
    }
  }
}

std::string RootOf(const std::string& table_dir) {
  fs::path p(table_dir);
  fs::path data = p.parent_path().parent_path();
  return data.filename() == "data" ? data.parent_path().string() : "";
}

}  // namespace

AlterEffect EffectOfFamilyAttribute(const std::string& key) {
  static const char* kFormat[] = {
      family_key::kCompression,        family_key::kCompressionCompact,
      family_key::kCompressionCompactMajor, family_key::kCompressionCompactMinor,
      family_key::kDataBlockEncoding,  family_key::kBlockSize,
      family_key::kBloomFilter,        family_key::kCompressTags,
      family_key::kIndexBlockEncoding, "CONFIGURATION:RowPrefixBloomFilter.prefix_length"};
  static const char* kCells[] = {family_key::kVersions, family_key::kMinVersions, family_key::kTtl,
                                 family_key::kKeepDeletedCells};
  for (const char* k : kFormat)
    if (key == k) return AlterEffect::kFormat;
  for (const char* k : kCells)
    if (key == k) return AlterEffect::kCells;
  return AlterEffect::kNone;
}

std::vector<std::string> AlterPlan::Rewritten() const {
  std::vector<std::string> out;
  for (const auto& f : families)
    if (f.rewrite) out.push_back(f.family);
  return out;
}

Result<AlterPlan> PlanAlter(const std::string& table_dir, const TableDescriptor& after,
                            const AlterOptions& options) {
  AlterPlan plan;
  std::error_code ec;
  plan.table_dir = fs::weakly_canonical(fs::path(table_dir), ec).string();
  if (ec || !IsDirectory(plan.table_dir))
    return Status::NotFound(table_dir, "no such table directory");
  plan.root_dir = RootOf(plan.table_dir);
  HFILE_ASSIGN_OR_RETURN(auto loaded, ReadTableDescriptor(plan.table_dir));
  plan.before = std::move(loaded.descriptor);
  plan.after = after;
  if (!(after.name() == plan.before.name()))
    return Status::InvalidArgument(fmt::format("the statement names table {}, the directory holds {}",
                                               after.name().ToString(),
                                               plan.before.name().ToString()));
  HFILE_RETURN_IF_ERROR(after.Validate());
  std::string a, b;
  plan.before.EncodeTo(&a);
  after.EncodeTo(&b);
  plan.changes_descriptor = a != b;
  Diff(plan.before.values(), after.values(), "", &plan.table_changes);

  plan.recovery = DescribeRecovery(CommitScope{plan.table_dir, ""});
  HFILE_ASSIGN_OR_RETURN(const std::vector<std::string> pending, PendingRewrites(plan.table_dir));
  for (const auto& fam : after.families()) {
    FamilyAlter f;
    f.family = fam.name();
    const FamilyDescriptor* old = plan.before.FindFamily(fam.name());
    if (!old) {
      f.kind = FamilyAlter::Kind::kAdd;
    } else {
      Diff(old->values(), fam.values(), "", &f.changes);
      Diff(old->configuration(), fam.configuration(), "CONFIGURATION:", &f.changes);
    }
    for (const auto& c : f.changes)
      f.effect = std::max(f.effect, EffectOfFamilyAttribute(c.key));
    f.resumed = Contains(pending, f.family);
    // With keep_cells no compaction rule applies, so only a format change rewrites files.
    bool affects_files = false;
    for (const auto& c : f.changes) {
      const AlterEffect e = EffectOfFamilyAttribute(c.key);
      affects_files = affects_files || e == AlterEffect::kFormat ||
                      (e == AlterEffect::kCells && !options.compaction.keep_cells);
    }
    f.rewrite = f.kind == FamilyAlter::Kind::kModify &&
                (affects_files || Contains(pending, f.family));
    if (f.kind == FamilyAlter::Kind::kModify && f.changes.empty() && !f.resumed) continue;
    CountStoreFiles(plan.table_dir, plan.before, &f);
    plan.families.push_back(std::move(f));
  }
  for (const auto& fam : plan.before.families()) {
    if (after.FindFamily(fam.name())) continue;
    FamilyAlter f;
    f.family = fam.name();
    f.kind = FamilyAlter::Kind::kDrop;
    CountStoreFiles(plan.table_dir, plan.before, &f);
    plan.families.push_back(std::move(f));
  }
  // Compact's checks on every region: an alter of an online or unclean table is refused whole.
  CompactOptions check = options.compaction;
  check.dry_run = true;
  check.families.clear();
  check.descriptor = &plan.before;
  HFILE_ASSIGN_OR_RETURN(CompactionPlan cp, PlanCompaction(plan.table_dir, check));
  const std::vector<std::string> rewritten = plan.Rewritten();
  for (const auto& r : cp.regions) {
    // A split parent its daughters still read: HBase alters the table around it and its
    // compaction skips it, as does ours (the daughters' References are rewritten).
    if (r.referenced_split_parent) continue;
    for (const auto& why : r.blockers) plan.refused.push_back(r.encoded_name + ": " + why);
    if (!options.compaction.force)
      for (const auto& why : r.refusals) plan.refused.push_back(r.encoded_name + ": " + why);
    // A store file of a family to rewrite that cannot even be opened: refuse before anything
    // is written (the compaction would refuse that store anyway, after the new descriptor).
    for (const auto& sp : r.stores)
      if (!sp.error.ok() && Contains(rewritten, sp.family))
        return sp.error.WithContext(r.encoded_name + "/" + sp.family);
  }
  return plan;
}

namespace {
Status RunLocked(const AlterPlan& plan, const AlterOptions& options, AlterReport* report);
}  // namespace

Status RunAlter(const AlterPlan& plan, const AlterOptions& options, AlterReport* report) {
  const auto t0 = std::chrono::steady_clock::now();
  const CompactOptions& co = options.compaction;
  if (!plan.refused.empty())
    return Status::NotSupported(fmt::format(
        "the table looks online or unclean ({} region(s) refused, see above); nothing was "
        "changed (--force overrides the online/unclean checks)",
        plan.refused.size()));
  const std::vector<std::string> rewrite = options.compact ? plan.Rewritten() : std::vector<std::string>();
  if (co.dry_run) {
    if (!rewrite.empty()) {
      CompactOptions o = co;
      o.request = CompactRequest::kMajor;
      o.families = rewrite;
      o.descriptor = &plan.after;
      HFILE_ASSIGN_OR_RETURN(CompactionPlan cp, PlanCompaction(plan.table_dir, o));
      HFILE_RETURN_IF_ERROR(Compact(cp, o, &report->compaction));
    }
    report->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return Status::OK();
  }

  DirLock lock;
  HFILE_RETURN_IF_ERROR(lock.Acquire(plan.table_dir));
  HFILE_RETURN_IF_ERROR(RunLocked(plan, options, report));
  report->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return Status::OK();
}

namespace {

// RunAlter's writing part, under the table's lock.
Status RunLocked(const AlterPlan& plan, const AlterOptions& options, AlterReport* report) {
  const CompactOptions& co = options.compaction;
  const std::vector<std::string> rewrite = options.compact ? plan.Rewritten() : std::vector<std::string>();
  const CommitScope scope{plan.table_dir, ""};
  CommitOptions copts;
  copts.now_ms = co.now_ms;
  copts.checkpoint = co.checkpoint;
  if (!plan.recovery.empty()) {
    // Finish the interrupted transaction, then plan this alter against what it left.
    HFILE_RETURN_IF_ERROR(RecoverTransaction(scope, copts, &report->compaction.recovered));
    HFILE_ASSIGN_OR_RETURN(AlterPlan again, PlanAlter(plan.table_dir, plan.after, options));
    if (!again.recovery.empty())
      return Status::IOError("the interrupted transaction could not be finished", plan.table_dir);
    return RunLocked(again, options, report);
  }

  Transaction t;
  t.tool = "alter";
  t.staging = "." + NewStagingName("alter");
  for (const auto& f : rewrite) t.pending.push_back(kRewrite + f);
  SchemaWriteOptions so;
  so.now_ms = co.now_ms;
  std::optional<TableDescriptorFile> desc_file;
  if (plan.changes_descriptor) {
    HFILE_ASSIGN_OR_RETURN(desc_file, NextTableDescriptorFile(plan.table_dir, plan.after, so));
  }
  std::vector<std::string> regions;
  if (auto entries = ListDir(plan.table_dir); entries.ok())
    for (const auto& e : *entries)
      if (e.is_dir && IsRegionDirName(e.name)) regions.push_back(e.name);
  for (const auto& f : plan.families) {
    if (f.kind == FamilyAlter::Kind::kAdd) {
      for (const auto& r : regions) t.MakeDir(r + "/" + f.family);
      report->created_dirs.push_back(f.family);
    }
    if (f.kind == FamilyAlter::Kind::kDrop && !plan.after.FindFamily(f.family)) {
      if (plan.root_dir.empty() && !options.delete_dropped)
        return Status::InvalidArgument(
            "the table directory is not <root>/data/<ns>/<table>, so the archive cannot be "
            "located; use --delete-dropped to delete the dropped family's files",
            plan.table_dir);
      t.DropFamily(f.family, options.delete_dropped);
      report->archived_dirs.push_back(f.family);
    }
  }
  const bool nothing = !desc_file && t.steps.empty() && t.pending.empty();
  if (!nothing) {
    HFILE_RETURN_IF_ERROR(BeginTransaction(scope, t, copts));
    if (desc_file) {
      const std::string staging = JoinPath(plan.table_dir, t.staging);
      Status s;
      std::error_code ec;
      fs::create_directory(staging, ec);
      if (ec) s = Status::IOError("cannot create " + staging, ec.message());
      if (s.ok()) s = SyncDir(plan.table_dir);
      if (s.ok()) s = WriteFileDurably(JoinPath(staging, desc_file->name), desc_file->bytes);
      if (s.ok()) s = SyncDir(staging);
      if (!s.ok()) {
        (void)AbortTransaction(scope);
        return s;
      }
      // The new descriptor first: every later step is then what HBase's own alter leaves.
      std::vector<CommitStep> steps;
      steps.push_back({CommitStep::Kind::kPut, t.staging + "/" + desc_file->name,
                       ".tabledesc/" + desc_file->name});
      for (const auto& old : desc_file->older)
        steps.push_back({CommitStep::Kind::kDelete, ".tabledesc/" + old, {}});
      steps.insert(steps.end(), t.steps.begin(), t.steps.end());
      t.steps = std::move(steps);
      report->descriptor_path = JoinPath(JoinPath(plan.table_dir, ".tabledesc"), desc_file->name);
    }
    HFILE_RETURN_IF_ERROR(CommitTransaction(scope, t, copts));
  }
  if (!rewrite.empty()) {
    CompactOptions o = co;
    o.request = CompactRequest::kMajor;
    o.families = rewrite;
    o.descriptor = nullptr;  // the descriptor just committed
    HFILE_ASSIGN_OR_RETURN(CompactionPlan cp, PlanCompaction(plan.table_dir, o));
    HFILE_RETURN_IF_ERROR(Compact(cp, o, &report->compaction));
  }
  HFILE_RETURN_IF_ERROR(SetPending(scope, "alter", {}));  // every store is rewritten
  if (co.checkpoint) co.checkpoint("alter-done");
  return Status::OK();
}

}  // namespace

}  // namespace hfile::region
