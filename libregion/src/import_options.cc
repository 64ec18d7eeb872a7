#include "region/import_options.h"

#include <cctype>
#include <charconv>
#include <set>

namespace hfile::region {

namespace {

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Java's String.trim() removes every char <= ' ' on both ends; Guava's trimResults() (what
// TsvParser uses) removes CharMatcher.whitespace(). For ASCII they agree on space, \t, \n, \v,
// \f, \r; Guava also trims Unicode spaces, which we leave (a family with U+00A0 in it fails the
// family-name check with a clear message instead).
std::string_view Trim(std::string_view s) {
  auto ws = [](char c) { return c == ' ' || (c >= '\t' && c <= '\r'); };
  while (!s.empty() && ws(s.front())) s.remove_prefix(1);
  while (!s.empty() && ws(s.back())) s.remove_suffix(1);
  return s;
}

}  // namespace

size_t Utf8ValidPrefix(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    size_t n;
    uint32_t cp;
    if (c < 0x80) { ++i; continue; }
    if (c >= 0xC2 && c <= 0xDF) { n = 1; cp = c & 0x1F; }
    else if (c >= 0xE0 && c <= 0xEF) { n = 2; cp = c & 0x0F; }
    else if (c >= 0xF0 && c <= 0xF4) { n = 3; cp = c & 0x07; }
    else return i;
    if (i + n >= s.size()) return i;
    for (size_t k = 1; k <= n; ++k) {
      unsigned char d = static_cast<unsigned char>(s[i + k]);
      if ((d & 0xC0) != 0x80) return i;
      cp = (cp << 6) | (d & 0x3F);
    }
    if ((n == 2 && cp < 0x800) || (n == 3 && (cp < 0x10000 || cp > 0x10FFFF)) ||
        (cp >= 0xD800 && cp <= 0xDFFF))
      return i;
    i += n + 1;
  }
  return s.size();
}

namespace {

std::string Printable(std::string_view s) {
  std::string out;
  for (unsigned char c : s) {
    if (c >= ' ' && c <= '~' && c != '\\') {
      out.push_back(static_cast<char>(c));
    } else {
      static const char kHex[] = "0123456789ABCDEF";
      out += "\\x";
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 15]);
    }
  }
  return out;
}

// HBase's ColumnFamilyDescriptorBuilder.isLegalColumnFamilyName, plus KeyValue's 127-byte limit.
Status CheckFamily(std::string_view fam, std::string_view entry, std::string_view what) {
  auto bad = [&](std::string_view why) {
    return Status::InvalidArgument(std::string(what) + ": column '" + Printable(entry) + "': " +
                                   std::string(why));
  };
  if (fam.empty()) return bad("the family name is empty");
  if (fam.size() > 127) return bad("the family name is longer than 127 bytes (HBase's limit)");
  if (fam.front() == '.') return bad("a family name cannot start with '.'");
  for (unsigned char c : fam) {
    if (c < 0x20 || c == 0x7F || c == '\\' || c == '/')
      return bad("the family name holds an illegal character (control, '\\' or '/')");
  }
  if (fam == "recovered.edits") return bad("'recovered.edits' is reserved by HBase");
  return Status::OK();
}

bool ParseBool(std::string_view v, bool* out) {
  std::string t(Trim(v));
  for (auto& c : t) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (t == "true") { *out = true; return true; }
  if (t == "false") { *out = false; return true; }
  return false;
}

// Hadoop Configuration.getLong: trimmed, optional sign, decimal or 0x hex. We also refuse < 0.
bool ParseTimestamp(std::string_view v, int64_t* out) {
  std::string_view t = Trim(v);
  int base = 10;
  if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) {
    t.remove_prefix(2);
    base = 16;
  } else if (!t.empty() && t[0] == '+') {
    t.remove_prefix(1);
  }
  if (t.empty() || t[0] == '-' || t[0] == '+') return false;
  auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), *out, base);
  return ec == std::errc() && p == t.data() + t.size();
}

