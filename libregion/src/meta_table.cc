#include "region/meta_table.h"

#include <memory>

#include "fs_util.h"
#include "hfile/coding.h"
#include "hfile/escape.h"
#include "region/compacted_files.h"
#include "region/compaction.h"
#include "region/layout.h"
#include "region/store_file_reader.h"

namespace hfile::region {

namespace {

constexpr char kInfoFamily[] = "info";
constexpr char kTableFamily[] = "table";

// The meta WALs of every server dir under <root>/WALs (live and "-splitting"): the meta WAL
// provider names its files "...meta" (AbstractFSWALProvider's ".meta" suffix).
void FindMetaWalsWithEntries(const std::string& root_dir, std::vector<std::string>* out) {
  std::string wals = JoinPath(root_dir, "WALs");
  auto servers = ListDir(wals);
  if (!servers.ok()) return;
  for (const auto& s : *servers) {
    if (!s.is_dir) continue;
    std::string dir = JoinPath(wals, s.name);
    auto files = ListDir(dir);
    if (!files.ok()) continue;
    for (const auto& f : *files) {
      if (f.is_dir || !f.name.ends_with(".meta") || f.size == 0) continue;
      std::string path = JoinPath(dir, f.name);
      auto contents = ReadWholeFile(path);
      if (!contents.ok() || !WalFileHasNoEntries(*contents)) out->push_back(path);
    }
  }
}

}  // namespace

bool MetaRegion::IsParent() const {
  return info.split || info.offline || state == "SPLIT" || state == "MERGED";
}

std::string MetaRegionDirPath(const std::string& root_dir) {
  return JoinPath(JoinPath(root_dir, "data/hbase/meta"), kMetaEncodedName);
}

bool WalFileHasNoEntries(const std::string& contents) {
  Slice in(contents);
  if (!in.starts_with("PWAL")) return false;
  in.remove_prefix(4);
  uint32_t header_len;
  if (!GetVarint32(&in, &header_len) || header_len > in.size()) return false;
  in.remove_prefix(header_len);
  if (in.empty()) return true;  // still open (or cut) after its header: no entry yet
  // Closed: WALTrailer message, its length (int32 BE), "LAWP".
  if (in.size() < 8 || !Slice(in.data() + in.size() - 4, 4).starts_with("LAWP")) return false;
  uint32_t trailer_len = DecodeFixed32BE(in.data() + in.size() - 8);
  return trailer_len == in.size() - 8;
}

Result<MetaTable> ReadMetaTable(const std::string& root_dir, const ReaderOptions& options,
                                const TableName* table) {
  // A region row starts with the table's name and a comma (RegionInfo.createRegionName).
  const std::string prefix = table ? table->ToString() + "," : std::string();
  MetaTable meta;
  meta.region_dir = MetaRegionDirPath(root_dir);
  if (!IsDirectory(meta.region_dir))
    return Status::NotFound("no hbase:meta region directory", meta.region_dir);
  HFILE_ASSIGN_OR_RETURN(RegionDir dir, ScanRegionDir(root_dir, meta.region_dir));
  FindMetaWalsWithEntries(root_dir, &meta.wal_files);
  if (dir.HasPendingEdits())
    for (const auto& e : dir.recovered_edits)
      if (!e.ends_with(".seqid")) meta.wal_files.push_back(dir.path + "/recovered.edits/" + e);
  for (auto& fam : dir.families) {
    if (fam.name != kInfoFamily) continue;
    // A compaction's leftovers may hold cells whose delete markers the output dropped.
    SeparateCompactedAway(&fam, options);
    std::vector<std::unique_ptr<StoreFileReader>> readers;
    for (const auto& sf : fam.store_files) {
      auto r = StoreFileReader::Open(sf, options);
      if (!r.ok()) return r.status();
      readers.push_back(std::move(r).value());
    }
    meta.store_files = readers.size();
    SortForScan(&readers);
    CompactionOptions co;  // a client read: newest version, deletes applied, nothing expires
    co.kind = CompactionKind::kMajor;
    co.max_versions = 1;
    co.now_ms = NowMs();
    auto it = NewCompactionIterator(NewStoreFilesIterator(readers), co, nullptr);
    MetaRegion* current = nullptr;
    bool current_ok = false;
    std::string skipped_row;  // the row being skipped (another table's)
    auto finish = [&] {
      if (current && (!current_ok || (table && !(current->info.table == *table))))
        meta.regions.pop_back();
      current = nullptr;
    };
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      const Cell& c = it->cell();
      if (c.type() != static_cast<uint8_t>(KeyType::kPut)) continue;
      if (!current || c.row() != Slice(current->row)) {
        if (!current && !skipped_row.empty() && c.row() == Slice(skipped_row)) continue;
        finish();
        skipped_row.clear();
        if (table && !c.row().starts_with(prefix)) {
          skipped_row = c.row().ToString();
          continue;
        }
        current = &meta.regions.emplace_back();
        current->row = c.row().ToString();
        current_ok = false;
      }
      Slice q = c.qualifier();
      if (q == Slice("regioninfo")) {
        Status s = current->info.DecodeMetaValueFrom(c.value);
        if (s.ok()) {
          current_ok = true;
        } else {
          meta.bad_rows.push_back(ToStringBinary(current->row) + ": info:regioninfo: " +
                                  s.ToString());
        }
      } else if (q == Slice("state")) {
        current->state = c.value.ToString();
      } else if (q.starts_with("merge")) {
        RegionInfo parent;
        Status s = parent.DecodeMetaValueFrom(c.value);
        if (s.ok()) {
          current->merge_parents.push_back(std::move(parent));
        } else {
          meta.bad_rows.push_back(ToStringBinary(current->row) + ": info:" + q.ToString() +
                                  ": " + s.ToString());
        }
      }
    }
    finish();
    HFILE_RETURN_IF_ERROR(it->status());
  }
  return meta;
}

