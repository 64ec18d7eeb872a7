// The input side of `hfile bulkload`: ImportTsv's configuration, taken verbatim as Hadoop -D
// properties (-Dimporttsv.columns=HBASE_ROW_KEY,m:title -Dimporttsv.separator=, ...) and as
// plain flags (--columns, --separator, ...), parsed into one ImportOptions and validated with
// the rules ImportTsv applies (ImportTsv.run, ImportTsv.TsvParser, TsvImporterMapper in HBase
// 2.6's hbase-mapreduce), plus the formats and encodings ImportTsv does not have.
//
// Accepted arguments (a value may follow as `--flag=V` or `--flag V`; -D as `-Dk=v` or `-D k=v`):
//
//   -Dimporttsv.columns=SPEC         --columns SPEC        the column spec (below)
//   -Dimporttsv.separator=C          --separator C         one byte; TSV default TAB, CSV ','.
//                                                          The flag also takes \t, \xNN, \\, tab
//   -Dimporttsv.bulk.output=DIR      --bulk-output DIR     where the tool writes (kept as given)
//   -Dimporttsv.skip.bad.lines[=B]   --skip-bad-lines      skip and count bad lines (else fail)
//   -Dimporttsv.log.bad.lines[=B]    --log-bad-lines       also print each bad line's text
//   -Dimporttsv.timestamp=MS         --timestamp MS        one timestamp for every cell
//   -Dimporttsv.skip.empty.columns[=B] --skip-empty-columns  no cell for an empty field
//   -Dattributes.seperator=S         --attributes-separator S   (HBase's spelling) default "=>"
//                                    --format tsv|csv|json input format (default tsv)
//                                    --row-encoding raw|escaped|hex        row key fields
//                                    --qualifier-encoding raw|escaped|hex  qualifiers in the spec
//                                    --value-encoding raw|escaped|hex      value fields
//                                    --ttl-format auto|raw|decimal         HBASE_CELL_TTL fields
//                                    --csv-header auto|use|skip|none       CSV's first line
//                                    --max-line-bytes N    longest line read (default 256 MiB)
//   other -Dimporttsv.* keys          ImportTsv's MapReduce/table settings (dry.run, mapper.class,
//   create.table, no.strict,          ...): importtsv.mapper.class is refused (no custom mapper
//   mapreduce.job.name, -Dhbase.*,    offline); the others are kept in `properties` with a
//   -Dhfile.*, -Dmapreduce.*, ...     warning that they have no effect here
//   anything else starting with '-'   usage error; other arguments are `positional`, in order
//
// Booleans are Hadoop's (trimmed, "true"/"false" in any case); a bare -Dkey or a plain flag is
// true. Repeating a setting: the last one wins, as in Hadoop's Configuration (a warning says so
// when the values differ).
//
// Column spec (importtsv.columns), as ImportTsv reads it: comma-separated entries, each trimmed;
// the special columns HBASE_ROW_KEY (exactly one), HBASE_TS_KEY, HBASE_ATTRIBUTES_KEY,
// HBASE_CELL_VISIBILITY, HBASE_CELL_TTL (at most one each, case-sensitive); every other entry is
// `family:qualifier` (split at the first ':', so the qualifier may contain ':') or `family`
// (empty qualifier). At least one family column is required.
//
// Documented differences from ImportTsv (each where ImportTsv would misbehave):
//  * skip.bad.lines defaults to FALSE: a bad line fails the run unless skipping is asked for.
//  * entries are trimmed before the HBASE_ROW_KEY count too (ImportTsv's CLI check counts the
//    untrimmed entries and rejects " HBASE_ROW_KEY", which its parser accepts).
//  * an empty entry ("a:x,,b:y", a trailing ',') is an error (ImportTsv's parser makes cells with
//    an empty family of it); so are a repeated column (two cells per line with one key),
//    a repeated HBASE_CELL_TTL/HBASE_CELL_VISIBILITY (ImportTsv uses the last and fails on the
//    other), and a spec with only special columns (ImportTsv counts TTL/visibility as data).
//  * family names are checked as HBase checks them when creating a family (non-empty, at most
//    127 bytes, no leading '.', no control character, '\\' or '/'), names must be valid UTF-8.
//  * importtsv.timestamp must be a non-negative integer (Hadoop's getLong would fail the job on
//    garbage); a separator of '\n', '\r' (or '"' in CSV) is refused.
#ifndef REGION_IMPORT_OPTIONS_H_
#define REGION_IMPORT_OPTIONS_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hfile/status.h"

