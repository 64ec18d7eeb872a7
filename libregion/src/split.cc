// SplitFile, PlanRegionSplit / RunRegionSplit (region/split.h): a file's cells routed by row into
// verified outputs (StoreWriter), and a region's store files rewritten per half (RewriteStore)
// into two staged daughter dirs, committed by one table transaction (region/commit.h).
#include "region/split.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>
#include <filesystem>

#include "fs_util.h"
#include "hfile/escape.h"
#include "hfile/input_check.h"
#include "hfile/reader.h"
#include "hfile/rewrite.h"
#include "region/commit.h"
#include "region/compacted_files.h"
#include "region/compact.h"
#include "region/layout.h"
#include "region/schema_writer.h"
#include "region/store_file_reader.h"
#include "region/store_rewrite.h"
#include "region/store_writer.h"
#include "region/table_descriptor.h"
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

// The region's stores as HBase opens them: the families of the table's descriptor (when
// readable; ComputeSplitPoint reads them the same way), compacted-away files dropped.
Result<RegionDir> ScanStores(const std::string& root_dir, const std::string& region_dir) {
  const std::string table_dir = fs::path(region_dir).lexically_normal().parent_path().string();
  auto d = ReadTableDescriptor(table_dir);
  HFILE_ASSIGN_OR_RETURN(RegionDir region,
                         ScanRegionDir(root_dir, region_dir, d.ok() ? &d->descriptor : nullptr));
  for (auto& fam : region.families) SeparateCompactedAway(&fam);
  return region;
}

// Every family's cells and bytes in each of rows.size() + 1 ranges, each store read as the
// region reads it (compacted-away files dropped); file bytes shared in proportion.
Result<std::vector<FamilySides>> CountSides(const std::string& root_dir,
                                            const std::string& region_dir,
                                            const std::vector<std::string>& rows) {
  HFILE_ASSIGN_OR_RETURN(RegionDir region, ScanStores(root_dir, region_dir));
  std::vector<FamilySides> out;
  for (const auto& fam : region.families) {
    FamilySides sides{fam.name, std::vector<SplitSide>(rows.size() + 1)};
    uint64_t store_size = 0, kv_total = 0;
    for (const auto& sf : fam.store_files) {
      HFILE_ASSIGN_OR_RETURN(auto r, StoreFileReader::Open(sf));
      store_size += r->hfile().file_size();
      auto it = r->NewIterator();
      for (it->SeekToFirst(); it->Valid(); it->Next()) {
        const Cell& c = it->cell();
        const Slice row = c.row();
        const size_t d = std::upper_bound(rows.begin(), rows.end(), row,
                                          [](const Slice& a, const std::string& b) {
                                            return a.compare(Slice(b)) < 0;
                                          }) - rows.begin();
        ++sides.daughters[d].cells;
        sides.daughters[d].kv_bytes += KeyValueSize(c);
        kv_total += KeyValueSize(c);
      }
      if (!it->status().ok()) return it->status().WithContext(sf.path);
    }
    uint64_t shared = 0;
    for (size_t d = 0; d < sides.daughters.size() && kv_total > 0; ++d) {
      SplitSide& side = sides.daughters[d];
      side.file_bytes = d + 1 == sides.daughters.size()
                            ? store_size - shared
                            : static_cast<uint64_t>(static_cast<long double>(store_size) *
                                                    side.kv_bytes / kv_total);
      shared += side.file_bytes;
    }
    out.push_back(std::move(sides));
  }
  return out;
}

}  // namespace

