// Bulk-load input records: TSV exactly as ImportTsv's TsvParser + TsvImporterMapper parse a line,
// CSV per RFC 4180 with a header line naming the columns, and JSON lines. Each line gives either
// a ParsedRecord (row key, timestamp, TTL, visibility, attributes, and one cell per data field)
// or a BadLine (input, line number, byte offset, reason). Views point into the line and into the
// parser's scratch buffer (no per-cell heap allocation once the buffers have grown); they are
// valid until the next parse.
//
// TSV, rule for rule as ImportTsv (HBase 2.6 ImportTsv.TsvParser.parse, ParsedLine, and
// TsvImporterMapper.map), checked in its order, its reason text first:
//   no separator in the line                    -> "No delimiter" (so an empty line is bad)
//   more fields than spec entries               -> "Excessive columns"
//   fewer fields than the row key's position    -> "No row key"; likewise "No timestamp",
//     "No attributes specified", "No cell visibility specified", "No cell TTL specified"
//   fewer fields than data columns              -> fine: the missing trailing columns give no cell
//   HBASE_TS_KEY not a decimal long (Long.parseLong; blank too) -> "Invalid timestamp <text>"
//   HBASE_CELL_TTL not 8 bytes (Bytes.toLong)   -> bad line (see the TTL difference below)
//   empty row key (new Put(empty) throws)       -> "Row length is 0"
//   row key over 32767 bytes (Put throws)       -> "Row length N is > 32767"
//   an empty field                              -> an empty-value cell, or none with
//                                                  importtsv.skip.empty.columns
//   a TTL is applied only when > 0; without HBASE_TS_KEY every cell gets the one default
//   timestamp (importtsv.timestamp, else the clock once per run); the attributes field is kept
//   but, as ImportTsv's default mapper, applied to nothing.
//
// Documented differences (ours is stricter or does more; ImportTsv would lose or garble data):
//  * HBASE_CELL_TTL also as decimal milliseconds. --ttl-format auto (default): a field of ASCII
//    digits is decimal ms, any other 8-byte field ImportTsv's big-endian long, anything else bad.
//    (Eight digits such as "86400000" would be a raw long of ~3.5e18 ms to ImportTsv.)
//  * HBASE_TS_KEY: a negative timestamp, a '+'/'-' alone and non-ASCII digits (Java's parseLong
//    takes e.g. Arabic-Indic digits) are bad lines.
//  * row keys, qualifiers and values may be \xNN-escaped (as hfile dump prints them) or hex;
//    a malformed escape is a bad line.
//  * duplicates: every record carries `ordinal` (its position over all inputs); the writer keeps
//    the LAST of equal (row, family, qualifier, timestamp) cells. ImportTsv keeps an arbitrary one.
//
// CSV (RFC 4180): fields separated by the separator (default ','), optionally in double quotes;
// a quoted field may hold the separator, "" for a quote, and line breaks (the record then spans
// lines; its line number is its first line's). The first line of each input names the columns
// with the spec's tokens (HBASE_ROW_KEY, fam:qual, ...) unless --csv-header skip/none. Bad:
// a quote inside an unquoted field, text after a closing quote, an unterminated quote, a record
// whose field count differs from the header's (RFC 4180: the same count on every line).
//
// JSON lines: one object per line, keys the spec's tokens (with --columns: keys must be in it;
// without: each line's keys are its spec, validated as importtsv.columns is), values strings,
// numbers or booleans (their JSON text as the bytes) or null (no cell). HBASE_TS_KEY must be
// present when in the spec; missing data keys give no cell. Bad: not an object, nested arrays or
// objects, duplicate keys, invalid escapes, invalid UTF-8, trailing text.
#ifndef REGION_DELIMITED_PARSER_H_
#define REGION_DELIMITED_PARSER_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "hfile/status.h"
#include "region/import_options.h"
#include "region/line_source.h"

