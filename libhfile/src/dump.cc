#include "hfile/dump.h"

#include <fmt/format.h>

#include <ostream>
#include <string_view>

#include "hfile/coding.h"
#include "dump_hpp.h"
#include "dump_internal.h"
#include "hfile/escape.h"

namespace hfile {

void DumpFormat::AppendBytes(std::string* dst, const Slice& b) const {
  if (options_.byte_format == ByteFormat::kHex) {
    dst->append(ToHex(b));
  } else {
    AppendStringBinary(dst, b);
  }
}

void DumpFormat::AppendJsonBytes(std::string* dst, const char* name, const Slice& b) const {
  dst->push_back('"');
  dst->append(name);
  dst->append("\":");
  AppendJsonString(dst, Bytes(b));
}

namespace {
std::string TimestampString(int64_t ts) {
  if (ts == INT64_MAX) return "LATEST_TIMESTAMP";
  if (ts == INT64_MIN) return "OLDEST_TIMESTAMP";
  return std::to_string(ts);
}

// Calls fn(type, value) for each tag; false if the tags bytes are malformed.
template <typename Fn>
bool ForEachTag(Slice tags, Fn fn) {
  while (!tags.empty()) {
    uint16_t len;
    if (!GetFixed16BE(&tags, &len) || len == 0 || len > tags.size()) return false;
    fn(tags.byte(0), Slice(tags.data() + 1, len - 1u));
    tags.remove_prefix(len);
  }
  return true;
}
}  // namespace

void DumpFormat::AppendKey(std::string* dst, const Slice& key, ComparatorKind kind) const {
  if (kind == ComparatorKind::kRawBytes || !IsValidKey(key)) {
    AppendBytes(dst, key);
    return;
  }
  AppendBytes(dst, KeyRow(key));
  dst->push_back('/');
  Slice family = KeyFamily(key);
  AppendBytes(dst, family);
  if (!family.empty()) dst->push_back(':');
  AppendBytes(dst, KeyQualifier(key));
  dst->push_back('/');
  dst->append(TimestampString(KeyTimestamp(key)));
  dst->push_back('/');
  dst->append(KeyTypeName(KeyTypeByte(key)));
}

void DumpFormat::AppendCellText(std::string* dst, const Cell& cell, ComparatorKind kind,
                                bool value) const {
  dst->append("K: ");
  AppendKey(dst, cell.key, kind);
  dst->append(fmt::format("/vlen={}/seqid={}", cell.value.size(), cell.sequence_id));
  if (!value) return;
  dst->append(" V: ");
  AppendBytes(dst, cell.value);
  int i = 0;
  bool ok = ForEachTag(cell.tags, [&](uint8_t type, const Slice& v) {
    dst->append(fmt::format(" T[{}]: [Tag type : {}, value : ", i++, type));
    AppendBytes(dst, v);
    dst->push_back(']');
  });
  if (!ok) {
    dst->append(" T: <malformed tags ");
    AppendBytes(dst, cell.tags);
    dst->push_back('>');
  }
}

void AppendJsonRecordHead(std::string* dst, const char* kind, const std::string& path,
                          const DumpOptions& options) {
  dst->append("{\"kind\":\"");
  dst->append(kind);
  dst->append("\",\"v\":1");  // hfile-json(7)'s schema version, on every record
  for (auto [name, value] :
       {std::pair{"path", &path}, {"table", &options.table}, {"region", &options.region}}) {
    if (value->empty()) continue;
    dst->append(",\"").append(name).append("\":");
    AppendJsonString(dst, *value);
  }
}

void DumpFormat::AppendCellJson(std::string* dst, const Cell& cell, ComparatorKind kind) const {
  dst->append(JsonHead("cell"));
  dst->push_back(',');
  if (kind == ComparatorKind::kRawBytes || !IsValidKey(cell.key)) {
    AppendJsonBytes(dst, "key", cell.key);
  } else {
    AppendJsonBytes(dst, "row", cell.row());
    dst->push_back(',');
    AppendJsonBytes(dst, "family", cell.family());
    dst->push_back(',');
    AppendJsonBytes(dst, "qualifier", cell.qualifier());
    dst->append(fmt::format(",\"timestamp\":{},\"type\":\"{}\"", JsonInt(cell.timestamp()),
                            KeyTypeName(cell.type())));
  }
  // -e: the key only (and, as the text form, the value's length); the value and tags with -p.
  if (!options_.print_cells && options_.print_keys) {
    dst->append(fmt::format(",\"vlen\":{},\"seqid\":{}}}", cell.value.size(),
                            JsonUInt(cell.sequence_id)));
    return;
  }
  dst->push_back(',');
  AppendJsonBytes(dst, "value", cell.value);
  dst->append(",\"tags\":[");
  bool first = true;
  ForEachTag(cell.tags, [&](uint8_t type, const Slice& v) {
    if (!first) dst->push_back(',');
    first = false;
    dst->append(fmt::format("{{\"type\":{},", type));
    AppendJsonBytes(dst, "value", v);
    dst->push_back('}');
  });
  dst->append(fmt::format("],\"seqid\":{}}}", JsonUInt(cell.sequence_id)));
}

void AppendDumpedCell(std::string* dst, const Cell& cell, ComparatorKind kind,
                      const DumpOptions& options, const std::string& path) {
  DumpFormat fmt(options, path);
  if (options.json) {
    fmt.AppendCellJson(dst, cell, kind);
  } else {
    fmt.AppendCellText(dst, cell, kind, options.print_cells);
  }
}

namespace {

// CellUtil.getCellKeyAsString of a cell read from a file: "row/f:q/ts/Type/vlen=N/seqid=N".
void AppendHppCellKey(std::string* dst, const Cell& cell) {
  std::string k = hpp::CellKeyString(cell.key);  // ".../seqid=0"
  k.resize(k.size() - 8);
  dst->append(k);
  dst->append(fmt::format("/vlen={}/seqid={}", cell.value.size(), cell.sequence_id));
}

// Scans the selected cells: prints them, checks order, collects stats.
Status ScanCells(const Reader& reader, const DumpFormat& fmt, std::ostream& out,
                 std::ostream& err, StatsCollector* stats, HppStatsCollector* hpp_stats,
                 DumpResult* result) {
  const DumpOptions& o = fmt.options();
  const ComparatorKind kind = reader.comparator();
  const bool keyed = kind != ComparatorKind::kRawBytes;
  auto it = reader.NewIterator();
  const std::optional<std::string>& start =
      o.seek_row ? o.seek_row : o.from_row ? o.from_row : o.prefix;
  if (start && keyed) {
    it->Seek(FirstOnRowKey(*start));
  } else {
    it->SeekToFirst();
  }
  std::string prev_key, line;
  bool have_prev = false;
  std::string prev_family_cell, prev_family_text;  // -a: the previous cell's key, and as text
  const std::string& shown_path = o.hpp_path.empty() ? reader.path() : o.hpp_path;
  uint64_t printed = 0;
  for (; it->Valid(); it->Next()) {
    const Cell& cell = it->cell();
    if (keyed) {
      Slice row = cell.row();
      if (o.seek_row && row != Slice(*o.seek_row)) break;
      if (o.to_row && CompareRows(kind, row, *o.to_row) >= 0) break;
      if (o.prefix && !row.starts_with(*o.prefix)) break;
    }
    if (o.check_row_order && have_prev && CompareKeys(kind, prev_key, cell.key) > 0) {
      ++result->order_violations;
      line.clear();
      if (o.json) {
        line = fmt.JsonHead("order_violation") + ",";
        fmt.AppendJsonBytes(&line, "previous", prev_key);
        line.push_back(',');
        fmt.AppendJsonBytes(&line, "current", cell.key);
        line += "}\n";
        out << line;
      } else {
        line = "WARNING, previous key is greater than current key\n\tfilename -> " +
               reader.path() + "\n\tprevious -> ";
        fmt.AppendKey(&line, prev_key, kind);
        line += "\n\tcurrent  -> ";
        fmt.AppendKey(&line, cell.key, kind);
        err << line << "\n";
      }
    }
    if (o.check_family && keyed) {
      // HFilePrettyPrinter -a: the family must appear in the file's path (as the store's
      // directory name does), and be the same as the previous cell's.
      const Slice family = cell.family();
      if (std::string_view(shown_path).find(std::string_view(family.data(), family.size())) ==
          std::string_view::npos) {
        ++result->family_warnings;
        line = "WARNING, filename does not match kv family,\n\tfilename -> " + shown_path +
               "\n\tkeyvalue -> ";
        AppendHppCellKey(&line, cell);
        err << line << "\n";
      }
      if (!prev_family_cell.empty() && KeyFamily(prev_family_cell) != family) {
        ++result->family_warnings;
        line = "WARNING, previous kv has different family compared to current key\n\tfilename -> " +
               shown_path + "\n\tprevious -> ";
        line += prev_family_text;
        line += "\n\tcurrent  -> ";
        AppendHppCellKey(&line, cell);
        err << line << "\n";
      }
      prev_family_cell.assign(cell.key.data(), cell.key.size());
      prev_family_text.clear();
      AppendHppCellKey(&prev_family_text, cell);
    }
    if (stats) stats->Add(cell, kind);
    if (hpp_stats) hpp_stats->Add(cell, kind);
    if (o.print_cells || o.print_keys) {
      line.clear();
      if (o.json) {
        fmt.AppendCellJson(&line, cell, kind);
      } else {
        fmt.AppendCellText(&line, cell, kind, o.print_cells);
      }
      line.push_back('\n');
      out << line;
    }
    if (o.check_row_order) {
      prev_key.assign(cell.key.data(), cell.key.size());
      have_prev = true;
    }
    ++result->cells_scanned;
    if (o.limit && ++printed >= o.limit) break;
  }
  return it->status();
}

}  // namespace

Status DumpFile(const std::string& path, const DumpOptions& options, std::ostream& out,
                std::ostream& err, DumpResult* result) {
  DumpResult local;
  if (!result) result = &local;
  DumpFormat fmt(options, path);
  if (options.verbose && !options.json) {
    out << "Scanning -> " << (options.hpp_path.empty() ? path : options.hpp_path) << "\n";
  }
  HFILE_ASSIGN_OR_RETURN(auto reader, Reader::Open(path, options.reader));
  const bool print_stats = options.print_stats || options.stat_ranges;
  const bool scan = options.print_cells || options.print_keys || options.check_row_order ||
                    options.check_family || print_stats || options.verbose ||
                    options.seek_row.has_value();
  // --hpp is HFilePrettyPrinter's text; JSON keeps the default records.
  const bool hpp = options.hpp && !options.json;
  std::unique_ptr<StatsCollector> stats;
  std::unique_ptr<HppStatsCollector> hpp_stats;
  if (print_stats && hpp) {
    hpp_stats = std::make_unique<HppStatsCollector>(options.stat_ranges);
  } else if (print_stats) {
    stats = std::make_unique<StatsCollector>();
  }
  Status s;
  if (scan) s = ScanCells(*reader, fmt, out, err, stats.get(), hpp_stats.get(), result);
  if (options.print_meta) {
    if (hpp) {
      DumpHppMeta(*reader, options.hpp_path.empty() ? path : options.hpp_path, out);
    } else {
      DumpMeta(*reader, fmt, out);
    }
  }
  if (s.ok() && options.print_block_index) {
    if (hpp) {
      DumpHppBlockIndex(*reader, out);
    } else {
      s = DumpBlockIndex(*reader, fmt, out);
    }
  }
  if (s.ok() && options.print_block_headers) {
    s = hpp ? DumpHppBlockHeaders(*reader, out) : DumpBlockHeaders(*reader, fmt, out);
  }
  if (stats) stats->Print(fmt, out);
  if (hpp_stats) hpp_stats->Print(out);
  return s;
}

}  // namespace hfile