Status SplitFile(const std::string& path, const FileSplitOptions& o, FileSplitResult* result) {
  // No boundaries (a one-region table): one output, the whole file rewritten.
  if (!o.boundaries.empty()) HFILE_RETURN_IF_ERROR(CheckBoundaries(o.boundaries));
  if (!IsDirectory(o.out_dir)) return Status::NotFound(o.out_dir, "no such output directory");
  HFILE_ASSIGN_OR_RETURN(auto reader, Reader::Open(path));
  InputCheckOptions ico;
  ico.full = o.verify_input;
  HFILE_RETURN_IF_ERROR(CheckInput(*reader, ico));
  HFILE_ASSIGN_OR_RETURN(WriterOptions settings, SettingsOf(*reader));
  if (!o.families.empty()) {
    auto first = reader->NewIterator();
    first->SeekToFirst();
    HFILE_RETURN_IF_ERROR(first->status());
    if (first->Valid()) {
      const std::string family = first->cell().family().ToString();
      if (std::find(o.families.begin(), o.families.end(), family) == o.families.end())
        return Status::InvalidArgument(
            fmt::format("the file's family '{}' is not one of the table's ({}): completebulkload "
                        "would refuse its pieces", ToStringBinary(family),
                        fmt::join(o.families, ", ")),
            path);
    }
  }

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
  if (options.split_row.has_value() + !options.split_rows.empty() + (options.into != 0) > 1)
    return Status::InvalidArgument("give one of: a split row, split rows, a daughter count");
  if (options.into < 0 || options.into == 1)
    return Status::InvalidArgument(fmt::format("cannot split into {} daughters (2 or more)",
                                               options.into));
  if (!options.split_rows.empty()) HFILE_RETURN_IF_ERROR(CheckBoundaries(options.split_rows));
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
      for (const auto& f : sp.files) {
        if (!f.reference) continue;
        if (!options.compact_first)
          return Status::NotSupported(fmt::format(
              "{}/{} holds a Reference ({}): the region is a daughter of an unfinished split; "
              "HBase splits it again only after a compaction: rerun with --compact-first, or "
              "compact it (hfile compact) first",
              r.encoded_name, sp.family, f.name));
        if (plan.compact_stores.empty() || plan.compact_stores.back() != sp.family)
          plan.compact_stores.push_back(sp.family);
      }
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

  // The split rows are chosen on the compacted region (RunRegionSplit plans again); a given
  // row outside the region is refused before anything is compacted.
  plan.compact_first = !plan.compact_stores.empty();
  if (plan.compact_first) {
    std::vector<std::string> given = options.split_rows;
    if (options.split_row) given.push_back(*options.split_row);
    for (const auto& row : given)
      if (!plan.parent.ContainsRow(row) || row == plan.parent.start_key)
        return Status::InvalidArgument(
            "the split row is outside the region or its start key", row);
    return plan;
  }

  std::optional<std::string> one_row = options.split_row;
  if (options.split_rows.size() == 1) one_row = options.split_rows[0];
  if (options.into == 0 && options.split_rows.size() <= 1) {
    SplitPointOptions spo;
    spo.split_row = one_row;
    spo.count_sides = options.count_sides;
    HFILE_ASSIGN_OR_RETURN(plan.point, ComputeSplitPoint(plan.root_dir, plan.region_dir, spo));
    if (!plan.point.split_row) {
      const std::string why = plan.point.no_split_reason.empty() ? "no split point"
                                                                 : plan.point.no_split_reason;
      if (one_row) return Status::InvalidArgument("cannot split at the given row: " + why);
      return Status::NotSupported("HBase would not split this region: " + why, region_dir);
    }
    plan.split_rows = {*plan.point.split_row};
    if (options.count_sides)
      for (const auto& f : plan.point.families)
        plan.sides.push_back({f.family, {f.below, f.above}});
  } else {
    std::vector<std::string> rows = options.split_rows;
    if (options.into) {
      HFILE_ASSIGN_OR_RETURN(rows, QuantileSplitRows(plan.root_dir, plan.region_dir, options.into,
                                                     &plan.quantile_family));
    }
    // Each row as HBase checks a split row (restriction, range, start key, SPLIT_ENABLED).
    for (size_t i = 0; i < rows.size(); ++i) {
      SplitPointOptions spo;
      spo.split_row = rows[i];
      spo.count_sides = false;
      HFILE_ASSIGN_OR_RETURN(RegionSplitPoint p,
                             ComputeSplitPoint(plan.root_dir, plan.region_dir, spo));
      // The user's rows are a usage error (1); quantiles HBase would not take, a refusal (3).
      auto refuse = [&](std::string why) {
        return options.into ? Status::NotSupported(std::move(why), region_dir)
                            : Status::InvalidArgument(std::move(why));
      };
      if (!p.split_row)
        return refuse(fmt::format("cannot split at row {}: {}", ToStringBinary(rows[i]),
                                  p.no_split_reason));
      if (!plan.split_rows.empty() && !(plan.split_rows.back() < *p.split_row))
        return refuse(fmt::format(
            "split rows {} and {} are the same row under the table's split restriction",
            ToStringBinary(plan.split_rows.back()), ToStringBinary(*p.split_row)));
      plan.split_rows.push_back(*p.split_row);
      if (i == 0) {
        plan.point = std::move(p);
        plan.point.explicit_row = options.into == 0;  // quantiles are not the user's rows
      }
    }
    if (options.count_sides) {
      HFILE_ASSIGN_OR_RETURN(plan.sides,
                             CountSides(plan.root_dir, plan.region_dir, plan.split_rows));
    }
  }
  for (const auto& row : plan.split_rows) {
    if (!plan.parent.ContainsRow(row))
      return Status::InvalidArgument("the split row is outside the region", row);
    if (row == plan.parent.start_key)
      return Status::InvalidArgument("the split row is the region's start key", row);
  }
  plan.split_row = plan.split_rows.front();

  // SplitTableRegionProcedure.getDaughterRegionIdTimestamp: one id for every daughter; their
  // start keys make their names distinct.
  int64_t now = options.now_ms ? options.now_ms : NowMs();
  uint64_t rid = static_cast<uint64_t>(now);
  if (rid <= plan.parent.region_id) rid = plan.parent.region_id + 1;
  for (size_t i = 0; i <= plan.split_rows.size(); ++i) {
    RegionInfo d;
    d.table = plan.parent.table;
    d.region_id = rid;
    d.start_key = i == 0 ? plan.parent.start_key : plan.split_rows[i - 1];
    d.end_key = i == plan.split_rows.size() ? plan.parent.end_key : plan.split_rows[i];
    plan.daughters.push_back(std::move(d));
  }
  plan.daughter_a = plan.daughters.front();
  plan.daughter_b = plan.daughters.back();
  return plan;
}