namespace hfile::region {

enum class BadLineReason {
  kNoDelimiter,
  kExcessiveColumns,
  kNoRowKey,
  kNoTimestamp,
  kNoAttributes,
  kNoVisibility,
  kNoTtl,
  kInvalidTimestamp,
  kInvalidTtl,
  kEmptyRowKey,
  kRowKeyTooLong,
  kBadEncoding,    // a malformed \xNN escape or hex field
  kColumnCount,    // CSV: field count differs from the header's
  kBadQuoting,     // CSV quoting
  kBadJson,        // JSON syntax or shape
  kUnknownColumn,  // JSON key not in the spec / a line's keys are not a valid spec
  kInvalidUtf8,    // JSON text / CSV header names
};
std::string_view BadLineReasonName(BadLineReason r);

struct ParsedCell {
  std::string_view family;
  std::string_view qualifier;
  std::string_view value;
};

struct ParsedRecord {
  std::string_view row;
  int64_t timestamp = 0;
  bool timestamp_from_line = false;  // HBASE_TS_KEY
  int64_t ttl_ms = 0;                // > 0 only when the line has a TTL ImportTsv would apply
  bool has_visibility = false;
  std::string_view visibility;       // the expression text, unresolved
  bool has_attributes = false;
  std::string_view attributes;       // "k=>v,k2=>v2", unparsed (see SplitAttributes)
  std::vector<ParsedCell> cells;
  const std::string* input = nullptr;
  uint64_t line_number = 0;
  uint64_t offset = 0;
  uint64_t ordinal = 0;  // 0-based over every record of every input, in input order
  // The record's text as read: its line without the terminator, or a multi-line CSV record's
  // lines with the terminators between them (valid until the next RecordReader::Next).
  std::string_view raw;
};

struct BadLine {
  std::string input;
  uint64_t line_number = 0;
  uint64_t offset = 0;
  BadLineReason reason = BadLineReason::kNoDelimiter;
  std::string message;  // ImportTsv's text where it has one, then details
  std::string text;     // the line, \xNN-escaped, at most 256 bytes of it
  // "<input>:<line>: <message> (byte offset N)"
  std::string ToString() const;
};

struct ParseStats {
  uint64_t lines = 0;           // physical lines read (headers included)
  uint64_t header_lines = 0;
  uint64_t records = 0;
  uint64_t cells = 0;
  uint64_t empty_fields_skipped = 0;
  uint64_t bad_lines = 0;
  std::map<BadLineReason, uint64_t> bad_by_reason;
  // "N lines, N records, N cells, N bad lines (reason: N, ...)"
  std::string ToString() const;
};

// Splits an HBASE_ATTRIBUTES_KEY field ("k=>v,k2=>v2") as ImportTsv's ParsedLine does (items on
// ','; key and value on the attributes separator). False if an item has no separator.
bool SplitAttributes(std::string_view field, std::string_view separator,
                     std::vector<std::pair<std::string_view, std::string_view>>* out);

// Parses single lines (TSV, JSON, a one-line CSV record) against a layout.
class LineParser {
 public:
  // `layout` may be null for JSON lines without --columns (and for CSV until SetLayout).
  LineParser(const ImportOptions& options, int64_t default_timestamp);

  void SetLayout(const ColumnLayout* layout) { layout_ = layout; }
  const ColumnLayout* layout() const { return layout_; }
  uint64_t empty_fields_skipped() const { return empty_skipped_; }

  // True and *rec filled, or false and *bad filled (reason and message; the caller adds the
  // input, line and offset).
  bool ParseTsv(std::string_view line, ParsedRecord* rec, BadLine* bad);
  bool ParseJson(std::string_view line, ParsedRecord* rec, BadLine* bad);
  // One CSV record (may contain line breaks inside quotes). *incomplete is set (and false
  // returned) when it ends inside a quoted field.
  bool ParseCsv(std::string_view record, ParsedRecord* rec, BadLine* bad, bool* incomplete);
  // Splits a CSV record into unquoted field texts (for headers). False with *error on bad quoting.
  bool SplitCsv(std::string_view record, std::vector<std::string>* fields, std::string* error,
                bool* incomplete);

 private:
  struct Field {
    std::string_view text;
    bool present = false;
  };
  bool Assemble(const ColumnLayout& layout, ParsedRecord* rec, BadLine* bad);
  bool Bad(BadLine* bad, BadLineReason r, std::string msg);
  void ResetScratch(size_t line_size);
  bool Decode(std::string_view in, ByteEncoding enc, std::string_view* out, std::string* why);
  bool SplitCsvFields(std::string_view record, std::string* error, bool* incomplete);

  const ImportOptions& options_;
  int64_t default_timestamp_;
  const ColumnLayout* layout_ = nullptr;
  std::vector<Field> fields_;
  std::string scratch_;
  std::vector<std::string> json_keys_;
  std::unordered_map<std::string, std::unique_ptr<ColumnLayout>> json_layouts_;
  std::string json_signature_;
  uint64_t empty_skipped_ = 0;
};

// Records from a LineSource: per input the CSV header, multi-line CSV records, line numbers,
// counts. Bad lines are handed to the caller (it fails the run unless options.skip_bad_lines).
class RecordReader {
 public:
  enum class Event { kRecord, kBadLine, kEnd };
  // Without a layout in `options` (CSV with header, JSON lines), the names come from the data.
  RecordReader(const ImportOptions& options, LineSource* source, int64_t default_timestamp);

  // The next record or bad line; an error Status for what stops reading (I/O, corrupt
  // compressed data, a CSV header that is not a valid spec).
  Result<Event> Next(ParsedRecord* rec, BadLine* bad);
  const ParseStats& stats() const { return stats_; }
  // The CSV header line of the current input as read (used or skipped), "" if none.
  const std::string& header_line() const { return header_line_; }

 private:
  Status ReadHeader(const Line& line);

  const ImportOptions& options_;
  LineSource* source_;
  LineParser parser_;
  ParseStats stats_;
  std::optional<ColumnLayout> header_layout_;
  std::string record_;  // a multi-line CSV record
  std::string header_line_;
  Line line_;
  bool pending_ = false;  // line_ holds a line not yet consumed
  uint64_t ordinal_ = 0;
};

}  // namespace hfile::region

#endif  // REGION_DELIMITED_PARSER_H_
