#include "region/verify_region.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <ostream>
#include <set>
#include <sstream>

#include "hfile/escape.h"
#include "fs_util.h"
#include "region/layout_codes.h"
#include "region/meta_table.h"
#include "region/store_file_check.h"
#include "region/store_file_reader.h"

namespace hfile::region {

namespace {

using Sev = LayoutProblem::Severity;

std::string Quote(const std::string& b) { return "'" + ToStringBinary(b) + "'"; }

std::string Range(const RegionInfo& info) {
  return "[" + Quote(info.start_key) + ", " + Quote(info.end_key) + ")";
}

// The cells `sr` contributes against its family dir and the region's key range
// (store_file_check.h); reports the first offender of each kind.
StoreFileExpectation ExpectationFor(const RegionDir& region, const std::string& family,
                                    const RegionVerifyOptions& options) {
  StoreFileExpectation expect;
  if (options.check_families) expect.family = family;
  if (options.check_key_ranges && region.info) expect.region = &*region.info;
  return expect;
}

void ReportCellCheck(const StoreFileCellCheck& check, const StoreFile& file,
                     const RegionDir& region, const std::string& family,
                     RegionVerifyReport* report) {
  report->cells_checked += check.cells;
  auto add = [&](const char* code, std::string what) {
    report->problems.push_back(LayoutProblem{Sev::kError, region.encoded_name, family,
                                             file.name.name, std::move(what), false, {}, code});
  };
  if (check.wrong_family) add(layout_code::kCellWrongFamily, DescribeWrongFamily(check, family));
  if (check.outside_range)
    add(layout_code::kCellOutsideRegion, DescribeOutsideRange(check, file, *region.info));
}

void CheckCells(const StoreFileReader& sr, const RegionDir& region, const std::string& family,
                const RegionVerifyOptions& options, RegionVerifyReport* report) {
  auto check = CheckStoreFileCells(sr, ExpectationFor(region, family, options));
  if (!check.ok()) return;  // a read error: VerifyFile reports it
  ReportCellCheck(*check, sr.file(), region, family, report);
}

void CheckSequenceIds(const std::vector<std::unique_ptr<StoreFileReader>>& store,
                      const RegionDir& region, const std::string& family,
                      RegionVerifyReport* report) {
  auto add = [&](Sev s, const char* code, const std::string& file, std::string what) {
    report->problems.push_back(
        LayoutProblem{s, region.encoded_name, family, file, std::move(what), false, {}, code});
  };
  std::map<int64_t, std::vector<std::string>> by_seq;
  for (const auto& sr : store) {
    const StoreFileSequence& seq = sr->sequence();
    const FileInfo& fi = sr->hfile().file_info();
    const std::string& name = sr->file().name.name;
    auto max_seq = fi.GetInt64(fileinfo::kMaxSeqId);
    if (seq.bulk_loaded) {
      auto n = sr->file().name.bulk_load_seq_id;
      if (n && max_seq && *max_seq > 0 && static_cast<uint64_t>(*max_seq) != *n)
        add(Sev::kWarning, layout_code::kBulkLoadSequenceIdMismatch, name,
            fmt::format("bulk-load name says sequence id {} but MAX_SEQ_ID_KEY is {} (HBase "
                        "uses the name)", *n, *max_seq));
      if (!n && !fi.Get(fileinfo::kBulkloadTimestamp))
        add(Sev::kInfo, layout_code::kBulkLoadWithoutSequenceId, name,
            "bulk-loaded file without a sequence id in its name");
      continue;
    }
    if (!max_seq) {
      add(Sev::kWarning, layout_code::kMaxSequenceIdMissing, name,
          "no MAX_SEQ_ID_KEY in the file info and not bulk-loaded: HBase gives it sequence id "
          "-1 (not a region server's flush or compaction output)");
      continue;
    }
    auto max_ts = fi.GetInt64(fileinfo::kMaxMemstoreTs);
    if (max_ts && *max_ts > *max_seq)
      add(Sev::kWarning, layout_code::kMemstoreTsExceedsSequenceId, name,
          fmt::format("MAX_MEMSTORE_TS_KEY {} exceeds MAX_SEQ_ID_KEY {}", *max_ts, *max_seq));
    by_seq[seq.sequence_id].push_back(name);
  }
  for (const auto& [seq, names] : by_seq) {
    if (names.size() < 2) continue;
    std::string list;
    for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
    add(Sev::kWarning, layout_code::kSharedSequenceId, "",
        fmt::format("{} store files share sequence id {} ({}): their scan order falls back to "
                    "file length and name", names.size(), seq, list));
  }
}

// A region in a key-space check: its name (encoded) and range.
struct Span {
  std::string name;
  const RegionInfo* info;
};

// Holes and overlaps among `live` (sorted by start key), each through `add(region, hole, what)`.
template <typename Add>
void CheckTiling(const std::vector<Span>& live, Add add) {
  if (!live.front().info->start_key.empty())
    add(live.front().name, true,
        "hole: no region covers the keys before " + Quote(live.front().info->start_key));
  for (size_t i = 1; i < live.size(); ++i) {
    const RegionInfo& a = *live[i - 1].info;
    const RegionInfo& b = *live[i].info;
    int c = a.end_key.empty() ? 1 : Slice(b.start_key).compare(a.end_key);
    if (c > 0 && !a.end_key.empty()) {
      add(live[i].name, true,
          "hole: no region covers [" + Quote(a.end_key) + ", " + Quote(b.start_key) + ")");
    } else if (c < 0 || a.end_key.empty()) {
      add(live[i].name, false,
          "overlap: " + Range(b) + " overlaps region " + live[i - 1].name + " " + Range(a));
    }
  }
  if (!live.back().info->end_key.empty())
    add(live.back().name, true,
        "hole: no region covers the keys from " + Quote(live.back().info->end_key));
}

// What hbase:meta says of region dirs that are not live (empty when meta was not read).
struct MetaParents {
  std::set<std::string> split;  // rows marked split/offline, or in state SPLIT or MERGED
  std::set<std::string> merge;  // named by a live row's info:merge* (not yet cleaned up)
};

void CheckRegionMap(const RegionSet& set, const MetaParents& meta, RegionVerifyReport* report) {
  auto IsLive = [&](const RegionDir& r) {
    return r.info && !set.IsSplitParent(r) && !meta.split.count(r.encoded_name) &&
           !meta.merge.count(r.encoded_name);
  };
  if (set.kind == RegionSet::Kind::kRegion) return;
  auto add = [&](Sev s, const char* code, const std::string& region, std::string what) {
    report->problems.push_back(LayoutProblem{s, region, "", "", std::move(what), false, {}, code});
  };
  std::vector<const RegionDir*> live;
  for (const auto& r : set.regions)
    if (IsLive(r) && r.info->replica_id == 0) live.push_back(&r);
  if (live.empty()) {
    if (!set.regions.empty())
      add(Sev::kWarning, layout_code::kNoLiveRegion, "",
          "no live region with a readable .regioninfo");
    return;
  }
  // set.regions is sorted by start key already.
  std::vector<Span> spans;
  for (const RegionDir* r : live) spans.push_back(Span{r->encoded_name, &*r->info});
  CheckTiling(spans, [&](const std::string& region, bool hole, std::string what) {
    add(Sev::kError, hole ? layout_code::kRegionHole : layout_code::kRegionOverlap, region,
        std::move(what));
  });
  // Split parents: their range should be covered by live regions, starting at the parent's start
  // key (a daughter later merged with a neighbour may end past the parent's end).
  for (const auto& r : set.regions) {
    if (!r.info || IsLive(r) || meta.merge.count(r.encoded_name)) continue;
    const RegionInfo& p = *r.info;
    std::string at = p.start_key;
    bool covered = false;
    for (const RegionDir* d : live) {
      if (d->info->start_key != at) continue;
      if (d->info->end_key.empty() || (!p.end_key.empty() &&
                                       Slice(d->info->end_key).compare(p.end_key) >= 0)) {
        covered = true;
        break;
      }
      at = d->info->end_key;
    }
    if (!covered)
      add(Sev::kWarning, layout_code::kSplitParentUncovered, r.encoded_name,
          "split parent " + Range(p) + " is not covered by live regions");
  }
}


std::string StateNote(const MetaRegion& r) {
  return r.state.empty() ? std::string("no state") : "state " + r.state;
}

// hbase:meta's rows of the table against its region dirs (meta_table.h).
void CheckMeta(const RegionSet& set, const RegionVerifyOptions& options,
               RegionVerifyReport* report, MetaParents* parents) {
  if (!options.check_meta || set.kind != RegionSet::Kind::kTable || set.pre_namespace_layout ||
      !set.table || set.root_dir.empty() ||
      (set.table->namespace_name == kSystemNamespace && set.table->qualifier == "meta"))
    return;
  std::string meta_dir = MetaRegionDirPath(set.root_dir);
  if (!IsDirectory(meta_dir)) return;  // a table dir outside an HBase root, or a bare copy
  auto add = [&](Sev s, const std::string& region, const char* code, std::string what) {
    LayoutProblem p{s, region, "", "", "hbase:meta: " + std::move(what)};
    p.code = code;
    p.finding = code;  // the older name of the same thing, in snake_case
    std::replace(p.finding.begin(), p.finding.end(), '-', '_');
    report->problems.push_back(std::move(p));
  };
  report->meta_checked = true;
  report->meta_path = meta_dir;
  auto meta = ReadMetaTable(set.root_dir, options.file.reader, &*set.table);
  if (!meta.ok()) {
    add(Sev::kError, "", layout_code::kMetaUnreadable,
        "cannot read it: " + meta.status().ToString());
    report->problems.back().unreadable = !meta.status().IsCorruption();
    return;
  }
  report->meta_wals = meta->wal_files;
  if (!meta->wal_files.empty()) {
    std::string list;
    for (const auto& w : meta->wal_files) list += (list.empty() ? "" : ", ") + w;
    add(Sev::kWarning, "", layout_code::kMetaWalEdits,
        fmt::format("{} WAL file(s) may hold edits not yet flushed to its store files, which "
                    "alone are read here (HBase started and stopped cleanly flushes them): {}",
                    meta->wal_files.size(), list));
  }
  for (const auto& bad : meta->bad_rows) add(Sev::kWarning, "", layout_code::kMetaBadRow, bad);

  std::map<std::string, const RegionDir*> dirs;
  for (const auto& r : set.regions)
    if (r.info) dirs.emplace(r.encoded_name, &r);
  std::set<std::string> in_meta, merge_parents;
  std::vector<const MetaRegion*> live;
  for (const auto& m : meta->regions) {
    if (!(m.info.table == *set.table) || m.info.replica_id != 0) continue;
    ++report->meta_regions;
    const std::string enc = m.info.EncodedName();
    in_meta.insert(enc);
    if (m.IsParent()) {
      parents->split.insert(enc);
    } else {
      live.push_back(&m);
      for (const auto& p : m.merge_parents) merge_parents.insert(p.EncodedName());
    }
    if (m.row != m.info.RegionName())
      add(Sev::kWarning, enc, layout_code::kMetaRowName,
          "row " + Quote(m.row) + " holds the RegionInfo of " + Quote(m.info.RegionName()));
    auto d = dirs.find(enc);
    if (d == dirs.end()) {
      if (m.IsParent()) {
        add(Sev::kWarning, enc, layout_code::kMetaParentWithoutDir,
            "split parent " + Range(m.info) + " (" + StateNote(m) +
                ") has a row but no region directory (the CatalogJanitor deletes the row)");
      } else {
        add(Sev::kError, enc, layout_code::kMetaRegionWithoutDir,
            "region " + Range(m.info) + " (" + StateNote(m) +
                ") has a row but no region directory: HBase cannot open it (HBCK2 "
                "extraRegionsInMeta --fix deletes the row)");
      }
      continue;
    }
    const RegionInfo& f = *d->second->info;
    std::string diff;
    auto note = [&](const std::string& what) { diff += (diff.empty() ? "" : ", ") + what; };
    if (!(f.table == m.info.table))
      note("table " + m.info.table.ToString() + " vs " + f.table.ToString());
    if (f.start_key != m.info.start_key)
      note("start key " + Quote(m.info.start_key) + " vs " + Quote(f.start_key));
    if (f.end_key != m.info.end_key)
      note("end key " + Quote(m.info.end_key) + " vs " + Quote(f.end_key));
    if (f.region_id != m.info.region_id)
      note(fmt::format("region id {} vs {}", m.info.region_id, f.region_id));
    if (!diff.empty())
      add(Sev::kError, enc, layout_code::kMetaRegionInfoDiffers,
          "its RegionInfo differs from the directory's .regioninfo (meta vs dir: " + diff + ")");
  }
  parents->merge = merge_parents;
  for (const auto& r : set.regions) {
    if (!r.info || r.info->replica_id != 0 || in_meta.count(r.encoded_name)) continue;
    if (merge_parents.count(r.encoded_name)) {
      add(Sev::kInfo, r.encoded_name, layout_code::kDirMergeParent,
          "merge parent " + Range(*r.info) +
              " has a directory and a merged region names it (the CatalogJanitor archives it)");
    } else if (set.IsSplitParent(r)) {
      add(Sev::kWarning, r.encoded_name, layout_code::kDirParentNotInMeta,
          "split parent " + Range(*r.info) + " has a directory but no row");
    } else {
      add(Sev::kError, r.encoded_name, layout_code::kDirNotInMeta,
          "region directory " + Range(*r.info) +
              " has no row: HBase does not serve it (HBCK2 addFsRegionsMissingInMeta adds a "
              "row from its .regioninfo)");
    }
  }
  if (live.empty()) {
    if (!set.regions.empty())
      add(Sev::kError, "", layout_code::kMetaHole, "no live region of " + set.table->ToString());
    return;
  }
  std::stable_sort(live.begin(), live.end(), [](const MetaRegion* a, const MetaRegion* b) {
    int c = Slice(a->info.start_key).compare(b->info.start_key);
    return c != 0 ? c < 0 : a->info.region_id < b->info.region_id;
  });
  std::vector<Span> spans;
  for (const MetaRegion* m : live) spans.push_back(Span{m->info.EncodedName(), &m->info});
  CheckTiling(spans, [&](const std::string& region, bool hole, std::string what) {
    add(Sev::kError, region, hole ? layout_code::kMetaHole : layout_code::kMetaOverlap,
        std::move(what));
  });
}

}  // namespace

bool RegionVerifyReport::corrupt() const {
  for (const auto& p : problems)
    if (p.severity == Sev::kError && !p.unreadable) return true;
  for (const auto& f : files)
    if (f.open_status.ok() ? !f.clean() : f.open_status.IsCorruption()) return true;
  return false;
}

bool RegionVerifyReport::unreadable() const {
  for (const auto& p : problems)
    if (p.unreadable) return true;
  for (const auto& f : files)
    if (!f.open_status.ok() && !f.open_status.IsCorruption()) return true;
  return false;
}

bool RegionVerifyReport::clean() const { return !corrupt() && !unreadable(); }

RegionVerifyReport VerifyRegionSet(const RegionSet& set, const RegionVerifyOptions& options) {
  RegionVerifyReport report;
  report.path = set.path;
  report.kind = set.kind;
  if (set.table) report.table = set.table->ToString();
  report.regions = set.regions.size();
  // The summary's family check looks at first and last keys only; CheckCells reads every cell.
  RegionSetSummary summary =
      SummarizeRegionSet(set, options.file.reader, /*check_family_bounds=*/!options.check_families);
  report.problems = std::move(summary.problems);
  report.store_files = summary.store_files;
  std::set<std::string> verified;
  for (const auto& r : set.regions) {
    for (const auto& fd : r.families) {
      std::vector<std::unique_ptr<StoreFileReader>> store;
      for (const auto& sf : fd.store_files) {
        if (sf.target_path.empty()) continue;  // reported by the summary
        auto sr = StoreFileReader::Open(sf, options.file.reader);
        bool cells_checked = false;
        if (options.verify_files && verified.insert(sf.target_path).second) {
          if (sr.ok() && !sf.reference) {
            // A whole file: its cells are checked during VerifyFile's own walk (one read).
            StoreFileCellChecker checker((*sr)->hfile().comparator(),
                                         ExpectationFor(r, fd.name, options));
            VerifyOptions vo = options.file;
            vo.on_cell = [&checker, &caller = options.file.on_cell](const Cell& c) {
              checker.Add(c);
              if (caller) caller(c);  // e.g. a tool's progress count
            };
            report.files.push_back(VerifyFile(sf.target_path, vo));
            ReportCellCheck(checker.result(), sf, r, fd.name, &report);
            cells_checked = true;
          } else {
            report.files.push_back(VerifyFile(sf.target_path, options.file));
          }
        }
        if (!sr.ok()) continue;  // reported by the summary
        if (!cells_checked) CheckCells(**sr, r, fd.name, options, &report);
        store.push_back(std::move(sr).value());
      }
      CheckSequenceIds(store, r, fd.name, &report);
      // HBase still opens a compacted-away leftover (to read its file info) before dropping
      // it, so its bytes must be readable; its cells are not served, so nothing else is asked.
      for (const auto& left : fd.compacted_away)
        if (options.verify_files && !left.file.target_path.empty() &&
            verified.insert(left.file.target_path).second)
          report.files.push_back(VerifyFile(left.file.target_path, options.file));
    }
  }
  // Meta first: the split and merge parents it knows are not live dirs either.
  MetaParents meta_parents;
  CheckMeta(set, options, &report, &meta_parents);
  CheckRegionMap(set, meta_parents, &report);
  for (const auto& p : report.problems) {
    if (p.severity == Sev::kError) ++report.errors;
    if (p.severity == Sev::kWarning) ++report.warnings;
  }
  return report;
}

void PrintRegionVerifyReport(const RegionVerifyReport& report, bool json, bool quiet,
                             std::ostream& out) {
  if (json) {
    std::string j = fmt::format("{{\"kind\":\"{}\",\"v\":1,\"path\":", RegionSetKindName(report.kind));
    AppendJsonString(&j, report.path);
    j += ",\"table\":";
    if (report.table.empty())
      j += "null";
    else
      AppendJsonString(&j, report.table);
    j += fmt::format(",\"clean\":{},\"errors\":{},\"warnings\":{},\"regions\":{},"
                     "\"store_files\":{},\"files\":[",
                     report.clean(), report.errors, report.warnings, report.regions,
                     report.store_files);
    bool first = true;
    for (const auto& f : report.files) {
      if (quiet && f.clean()) continue;
      std::ostringstream s;
      PrintVerifyReport(f, true, s);
      std::string one = s.str();
      while (!one.empty() && one.back() == '\n') one.pop_back();
      j += (first ? "" : ",") + one;
      first = false;
    }
    j += "],\"problems\":[";
    first = true;
    for (const auto& p : report.problems) {
      if (quiet && p.severity == Sev::kInfo) continue;
      j += first ? "{" : ",{";
      first = false;
      j += fmt::format("\"severity\":\"{}\",\"region\":", LayoutSeverityName(p.severity));
      AppendJsonString(&j, p.region);
      j += ",\"family\":";
      AppendJsonString(&j, p.family);
      j += ",\"file\":";
      AppendJsonString(&j, p.file);
      j += fmt::format(",\"code\":\"{}\",\"what\":", p.code);
      AppendJsonString(&j, p.what);
      if (!p.finding.empty()) {
        j += ",\"finding\":";
        AppendJsonString(&j, p.finding);
      }
      j += "}";
    }
    j += "]";
    if (report.meta_checked) {
      j += ",\"meta\":{\"path\":";
      AppendJsonString(&j, report.meta_path);
      j += fmt::format(",\"regions\":{},\"wal_files\":[", report.meta_regions);
      for (size_t i = 0; i < report.meta_wals.size(); ++i) {
        if (i) j += ",";
        AppendJsonString(&j, report.meta_wals[i]);
      }
      j += "]}";
    }
    j += "}\n";
    out << j;
    return;
  }
  for (const auto& f : report.files)
    if (!quiet || !f.clean()) PrintVerifyReport(f, false, out);
  std::string t;
  for (const auto& p : report.problems) {
    if (quiet && p.severity == Sev::kInfo) continue;
    std::string where = p.region;
    if (!p.family.empty()) where += "/" + p.family;
    if (!p.file.empty()) where += (where.empty() ? "" : "/") + p.file;
    t += fmt::format("  {:<7} {}{}\n", LayoutSeverityName(p.severity),
                     where.empty() ? "" : where + ": ", p.what);
  }
  std::string verdict = report.clean() ? "OK" : report.corrupt() ? "CORRUPT" : "UNREADABLE";
  out << fmt::format("{} {}: {} ({} regions, {} store files, {} errors, {} warnings)\n",
                     RegionSetKindName(report.kind), report.path, verdict, report.regions,
                     report.store_files, report.errors, report.warnings)
      << t;
  if (report.meta_checked && !quiet)
    out << fmt::format("  hbase:meta {}: {} rows of the table compared with its region "
                       "directories{}\n",
                       report.meta_path, report.meta_regions,
                       report.meta_wals.empty() ? "" : " (edits in its WALs not read)");
}

}  // namespace hfile::region
