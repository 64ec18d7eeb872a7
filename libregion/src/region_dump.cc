#include "region/region_dump.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <utility>
#include <ostream>

#include "hfile/escape.h"
#include "region/merging_iterator.h"
#include "region/store_file_reader.h"

namespace hfile::region {

namespace {

std::string Bytes(const Slice& b, const DumpOptions& o) {
  return o.byte_format == ByteFormat::kHex ? ToHex(b) : ToStringBinary(b);
}

void PrintRegionHeader(const RegionDir& r, const DumpOptions& o, std::ostream& out) {
  std::string line;
  if (o.json) {
    AppendJsonRecordHead(&line, "region", r.path, o);
    line += ",\"encoded_name\":";
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

// The rows a dump selects, as the Scan a client would send: [start, stop), or one row (a Get,
// start = stop, inclusive). Rows compare as raw bytes (the default cell order).
struct Selection {
  std::optional<std::string> start, stop;
  bool get = false;

  explicit Selection(const DumpOptions& o) {
    start = o.seek_row ? o.seek_row : o.from_row ? o.from_row : o.prefix;
    if (o.seek_row) {
      get = true;
      stop = o.seek_row;
      return;
    }
    stop = o.to_row;
    if (o.prefix) {
      // Scan.setRowPrefixFilter's stop row: the prefix with its last byte below 0xff
      // incremented and what follows dropped; none when every byte is 0xff.
      std::string next = *o.prefix;
      while (!next.empty() && static_cast<uint8_t>(next.back()) == 0xff) next.pop_back();
      if (!next.empty()) {
        next.back() = static_cast<char>(static_cast<uint8_t>(next.back()) + 1);
        if (!stop || Slice(next).compare(*stop) < 0) stop = next;
      }
    }
  }

  // Whether a region [start_key, end_key) may hold a selected row.
  bool RegionMayHold(const RegionDir& r) const {
    if (!r.info) return true;
    if (start && !r.info->end_key.empty() && Slice(r.info->end_key).compare(*start) <= 0)
      return false;
    if (stop && !r.info->start_key.empty()) {
      int c = Slice(r.info->start_key).compare(*stop);
      if (get ? c > 0 : c >= 0) return false;
    }
    return true;
  }

  // The key every selected cell sorts before: an iterator's upper bound.
  std::optional<std::string> UpperBound() const {
    if (!stop) return std::nullopt;
    return FirstOnRowKey(get ? *stop + std::string(1, '\0') : *stop);
  }
};

// StoreFileReader.passesKeyRangeFilter: false when the file's rows cannot overlap the
// selection. As HBase, the stop row counts as inside (a file starting at it is kept), an empty
// file is out, and a reference is always in (HalfStoreFileReader passes every range).
bool PassesKeyRange(const StoreFileReader& sr, const Selection& sel) {
  if (sr.file().reference) return true;
  const Reader& r = sr.hfile();
  auto first = r.first_key(), last = r.last_key();
  if (!first || !last) return false;
  if (!sel.start && !sel.stop) return true;
  if (sel.stop && KeyRow(*first).compare(*sel.stop) > 0) return false;
  if (sel.start && KeyRow(*last).compare(*sel.start) < 0) return false;
  return true;
}

// StoreFileReader.passesBloomFilter for the selection: ROW blooms answer for a Get only;
// ROWPREFIX_FIXED_LENGTH also for a scan whose start and stop rows share the prefix.
Result<bool> PassesBloom(const StoreFileReader& sr, const Selection& sel) {
  const Reader& r = sr.hfile();
  if (!sel.start) return true;
  switch (r.bloom_type()) {
    case BloomType::kRow:
      if (!sel.get) return true;
      return r.BloomMightContainRow(*sel.start);
    case BloomType::kRowPrefixFixedLength: {
      if (!sel.get) {
        if (!sel.stop) return true;
        const std::string &a = *sel.start, &b = *sel.stop;
        size_t common = 0;
        while (common < a.size() && common < b.size() && a[common] == b[common]) ++common;
        auto len = r.file_info().GetInt32(fileinfo::kBloomFilterParam).value_or(0);
        if (common == 0 || common < static_cast<size_t>(len)) return true;
      }
      return r.BloomMightContainRow(*sel.start);
    }
    default:
      return true;  // no bloom, or ROWCOL (which cannot answer for a whole row)
  }
}

// The families to read: those asked for (InvalidArgument for one the set does not have), or
// every family HBase reads.
Result<std::vector<std::string>> SelectFamilies(const RegionSet& set,
                                                const RegionDumpOptions& options) {
  if (options.families.empty()) return set.FamilyNames();
  std::vector<std::string> known = set.FamilyNames();
  for (const auto& f : options.families) {
    bool found = std::find(known.begin(), known.end(), f) != known.end();
    for (const auto& r : set.regions) found = found || r.FindFamily(f) != nullptr;
    if (!found) return Status::InvalidArgument("no family " + f + " in " + set.path);
  }
  return options.families;
}

}  // namespace

void PrintIoStats(const std::vector<StoreIoStats>& stores, bool json, std::ostream& out) {
  StoreIoStats total;
  std::string line;
  auto append = [&](const StoreIoStats& s, bool is_total) {
    const IoStats& io = s.io;
    if (json) {
      line += is_total ? "{\"kind\":\"io_stats_total\",\"v\":1,\"stores\":" + std::to_string(stores.size())
                       : "{\"kind\":\"io_stats\",\"v\":1";
      if (!is_total) {
        line += ",\"table\":";
        AppendJsonString(&line, s.table);
        line += ",\"region\":";
        AppendJsonString(&line, s.region);
        line += ",\"family\":";
        AppendJsonString(&line, s.family);
      }
      line += fmt::format(
          ",\"files\":{},\"files_opened\":{},\"files_skipped_range\":{},"
          "\"files_skipped_bloom\":{},\"files_read\":{}",
          s.files, s.files_opened, s.skipped_range, s.skipped_bloom, s.files_read);
      for (auto [name, b] : {std::pair{"data", io.data}, {"index", io.index}, {"bloom", io.bloom},
                             {"meta", io.meta}, {"other", io.other}, {"open", io.open}}) {
        line += fmt::format(",\"{}_blocks\":{},\"{}_bytes\":{}", name, b.count, name, b.bytes);
      }
      line += fmt::format(",\"read_calls\":{},\"bytes_read\":{},\"seeks\":{},\"cache_hits\":{}}}\n",
                          io.read_calls, io.bytes_read, io.seeks, io.cache_hits);
      return;
    }
    line += is_total ? fmt::format("io-stats total ({} stores):", stores.size())
                     : fmt::format("io-stats {} {} {}:", s.table.empty() ? "-" : s.table,
                                   s.region, s.family);
    line += fmt::format(
        " files {} opened {} skipped {} (range {}, bloom {}) read {}; blocks data {} ({} B) "
        "index {} ({} B) bloom {} ({} B) meta {} ({} B)",
        s.files, s.files_opened, s.skipped_range + s.skipped_bloom, s.skipped_range,
        s.skipped_bloom, s.files_read, io.data.count, io.data.bytes, io.index.count,
        io.index.bytes, io.bloom.count, io.bloom.bytes, io.meta.count, io.meta.bytes);
    if (io.other.count) line += fmt::format(" other {} ({} B)", io.other.count, io.other.bytes);
    line += fmt::format("; at open {} ({} B); reads {} seeks {} bytes {} cache hits {}\n",
                        io.open.count, io.open.bytes, io.read_calls, io.seeks, io.bytes_read,
                        io.cache_hits);
  };
  for (const auto& s : stores) {
    append(s, false);
    total.files += s.files;
    total.files_opened += s.files_opened;
    total.skipped_range += s.skipped_range;
    total.skipped_bloom += s.skipped_bloom;
    total.files_read += s.files_read;
    total.io += s.io;
  }
  append(total, true);
  out << line;
}

Status DumpRegionSetCells(const RegionSet& set, const RegionDumpOptions& options,
                          std::ostream& out, std::ostream& err, RegionDumpResult* result) {
  RegionDumpResult local;
  if (!result) result = &local;
  const DumpOptions& o = options.dump;
  HFILE_ASSIGN_OR_RETURN(std::vector<std::string> families, SelectFamilies(set, options));
  Status first_error;
  auto note_error = [&](const Status& s) {
    err << "hfile-dump: " << s.ToString() << "\n";
    if (first_error.ok()) first_error = s;
  };
  std::string prev_key, line;
  bool have_prev = false;
  ComparatorKind prev_kind = ComparatorKind::kDefault;
  uint64_t printed = 0;
  const Selection sel(o);
  const std::string table_name = set.table ? set.table->ToString() : "";
  for (const auto& r : set.regions) {
    if (set.IsSplitParent(r) && !options.include_split_parents) continue;
    if (!sel.RegionMayHold(r)) continue;
    // Every JSON record of this region names it (and its table).
    DumpOptions ro = o;
    ro.table = table_name;
    ro.region = r.encoded_name;
    // The files the scan reads, merged; those it skips; and each opened file's store, whose
    // figures get its cost once the region is read.
    std::vector<std::unique_ptr<StoreFileReader>> readers, skipped;
    std::vector<std::pair<size_t, const StoreFileReader*>> opened;
    for (const auto& fam : families) {
      const FamilyDir* fd = r.FindFamily(fam);
      if (!fd) continue;
      StoreIoStats st;
      st.table = table_name;
      st.region = r.encoded_name;
      st.family = fam;
      std::vector<std::unique_ptr<StoreFileReader>> store;
      for (const auto& sf : fd->store_files) {
        ++st.files;
        const std::string where = r.encoded_name + "/" + fam + "/" + sf.name.name;
        auto sr = StoreFileReader::Open(sf, o.reader);
        if (!sr.ok()) {
          note_error(sr.status().WithContext(where));
          continue;
        }
        ++st.files_opened;
        opened.emplace_back(result->stores.size(), sr->get());
        // Pruning follows HBase's row order; hbase:meta's order is left unpruned.
        if ((*sr)->hfile().comparator() == ComparatorKind::kDefault) {
          bool pass = PassesKeyRange(**sr, sel);
          if (!pass) ++st.skipped_range;
          if (pass) {
            // As StoreFileReader, a bloom that cannot be read excludes nothing ("proceeding
            // without"): warned about, the file read, the dump not failed (verify reports it).
            auto bloom = PassesBloom(**sr, sel);
            if (!bloom.ok()) {
              err << "hfile-dump: warning: " << bloom.status().WithContext(where).ToString()
                  << ": bloom not used\n";
            }
            pass = !bloom.ok() || *bloom;
            if (!pass) ++st.skipped_bloom;
          }
          if (!pass) {
            skipped.push_back(std::move(sr).value());
            continue;
          }
        }
        store.push_back(std::move(sr).value());
      }
      st.files_read = store.size();
      SortForScan(&store);
      for (auto& s : store) readers.push_back(std::move(s));
      result->stores.push_back(std::move(st));
    }
    ++result->regions;
    result->store_files += opened.size();
    auto count_io = [&] {
      for (const auto& [store, sr] : opened) result->stores[store].io += sr->hfile().io_stats();
    };
    PrintRegionHeader(r, ro, out);
    if (readers.empty()) {
      count_io();
      continue;
    }
    const ComparatorKind kind = readers.front()->hfile().comparator();
    const bool keyed = kind != ComparatorKind::kRawBytes;
    IteratorOptions io;
    if (kind == ComparatorKind::kDefault) io.upper_bound = sel.UpperBound();
    auto it = NewStoreFilesIterator(readers, io);
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
        // The HFile the cell comes from (a reference's or link's target), for JSON records.
        const size_t source = o.json ? MergingIteratorSource(*it) : SIZE_MAX;
        AppendDumpedCell(&line, cell, kind, ro,
                         source < readers.size() ? readers[source]->file().target_path : "");
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
    count_io();
    if (o.limit && printed >= o.limit) break;
  }
  return first_error;
}

Status LocateRow(const RegionSet& set, const std::string& row, const RegionDumpOptions& options,
                 std::ostream& out, std::ostream& err, LocateResult* result) {
  LocateResult local;
  if (!result) result = &local;
  DumpOptions o = options.dump;
  o.seek_row = row;
  o.from_row = o.to_row = o.prefix = std::nullopt;
  HFILE_ASSIGN_OR_RETURN(std::vector<std::string> families, SelectFamilies(set, options));
  const Selection sel(o);
  const std::string table_name = set.table ? set.table->ToString() : "";
  const std::string seek_key = FirstOnRowKey(row);
  const std::string past_row = *sel.UpperBound();  // every cell of the row sorts before it
  Status first_error;
  std::string line;
  for (const auto& r : set.regions) {
    if (set.IsSplitParent(r) && !options.include_split_parents) continue;
    if (!sel.RegionMayHold(r)) continue;
    ++result->regions;
    DumpOptions ro = o;
    ro.table = table_name;
    ro.region = r.encoded_name;
    line.clear();
    if (o.json) {
      AppendJsonRecordHead(&line, "locate_region", r.path, ro);
      line += ",\"row\":";
      AppendJsonString(&line, Bytes(row, o));
      // No .regioninfo: the name and range are unknown (null), and the region is searched.
      for (auto [name, value] : {std::pair{"region_name", r.info ? r.info->RegionName() : ""},
                                 {"start_key", r.info ? r.info->start_key : ""},
                                 {"end_key", r.info ? r.info->end_key : ""}}) {
        line += fmt::format(",\"{}\":", name);
        if (r.info) {
          AppendJsonString(&line, Bytes(value, o));
        } else {
          line += "null";
        }
      }
      line += "}\n";
    } else if (r.info) {
      line = fmt::format("region {} ['{}', '{}') holds row '{}'\n  name {}\n", r.encoded_name,
                         Bytes(r.info->start_key, o), Bytes(r.info->end_key, o), Bytes(row, o),
                         Bytes(r.info->RegionName(), o));
    } else {
      line = fmt::format("region {} (no .regioninfo: its range is unknown)\n", r.encoded_name);
    }
    out << line;
    for (const auto& fam : families) {
      const FamilyDir* fd = r.FindFamily(fam);
      if (!fd) continue;
      for (const auto& sf : fd->store_files) {
        ++result->files;
        const std::string where = r.encoded_name + "/" + fam + "/" + sf.name.name;
        // What the record says: the file's rows, the two checks, and for a file read, its
        // blocks and the row's cells.
        std::string error, first_row, last_row, bloom = "none", bloom_type = "NONE";
        bool in_range = false, read = false;
        std::vector<DataBlockEntry> blocks;
        uint64_t cells = 0;
        // A file that cannot be read is reported in its record and on stderr, and fails the
        // dump (its exit status), as in every other mode.
        const auto fail = [&](const Status& st) {
          if (error.empty()) error = st.ToString();
          err << "hfile-dump: " << st.WithContext(where).ToString() << "\n";
          if (first_error.ok()) first_error = st.WithContext(where);
        };
        auto sr = StoreFileReader::Open(sf, o.reader);
        if (!sr.ok()) {
          fail(sr.status());
        } else {
          const Reader& h = (*sr)->hfile();
          if (auto k = h.first_key()) first_row = Bytes(KeyRow(*k), o);
          if (auto k = h.last_key()) last_row = Bytes(KeyRow(*k), o);
          bloom_type = std::string(BloomTypeName(h.bloom_type()));
          if (h.bloom_type() != BloomType::kNone) bloom = "not_checked";  // out of range
          const bool pruned = h.comparator() == ComparatorKind::kDefault;
          in_range = !pruned || PassesKeyRange(**sr, sel);
          read = in_range;
          if (in_range && pruned && h.bloom_type() != BloomType::kNone) {
            auto pass = PassesBloom(**sr, sel);
            if (!pass.ok()) {
              bloom = "unreadable";  // HBase proceeds without it: the file is read
              err << "hfile-dump: warning: " << pass.status().WithContext(where).ToString()
                  << ": bloom not used\n";
            } else if (h.bloom_type() != BloomType::kRow &&
                       h.bloom_type() != BloomType::kRowPrefixFixedLength) {
              bloom = "not_used";  // ROWCOL answers for a row and column, not a whole row
            } else {
              bloom = *pass ? "might_contain" : "absent";
              read = *pass;
            }
          }
          if (read) {
            // The blocks a Get seeks through: the one the index puts the row's first key in,
            // and the next ones while their index key sorts before the row's end.
            auto index = h.DataBlockIndex();
            if (!index.ok()) {
              fail(index.status());
            } else {
              const ComparatorKind kind = h.comparator();
              size_t i = 0;
              while (i + 1 < index->size() && CompareKeys(kind, (*index)[i + 1].key, seek_key) <= 0)
                ++i;
              for (; i < index->size(); ++i) {
                if (!blocks.empty() && CompareKeys(kind, (*index)[i].key, past_row) >= 0) break;
                blocks.push_back((*index)[i]);
              }
            }
            IteratorOptions io;
            if (h.comparator() == ComparatorKind::kDefault) io.upper_bound = past_row;
            auto it = (*sr)->NewIterator(io);
            for (it->Seek(seek_key); it->Valid() && it->cell().row() == Slice(row); it->Next())
              ++cells;
            if (!it->status().ok()) fail(it->status());
            ++result->files_may_hold;
            result->cells += cells;
          }
        }
        line.clear();
        const std::string path = sf.target_path.empty() ? sf.path : sf.target_path;
        if (o.json) {
          AppendJsonRecordHead(&line, "locate_file", path, ro);
          line += ",\"family\":";
          AppendJsonString(&line, fam);
          line += ",\"file\":";
          AppendJsonString(&line, sf.name.name);
          line += fmt::format(",\"reference\":{}", sf.reference ? "true" : "false");
          line += ",\"first_row\":";
          AppendJsonString(&line, first_row);
          line += ",\"last_row\":";
          AppendJsonString(&line, last_row);
          line += fmt::format(
              ",\"in_key_range\":{},\"bloom_type\":\"{}\",\"bloom\":\"{}\","
              "\"read\":{},\"blocks\":[",
              in_range, bloom_type, bloom, read);
          for (size_t i = 0; i < blocks.size(); ++i) {
            line += fmt::format("{}{{\"offset\":{},\"on_disk_size\":{}}}", i ? "," : "",
                                blocks[i].offset, blocks[i].on_disk_size);
          }
          line += fmt::format("],\"cells\":{}", cells);
          if (!error.empty()) {
            line += ",\"error\":";
            AppendJsonString(&line, error);
          }
          line += "}\n";
        } else {
          line = fmt::format("  {}/{}{}: rows ['{}', '{}']", fam, sf.name.name,
                             sf.reference ? " (reference)" : "", first_row, last_row);
          if (!error.empty() && first_row.empty() && last_row.empty()) {
            line = fmt::format("  {}/{}: cannot be opened: {}\n", fam, sf.name.name, error);
          } else {
            line += in_range ? "" : ", key range misses the row: skipped";
            if (in_range) line += fmt::format(", bloom {}: {}", bloom_type, bloom);
            if (in_range && !read) line += ": skipped";
            if (read) {
              line += fmt::format(": read, {} cell(s) of the row", cells);
              for (size_t i = 0; i < blocks.size(); ++i) {
                line += fmt::format("{}block at {} ({} B)", i ? ", " : " in data ",
                                    blocks[i].offset, blocks[i].on_disk_size);
              }
            }
            if (!error.empty()) line += ": " + error;
            line += "\n";
          }
        }
        out << line;
      }
    }
  }
  return first_error;
}

}  // namespace hfile::region
