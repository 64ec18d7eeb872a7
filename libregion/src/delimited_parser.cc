#include "region/delimited_parser.h"

#include <cstring>
#include <limits>

#include "hfile/escape.h"

namespace hfile::region {

namespace {

constexpr size_t kMaxRowLength = 32767;  // HConstants/Put: Short.MAX_VALUE

std::string Escaped(std::string_view s, size_t limit = 256) {
  std::string out;
  AppendStringBinary(&out, Slice(s.data(), std::min(s.size(), limit)));
  if (s.size() > limit) out += "...";
  return out;
}

bool AllDigits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

// Long.parseLong restricted to ASCII digits, optional sign; we refuse negative values.
bool ParseLong(std::string_view s, int64_t* out) {
  bool neg = false;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    neg = s[0] == '-';
    s.remove_prefix(1);
  }
  if (!AllDigits(s)) return false;
  uint64_t v = 0;
  for (char c : s) {
    uint64_t d = static_cast<uint64_t>(c - '0');
    if (v > (static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) - d) / 10) return false;
    v = v * 10 + d;
  }
  if (neg && v != 0) return false;
  *out = static_cast<int64_t>(v);
  return true;
}

}  // namespace

std::string_view BadLineReasonName(BadLineReason r) {
  switch (r) {
    case BadLineReason::kNoDelimiter: return "no-delimiter";
    case BadLineReason::kExcessiveColumns: return "excessive-columns";
    case BadLineReason::kNoRowKey: return "no-row-key";
    case BadLineReason::kNoTimestamp: return "no-timestamp";
    case BadLineReason::kNoAttributes: return "no-attributes";
    case BadLineReason::kNoVisibility: return "no-visibility";
    case BadLineReason::kNoTtl: return "no-ttl";
    case BadLineReason::kInvalidTimestamp: return "invalid-timestamp";
    case BadLineReason::kInvalidTtl: return "invalid-ttl";
    case BadLineReason::kEmptyRowKey: return "empty-row-key";
    case BadLineReason::kRowKeyTooLong: return "row-key-too-long";
    case BadLineReason::kBadEncoding: return "bad-encoding";
    case BadLineReason::kColumnCount: return "column-count";
    case BadLineReason::kBadQuoting: return "bad-quoting";
    case BadLineReason::kBadJson: return "bad-json";
    case BadLineReason::kUnknownColumn: return "unknown-column";
    case BadLineReason::kInvalidUtf8: return "invalid-utf8";
  }
  return "?";
}

std::string BadLine::ToString() const {
  return input + ":" + std::to_string(line_number) + ": " + message + " (byte offset " +
         std::to_string(offset) + ")";
}

std::string ParseStats::ToString() const {
  std::string s = std::to_string(lines) + " lines, " + std::to_string(records) + " records, " +
                  std::to_string(cells) + " cells, " + std::to_string(bad_lines) + " bad lines";
  if (!bad_by_reason.empty()) {
    s += " (";
    bool first = true;
    for (auto& [r, n] : bad_by_reason) {
      if (!first) s += ", ";
      first = false;
      s += std::string(BadLineReasonName(r)) + ": " + std::to_string(n);
    }
    s += ")";
  }
  if (empty_fields_skipped)
    s += ", " + std::to_string(empty_fields_skipped) + " empty fields skipped";
  return s;
}

bool SplitAttributes(std::string_view field, std::string_view separator,
                     std::vector<std::pair<std::string_view, std::string_view>>* out) {
  out->clear();
  size_t start = 0;
  while (true) {
    size_t comma = field.find(',', start);
    std::string_view item = field.substr(start, comma == field.npos ? field.npos : comma - start);
    size_t sep = item.find(separator);
    if (sep == item.npos) return false;
    out->emplace_back(item.substr(0, sep), item.substr(sep + separator.size()));
    if (comma == field.npos) return true;
    start = comma + 1;
  }
}

LineParser::LineParser(const ImportOptions& options, int64_t default_timestamp)
    : options_(options), default_timestamp_(default_timestamp),
      layout_(options.layout ? &*options.layout : nullptr) {}

bool LineParser::Bad(BadLine* bad, BadLineReason r, std::string msg) {
  bad->reason = r;
  bad->message = std::move(msg);
  return false;
}

