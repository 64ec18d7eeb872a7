#include "region/split_point.h"

#include <fmt/format.h>

#include <filesystem>
#include <memory>
#include <utility>

#include "hfile/cell.h"
#include "hfile/escape.h"
#include "region/compacted_files.h"
#include "region/layout.h"
#include "region/store_file_reader.h"

namespace hfile::region {

namespace {

constexpr char kRestrictionType[] = "hbase.regionserver.region.split_restriction.type";
constexpr char kRestrictionPrefixLength[] =
    "hbase.regionserver.region.split_restriction.prefix_length";
constexpr char kRestrictionDelimiter[] = "hbase.regionserver.region.split_restriction.delimiter";

// The row of a serialized key, or nullopt when the key is too short for its row length.
std::optional<std::string> RowOf(const std::string& key) {
  if (key.size() < 2) return std::nullopt;
  const size_t len = KeyRowLength(Slice(key));
  if (2 + len > key.size()) return std::nullopt;
  return key.substr(2, len);
}

bool RowInRegion(const std::string& row, const std::string& start, const std::string& end) {
  // HRegion.rowIsInRange: raw byte order, empty end = unbounded.
  return Slice(start).compare(Slice(row)) <= 0 && (end.empty() || Slice(row).compare(Slice(end)) < 0);
}

constexpr char kReferencesReason[] =
    "a store has reference files (split daughter not yet compacted)";

}  // namespace

std::optional<std::string> FileSplitRow(const std::optional<std::string>& mid_key,
                                        const std::optional<std::string>& first_key,
                                        const std::optional<std::string>& last_key,
                                        std::string* reason) {
  if (!mid_key || !first_key || !last_key) {
    *reason = "largest file is empty (HBase: \"HFile empty\")";
    return std::nullopt;
  }
  auto mid = RowOf(*mid_key), first = RowOf(*first_key), last = RowOf(*last_key);
  if (!mid || !first || !last) {
    *reason = "largest file's mid, first or last key is malformed";
    return std::nullopt;
  }
  if (*mid == *first) {
    *reason = fmt::format("mid key row {} is the first row of the largest file",
                          ToStringBinary(*mid));
    return std::nullopt;
  }
  if (*mid == *last) {
    *reason = fmt::format("mid key row {} is the last row of the largest file",
                          ToStringBinary(*mid));
    return std::nullopt;
  }
  return mid;
}

std::string RestrictSplitRow(const std::string& row, const std::string& type,
                             const std::optional<std::string>& prefix_length,
                             const std::optional<std::string>& delimiter) {
  if (type == "KeyPrefix") {
    // KeyPrefixRegionSplitRestriction: Integer.parseInt; <= 0 (or unparseable) is an error
    // that leaves HBase with no restriction.
    if (!prefix_length) return row;
    size_t pos = 0;
    long n = 0;
    try {
      n = std::stol(*prefix_length, &pos);
    } catch (...) {
      return row;
    }
    if (pos != prefix_length->size() || n <= 0 || n > INT32_MAX) return row;
    return row.substr(0, std::min<size_t>(row.size(), static_cast<size_t>(n)));
  }
  if (type == "DelimitedKeyPrefix") {
    if (!delimiter || delimiter->empty()) return row;
    const size_t at = row.find(*delimiter);
    if (at == std::string::npos) return row;  // HBase warns and keeps the row
    return row.substr(0, at);
  }
  return row;
}

Result<RegionSplitPoint> ComputeSplitPoint(const std::string& root_dir,
                                           const std::string& region_dir,
                                           const SplitPointOptions& options) {
  RegionSplitPoint out;
  out.region_dir = region_dir;

  // The descriptor: the caller's, else the table dir's newest .tableinfo when readable.
  std::optional<LoadedTableDescriptor> loaded;
  const TableDescriptor* descriptor = options.descriptor;
  if (!descriptor) {
    const std::string table_dir =
        std::filesystem::path(region_dir).lexically_normal().parent_path().string();
    auto d = ReadTableDescriptor(table_dir);
    if (d.ok()) {
      loaded = std::move(d).value();
      descriptor = &loaded->descriptor;
    }
  }

  HFILE_ASSIGN_OR_RETURN(RegionDir region, ScanRegionDir(root_dir, region_dir, descriptor));
  if (region.info) {
    out.start_key = region.info->start_key;
    out.end_key = region.info->end_key;
  }

  // Open every store as HBase does: compacted-away leftovers dropped, files in SEQ_ID order.
  struct OpenStore {
    std::vector<std::unique_ptr<StoreFileReader>> readers;
  };
  std::vector<OpenStore> stores;
  bool any_references = false;
  for (auto& fam : region.families) {
    SeparateCompactedAway(&fam, options.reader);
    FamilySplitPoint f;
    f.family = fam.name;
    f.path = fam.path;
    OpenStore st;
    for (const auto& sf : fam.store_files) {
      auto r = StoreFileReader::Open(sf, options.reader);
      if (!r.ok()) return r.status().WithContext(sf.path);
      st.readers.push_back(std::move(r).value());
    }
    SortForScan(&st.readers);
    for (size_t i = 0; i < st.readers.size(); ++i) {
      const StoreFileReader& r = *st.readers[i];
      SplitFileInfo fi;
      fi.path = r.file().path;
      fi.length = r.hfile().file_size();
      fi.reference = r.file().reference.has_value();
      fi.sequence_id = r.sequence().sequence_id;
      fi.first_key = r.hfile().first_key();
      fi.last_key = r.hfile().last_key();
      f.store_size += fi.length;
      if (fi.reference) {
        f.has_references = true;
      } else {
        auto mid = r.hfile().MidKey();
        if (!mid.ok()) return mid.status().WithContext(fi.path);
        fi.mid_key = std::move(mid).value();
      }
      // StoreUtils.getLargestFile: Stream.max keeps the first of equal lengths.
      if (f.largest_file < 0 || fi.length > f.files[f.largest_file].length) {
        f.largest_file = static_cast<int>(i);
      }
      f.files.push_back(std::move(fi));
    }
    // HStore.getSplitPoint.
    if (f.has_references) {
      f.no_split_reason = "store has reference files";
      any_references = true;
    } else if (f.files.empty()) {
      f.no_split_reason = "store has no files";
    } else {
      const SplitFileInfo& lf = f.files[f.largest_file];
      f.split_row = FileSplitRow(lf.mid_key, lf.first_key, lf.last_key, &f.no_split_reason);
    }
    out.families.push_back(std::move(f));
    stores.push_back(std::move(st));
  }

  // HRegion.checkSplit -> RegionSplitPolicy.getSplitPoint (canSplit for the refusals).
  std::optional<std::string> row;
  if (region.info && region.info->table.namespace_name == "hbase" && region.info->table.qualifier == "meta") {
    out.no_split_reason = "hbase:meta is never split";
  } else if (options.split_row) {
    // Even a user's row needs RegionSplitPolicy.canSplit (the region server reports the region
    // unsplittable to SplitTableRegionProcedure): refused below when a store has references.
    row = *options.split_row;
    out.explicit_row = true;
  } else if (any_references) {
    out.no_split_reason = kReferencesReason;
  } else {
    uint64_t largest = 0;
    for (size_t i = 0; i < out.families.size(); ++i) {
      const auto& f = out.families[i];
      if (f.split_row && largest < f.store_size) {
        row = f.split_row;
        largest = f.store_size;
        out.chosen_family = static_cast<int>(i);
      }
    }
    if (!row) out.no_split_reason = "no store has a split point";
  }

  if (row && !row->empty()) {
    std::string type = "None";
    std::optional<std::string> prefix = options.restriction_prefix_length;
    std::optional<std::string> delim = options.restriction_delimiter;
    if (options.restriction_type) type = *options.restriction_type;
    if (descriptor) {
      if (auto v = descriptor->GetValue(kRestrictionType)) type = *v;
      if (auto v = descriptor->GetValue(kRestrictionPrefixLength)) prefix = *v;
      if (auto v = descriptor->GetValue(kRestrictionDelimiter); v && !v->empty()) delim = *v;
    }
    std::string restricted = RestrictSplitRow(*row, type, prefix, delim);
    if (restricted != *row) {
      out.unrestricted_row = *row;
      row = std::move(restricted);
    }
  }
  // Refusals of a row: it is still reported (`sides_row`) and counted, not taken.
  std::string refusal;
  if (row && out.explicit_row && any_references) refusal = kReferencesReason;
  if (row && refusal.empty() && region.info) {
    if (!RowInRegion(*row, region.info->start_key, region.info->end_key)) {
      refusal = fmt::format("split row {} is outside the region", ToStringBinary(*row));
    } else if (*row == region.info->start_key) {
      refusal = fmt::format("split row {} is the region's start key", ToStringBinary(*row));
    }
  }
  if (row && refusal.empty() && descriptor && !descriptor->split_enabled()) {
    refusal = "the table has SPLIT_ENABLED false";
  }
  out.sides_row = row;
  if (row && refusal.empty()) {
    out.split_row = row;
    out.no_split_reason.clear();
  } else if (row) {
    out.no_split_reason = refusal;
  }

  // Both sides of the row (the chosen or the explicit one, also when refused).
  const std::optional<std::string>& count_row = out.sides_row;
  if (options.count_sides && count_row) {
    const std::string first_on_row = FirstOnRowKey(*count_row);
    for (size_t i = 0; i < stores.size(); ++i) {
      FamilySplitPoint& f = out.families[i];
      for (const auto& r : stores[i].readers) {
        const ComparatorKind kind = r->hfile().comparator();
        auto it = r->NewIterator();
        for (it->SeekToFirst(); it->Valid(); it->Next()) {
          const Cell& c = it->cell();
          SplitSide& side = CompareKeys(kind, c.key, Slice(first_on_row)) < 0 ? f.below : f.above;
          ++side.cells;
          side.kv_bytes += KeyValueSize(c);
        }
        if (!it->status().ok()) return it->status().WithContext(r->file().path);
      }
      const uint64_t total = f.below.kv_bytes + f.above.kv_bytes;
      if (total > 0) {
        f.below.file_bytes = static_cast<uint64_t>(
            static_cast<long double>(f.store_size) * f.below.kv_bytes / total);
        f.above.file_bytes = f.store_size - f.below.file_bytes;
      }
    }
    out.sides_counted = true;
  }
  return out;
}

}  // namespace hfile::region
