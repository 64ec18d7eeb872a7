#include "region/region_dump.h"

#include <fmt/format.h>

#include <algorithm>
#include <ostream>

#include "hfile/escape.h"
#include "region/store_file_reader.h"

namespace hfile::region {

namespace {

std::string Bytes(const Slice& b, const DumpOptions& o) {
  return o.byte_format == ByteFormat::kHex ? ToHex(b) : ToStringBinary(b);
}

void PrintRegionHeader(const RegionDir& r, const DumpOptions& o, std::ostream& out) {
  std::string line;
  if (o.json) {
    line = "{\"kind\":\"region\",\"encoded_name\":";
    AppendJsonString(&line, r.encoded_name);
    if (r.info) {
      line += ",\"start_key\":";
      AppendJsonString(&line, Bytes(r.info->start_key, o));
      line += ",\"end_key\":";
      AppendJsonString(&line, Bytes(r.info->end_key, o));
    }
    line += "}\n";
  } else if (r.info) {
    line = fmt::format("region {} ['{}', '{}')\n", r.encoded_name, Bytes(r.info->start_key, o),
                       Bytes(r.info->end_key, o));
  } else {
    line = fmt::format("region {} (no .regioninfo)\n", r.encoded_name);
  }
  out << line;
}

// False if the region cannot hold any selected row.
bool RegionMayHoldSelection(const RegionDir& r, const DumpOptions& o) {
  if (!r.info) return true;
  const std::optional<std::string>& start =
      o.seek_row ? o.seek_row : o.from_row ? o.from_row : o.prefix;
  if (start && !r.info->end_key.empty() && Slice(r.info->end_key).compare(*start) <= 0)
    return false;
  if (o.to_row && !r.info->start_key.empty() && Slice(r.info->start_key).compare(*o.to_row) >= 0)
    return false;
  return true;
}

}  // namespace

Status DumpRegionSetCells(const RegionSet& set, const RegionDumpOptions& options,
                          std::ostream& out, std::ostream& err, RegionDumpResult* result) {
  RegionDumpResult local;
  if (!result) result = &local;
  const DumpOptions& o = options.dump;
  std::vector<std::string> families = options.families;
  if (families.empty()) {
    families = set.FamilyNames();
  } else {
    std::vector<std::string> known = set.FamilyNames();
    for (const auto& f : families) {
      bool found = std::find(known.begin(), known.end(), f) != known.end();
      for (const auto& r : set.regions) found = found || r.FindFamily(f) != nullptr;
      if (!found) return Status::InvalidArgument("no family " + f + " in " + set.path);
    }
  }
  Status first_error;
  auto note_error = [&](const Status& s) {
    err << "hfile-dump: " << s.ToString() << "\n";
    if (first_error.ok()) first_error = s;
  };
  std::string prev_key, line;
  bool have_prev = false;
  ComparatorKind prev_kind = ComparatorKind::kDefault;
  uint64_t printed = 0;
  for (const auto& r : set.regions) {
    if (set.IsSplitParent(r) && !options.include_split_parents) continue;
    if (!RegionMayHoldSelection(r, o)) continue;
    std::vector<std::unique_ptr<StoreFileReader>> readers;
    for (const auto& fam : families) {
      const FamilyDir* fd = r.FindFamily(fam);
      if (!fd) continue;
      std::vector<std::unique_ptr<StoreFileReader>> store;
      for (const auto& sf : fd->store_files) {
        auto sr = StoreFileReader::Open(sf, o.reader);
        if (!sr.ok()) {
          note_error(sr.status().WithContext(r.encoded_name + "/" + fam + "/" + sf.name.name));
          continue;
        }
        store.push_back(std::move(sr).value());
      }
      SortForScan(&store);
      for (auto& s : store) readers.push_back(std::move(s));
    }
    ++result->regions;
    result->store_files += readers.size();
    PrintRegionHeader(r, o, out);
    if (readers.empty()) continue;
    const ComparatorKind kind = readers.front()->hfile().comparator();
    const bool keyed = kind != ComparatorKind::kRawBytes;
    auto it = NewStoreFilesIterator(readers);
    const std::optional<std::string>& start =
        o.seek_row ? o.seek_row : o.from_row ? o.from_row : o.prefix;
    if (start && keyed) it->Seek(FirstOnRowKey(*start));
    else it->SeekToFirst();
    for (; it->Valid(); it->Next()) {
      const Cell& cell = it->cell();
      if (keyed) {
        Slice row = cell.row();
        if (o.seek_row && row != Slice(*o.seek_row)) break;
        if (o.to_row && CompareRows(kind, row, *o.to_row) >= 0) break;
        if (o.prefix && !row.starts_with(*o.prefix)) break;
      }
      if (o.check_row_order && have_prev && prev_kind == kind &&
          CompareKeys(kind, prev_key, cell.key) > 0) {
        ++result->order_violations;
        err << "WARNING, previous key is greater than current key\n\tregion -> "
            << r.encoded_name << "\n";
      }
      if (o.print_cells || o.print_keys) {
        line.clear();
        AppendDumpedCell(&line, cell, kind, o);
        line.push_back('\n');
        out << line;
      }
      if (o.check_row_order) {
        prev_key.assign(cell.key.data(), cell.key.size());
        prev_kind = kind;
        have_prev = true;
      }
      ++result->cells;
      if (o.limit && ++printed >= o.limit) break;
    }
    if (!it->status().ok()) note_error(it->status().WithContext(r.encoded_name));
    if (o.limit && printed >= o.limit) break;
  }
  return first_error;
}

}  // namespace hfile::region