// Every decoded byte string is at most as long as its source, and at most two decodings stack
// (CSV/JSON unquoting, then \xNN or hex): 2x the line never reallocates, so views stay valid.
void LineParser::ResetScratch(size_t line_size) {
  scratch_.clear();
  if (scratch_.capacity() < 2 * line_size + 16) scratch_.reserve(2 * line_size + 16);
}

bool LineParser::Decode(std::string_view in, ByteEncoding enc, std::string_view* out,
                        std::string* why) {
  if (enc == ByteEncoding::kRaw) {
    *out = in;
    return true;
  }
  size_t start = scratch_.size();
  if (!DecodeBytes(in, enc, &scratch_, why)) return false;
  *out = std::string_view(scratch_.data() + start, scratch_.size() - start);
  return true;
}

bool LineParser::Assemble(const ColumnLayout& layout, ParsedRecord* rec, BadLine* bad) {
  rec->cells.clear();
  rec->ttl_ms = 0;
  rec->has_visibility = rec->has_attributes = false;
  rec->visibility = rec->attributes = {};
  auto field = [&](int i) -> const Field* {
    if (i < 0 || static_cast<size_t>(i) >= fields_.size() || !fields_[i].present) return nullptr;
    return &fields_[i];
  };
  const Field* rowf = field(layout.row_key);
  if (!rowf) return Bad(bad, BadLineReason::kNoRowKey, "No row key");
  // Timestamp (ParsedLine.getTimestamp).
  rec->timestamp = default_timestamp_;
  rec->timestamp_from_line = false;
  if (layout.timestamp >= 0) {
    const Field* f = field(layout.timestamp);
    if (!f) return Bad(bad, BadLineReason::kNoTimestamp, "No timestamp");
    int64_t ts;
    if (!ParseLong(f->text, &ts))
      return Bad(bad, BadLineReason::kInvalidTimestamp,
                 "Invalid timestamp " + Escaped(f->text) +
                     " (HBASE_TS_KEY must be a non-negative decimal number of milliseconds)");
    rec->timestamp = ts;
    rec->timestamp_from_line = true;
  }
  if (const Field* f = field(layout.visibility)) {
    rec->has_visibility = true;
    rec->visibility = f->text;
  }
  if (const Field* f = field(layout.attributes)) {
    rec->has_attributes = true;
    rec->attributes = f->text;
  }
  // TTL (ParsedLine.getCellTTL: Bytes.toLong; ours also decimal).
  if (const Field* f = field(layout.ttl)) {
    std::string_view t = f->text;
    int64_t ttl = 0;
    bool decimal = options_.ttl_format == TtlFormat::kDecimal ||
                   (options_.ttl_format == TtlFormat::kAuto && AllDigits(t));
    if (decimal) {
      if (!ParseLong(t, &ttl) || (!t.empty() && (t[0] == '+' || t[0] == '-')))
        return Bad(bad, BadLineReason::kInvalidTtl,
                   "Invalid cell TTL " + Escaped(t) + ": not a decimal number of milliseconds");
    } else if (t.size() == 8) {
      uint64_t v = 0;
      for (char c : t) v = (v << 8) | static_cast<unsigned char>(c);
      ttl = static_cast<int64_t>(v);
    } else {
      return Bad(bad, BadLineReason::kInvalidTtl,
                 "Invalid cell TTL " + Escaped(t) + ": Wrong length: " + std::to_string(t.size()) +
                     ", expected 8 (ImportTsv reads HBASE_CELL_TTL as an 8-byte big-endian long" +
                     (options_.ttl_format == TtlFormat::kRaw
                          ? std::string(")")
                          : std::string("; or give decimal milliseconds)")));
    }
    rec->ttl_ms = ttl > 0 ? ttl : 0;  // applied only when > 0
  }
  // Row key (new Put(row)).
  std::string why;
  if (!Decode(rowf->text, options_.row_encoding, &rec->row, &why))
    return Bad(bad, BadLineReason::kBadEncoding,
               "row key " + Escaped(rowf->text) + " is not " +
                   std::string(ByteEncodingName(options_.row_encoding)) + ": " + why);
  if (rec->row.empty()) return Bad(bad, BadLineReason::kEmptyRowKey, "Row length is 0");
  if (rec->row.size() > kMaxRowLength)
    return Bad(bad, BadLineReason::kRowKeyTooLong,
               "Row length " + std::to_string(rec->row.size()) + " is > 32767");
  // Cells.
  for (size_t i = 0; i < fields_.size() && i < layout.columns.size(); ++i) {
    const ColumnSpec& col = layout.columns[i];
    if (col.kind != ColumnSpec::Kind::kCell || !fields_[i].present) continue;
    if (options_.skip_empty_columns && fields_[i].text.empty()) {
      ++empty_skipped_;
      continue;
    }
    std::string_view value;
    if (!Decode(fields_[i].text, options_.value_encoding, &value, &why))
      return Bad(bad, BadLineReason::kBadEncoding,
                 "value of " + Escaped(col.text) + " is not " +
                     std::string(ByteEncodingName(options_.value_encoding)) + ": " + why);
    rec->cells.push_back(ParsedCell{col.family, col.qualifier, value});
  }
  return true;
}

