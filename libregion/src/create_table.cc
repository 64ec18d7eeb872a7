#include "region/create_table.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "fs_util.h"
#include "pb_util.h"
#include "region/commit.h"
#include "region/layout.h"
#include "region/schema_writer.h"

namespace hfile::region {

namespace fs = std::filesystem;

namespace {

constexpr char kVersionFile[] = "hbase.version";
// HConstants.FILE_SYSTEM_VERSION: the root-dir layout version HBase 0.96 through 2.x checks.
constexpr char kFileSystemVersion[] = "8";

void Check(const CreateTableOptions& o, const std::string& step) {
  if (o.checkpoint) o.checkpoint(step);
}

enum class RootState : uint8_t { kMissing, kEmpty, kHBase };

// What the root dir is: an HBase root (data/ or hbase.version), empty, or missing; anything
// else is refused, so that a mistyped path never gets an HBase layout written into it.
Result<RootState> InspectRoot(const std::string& root) {
  std::error_code ec;
  const auto st = fs::status(root, ec);
  if (ec || !fs::exists(st)) return RootState::kMissing;
  if (!fs::is_directory(st))
    return Status::InvalidArgument(root, "is not a directory (give an HBase root dir)");
  const bool has_data = IsDirectory(JoinPath(root, "data"));
  const std::string version_path = JoinPath(root, kVersionFile);
  if (PathExists(version_path)) {
    HFILE_ASSIGN_OR_RETURN(std::string v, ReadWholeFile(version_path));
    if (v != HBaseVersionFileBytes())
      return Status::NotSupported(version_path,
                                  "is not HBase 2.x's layout version 8 (FSUtils.setVersion)");
    return RootState::kHBase;
  }
  if (has_data) return RootState::kHBase;
  HFILE_ASSIGN_OR_RETURN(auto entries, ListDir(root));
  // What a run killed while initialising the root leaves: .tmp/ holding at most a half-written
  // hbase.version. The root is still new.
  if (entries.size() == 1 && entries[0].is_dir && entries[0].name == ".tmp") {
    HFILE_ASSIGN_OR_RETURN(auto tmp, ListDir(JoinPath(root, ".tmp")));
    if (tmp.empty() || (tmp.size() == 1 && tmp[0].name == kVersionFile)) return RootState::kEmpty;
  }
  if (!entries.empty())
    return Status::InvalidArgument(
        root, "is neither an HBase root dir (no data/, no hbase.version) nor empty");
  return RootState::kEmpty;
}

// MasterFileSystem.checkRootDir on a fresh root: the version file, written as FSUtils.setVersion
// does (in .tmp/, then renamed). hbase.id and hbase:meta are the master's to create.
Status InitialiseRoot(const std::string& root) {
  HFILE_RETURN_IF_ERROR(CreateDirDurably(root));
  const std::string tmp = JoinPath(root, ".tmp");
  HFILE_RETURN_IF_ERROR(CreateDirDurably(tmp));
  const std::string staged = JoinPath(tmp, kVersionFile);
  HFILE_RETURN_IF_ERROR(WriteFileDurably(staged, HBaseVersionFileBytes()));
  HFILE_RETURN_IF_ERROR(RenameFile(staged, JoinPath(root, kVersionFile)));
  HFILE_RETURN_IF_ERROR(SyncDir(root));
  std::error_code ec;
  fs::remove(tmp, ec);  // empty now; HBase recreates .tmp/ when it needs it
  return SyncDir(root);
}

std::vector<RegionInfo> RegionsFor(const TableName& table, const std::vector<std::string>& keys,
                                   int64_t region_id) {
  // ModifyRegionUtils.createRegionInfos: one id for all, [prev split, next split).
  std::vector<RegionInfo> out;
  for (size_t i = 0; i <= keys.size(); ++i) {
    RegionInfo r;
    r.table = table;
    r.start_key = i == 0 ? "" : keys[i - 1];
    r.end_key = i == keys.size() ? "" : keys[i];
    r.region_id = static_cast<uint64_t>(region_id);
    out.push_back(std::move(r));
  }
  return out;
}

// The table as a finished earlier run left it (descriptor and regions, key order).
Status ReadBack(const std::string& table_dir, CreateTableResult* r) {
  HFILE_ASSIGN_OR_RETURN(LoadedTableDescriptor d, ReadTableDescriptor(table_dir));
  r->descriptor = d.descriptor;
  r->descriptor_file = fs::path(d.path).filename().string();
  HFILE_ASSIGN_OR_RETURN(auto entries, ListDir(table_dir));
  r->regions.clear();
  for (const auto& e : entries) {
    if (!e.is_dir || !IsRegionDirName(e.name)) continue;
    HFILE_ASSIGN_OR_RETURN(
        RegionInfo info, ReadRegionInfoFile(JoinPath(JoinPath(table_dir, e.name), ".regioninfo")));
    r->regions.push_back(std::move(info));
  }
  std::sort(r->regions.begin(), r->regions.end(),
            [](const RegionInfo& a, const RegionInfo& b) { return a.start_key < b.start_key; });
  r->split_keys.clear();
  for (size_t i = 1; i < r->regions.size(); ++i) r->split_keys.push_back(r->regions[i].start_key);
  return Status::OK();
}

}  // namespace

std::string HBaseVersionFileBytes() {
  // "PBUF" + HBaseVersionFileContent { 1: string version }.
  std::string out = kPbMagic;
  out.push_back(0x0a);
  out.push_back(static_cast<char>(sizeof(kFileSystemVersion) - 1));
  out += kFileSystemVersion;
  return out;
}

Result<CreateTableResult> CreateTable(const CreateTableOptions& o) {
  if (o.root.empty()) return Status::InvalidArgument("no root dir given");
  std::string text = o.statement;
  if (text.empty()) {
    if (o.statement_file.empty()) return Status::InvalidArgument("no create statement given");
    auto file = ReadWholeFile(o.statement_file, 16 << 20);
    if (!file.ok()) return file.status().WithContext("statement file");
    text = *file;
  }
  HFILE_ASSIGN_OR_RETURN(CreateStatement st, ParseCreateStatement(text));
  CreateTableResult r;
  HFILE_ASSIGN_OR_RETURN(r.descriptor, DescriptorForCreate(st));
  HFILE_ASSIGN_OR_RETURN(r.split_keys, SplitKeysForCreate(st));
  const TableName& table = st.table;
  if (table.namespace_name == kSystemNamespace)
    return Status::InvalidArgument(table.ToString(),
                                   "the hbase namespace holds HBase's system tables");

  HFILE_ASSIGN_OR_RETURN(RootState root_state, InspectRoot(o.root));
  r.root_initialised = root_state != RootState::kHBase;
  const std::string ns_dir = JoinPath(JoinPath(o.root, "data"), table.namespace_name);
  r.table_dir = JoinPath(ns_dir, table.qualifier);
  const bool is_default = table.namespace_name == kDefaultNamespace;
  if (!is_default && !IsDirectory(ns_dir)) {
    if (!o.create_namespace)
      return Status::InvalidArgument(
          "namespace '" + table.namespace_name + "' does not exist (no " + ns_dir +
          "); create it first (create_namespace), or pass --create-namespace");
    r.namespace_created = true;
  }
  r.regions = RegionsFor(table, r.split_keys, o.now_ms > 0 ? o.now_ms : NowMs());
  const CommitScope scope{ns_dir, ""};

  if (o.dry_run) {
    if (PathExists(r.table_dir))
      return Status::InvalidArgument("table " + table.ToString() + " already exists", r.table_dir);
    r.recovered = DescribeRecovery(scope);
    HFILE_ASSIGN_OR_RETURN(TableDescriptorFile file,
                           NextTableDescriptorFile(r.table_dir, r.descriptor));
    r.descriptor_file = file.name;
    return r;
  }

  if (r.root_initialised) {
    HFILE_RETURN_IF_ERROR(InitialiseRoot(o.root));
    Check(o, "root-initialised");
  }
  // The default namespace's dir, as the master makes it at its first start; another namespace's
  // only when asked (its hbase:meta row is the operator's create_namespace).
  if (is_default || r.namespace_created) HFILE_RETURN_IF_ERROR(CreateDirDurably(ns_dir));

  DirLock lock;
  HFILE_RETURN_IF_ERROR(lock.Acquire(ns_dir));
  // An interrupted create in this namespace first: rolled back, or forward.
  HFILE_ASSIGN_OR_RETURN(auto journal, ReadJournal(scope));
  CommitOptions copts;
  copts.checkpoint = o.checkpoint;
  if (journal) {
    bool finishes_this = false;
    if (journal->state == JournalState::State::kCommit)
      for (const auto& step : journal->transaction.steps)
        finishes_this |= step.kind == CommitStep::Kind::kPut && step.to == table.qualifier;
    HFILE_RETURN_IF_ERROR(RecoverTransaction(scope, copts, &r.recovered));
    if (finishes_this && IsDirectory(r.table_dir)) {
      r.finished_interrupted = true;
      HFILE_RETURN_IF_ERROR(ReadBack(r.table_dir, &r));
      return r;
    }
  }
  if (PathExists(r.table_dir))
    return Status::InvalidArgument("table " + table.ToString() + " already exists", r.table_dir);

  Transaction t;
  t.tool = "create";
  t.staging = "." + NewStagingName("create");
  HFILE_RETURN_IF_ERROR(BeginTransaction(scope, t, copts));
  auto rollback = [&](Status s) {
    (void)AbortTransaction(scope);
    return s;
  };
  // <ns>/<table> inside the staging dir, so that the schema writer sees the table's own names.
  const std::string staged_rel = t.staging + "/" + table.namespace_name + "/" + table.qualifier;
  const std::string staged = JoinPath(ns_dir, staged_rel);
  SchemaWriteOptions so;
  so.checkpoint = o.checkpoint;
  if (Status s = CreateDirDurably(staged); !s.ok()) return rollback(s);
  auto desc_path = WriteTableDescriptor(staged, r.descriptor, so);
  if (!desc_path.ok()) return rollback(desc_path.status());
  r.descriptor_file = fs::path(*desc_path).filename().string();
  uint64_t done = 0;
  for (const auto& info : r.regions) {
    if (Status s = WriteRegionInfo(JoinPath(staged, info.EncodedName()), info, so); !s.ok())
      return rollback(s);
    if (o.progress) o.progress("regions", ++done, r.regions.size());
  }
  done = 0;
  const uint64_t dirs = r.regions.size() * r.descriptor.families().size();
  for (const auto& fam : r.descriptor.families()) {
    if (Status s = CreateFamilyDirs(staged, fam.name(), so); !s.ok()) return rollback(s);
    if (o.progress) o.progress("family dirs", done += r.regions.size(), dirs);
  }
  Check(o, "staged");
  t.Put(staged_rel, table.qualifier);
  Status s = CommitTransaction(scope, t, copts);
  if (!s.ok()) {
    auto j = ReadJournal(scope);
    const bool committed = j.ok() && *j && (*j)->state == JournalState::State::kCommit;
    if (!committed) (void)AbortTransaction(scope);
    return s;
  }
  return r;
}

}  // namespace hfile::region