namespace hfile::region {

enum class InputFormat { kTsv, kCsv, kJsonLines };
// How a field's text turns into bytes: as is; Bytes.toStringBinary's \xNN escapes (what
// `hfile dump` prints; any other byte stands for itself); two hex digits per byte.
enum class ByteEncoding { kRaw, kEscaped, kHex };
// HBASE_CELL_TTL fields: kRaw = ImportTsv's 8-byte big-endian long only; kDecimal = decimal
// milliseconds only; kAuto = decimal digits as decimal ms, otherwise exactly 8 bytes as raw.
enum class TtlFormat { kAuto, kRaw, kDecimal };
// CSV first line: kUse = it names the columns (spec tokens); kSkip = skipped (columns from
// --columns); kNone = it is data; kAuto = kUse without --columns, kNone with.
enum class CsvHeader { kAuto, kUse, kSkip, kNone };

std::string_view InputFormatName(InputFormat f);
std::string_view ByteEncodingName(ByteEncoding e);

// Decodes `text` per `enc`, appending to *out. False on a malformed escape or hex digit, with
// *error (if given) saying where. kEscaped accepts exactly what hfile::FromStringBinary accepts.
bool DecodeBytes(std::string_view text, ByteEncoding enc, std::string* out,
                 std::string* error = nullptr);

// Length of the longest valid UTF-8 prefix of s (s.size() when all of it is valid; overlong
// forms, surrogates and code points above U+10FFFF are invalid).
size_t Utf8ValidPrefix(std::string_view s);

// One entry of the column spec.
struct ColumnSpec {
  enum class Kind { kRowKey, kTimestamp, kAttributes, kVisibility, kTtl, kCell };
  Kind kind = Kind::kCell;
  std::string text;       // the trimmed entry as written
  std::string family;     // kCell: family bytes
  std::string qualifier;  // kCell: qualifier bytes (decoded per the qualifier encoding)
};

// The validated spec: one ColumnSpec per input field position.
struct ColumnLayout {
  std::vector<ColumnSpec> columns;
  int row_key = -1;
  int timestamp = -1;   // -1: none
  int attributes = -1;
  int visibility = -1;
  int ttl = -1;
  size_t cell_columns = 0;
  // Field name -> index (for JSON lines and CSV headers): the trimmed entry text.
  int IndexOf(std::string_view name) const;
};

// Parses and validates a comma-separated spec (importtsv.columns).
Result<ColumnLayout> ParseColumnSpec(std::string_view spec,
                                     ByteEncoding qualifier_encoding = ByteEncoding::kRaw);
// The same from a list of already split names (a CSV header line, JSON keys). `what` names the
// source in messages ("importtsv.columns", "header of x.csv").
Result<ColumnLayout> ColumnLayoutFromNames(const std::vector<std::string>& names,
                                           ByteEncoding qualifier_encoding,
                                           std::string_view what);

struct ImportOptions {
  InputFormat format = InputFormat::kTsv;
  std::string columns_spec;               // as given (empty: none given)
  std::optional<ColumnLayout> layout;     // set when columns_spec was given
  char separator = '\t';                  // resolved: TAB for TSV, ',' for CSV unless set
  bool separator_set = false;
  std::string bulk_output;
  bool skip_bad_lines = false;            // ImportTsv's default is true; ours fails the run
  bool log_bad_lines = false;
  bool skip_empty_columns = false;
  std::optional<int64_t> timestamp;       // importtsv.timestamp
  std::string attributes_separator = "=>";
  ByteEncoding row_encoding = ByteEncoding::kRaw;
  ByteEncoding qualifier_encoding = ByteEncoding::kRaw;
  ByteEncoding value_encoding = ByteEncoding::kRaw;
  TtlFormat ttl_format = TtlFormat::kAuto;
  CsvHeader csv_header = CsvHeader::kAuto;
  size_t max_line_bytes = size_t{256} << 20;
  std::vector<std::string> positional;             // non-option arguments, in order
  std::vector<size_t> positional_index;            // where each was in the arguments
  std::map<std::string, std::string> properties;   // -D keys kept without effect here
  std::vector<std::string> warnings;               // to print; never fatal

  // The CSV header mode with kAuto resolved.
  CsvHeader EffectiveCsvHeader() const;
  // The timestamp for cells without HBASE_TS_KEY: importtsv.timestamp, else `now_ms`
  // (ImportTsv: the client's clock once at job submission, so one value for the whole run).
  int64_t DefaultTimestamp(int64_t now_ms) const {
    return timestamp ? *timestamp : now_ms;
  }
};

// Parses the arguments (without the program/tool name). Validation beyond the syntax: the column
// spec (when given), the separator, the timestamp; a missing spec is fine for CSV with a header
// and for JSON lines (names come from the data) and an error for TSV, as in ImportTsv ("No
// columns specified. Please specify with -Dimporttsv.columns=...").
Result<ImportOptions> ParseImportArgs(const std::vector<std::string>& args);

}  // namespace hfile::region

#endif  // REGION_IMPORT_OPTIONS_H_