bool LineParser::ParseTsv(std::string_view line, ParsedRecord* rec, BadLine* bad) {
  const ColumnLayout& layout = *layout_;
  ResetScratch(line.size());
  fields_.clear();
  const char sep = options_.separator;
  size_t start = 0;
  // find is memchr's vector loop (a byte-at-a-time test was a few percent of a bulk load).
  for (size_t i; (i = line.find(sep, start)) != line.npos; start = i + 1)
    fields_.push_back(Field{line.substr(start, i - start), true});
  if (fields_.empty()) return Bad(bad, BadLineReason::kNoDelimiter, "No delimiter");
  fields_.push_back(Field{line.substr(start), true});
  const size_t n = fields_.size();
  auto count = [&](const char* what) {
    return std::string(what) + ": " + std::to_string(n) + " fields, the column spec has " +
           std::to_string(layout.columns.size());
  };
  if (n > layout.columns.size())
    return Bad(bad, BadLineReason::kExcessiveColumns, count("Excessive columns"));
  auto missing = [&](int idx) { return idx >= 0 && n <= static_cast<size_t>(idx); };
  if (missing(layout.row_key)) return Bad(bad, BadLineReason::kNoRowKey, count("No row key"));
  if (missing(layout.timestamp))
    return Bad(bad, BadLineReason::kNoTimestamp, count("No timestamp"));
  if (missing(layout.attributes))
    return Bad(bad, BadLineReason::kNoAttributes, count("No attributes specified"));
  if (missing(layout.visibility))
    return Bad(bad, BadLineReason::kNoVisibility, count("No cell visibility specified"));
  if (missing(layout.ttl)) return Bad(bad, BadLineReason::kNoTtl, count("No cell TTL specified"));
  return Assemble(layout, rec, bad);
}

// RFC 4180 field splitting into fields_ (texts in the record or, when unquoted, in scratch_).
bool LineParser::SplitCsvFields(std::string_view r, std::string* error, bool* incomplete) {
  fields_.clear();
  *incomplete = false;
  const char sep = options_.separator;
  size_t i = 0;
  while (true) {
    if (i < r.size() && r[i] == '"') {
      size_t start = scratch_.size();
      size_t open = i;
      ++i;
      while (true) {
        if (i >= r.size()) {
          *incomplete = true;
          *error = "unterminated quoted field (opened at byte " + std::to_string(open) + ")";
          return false;
        }
        if (r[i] == '"') {
          if (i + 1 < r.size() && r[i + 1] == '"') {
            scratch_.push_back('"');
            i += 2;
            continue;
          }
          ++i;
          break;
        }
        scratch_.push_back(r[i++]);
      }
      fields_.push_back(Field{std::string_view(scratch_.data() + start, scratch_.size() - start),
                              true});
      if (i == r.size()) return true;
      if (r[i] != sep) {
        *error = "text after a closing quote at byte " + std::to_string(i) +
                 " (a quote inside a quoted field is written \"\")";
        return false;
      }
      ++i;
      continue;
    }
    size_t start = i;
    while (i < r.size() && r[i] != sep) {
      if (r[i] == '"') {
        *error = "a quote inside an unquoted field at byte " + std::to_string(i) +
                 " (quote the whole field and write the quote as \"\")";
        return false;
      }
      ++i;
    }
    fields_.push_back(Field{r.substr(start, i - start), true});
    if (i == r.size()) return true;
    ++i;  // separator; a trailing separator makes one more, empty field
  }
}

bool LineParser::SplitCsv(std::string_view record, std::vector<std::string>* fields,
                          std::string* error, bool* incomplete) {
  ResetScratch(record.size());
  if (!SplitCsvFields(record, error, incomplete)) return false;
  fields->clear();
  for (auto& f : fields_) fields->emplace_back(f.text);
  return true;
}

