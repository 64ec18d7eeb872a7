// PlanAlter / RunAlter (region/alter.h): descriptor diff, the alter journal, the schema writes and
// a major compaction of the families whose files the change affects.
//
// Journal: <table>/.hfile-alter (HBase lists only [0-9a-f]+ region dirs and .tabledesc/ in a
// table dir, so it ignores the file), written as .new + fsync + rename, text lines:
//   hfile-alter journal 1
//   rewrite <family>   (major-compact every store of it under the current descriptor)
//   add <family>       (create its dir in every region)
//   drop <family>      (archive its dirs, once the descriptor no longer has it)
//   end
#include "region/alter.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <filesystem>

#include "fs_util.h"
#include "region/layout.h"
#include "region/schema_writer.h"

namespace hfile::region {

namespace {

namespace fs = std::filesystem;

constexpr char kJournalName[] = ".hfile-alter";

struct AlterJournal {
  std::vector<std::string> rewrite, add, drop;
  bool empty() const { return rewrite.empty() && add.empty() && drop.empty(); }
};

std::string JournalPath(const std::string& table_dir) { return JoinPath(table_dir, kJournalName); }

Status WriteAlterJournal(const std::string& table_dir, const AlterJournal& j) {
  std::string text = "hfile-alter journal 1\n";
  for (const auto& f : j.rewrite) text += "rewrite " + f + "\n";
  for (const auto& f : j.add) text += "add " + f + "\n";
  for (const auto& f : j.drop) text += "drop " + f + "\n";
  text += "end\n";
  const std::string path = JournalPath(table_dir);
  Status s = WriteFileDurably(path + ".new", text);
  if (s.ok()) s = RenameFile(path + ".new", path);
  if (!s.ok()) {
    std::error_code ec;
    fs::remove(path + ".new", ec);
    return s;
  }
  return SyncDir(table_dir);
}

// nullopt: no journal. A journal without its "end" line was never renamed into place, so
// a present one is whole; anything else is Corruption.
Result<std::optional<AlterJournal>> ReadAlterJournal(const std::string& table_dir) {
  auto data = ReadWholeFile(JournalPath(table_dir));
  if (!data.ok()) {
    if (data.status().IsNotFound()) return std::optional<AlterJournal>();
    return data.status();
  }
  AlterJournal j;
  bool header = false, end = false;
  size_t pos = 0;
  while (pos < data->size()) {
    size_t nl = data->find('\n', pos);
    if (nl == std::string::npos) nl = data->size();
    std::string line = data->substr(pos, nl - pos);
    pos = nl + 1;
    if (!header) {
      header = line == "hfile-alter journal 1";
      if (!header) break;
      continue;
    }
    if (line == "end") {
      end = true;
      break;
    }
    auto sp = line.find(' ');
    std::string verb = line.substr(0, sp), arg = sp == std::string::npos ? "" : line.substr(sp + 1);
    if (verb == "rewrite") j.rewrite.push_back(arg);
    else if (verb == "add") j.add.push_back(arg);
    else if (verb == "drop") j.drop.push_back(arg);
    else return Status::Corruption("unknown line in the alter journal " + JournalPath(table_dir), line);
  }
  if (!header || !end) return Status::Corruption("unreadable alter journal", JournalPath(table_dir));
  return std::optional<AlterJournal>(std::move(j));
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

void AddUnique(std::vector<std::string>* v, const std::string& s) {
  if (!Contains(*v, s)) v->push_back(s);
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

  HFILE_ASSIGN_OR_RETURN(auto journal, ReadAlterJournal(plan.table_dir));
  const AlterJournal pending = journal ? *journal : AlterJournal();
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
    f.resumed = Contains(pending.rewrite, f.family) || Contains(pending.add, f.family);
    // With keep_cells no compaction rule applies, so only a format change rewrites files.
    bool affects_files = false;
    for (const auto& c : f.changes) {
      const AlterEffect e = EffectOfFamilyAttribute(c.key);
      affects_files = affects_files || e == AlterEffect::kFormat ||
                      (e == AlterEffect::kCells && !options.compaction.keep_cells);
    }
    f.rewrite = f.kind == FamilyAlter::Kind::kModify &&
                (affects_files || Contains(pending.rewrite, f.family));
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
  for (const auto& name : pending.drop) {  // an interrupted drop whose descriptor is written
    bool listed = false;
    for (const auto& f : plan.families) listed = listed || f.family == name;
    if (listed || after.FindFamily(name)) continue;
    FamilyAlter f;
    f.family = name;
    f.kind = FamilyAlter::Kind::kDrop;
    f.resumed = true;
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

  AlterJournal j;
  for (const auto& f : plan.families) {
    if (f.kind == FamilyAlter::Kind::kAdd) AddUnique(&j.add, f.family);
    if (f.kind == FamilyAlter::Kind::kDrop) AddUnique(&j.drop, f.family);
  }
  for (const auto& f : rewrite) AddUnique(&j.rewrite, f);
  if (!j.empty()) HFILE_RETURN_IF_ERROR(WriteAlterJournal(plan.table_dir, j));
  if (co.checkpoint) co.checkpoint("alter-journal-written");

  SchemaWriteOptions so;
  so.now_ms = co.now_ms;
  if (plan.changes_descriptor) {
    HFILE_ASSIGN_OR_RETURN(report->descriptor_path,
                           WriteTableDescriptor(plan.table_dir, plan.after, so));
    if (co.checkpoint) co.checkpoint("descriptor-written");
  }
  for (const auto& f : j.add) {
    HFILE_RETURN_IF_ERROR(CreateFamilyDirs(plan.table_dir, f, so));
    report->created_dirs.push_back(f);
  }
  for (const auto& f : j.drop) {
    if (plan.after.FindFamily(f)) continue;  // never archive a family the descriptor keeps
    if (plan.root_dir.empty() && !options.delete_dropped)
      return Status::InvalidArgument(
          "the table directory is not <root>/data/<ns>/<table>, so the archive cannot be "
          "located; use --delete-dropped to delete the dropped family's files",
          plan.table_dir);
    HFILE_RETURN_IF_ERROR(
        ArchiveFamilyDirs(plan.root_dir, plan.table_dir, f, options.delete_dropped, so));
    report->archived_dirs.push_back(f);
    if (co.checkpoint) co.checkpoint("family-dropped");
  }
  if (!rewrite.empty()) {
    CompactOptions o = co;
    o.request = CompactRequest::kMajor;
    o.families = rewrite;
    o.descriptor = nullptr;  // the descriptor just written
    HFILE_ASSIGN_OR_RETURN(CompactionPlan cp, PlanCompaction(plan.table_dir, o));
    HFILE_RETURN_IF_ERROR(Compact(cp, o, &report->compaction));
  }
  if (!j.empty()) {
    std::error_code ec;
    fs::remove(JournalPath(plan.table_dir), ec);
    if (ec) return Status::IOError("cannot remove the alter journal " + JournalPath(plan.table_dir), ec.message());
    HFILE_RETURN_IF_ERROR(SyncDir(plan.table_dir));
  }
  if (co.checkpoint) co.checkpoint("alter-done");
  report->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return Status::OK();
}

}  // namespace hfile::region