Result<std::vector<std::string>> QuantileSplitRows(const std::string& root_dir,
                                                   const std::string& region_dir, int n,
                                                   std::string* family) {
  if (n < 2) return Status::InvalidArgument(fmt::format("cannot split into {} daughters", n));
  HFILE_ASSIGN_OR_RETURN(RegionDir region, ScanStores(root_dir, region_dir));
  // The largest store (HStore.getSize: its files' lengths; strictly larger replaces, as
  // RegionSplitPolicy compares stores in family-name order).
  std::vector<std::unique_ptr<StoreFileReader>> largest;
  uint64_t largest_size = 0;
  for (const auto& fam : region.families) {
    std::vector<std::unique_ptr<StoreFileReader>> readers;
    uint64_t size = 0;
    for (const auto& sf : fam.store_files) {
      HFILE_ASSIGN_OR_RETURN(auto r, StoreFileReader::Open(sf));
      if (r->file().reference)
        return Status::NotSupported("a store has References: compact the region first", sf.path);
      size += r->hfile().file_size();
      readers.push_back(std::move(r));
    }
    if (size > largest_size) {
      largest_size = size;
      largest = std::move(readers);
      *family = fam.name;
    }
  }
  if (largest.empty()) return Status::NotSupported("the region has no store files", region_dir);

  struct Block {
    std::string key;
    uint64_t size;
  };
  std::vector<Block> blocks;
  ComparatorKind kind = largest[0]->hfile().comparator();
  for (const auto& r : largest) {
    HFILE_ASSIGN_OR_RETURN(auto entries, r->hfile().DataBlockIndex());
    for (auto& e : entries) blocks.push_back({std::move(e.key), e.on_disk_size});
  }
  std::stable_sort(blocks.begin(), blocks.end(), [kind](const Block& a, const Block& b) {
    return CompareKeys(kind, Slice(a.key), Slice(b.key)) < 0;
  });
  uint64_t total = 0;
  for (const auto& b : blocks) total += b.size;
  if (blocks.empty() || total == 0)
    return Status::NotSupported(fmt::format("store {} holds no cells", *family), region_dir);

  // starts[i]: the bytes of blocks[0, i). Cut k goes at the block start nearest k/n of the
  // bytes (the next one when that block's row is not above the previous cut's).
  std::vector<uint64_t> starts(blocks.size());
  for (size_t i = 1; i < blocks.size(); ++i) starts[i] = starts[i - 1] + blocks[i - 1].size;
  auto row_of = [&](size_t i) { return KeyRow(Slice(blocks[i].key)).ToString(); };
  std::vector<std::string> rows;
  std::string floor = row_of(0);  // a cut must be above this row
  size_t lo = 1;                  // the first block a cut may start at
  for (int k = 1; k < n; ++k) {
    const long double target = static_cast<long double>(total) * k / n;
    size_t j = std::lower_bound(starts.begin() + std::min(lo, starts.size()), starts.end(),
                                target, [](uint64_t s, long double t) { return s < t; }) -
               starts.begin();
    if (j > lo && (j == blocks.size() || target - starts[j - 1] < starts[j] - target) &&
        floor < row_of(j - 1))
      --j;
    while (j < blocks.size() && !(floor < row_of(j))) ++j;
    if (j >= blocks.size())
      return Status::NotSupported(fmt::format(
          "store {} has too few data blocks with distinct rows ({} blocks) to cut the region "
          "into {} daughters", *family, blocks.size(), n), region_dir);
    floor = row_of(j);
    rows.push_back(floor);
    lo = j + 1;
  }
  return rows;
}