bool LineParser::ParseCsv(std::string_view record, ParsedRecord* rec, BadLine* bad,
                          bool* incomplete) {
  const ColumnLayout& layout = *layout_;
  ResetScratch(record.size());
  std::string error;
  if (!SplitCsvFields(record, &error, incomplete))
    return Bad(bad, BadLineReason::kBadQuoting, error);
  if (fields_.size() != layout.columns.size())
    return Bad(bad, BadLineReason::kColumnCount,
               "wrong column count: " + std::to_string(fields_.size()) + " fields, the " +
                   (options_.columns_spec.empty() ? "header" : "column spec") + " has " +
                   std::to_string(layout.columns.size()));
  return Assemble(layout, rec, bad);
}

namespace {

// A minimal JSON reader for one flat object; strings are decoded into *scratch.
struct JsonReader {
  std::string_view s;
  size_t i = 0;
  std::string* scratch;
  std::string error;
  BadLineReason reason = BadLineReason::kBadJson;

  void Ws() {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')) ++i;
  }
  bool Fail(std::string msg, BadLineReason r = BadLineReason::kBadJson) {
    error = std::move(msg) + " at byte " + std::to_string(i);
    reason = r;
    return false;
  }
  static int Hex(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  }
  bool Hex4(uint32_t* v) {
    if (i + 4 > s.size()) return false;
    *v = 0;
    for (int k = 0; k < 4; ++k) {
      int h = Hex(s[i + k]);
      if (h < 0) return false;
      *v = *v * 16 + static_cast<uint32_t>(h);
    }
    i += 4;
    return true;
  }
  void Utf8(uint32_t cp) {
    if (cp < 0x80) {
      scratch->push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
      scratch->push_back(static_cast<char>(0xC0 | (cp >> 6)));
      scratch->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
      scratch->push_back(static_cast<char>(0xE0 | (cp >> 12)));
      scratch->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      scratch->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
      scratch->push_back(static_cast<char>(0xF0 | (cp >> 18)));
      scratch->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
      scratch->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      scratch->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
  }
  // At '"': the decoded string.
  bool String(std::string_view* out) {
    ++i;
    size_t start = scratch->size();
    size_t raw_start = i;
    while (true) {
      if (i >= s.size()) return Fail("unterminated string");
      char c = s[i];
      if (c == '"') { ++i; break; }
      if (static_cast<unsigned char>(c) < 0x20) return Fail("control character in a string");
      if (c != '\\') { scratch->push_back(c); ++i; continue; }
      if (++i >= s.size()) return Fail("unterminated string");
      char e = s[i++];
      switch (e) {
        case '"': scratch->push_back('"'); break;
        case '\\': scratch->push_back('\\'); break;
        case '/': scratch->push_back('/'); break;
        case 'b': scratch->push_back('\b'); break;
        case 'f': scratch->push_back('\f'); break;
        case 'n': scratch->push_back('\n'); break;
        case 'r': scratch->push_back('\r'); break;
        case 't': scratch->push_back('\t'); break;
        case 'u': {
          uint32_t cp;
          if (!Hex4(&cp)) return Fail("bad \\u escape");
          if (cp >= 0xD800 && cp <= 0xDBFF) {
            uint32_t lo;
            if (i + 2 > s.size() || s[i] != '\\' || s[i + 1] != 'u') return Fail("lone surrogate");
            i += 2;
            if (!Hex4(&lo) || lo < 0xDC00 || lo > 0xDFFF) return Fail("lone surrogate");
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
            return Fail("lone surrogate");
          }
          Utf8(cp);
          break;
        }
        default: return Fail(std::string("bad escape \\") + e);
      }
    }
    (void)raw_start;
    *out = std::string_view(scratch->data() + start, scratch->size() - start);
    size_t valid = Utf8ValidPrefix(*out);
    if (valid != out->size())
      return Fail("invalid UTF-8 in a string (byte " + std::to_string(valid) + " of it)",
                  BadLineReason::kInvalidUtf8);
    return true;
  }
  // A scalar value: strings decoded, numbers/booleans as their text; *null for null.
  bool Value(std::string_view* out, bool* null) {
    *null = false;
    if (i >= s.size()) return Fail("missing value");
    char c = s[i];
    if (c == '"') return String(out);
    if (c == '{' || c == '[') return Fail("nested objects and arrays are not supported");
    if (s.substr(i, 4) == "null") { i += 4; *null = true; return true; }
    if (s.substr(i, 4) == "true") { *out = s.substr(i, 4); i += 4; return true; }
    if (s.substr(i, 5) == "false") { *out = s.substr(i, 5); i += 5; return true; }
    size_t start = i;
    if (i < s.size() && s[i] == '-') ++i;
    size_t d0 = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    if (i == d0 || (s[d0] == '0' && i - d0 > 1)) return Fail("bad value");
    if (i < s.size() && s[i] == '.') {
      size_t f0 = ++i;
      while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
      if (i == f0) return Fail("bad number");
    }
    if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
      ++i;
      if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
      size_t e0 = i;
      while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
      if (i == e0) return Fail("bad number");
    }
    *out = s.substr(start, i - start);
    return true;
  }
};

}  // namespace