Result<ByteEncoding> ParseEncoding(std::string_view flag, std::string_view v) {
  if (v == "raw") return ByteEncoding::kRaw;
  if (v == "escaped" || v == "binary") return ByteEncoding::kEscaped;
  if (v == "hex") return ByteEncoding::kHex;
  return Status::InvalidArgument(std::string(flag) + ": '" + std::string(v) +
                                 "' is not one of raw, escaped, hex");
}

}  // namespace

std::string_view InputFormatName(InputFormat f) {
  switch (f) {
    case InputFormat::kTsv: return "tsv";
    case InputFormat::kCsv: return "csv";
    case InputFormat::kJsonLines: return "json";
  }
  return "?";
}

std::string_view ByteEncodingName(ByteEncoding e) {
  switch (e) {
    case ByteEncoding::kRaw: return "raw";
    case ByteEncoding::kEscaped: return "escaped";
    case ByteEncoding::kHex: return "hex";
  }
  return "?";
}

bool DecodeBytes(std::string_view text, ByteEncoding enc, std::string* out, std::string* error) {
  switch (enc) {
    case ByteEncoding::kRaw:
      out->append(text);
      return true;
    case ByteEncoding::kEscaped:
      for (size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '\\' && i + 1 < text.size() && text[i + 1] == 'x') {
          int hi = i + 2 < text.size() ? HexDigit(text[i + 2]) : -1;
          int lo = i + 3 < text.size() ? HexDigit(text[i + 3]) : -1;
          if (hi < 0 || lo < 0) {
            if (error) *error = "malformed \\x escape at byte " + std::to_string(i);
            return false;
          }
          out->push_back(static_cast<char>(hi * 16 + lo));
          i += 3;
        } else {
          out->push_back(text[i]);
        }
      }
      return true;
    case ByteEncoding::kHex:
      if (text.size() % 2 != 0) {
        if (error) *error = "odd number of hex digits (" + std::to_string(text.size()) + ")";
        return false;
      }
      for (size_t i = 0; i < text.size(); i += 2) {
        int hi = HexDigit(text[i]), lo = HexDigit(text[i + 1]);
        if (hi < 0 || lo < 0) {
          if (error) *error = "not a hex digit at byte " + std::to_string(hi < 0 ? i : i + 1);
          return false;
        }
        out->push_back(static_cast<char>(hi * 16 + lo));
      }
      return true;
  }
  return false;
}

int ColumnLayout::IndexOf(std::string_view name) const {
  for (size_t i = 0; i < columns.size(); ++i)
    if (columns[i].text == name) return static_cast<int>(i);
  return -1;
}