Result<std::optional<std::string>> ReadMetaTableState(const std::string& root_dir,
                                                      const TableName& table,
                                                      const ReaderOptions& options) {
  const std::string region_dir = MetaRegionDirPath(root_dir);
  if (!IsDirectory(region_dir))
    return Status::NotFound("no hbase:meta region directory", region_dir);
  HFILE_ASSIGN_OR_RETURN(RegionDir dir, ScanRegionDir(root_dir, region_dir));
  const std::string row = table.ToString();  // TableName.getName: "t" or "ns:t"
  for (auto& fam : dir.families) {
    if (fam.name != kTableFamily) continue;
    SeparateCompactedAway(&fam, options);
    std::vector<std::unique_ptr<StoreFileReader>> readers;
    for (const auto& sf : fam.store_files) {
      auto r = StoreFileReader::Open(sf, options);
      if (!r.ok()) return r.status();
      readers.push_back(std::move(r).value());
    }
    SortForScan(&readers);
    CompactionOptions co;  // a client read, as in ReadMetaTable
    co.kind = CompactionKind::kMajor;
    co.max_versions = 1;
    co.now_ms = NowMs();
    auto it = NewCompactionIterator(NewStoreFilesIterator(readers), co, nullptr);
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      const Cell& c = it->cell();
      if (c.type() != static_cast<uint8_t>(KeyType::kPut) || c.row() != Slice(row) ||
          c.qualifier() != Slice("state"))
        continue;
      // TableState { required State state = 1; }: one varint field.
      Slice v = c.value;
      if (v.starts_with("PBUF")) v.remove_prefix(4);
      uint32_t tag = 0, state = 0;
      if (!GetVarint32(&v, &tag) || tag != 0x08 || !GetVarint32(&v, &state) || state > 3)
        return Status::Corruption("hbase:meta table:state of " + row + " does not parse",
                                  ToStringBinary(c.value));
      static const char* const kNames[] = {"ENABLED", "DISABLED", "DISABLING", "ENABLING"};
      return std::optional<std::string>(kNames[state]);
    }
    HFILE_RETURN_IF_ERROR(it->status());
  }
  return std::optional<std::string>();
}

}  // namespace hfile::region