bool LineParser::ParseJson(std::string_view line, ParsedRecord* rec, BadLine* bad) {
  ResetScratch(line.size());
  size_t valid = Utf8ValidPrefix(line);
  if (valid != line.size())
    return Bad(bad, BadLineReason::kInvalidUtf8,
               "invalid UTF-8 at byte " + std::to_string(valid) + " (JSON text must be UTF-8)");
  JsonReader j{line, 0, &scratch_, {}, BadLineReason::kBadJson};
  j.Ws();
  if (j.i >= line.size() || line[j.i] != '{')
    return Bad(bad, BadLineReason::kBadJson,
               "not a JSON object (a line must be {\"column\": value, ...})");
  ++j.i;
  // Keys and values in order; values become fields once the layout is known.
  struct KV { std::string_view key, value; bool null; };
  thread_local std::vector<KV> kvs;
  kvs.clear();
  j.Ws();
  if (j.i < line.size() && line[j.i] == '}') {
    ++j.i;
  } else {
    while (true) {
      j.Ws();
      if (j.i >= line.size() || line[j.i] != '"') {
        j.Fail("expected a string key");
        return Bad(bad, j.reason, j.error);
      }
      KV kv{};
      if (!j.String(&kv.key)) return Bad(bad, j.reason, j.error);
      j.Ws();
      if (j.i >= line.size() || line[j.i] != ':') {
        j.Fail("expected ':'");
        return Bad(bad, j.reason, j.error);
      }
      ++j.i;
      j.Ws();
      if (!j.Value(&kv.value, &kv.null)) return Bad(bad, j.reason, j.error);
      kvs.push_back(kv);
      j.Ws();
      if (j.i < line.size() && line[j.i] == ',') { ++j.i; continue; }
      if (j.i < line.size() && line[j.i] == '}') { ++j.i; break; }
      j.Fail("expected ',' or '}'");
      return Bad(bad, j.reason, j.error);
    }
  }
  j.Ws();
  if (j.i != line.size()) {
    j.Fail("text after the object");
    return Bad(bad, j.reason, j.error);
  }
  for (size_t a = 0; a < kvs.size(); ++a)
    for (size_t b = a + 1; b < kvs.size(); ++b)
      if (kvs[a].key == kvs[b].key)
        return Bad(bad, BadLineReason::kBadJson, "duplicate key \"" + Escaped(kvs[a].key) + "\"");

  const ColumnLayout* layout = layout_;
  if (!layout) {
    // The line's keys are its spec; lines with the same keys share one validated layout.
    json_signature_.clear();
    for (auto& kv : kvs) {
      json_signature_.append(kv.key);
      json_signature_.push_back('\0');
    }
    auto it = json_layouts_.find(json_signature_);
    if (it == json_layouts_.end()) {
      json_keys_.clear();
      for (auto& kv : kvs) json_keys_.emplace_back(kv.key);
      auto l = ColumnLayoutFromNames(json_keys_, options_.qualifier_encoding, "JSON keys");
      if (!l.ok()) return Bad(bad, BadLineReason::kUnknownColumn, l.status().message());
      if (json_layouts_.size() > 4096) json_layouts_.clear();
      it = json_layouts_.emplace(json_signature_, std::make_unique<ColumnLayout>(std::move(*l)))
               .first;
    }
    layout = it->second.get();
    fields_.assign(kvs.size(), Field{});
    for (size_t k = 0; k < kvs.size(); ++k)
      if (!kvs[k].null) fields_[k] = Field{kvs[k].value, true};
  } else {
    fields_.assign(layout->columns.size(), Field{});
    for (auto& kv : kvs) {
      int idx = layout->IndexOf(kv.key);
      if (idx < 0)
        return Bad(bad, BadLineReason::kUnknownColumn,
                   "key \"" + Escaped(kv.key) + "\" is not in the column spec");
      if (!kv.null) fields_[idx] = Field{kv.value, true};
    }
  }
  return Assemble(*layout, rec, bad);
}