Result<TableBoundaries> ReadTableBoundaries(const std::string& table_dir) {
  std::vector<std::pair<RegionInfo, std::string>> regions;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(table_dir, ec)) {
    const std::string name = e.path().filename().string();
    if (!e.is_directory() || !IsRegionDirName(name)) continue;
    HFILE_ASSIGN_OR_RETURN(RegionInfo info,
                           ReadRegionInfoFile(JoinPath(e.path().string(), ".regioninfo")));
    if (info.split || info.replica_id != 0) continue;
    regions.emplace_back(std::move(info), name);
  }
  if (ec) return Status::IOError("cannot list " + table_dir, ec.message());
  if (regions.empty()) return Status::InvalidArgument("the table has no regions", table_dir);
  std::sort(regions.begin(), regions.end(), [](const auto& a, const auto& b) {
    return a.first.start_key < b.first.start_key;
  });
  TableBoundaries out;
  std::string expect;  // the start key the next region must have
  for (size_t i = 0; i < regions.size(); ++i) {
    const RegionInfo& r = regions[i].first;
    if (r.start_key != expect || (i > 0 && expect.empty()))
      return Status::InvalidArgument(fmt::format(
          "the table's regions do not chain: {} starts at {} where {} was expected (a hole or "
          "an overlap; hfile verify --table shows it)", regions[i].second,
          ToStringBinary(r.start_key), ToStringBinary(expect)), table_dir);
    if (i > 0) out.boundaries.push_back(r.start_key);
    out.regions.push_back(regions[i].second);
    expect = r.end_key;
  }
  if (!expect.empty())
    return Status::InvalidArgument(fmt::format(
        "the table's regions do not chain: the last ends at {}, not at the end of the row space",
        ToStringBinary(expect)), table_dir);
  return out;
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
  // The stores as they are now: one that cannot be read (an I/O error since the plan) must
  // stop the split, or its family would be missing from the daughters.
  for (const auto& sp : rp.stores) {
    if (!sp.error.ok()) return sp.error.WithContext(rp.encoded_name + "/" + sp.family);
    if (!sp.skip_reason.empty() && !sp.files.empty())
      return Status::NotSupported(rp.encoded_name + "/" + sp.family, sp.skip_reason);
  }

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
  const size_t n = plan.daughters.size();
  std::vector<std::string> enc, dirs;
  for (const auto& d : plan.daughters) {
    enc.push_back(d.EncodedName());
    dirs.push_back(JoinPath(staging, enc.back()));
  }
  const std::string work = JoinPath(staging, "work");
  for (const auto& d : {staging, work})
    if (Status s = MakeDir(d); !s.ok()) return rollback(s);
  for (size_t i = 0; i < n; ++i) {
    const std::string& dir = dirs[i];
    if (Status s = MakeDir(dir); !s.ok()) return rollback(s);
    if (Status s = WriteRegionInfo(dir, plan.daughters[i]); !s.ok()) return rollback(s);
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

  // For progress: the cells of every input, from their trailers.
  uint64_t total_cells = 0, cells_before = 0;
  if (o.progress) {
    for (const auto& sp : rp.stores)
      for (const auto& f : sp.files)
        if (auto r = Reader::Open(f.entry.target_path); r.ok())
          total_cells += (*r)->trailer().entry_count;
  }
  for (const auto& sp : rp.stores) {
    FamilySides sides{sp.family, std::vector<SplitSide>(n)};
    for (const auto& f : sp.files) {
      SplitFileResult fr;
      fr.family = sp.family;
      fr.input = f.name;
      fr.outputs.resize(n);
      fr.cells.resize(n);
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
      ro.writer.boundaries = plan.split_rows;
      ro.writer.cancel = o.cancel;
      ro.writer.checkpoint = o.checkpoint;
      const std::string label = sp.encoded_region + "/" + sp.family + "/" + f.name;
      if (o.progress) {
        ro.progress = [&o, label, cells_before, total_cells](uint64_t cells, uint64_t) {
          o.progress(label, cells_before + cells, total_cells);
        };
      }
      if (o.verify_progress) {
        ro.writer.on_verified_cell = [&o, label, c = uint64_t{0}](size_t, const Cell&) mutable {
          if (++c == 1 || (c & 0x3FFF) == 0) o.verify_progress(label, c);
        };
      }
      StoreRewriteResult rr;
      if (Status s = RewriteStore({f.entry}, ro, &rr); !s.ok())
        return rollback(s.WithContext(sp.encoded_region + "/" + sp.family + "/" + f.name));
      const std::string suffix =
          f.entry.name.bulk_load_seq_id
              ? fmt::format("_SeqId_{}_", *f.entry.name.bulk_load_seq_id)
              : "";
      for (const auto& out : rr.outputs) {
        const size_t d = out.range;
        const std::string name = out.name + suffix;
        const std::string to = JoinPath(JoinPath(dirs[d], sp.family), name);
        if (Status s = RenameFile(out.path, to); !s.ok()) return rollback(s);
        fr.outputs[d].push_back(enc[d] + "/" + sp.family + "/" + name);
        fr.cells[d] += out.cells;
        sides.daughters[d].cells += out.cells;
        sides.daughters[d].kv_bytes += out.cell_bytes;
        sides.daughters[d].file_bytes += out.file_size;
      }
      report->files.push_back(std::move(fr));
      cells_before += rr.cells_read;
    }
    report->sides.push_back(std::move(sides));
    for (const auto& d : dirs)
      if (Status s = SyncDir(JoinPath(d, sp.family)); !s.ok()) return rollback(s);
  }
  {
    std::error_code ec;
    fs::remove_all(work, ec);
    if (ec) return rollback(Status::IOError("cannot remove " + work, ec.message()));
  }
  if (o.cancel && o.cancel->load()) return rollback(Status::IOError("interrupted", "the split was rolled back"));
  if (o.checkpoint) o.checkpoint("split-staged");
  for (const auto& e : enc) t.Put(t.staging + "/" + e, e);
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
  if (plan.compact_first) {
    // A major compaction rewrites the References into real files (journaled and committed on
    // its own, as HBase's compaction of a daughter is); the split rows are chosen afterwards.
    CompactOptions co;
    co.request = CompactRequest::kMajor;
    co.force = options.force;
    co.now_ms = options.now_ms;
    co.verify_inputs = options.verify_inputs;
    co.cancel = options.cancel;
    co.checkpoint = options.checkpoint;
    co.verify_progress = options.verify_progress;
    if (options.progress) co.progress = options.progress;
    HFILE_ASSIGN_OR_RETURN(CompactionPlan cp, PlanCompaction(plan.region_dir, co));
    CompactReport cr;
    Status cs = Compact(cp, co, &cr);
    for (const auto& st : cr.stores)
      if (st.committed && !st.inputs.empty())
        report->compacted.push_back(fmt::format("{}: {} file(s) -> {}", st.family,
                                                st.inputs.size(), st.output));
    for (const auto& r : cr.recovered) report->recovered.push_back(r);
    if (!cs.ok()) return cs.WithContext("the compaction before the split");
    RegionSplitOptions again = options;
    again.compact_first = false;
    HFILE_ASSIGN_OR_RETURN(RegionSplitPlan p, PlanRegionSplit(plan.region_dir, again));
    if (p.compact_first)
      return Status::IOError("the region still has References after its compaction",
                             plan.region_dir);
    Status s = RunRegionSplit(p, again, report);
    report->replanned = std::move(p);
    return s;
  }
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
    again.split_row.reset();
    again.into = 0;
    again.split_rows = plan.split_rows;
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
