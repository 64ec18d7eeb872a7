#include "region/describe.h"

#include <fmt/format.h>

#include <algorithm>
#include <ostream>
#include <set>

#include "hfile/escape.h"
#include "hfile/file_info.h"
#include "region/compacted_files.h"
#include "region/layout_codes.h"
#include "region/store_file_reader.h"

namespace hfile::region {

std::string_view LayoutSeverityName(LayoutProblem::Severity s) {
  switch (s) {
    case LayoutProblem::Severity::kError: return "error";
    case LayoutProblem::Severity::kWarning: return "warning";
    case LayoutProblem::Severity::kInfo: return "info";
  }
  return "?";
}

namespace {

using Sev = LayoutProblem::Severity;

struct ProblemSink {
  std::vector<LayoutProblem>* out;
  std::string region, family;
  void Add(Sev s, const char* code, std::string what, std::string file = {},
           bool unreadable = false) const {
    out->push_back(
        LayoutProblem{s, region, family, std::move(file), std::move(what), unreadable, {}, code});
  }
};

std::string Quote(const std::string& b) { return "'" + ToStringBinary(b) + "'"; }

// The cheap half of the family check (store_file_check.h reads every cell): a file whose first
// or last key has another family than its dir.
void CheckFamilyBounds(const StoreFileReader& sr, const FamilyDir& dir, const ProblemSink& sink) {
  const Reader& reader = sr.hfile();
  if (reader.comparator() == ComparatorKind::kRawBytes) return;
  for (const auto& key : {reader.first_key(), reader.last_key()}) {
    if (!key || !IsValidKey(*key) || KeyFamily(*key) == Slice(dir.name)) continue;
    sink.Add(Sev::kError, layout_code::kCellWrongFamily,
             fmt::format("holds cells of family {} (key {}) in the dir of family {}: HBase "
                         "scans this store for {} only (verify counts them)",
                         Quote(KeyFamily(*key).ToString()),
                         DescribeKey(*key, reader.comparator()), Quote(dir.name),
                         Quote(dir.name)),
             sr.file().name.name);
    return;
  }
}

void SummarizeFamily(const RegionSet& set, const FamilyDir& dir, const ReaderOptions& options,
                     bool check_family_bounds, const ProblemSink& sink, FamilySummary* fs,
                     const std::function<void()>& file_done) {
  fs->name = dir.name;
  fs->in_descriptor = !set.descriptor || set.descriptor->FindFamily(dir.name) != nullptr;
  if (!fs->in_descriptor) {
    sink.Add(Sev::kWarning, layout_code::kFamilyNotInDescriptor,
             "family dir not in the table descriptor (HBase ignores it)");
    // HBase never lists it, so its names cannot fail a region open.
    for (const auto& n : dir.invalid)
      sink.Add(Sev::kInfo, layout_code::kNotAStoreFile, "not a store file name", n);
  } else {
    for (const auto& n : dir.invalid)
      sink.Add(Sev::kError, layout_code::kInvalidStoreFileName,
               "not a valid store file name: HBase would fail to open the region", n);
  }
  for (const auto& n : dir.skipped)
    sink.Add(Sev::kWarning, layout_code::kStoreFileSkipped, "skipped by HBase (with a warning)", n);
  for (const auto& n : dir.crc_side_files)
    sink.Add(Sev::kInfo, layout_code::kChecksumSideFile,
             "Hadoop local-filesystem checksum file (an invalid name on HDFS)", n);
  for (const auto& n : dir.untracked)
    sink.Add(Sev::kWarning, layout_code::kNotInFileList,
             "not in .filelist: the FILE store-file tracker ignores it", n);
  for (const auto& left : dir.compacted_away) {
    ++fs->compacted_away;
    sink.Add(Sev::kWarning, layout_code::kCompactedAwayLeftover,
             fmt::format("compacted-away leftover: the COMPACTION_EVENT_KEY of {} names it, so "
                         "HBase does not read it (it archives it when it opens the store); the "
                         "next `hfile compact` archives it",
                         left.named_by),
             left.file.name.name);
  }
  std::set<std::string> versions;
  std::vector<StoreFileCompactionEvent> events;  // of the files opened
  for (const auto& sf : dir.store_files) {
    if (file_done) file_done();
    ++fs->store_files;
    if (sf.name.kind == StoreFileKind::kReference) ++fs->references;
    if (sf.name.link) ++fs->links;
    auto r = StoreFileReader::Open(sf, options);
    if (!r.ok()) {
      ++fs->unreadable;
      bool unresolved = sf.target_path.empty();
      sink.Add(Sev::kError,
               unresolved ? layout_code::kStoreFileUnresolved : layout_code::kStoreFileUnreadable,
               (unresolved ? "does not resolve: " : "cannot be read: ") + r.status().ToString(),
               sf.name.name, !unresolved && !r.status().IsCorruption());
      continue;
    }
    const StoreFileReader& sr = **r;
    if (auto ev = sr.hfile().file_info().Get(fileinfo::kCompactionEvent))
      events.push_back({sf.name.name, hfile::DecodeCompactionEvent(*ev).value_or(std::vector<std::string>())});
    if (check_family_bounds) CheckFamilyBounds(sr, dir, sink);
    if (sr.sequence().bulk_loaded) ++fs->bulk_loaded;
    fs->bytes += sr.hfile().file_size();
    fs->cells += sr.hfile().trailer().entry_count;
    int64_t seq = sr.sequence().sequence_id;
    if (seq >= 0) {
      fs->min_sequence_id = fs->min_sequence_id < 0 ? seq : std::min(fs->min_sequence_id, seq);
      fs->max_sequence_id = std::max(fs->max_sequence_id, seq);
    }
    const Trailer& t = sr.hfile().trailer();
    versions.insert(fmt::format("v{}.{}", t.major_version, t.minor_version));
    if (!HBase2CanOpen(t.major_version, t.minor_version))
      sink.Add(set.pre_namespace_layout ? Sev::kInfo : Sev::kWarning,
               layout_code::kHFileVersionTooOld,
               fmt::format("HFile v{}.{}: readable here, but HBase 2 cannot open it (it needs "
                           "v2.3+; a major compaction on HBase 0.96-1.x rewrites it)",
                           t.major_version, t.minor_version),
               sf.name.name);
  }
  fs->hfile_versions.assign(versions.begin(), versions.end());
  // Table and region sets have moved these to `compacted_away` already. A snapshot keeps what
  // its manifest lists: its readers (a clone, TableSnapshotInputFormat) open the files through
  // HFileLinks, whose names do not match COMPACTION_EVENT_KEY's, so they read both.
  if (set.kind == RegionSet::Kind::kSnapshot) {
    for (const auto& c : FindCompactedAway(events))
      sink.Add(Sev::kWarning, layout_code::kCompactedAwayLeftover,
               fmt::format("compacted-away leftover captured by the snapshot: the "
                           "COMPACTION_EVENT_KEY of {}, also in the snapshot, names it; a clone "
                           "of the snapshot reads both (through links of other names), so its "
                           "cells are read twice, here too",
                           c.named_by),
               c.name);
  }
}

}  // namespace

RegionSetSummary SummarizeRegionSet(
    const RegionSet& set, const ReaderOptions& options, bool check_family_bounds,
    const std::function<void(uint64_t done, uint64_t total)>& on_file) {
  RegionSetSummary out;
  uint64_t files_total = 0, files_done = 0;
  for (const auto& rd : set.regions)
    for (const auto& fd : rd.families) files_total += fd.store_files.size();
  std::function<void()> file_done;
  if (on_file) file_done = [&] { on_file(++files_done, files_total); };
  ProblemSink table_sink{&out.problems, {}, {}};
  for (const auto& n : set.notes) table_sink.Add(Sev::kInfo, layout_code::kLayoutNote, n);
  if (!set.descriptor && !set.descriptor_status.ok() && !set.descriptor_status.IsNotSupported())
    table_sink.Add(Sev::kWarning, layout_code::kDescriptorUnreadable,
                   "no readable table descriptor: " + set.descriptor_status.ToString());
  const bool on_disk = set.kind != RegionSet::Kind::kSnapshot;
  for (const auto& rd : set.regions) {
    RegionSummary rs;
    rs.encoded_name = rd.encoded_name;
    rs.path = rd.path;
    ProblemSink sink{&out.problems, rd.encoded_name, {}};
    if (rd.info) {
      rs.has_info = true;
      rs.info = *rd.info;
      rs.split_parent = set.IsSplitParent(rd);
      if (on_disk && !rd.name_matches_info && rd.info->replica_id == 0)
        sink.Add(Sev::kWarning, layout_code::kRegionDirNameMismatch,
                 "directory name is not the encoded name of its .regioninfo (" +
                     rd.info->EncodedName() + ")");
      if (set.table && rd.info->table.ToString() != set.table->ToString())
        sink.Add(Sev::kWarning, layout_code::kRegionInfoTableMismatch,
                 ".regioninfo names table " + rd.info->table.ToString());
    } else if (on_disk) {
      sink.Add(Sev::kWarning, layout_code::kRegionInfoUnreadable,
               "no readable .regioninfo (" + rd.info_status.ToString() +
                   "): key range unknown; HBase rewrites it on open, hbck needs it");
    }
    if (rd.HasPendingEdits())
      sink.Add(Sev::kWarning, layout_code::kRecoveredEditsPending,
               "recovered.edits holds edit files that HBase would replay on open");
    if (rd.has_tmp)
      sink.Add(Sev::kInfo, layout_code::kTmpDirPresent, ".tmp/ present (HBase deletes it on open)");
    for (const auto& e : rd.other_entries) {
      bool crc = e.size() > 5 && e[0] == '.' && e.ends_with(".crc");
      sink.Add(Sev::kInfo, crc ? layout_code::kChecksumSideFile : layout_code::kUnusedEntry,
               crc ? "Hadoop local-filesystem checksum file" : "not used by HBase", e);
    }
    if (on_disk && set.descriptor) {
      for (const auto& f : set.descriptor->families())
        if (!rd.FindFamily(f.name()))
          sink.Add(Sev::kInfo, layout_code::kFamilyDirMissing,
                   "no directory for family " + f.name() + " (HBase creates it)");
    }
    for (const auto& fd : rd.families) {
      FamilySummary fs;
      ProblemSink fsink{&out.problems, rd.encoded_name, fd.name};
      SummarizeFamily(set, fd, options, check_family_bounds, fsink, &fs, file_done);
      out.store_files += fs.store_files;
      out.bytes += fs.bytes;
      out.cells += fs.cells;
      rs.families.push_back(std::move(fs));
    }
    out.regions.push_back(std::move(rs));
  }
  return out;
}

namespace {

std::string Bytes(const Slice& b, bool hex) { return hex ? ToHex(b) : ToStringBinary(b); }

std::string SeqRange(const FamilySummary& f) {
  if (f.max_sequence_id < 0) return "none";
  if (f.min_sequence_id == f.max_sequence_id) return std::to_string(f.max_sequence_id);
  return fmt::format("{}..{}", f.min_sequence_id, f.max_sequence_id);
}

// The set's kind and path, table, snapshot and descriptor lines.
void PrintHeader(const RegionSet& set, std::string* out) {
  std::string& t = *out;
  t += fmt::format("{} {}\n", RegionSetKindName(set.kind), set.path);
  if (set.table) t += "table " + set.table->ToString() + "\n";
  if (set.snapshot) {
    t += fmt::format("snapshot {} of {}: created {} ms, type {}, format v{}{}\n",
                     set.snapshot->name, set.snapshot->table, set.snapshot->creation_time,
                     set.snapshot->type == 0 ? "DISABLED"
                     : set.snapshot->type == 2 ? "SKIPFLUSH" : "FLUSH",
                     set.snapshot->version,
                     set.snapshot->owner.empty() ? "" : ", owner " + set.snapshot->owner);
  }
  if (set.descriptor) {
    t += "descriptor " + set.descriptor_path + "\n" + set.descriptor->Describe();
  } else {
    t += "descriptor: none (" + set.descriptor_status.ToString() + ")\n";
  }
}

void PrintText(const RegionSet& set, const RegionSetSummary& s, const DescribeOptions& o,
               std::ostream& out) {
  std::string t;
  if (!o.regions_only) PrintHeader(set, &t);
  size_t parents = std::count_if(s.regions.begin(), s.regions.end(),
                                 [](const RegionSummary& r) { return r.split_parent; });
  t += fmt::format("\n{} regions ({} split parents), {} store files, {} bytes, {} cells\n",
                   s.regions.size(), parents, s.store_files, s.bytes, s.cells);
  for (const auto& r : s.regions) {
    if (r.has_info) {
      t += fmt::format("region {} [{}, {}) id {}{}\n", r.encoded_name,
                       "'" + Bytes(r.info.start_key, o.hex) + "'",
                       "'" + Bytes(r.info.end_key, o.hex) + "'", r.info.region_id,
                       !r.split_parent           ? ""
                       : r.info.split            ? " SPLIT PARENT (split, offline)"
                       : r.info.offline          ? " OFFLINE"
                                                 : " SPLIT PARENT (daughters on disk)");
    } else {
      t += fmt::format("region {} (no .regioninfo)\n", r.encoded_name);
    }
    for (const auto& f : r.families) {
      t += fmt::format("  family {}: {} store files, {} bytes, {} cells, seqid {}", f.name,
                       f.store_files, f.bytes, f.cells, SeqRange(f));
      std::string extra;
      auto add = [&](uint64_t n, const char* what) {
        if (n) extra += fmt::format("{}{} {}", extra.empty() ? "" : ", ", n, what);
      };
      add(f.references, "references");
      add(f.links, "links");
      add(f.bulk_loaded, "bulk-loaded");
      add(f.unreadable, "unreadable");
      add(f.compacted_away, "compacted-away leftovers not read");
      if (!extra.empty()) t += " (" + extra + ")";
      if (!f.hfile_versions.empty()) {
        t += ", HFile";
        for (const auto& v : f.hfile_versions) t += " " + v;
      }
      if (!f.in_descriptor) t += " [not in descriptor]";
      t += "\n";
    }
  }
  t += fmt::format("\n{} problems\n", s.problems.size());
  for (const auto& p : s.problems) {
    std::string where = p.region;
    if (!p.family.empty()) where += "/" + p.family;
    if (!p.file.empty()) where += (where.empty() ? "" : "/") + p.file;
    t += fmt::format("  {:<7} {}{}\n", LayoutSeverityName(p.severity),
                     where.empty() ? "" : where + ": ", p.what);
  }
  out << t;
}

void Json(std::string* s, const char* name, const std::string& v) {
  s->append(fmt::format("\"{}\":", name));
  AppendJsonString(s, v);
}

void PrintJson(const RegionSet& set, const RegionSetSummary& s, const DescribeOptions& o,
               std::ostream& out) {
  std::string j = "{\"kind\":\"" + std::string(RegionSetKindName(set.kind)) + "\",\"v\":1,";
  Json(&j, "path", set.path);
  if (set.table) {
    j += ",";
    Json(&j, "table", set.table->ToString());
  }
  if (set.snapshot) {
    j += ",\"snapshot\":{";
    Json(&j, "name", set.snapshot->name);
    j += fmt::format(",\"creation_time\":{},\"type\":{},\"version\":{}}}",
                     set.snapshot->creation_time, set.snapshot->type, set.snapshot->version);
  }
  if (set.descriptor) {
    j += ",\"descriptor\":{";
    Json(&j, "path", set.descriptor_path);
    j += ",\"attributes\":{";
    bool first = true;
    for (const auto& [k, v] : set.descriptor->values()) {
      if (!first) j += ",";
      first = false;
      AppendJsonString(&j, ToStringBinary(k));
      j += ":";
      AppendJsonString(&j, ToStringBinary(v));
    }
    j += "},\"families\":[";
    first = true;
    for (const auto& f : set.descriptor->families()) {
      if (!first) j += ",";
      first = false;
      j += "{";
      Json(&j, "name", f.name());
      j += ",";
      Json(&j, "describe", f.Describe());
      j += "}";
    }
    j += "]}";
  }
  j += fmt::format(",\"store_files\":{},\"bytes\":{},\"cells\":{},\"regions\":[", s.store_files,
                   s.bytes, JsonUInt(s.cells));
  bool first_region = true;
  for (const auto& r : s.regions) {
    if (!first_region) j += ",";
    first_region = false;
    j += "{";
    Json(&j, "encoded_name", r.encoded_name);
    if (r.has_info) {
      j += ",";
      Json(&j, "start_key", Bytes(r.info.start_key, o.hex));
      j += ",";
      Json(&j, "end_key", Bytes(r.info.end_key, o.hex));
      j += fmt::format(",\"region_id\":{},\"offline\":{},\"split\":{},\"split_parent\":{}",
                       r.info.region_id, r.info.offline, r.info.split, r.split_parent);
    }
    j += ",\"families\":[";
    bool first = true;
    for (const auto& f : r.families) {
      if (!first) j += ",";
      first = false;
      j += "{";
      Json(&j, "name", f.name);
      j += fmt::format(
          ",\"in_descriptor\":{},\"store_files\":{},\"bytes\":{},\"cells\":{},"
          "\"references\":{},\"links\":{},\"bulk_loaded\":{},\"unreadable\":{},"
          "\"compacted_away\":{},\"min_sequence_id\":{},\"max_sequence_id\":{},"
          "\"hfile_versions\":[",
          f.in_descriptor, f.store_files, f.bytes, JsonUInt(f.cells), f.references, f.links,
          f.bulk_loaded, f.unreadable, f.compacted_away, JsonInt(f.min_sequence_id),
          JsonInt(f.max_sequence_id));
      for (size_t i = 0; i < f.hfile_versions.size(); ++i)
        j += (i ? ",\"" : "\"") + f.hfile_versions[i] + "\"";
      j += "]}";
    }
    j += "]}";
  }
  j += "],\"problems\":[";
  for (size_t i = 0; i < s.problems.size(); ++i) {
    const auto& p = s.problems[i];
    j += i ? ",{" : "{";
    j += fmt::format("\"severity\":\"{}\",", LayoutSeverityName(p.severity));
    Json(&j, "region", p.region);
    j += ",";
    Json(&j, "family", p.family);
    j += ",";
    Json(&j, "file", p.file);
    j += ",";
    Json(&j, "code", p.code);
    j += ",";
    Json(&j, "what", p.what);
    j += "}";
  }
  j += "]}\n";
  out << j;
}

}  // namespace

void DescribeRegionSet(const RegionSet& set, const RegionSetSummary& summary,
                       const DescribeOptions& options, std::ostream& out) {
  if (options.json) PrintJson(set, summary, options, out);
  else PrintText(set, summary, options, out);
}

}  // namespace hfile::region