RecordReader::RecordReader(const ImportOptions& options, LineSource* source,
                           int64_t default_timestamp)
    : options_(options), source_(source), parser_(options, default_timestamp) {}

Status RecordReader::ReadHeader(const Line& line) {
  std::vector<std::string> names;
  std::string error;
  bool incomplete = false;
  std::string what = "header of " + *line.input;
  if (!parser_.SplitCsv(line.text, &names, &error, &incomplete))
    return Status::InvalidArgument(what + " (line 1): " + error);
  HFILE_ASSIGN_OR_RETURN(ColumnLayout layout,
                         ColumnLayoutFromNames(names, options_.qualifier_encoding, what));
  header_layout_ = std::move(layout);
  parser_.SetLayout(&*header_layout_);
  return Status::OK();
}

Result<RecordReader::Event> RecordReader::Next(ParsedRecord* rec, BadLine* bad) {
  while (true) {
    if (!pending_) {
      HFILE_ASSIGN_OR_RETURN(bool more, source_->Next(&line_));
      if (!more) return Event::kEnd;
      ++stats_.lines;
    }
    pending_ = false;
    Line line = line_;
    bool ok = false;
    auto fill = [&](const Line& at) {
      bad->input = *at.input;
      bad->line_number = at.line_number;
      bad->offset = at.offset;
      rec->input = at.input;
      rec->line_number = at.line_number;
      rec->offset = at.offset;
    };
    if (options_.format == InputFormat::kCsv) {
      if (source_->AtInputStart()) {
        header_line_.clear();
        CsvHeader h = options_.EffectiveCsvHeader();
        if (h != CsvHeader::kNone) header_line_.assign(line.text);
        if (h == CsvHeader::kUse) {
          ++stats_.header_lines;
          HFILE_RETURN_IF_ERROR(ReadHeader(line));
          continue;
        }
        if (h == CsvHeader::kSkip) {
          ++stats_.header_lines;
          continue;
        }
      }
      // A record may continue over the next lines while a quote is open.
      Line first = line;
      std::string_view text = line.text;
      bool incomplete = false;
      ok = parser_.ParseCsv(text, rec, bad, &incomplete);
      const bool multiline = incomplete;
      if (incomplete) {
        record_.assign(line.text);
        std::string term(line.terminator);
        while (incomplete) {
          HFILE_ASSIGN_OR_RETURN(bool more, source_->Next(&line_));
          if (!more) break;
          ++stats_.lines;
          if (line_.input_index != first.input_index) {
            pending_ = true;  // the next input's first line: handled on the next call
            break;
          }
          // The record_ text changes only before a parse, so the views stay valid after it.
          record_.append(term);
          record_.append(line_.text);
          term.assign(line_.terminator);
          if (record_.size() > options_.max_line_bytes)
            return Status::InvalidArgument(*first.input + ": the CSV record starting at line " +
                                           std::to_string(first.line_number) + " is longer than " +
                                           std::to_string(options_.max_line_bytes) +
                                           " bytes (an unbalanced quote?)");
          ok = parser_.ParseCsv(record_, rec, bad, &incomplete);
        }
      }
      fill(first);
      rec->raw = multiline ? std::string_view(record_) : first.text;
      if (!ok) {
        bad->text = Escaped(multiline ? std::string_view(record_) : first.text);
      }
    } else {
      ok = options_.format == InputFormat::kJsonLines ? parser_.ParseJson(line.text, rec, bad)
                                                      : parser_.ParseTsv(line.text, rec, bad);
      fill(line);
      rec->raw = line.text;
      if (!ok) bad->text = Escaped(line.text);
    }
    if (!ok) {
      ++stats_.bad_lines;
      ++stats_.bad_by_reason[bad->reason];
      return Event::kBadLine;
    }
    stats_.empty_fields_skipped = parser_.empty_fields_skipped();
    rec->ordinal = ordinal_++;
    ++stats_.records;
    stats_.cells += rec->cells.size();
    return Event::kRecord;
  }
}

}  // namespace hfile::region