Result<ColumnLayout> ColumnLayoutFromNames(const std::vector<std::string>& names,
                                           ByteEncoding qualifier_encoding,
                                           std::string_view what) {
  ColumnLayout layout;
  auto err = [&](const std::string& msg) {
    return Status::InvalidArgument(std::string(what) + ": " + msg);
  };
  int rowkeys = 0;
  std::set<std::pair<std::string, std::string>> seen;
  for (size_t i = 0; i < names.size(); ++i) {
    std::string_view e = Trim(names[i]);
    ColumnSpec col;
    col.text = std::string(e);
    const std::string pos = "column " + std::to_string(i + 1);
    if (e.empty()) return err(pos + " is empty (a stray or trailing ',')");
    size_t valid = Utf8ValidPrefix(e);
    if (valid != e.size())
      return err(pos + " '" + Printable(e) + "' is not valid UTF-8 (at byte " +
                 std::to_string(valid) + ")");
    auto special = [&](int* index, ColumnSpec::Kind kind, const char* name) -> Status {
      if (*index >= 0)
        return err("at most one column may be " + std::string(name) + " (columns " +
                   std::to_string(*index + 1) + " and " + std::to_string(i + 1) + ")");
      *index = static_cast<int>(i);
      col.kind = kind;
      return Status::OK();
    };
    Status st;
    if (e == "HBASE_ROW_KEY") {
      ++rowkeys;
      layout.row_key = static_cast<int>(i);
      col.kind = ColumnSpec::Kind::kRowKey;
    } else if (e == "HBASE_TS_KEY") {
      st = special(&layout.timestamp, ColumnSpec::Kind::kTimestamp, "HBASE_TS_KEY");
    } else if (e == "HBASE_ATTRIBUTES_KEY") {
      st = special(&layout.attributes, ColumnSpec::Kind::kAttributes, "HBASE_ATTRIBUTES_KEY");
    } else if (e == "HBASE_CELL_VISIBILITY") {
      st = special(&layout.visibility, ColumnSpec::Kind::kVisibility, "HBASE_CELL_VISIBILITY");
    } else if (e == "HBASE_CELL_TTL") {
      st = special(&layout.ttl, ColumnSpec::Kind::kTtl, "HBASE_CELL_TTL");
    } else {
      size_t colon = e.find(':');
      std::string_view fam = colon == std::string_view::npos ? e : e.substr(0, colon);
      std::string_view qual = colon == std::string_view::npos ? std::string_view() :
                                                                e.substr(colon + 1);
      HFILE_RETURN_IF_ERROR(CheckFamily(fam, e, what));
      col.family = std::string(fam);
      std::string why;
      if (!DecodeBytes(qual, qualifier_encoding, &col.qualifier, &why))
        return err(pos + " '" + Printable(e) + "': qualifier is not " +
                   std::string(ByteEncodingName(qualifier_encoding)) + ": " + why);
      if (!seen.emplace(col.family, col.qualifier).second)
        return err(pos + " '" + Printable(e) + "' repeats an earlier column");
      ++layout.cell_columns;
    }
    HFILE_RETURN_IF_ERROR(st);
    layout.columns.push_back(std::move(col));
  }
  if (rowkeys != 1)
    return err("Must specify exactly one column as HBASE_ROW_KEY (found " +
               std::to_string(rowkeys) + ")");
  if (layout.cell_columns == 0)
    return err("One or more columns in addition to the row key and timestamp(optional) are "
               "required: give at least one family or family:qualifier column");
  return layout;
}

Result<ColumnLayout> ParseColumnSpec(std::string_view spec, ByteEncoding qualifier_encoding) {
  std::vector<std::string> names;
  size_t start = 0;
  while (true) {
    size_t comma = spec.find(',', start);
    names.emplace_back(spec.substr(start, comma == std::string_view::npos ? spec.npos
                                                                          : comma - start));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  if (Trim(spec).empty())
    return Status::InvalidArgument(
        "No columns specified. Please specify with -Dimporttsv.columns=... or --columns");
  return ColumnLayoutFromNames(names, qualifier_encoding, "importtsv.columns");
}

CsvHeader ImportOptions::EffectiveCsvHeader() const {
  if (csv_header != CsvHeader::kAuto) return csv_header;
  return columns_spec.empty() ? CsvHeader::kUse : CsvHeader::kNone;
}

namespace {

// Plain-flag separators may be written \t, tab, \xNN, \\ (or one byte as is).
bool ParseFlagSeparator(std::string_view v, char* out) {
  if (v.size() == 1) { *out = v[0]; return true; }
  if (v == "\\t" || v == "tab" || v == "TAB") { *out = '\t'; return true; }
  if (v == "\\\\") { *out = '\\'; return true; }
  if (v.size() == 4 && v[0] == '\\' && v[1] == 'x' && HexDigit(v[2]) >= 0 && HexDigit(v[3]) >= 0) {
    *out = static_cast<char>(HexDigit(v[2]) * 16 + HexDigit(v[3]));
    return true;
  }
  return false;
}

struct Setter {
  ImportOptions* o;
  std::map<std::string, std::string> last;  // setting -> value, for "given twice" warnings
  std::string separator_text;
  bool separator_from_flag = false;

  void Note(const std::string& key, std::string_view value) {
    auto it = last.find(key);
    if (it != last.end() && it->second != value)
      o->warnings.push_back(key + " given twice ('" + Printable(it->second) + "' and '" +
                            Printable(value) + "'): the last one is used");
    last[key] = std::string(value);
  }

  Status Bool(const std::string& key, std::optional<std::string_view> v, bool* dst) {
    Note(key, v ? *v : "true");
    if (!v) { *dst = true; return Status::OK(); }
    if (!ParseBool(*v, dst))
      return Status::InvalidArgument(key + "='" + Printable(*v) +
                                     "': not a boolean (true or false)");
    return Status::OK();
  }

  // One setting, by its ImportTsv property name; v is nullopt for a bare -Dkey / plain switch.
  Status Set(const std::string& key, std::optional<std::string_view> v, bool from_flag) {
    auto need = [&]() -> Status {
      if (!v) return Status::InvalidArgument(key + " needs a value");
      return Status::OK();
    };
    if (key == "importtsv.columns") {
      HFILE_RETURN_IF_ERROR(need());
      Note(key, *v);
      o->columns_spec = std::string(*v);
    } else if (key == "importtsv.separator") {
      HFILE_RETURN_IF_ERROR(need());
      Note(key, *v);
      separator_text = std::string(*v);
      separator_from_flag = from_flag;
      o->separator_set = true;
    } else if (key == "importtsv.bulk.output") {
      HFILE_RETURN_IF_ERROR(need());
      Note(key, *v);
      o->bulk_output = std::string(*v);
    } else if (key == "importtsv.skip.bad.lines") {
      return Bool(key, v, &o->skip_bad_lines);
    } else if (key == "importtsv.log.bad.lines") {
      return Bool(key, v, &o->log_bad_lines);
    } else if (key == "importtsv.skip.empty.columns") {
      return Bool(key, v, &o->skip_empty_columns);
    } else if (key == "importtsv.timestamp") {
      HFILE_RETURN_IF_ERROR(need());
      Note(key, *v);
      int64_t ts;
      if (!ParseTimestamp(*v, &ts))
        return Status::InvalidArgument("importtsv.timestamp='" + Printable(*v) +
                                       "': not a non-negative integer (milliseconds)");
      o->timestamp = ts;
    } else if (key == "attributes.seperator") {
      HFILE_RETURN_IF_ERROR(need());
      if (v->empty()) return Status::InvalidArgument("attributes.seperator is empty");
      Note(key, *v);
      o->attributes_separator = std::string(*v);
    } else if (key == "importtsv.mapper.class") {
      return Status::NotSupported("importtsv.mapper.class: a custom mapper cannot run offline; "
                                  "only ImportTsv's default TsvImporterMapper parsing is done");
    } else {
      return Status::NotFound(key);
    }
    return Status::OK();
  }
};

// Known ImportTsv/MapReduce properties without effect here.
bool IsInertProperty(std::string_view key) {
  static const char* const kKnown[] = {"importtsv.dry.run", "create.table", "no.strict",
                                       "mapreduce.job.name", "credentials_location"};
  for (const char* k : kKnown)
    if (key == k) return true;
  for (std::string_view prefix : {"hbase.", "hfile.", "mapreduce.", "mapred.", "dfs.", "fs.",
                                  "io.", "yarn.", "hadoop."})
    if (key.substr(0, prefix.size()) == prefix) return true;
  return false;
}

}  // namespace

Result<ImportOptions> ParseImportArgs(const std::vector<std::string>& args) {
  ImportOptions o;
  Setter set{&o, {}, {}, false};
  bool format_set = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.size() >= 2 && a[0] == '-' && a[1] == 'D') {
      std::string kv = a.substr(2);
      if (kv.empty()) {
        if (i + 1 >= args.size()) return Status::InvalidArgument("-D needs key=value");
        kv = args[++i];
      }
      size_t eq = kv.find('=');
      std::string key = kv.substr(0, eq);
      std::optional<std::string_view> value;
      if (eq != std::string::npos) value = std::string_view(kv).substr(eq + 1);
      if (key.empty()) return Status::InvalidArgument("-D" + kv + ": empty property name");
      Status st = set.Set(key, value, false);
      if (st.IsNotFound()) {
        if (IsInertProperty(key)) {
          o.properties[key] = value ? std::string(*value) : "true";
          o.warnings.push_back("-D" + key + " has no effect here (offline; no MapReduce job, no "
                               "table creation); kept for the writer");
        } else if (key.rfind("importtsv.", 0) == 0) {
          return Status::InvalidArgument(
              "-D" + key + ": not an ImportTsv property (known: importtsv.columns, separator, "
              "bulk.output, skip.bad.lines, log.bad.lines, skip.empty.columns, timestamp, "
              "dry.run, mapper.class)");
        } else {
          o.properties[key] = value ? std::string(*value) : "true";
          o.warnings.push_back("-D" + key + " is not an ImportTsv property; kept, no effect here");
        }
        continue;
      }
      HFILE_RETURN_IF_ERROR(st);
      continue;
    }
    if (a.size() > 2 && a[0] == '-' && a[1] == '-') {
      std::string flag = a.substr(2);
      std::optional<std::string> inline_value;
      size_t eq = flag.find('=');
      if (eq != std::string::npos) {
        inline_value = flag.substr(eq + 1);
        flag.resize(eq);
      }
      auto value = [&]() -> Result<std::string> {
        if (inline_value) return *inline_value;
        if (i + 1 >= args.size()) return Status::InvalidArgument("--" + flag + " needs a value");
        return args[++i];
      };
      auto sw = [&](const char* key) -> Status {
        std::optional<std::string_view> v;
        if (inline_value) v = *inline_value;
        return set.Set(key, v, true);
      };
      static const std::map<std::string, std::string> kValued = {
          {"columns", "importtsv.columns"},       {"separator", "importtsv.separator"},
          {"bulk-output", "importtsv.bulk.output"}, {"timestamp", "importtsv.timestamp"},
          {"attributes-separator", "attributes.seperator"}};
      static const std::map<std::string, std::string> kSwitch = {
          {"skip-bad-lines", "importtsv.skip.bad.lines"},
          {"log-bad-lines", "importtsv.log.bad.lines"},
          {"skip-empty-columns", "importtsv.skip.empty.columns"}};
      if (auto it = kValued.find(flag); it != kValued.end()) {
        HFILE_ASSIGN_OR_RETURN(std::string v, value());
        HFILE_RETURN_IF_ERROR(set.Set(it->second, std::string_view(v), true));
      } else if (auto it2 = kSwitch.find(flag); it2 != kSwitch.end()) {
        HFILE_RETURN_IF_ERROR(sw(it2->second.c_str()));
      } else if (flag == "format") {
        HFILE_ASSIGN_OR_RETURN(std::string v, value());
        if (v == "tsv") o.format = InputFormat::kTsv;
        else if (v == "csv") o.format = InputFormat::kCsv;
        else if (v == "json" || v == "jsonl" || v == "ndjson") o.format = InputFormat::kJsonLines;
        else return Status::InvalidArgument("--format '" + v + "' is not one of tsv, csv, json");
        format_set = true;
      } else if (flag == "row-encoding") {
        HFILE_ASSIGN_OR_RETURN(std::string v, value());
        HFILE_ASSIGN_OR_RETURN(o.row_encoding, ParseEncoding("--row-encoding", v));
      } else if (flag == "qualifier-encoding") {
        HFILE_ASSIGN_OR_RETURN(std::string v, value());
        HFILE_ASSIGN_OR_RETURN(o.qualifier_encoding, ParseEncoding("--qualifier-encoding", v));
      } else if (flag == "value-encoding") {
        HFILE_ASSIGN_OR_RETURN(std::string v, value());
        HFILE_ASSIGN_OR_RETURN(o.value_encoding, ParseEncoding("--value-encoding", v));
      } else if (flag == "ttl-format") {
        HFILE_ASSIGN_OR_RETURN(std::string v, value());
        if (v == "auto") o.ttl_format = TtlFormat::kAuto;
        else if (v == "raw") o.ttl_format = TtlFormat::kRaw;
        else if (v == "decimal") o.ttl_format = TtlFormat::kDecimal;
        else return Status::InvalidArgument("--ttl-format '" + v +
                                            "' is not one of auto, raw, decimal");
      } else if (flag == "csv-header") {
        HFILE_ASSIGN_OR_RETURN(std::string v, value());
        if (v == "auto") o.csv_header = CsvHeader::kAuto;
        else if (v == "use") o.csv_header = CsvHeader::kUse;
        else if (v == "skip") o.csv_header = CsvHeader::kSkip;
        else if (v == "none") o.csv_header = CsvHeader::kNone;
        else return Status::InvalidArgument("--csv-header '" + v +
                                            "' is not one of auto, use, skip, none");
      } else if (flag == "max-line-bytes") {
        HFILE_ASSIGN_OR_RETURN(std::string v, value());
        size_t n = 0;
        auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
        if (ec != std::errc() || p != v.data() + v.size() || n == 0)
          return Status::InvalidArgument("--max-line-bytes '" + v + "': not a positive integer");
        o.max_line_bytes = n;
      } else {
        return Status::InvalidArgument("unknown option --" + flag);
      }
      continue;
    }
    if (a.size() > 1 && a[0] == '-') return Status::InvalidArgument("unknown option " + a);
    o.positional.push_back(a);  // includes "-" (stdin)
    o.positional_index.push_back(i);
  }

  // Separator.
  if (o.separator_set) {
    const std::string& s = set.separator_text;
    char c = 0;
    bool ok = set.separator_from_flag ? ParseFlagSeparator(s, &c) : s.size() == 1;
    if (ok && !set.separator_from_flag) c = s[0];
    if (!ok)
      return Status::InvalidArgument(
          "importtsv.separator '" + Printable(s) + "' is " + std::to_string(s.size()) +
          " bytes: TsvParser only supports single-byte separators" +
          (set.separator_from_flag ? std::string(" (--separator also takes \\t, tab, \\xNN)")
                                   : std::string(" (for a tab pass a literal tab, or "
                                                 "--separator '\\t')")));
    if (c == '\n' || c == '\r')
      return Status::InvalidArgument("importtsv.separator cannot be a line terminator");
    if (o.format == InputFormat::kCsv && c == '"')
      return Status::InvalidArgument("the CSV separator cannot be the quote character '\"'");
    o.separator = c;
  } else {
    o.separator = o.format == InputFormat::kCsv ? ',' : '\t';
  }
  if (o.format == InputFormat::kJsonLines && o.separator_set)
    o.warnings.push_back("importtsv.separator has no effect on JSON lines");
  (void)format_set;

  // Columns.
  if (!o.columns_spec.empty()) {
    HFILE_ASSIGN_OR_RETURN(ColumnLayout layout,
                           ParseColumnSpec(o.columns_spec, o.qualifier_encoding));
    o.layout = std::move(layout);
    if (o.layout->timestamp >= 0 && o.timestamp)
      o.warnings.push_back("importtsv.timestamp is ignored: HBASE_TS_KEY gives each line's "
                           "timestamp (as in ImportTsv)");
  } else if (o.format == InputFormat::kTsv) {
    return Status::InvalidArgument(
        "No columns specified. Please specify with -Dimporttsv.columns=... or --columns");
  } else if (o.format == InputFormat::kCsv && o.EffectiveCsvHeader() != CsvHeader::kUse) {
    return Status::InvalidArgument("CSV without a header line (--csv-header " +
                                   std::string(o.csv_header == CsvHeader::kSkip ? "skip" : "none") +
                                   ") needs --columns / -Dimporttsv.columns");
  }
  if (o.format == InputFormat::kCsv && o.csv_header == CsvHeader::kUse && !o.columns_spec.empty())
    return Status::InvalidArgument(
        "--csv-header use takes the columns from each input's first line, and --columns gives "
        "them too: drop --columns, or pass --csv-header skip to skip the header line");
  if (o.format != InputFormat::kCsv && o.csv_header != CsvHeader::kAuto)
    o.warnings.push_back("--csv-header has no effect on " +
                         std::string(InputFormatName(o.format)));
  return o;
}

}  // namespace hfile::region
