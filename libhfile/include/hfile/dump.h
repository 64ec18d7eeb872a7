// DumpFile: what `hfile dump` shows of one HFile, as text in HFilePrettyPrinter's layout or as
// JSON lines. All the logic of the tool lives here so that it is tested in-process.
#ifndef HFILE_DUMP_H_
#define HFILE_DUMP_H_

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>

#include "hfile/reader.h"
#include "hfile/status.h"

namespace hfile {

enum class ByteFormat : uint8_t { kEscaped, kHex };  // \xNN (Bytes.toStringBinary) or hex

struct DumpOptions {
  bool print_cells = false;          // -p: keys and values
  bool print_keys = false;           // -e: keys only
  bool print_meta = false;           // -m: trailer, file info, mid-key, blooms
  bool print_block_index = false;    // -b: every level of the data index and the meta index
  bool print_block_headers = false;  // -h: the header of every block in the file
  bool check_row_order = false;      // -k: report rows out of order
  bool print_stats = false;          // -s: size statistics and the largest rows
  bool verbose = false;              // -v
  bool json = false;                 // JSON lines instead of text
  // --hpp: -m, -s, -b and -h print exactly what HBase 2.6's HFilePrettyPrinter prints (text
  // only); the default output is richer (see hfile-dump(1), "HFilePrettyPrinter mode").
  bool hpp = false;
  bool stat_ranges = false;   // -d: with -s (implied), the counts per size range (--hpp only)
  bool check_family = false;  // -a: warn of cells whose family is not in the path, or changes
  // --hpp: the path printed for the file instead of the one read, when not empty (HPP prints
  // the store files it finds under a root for -r REGIONNAME as qualified "file:/abs/path").
  std::string hpp_path;
  ByteFormat byte_format = ByteFormat::kEscaped;
  // Cell selection. Rows are raw bytes; from is inclusive, to exclusive.
  std::optional<std::string> seek_row;  // -w: only this row
  std::optional<std::string> from_row;
  std::optional<std::string> to_row;
  std::optional<std::string> prefix;
  uint64_t limit = 0;  // at most this many cells (0: all)
  // Where the cells come from, named on every JSON record beside "kind" and "path" (the HFile
  // DumpFile reads): set when a dump goes through a table, region or snapshot, so that the
  // records of many files can be told apart.
  std::string table;   // "ns:name"
  std::string region;  // encoded name
  ReaderOptions reader;
};

struct DumpResult {
  uint64_t cells_scanned = 0;
  uint64_t order_violations = 0;  // found by check_row_order
  uint64_t family_warnings = 0;   // found by check_family
};

// Dumps `path` to `out`; warnings found by -k go to `err`. Returns the first error that stopped
// the dump (what was printed up to then stays printed).
Status DumpFile(const std::string& path, const DumpOptions& options, std::ostream& out,
                std::ostream& err, DumpResult* result);

// Appends one cell as DumpFile prints it (no newline): with `options.json` the "cell" JSON
// record (with "value" and "tags" only with print_cells; "path" from `path` when not empty),
// else HFilePrettyPrinter's "K: ... V: ..." line (the value only with print_cells).
void AppendDumpedCell(std::string* dst, const Cell& cell, ComparatorKind kind,
                      const DumpOptions& options, const std::string& path = "");

// Appends the opening of a JSON record: {"kind":KIND,"path":PATH and, when `options` name
// them, "table" and "region" (no closing brace). Empty path: no "path" field.
void AppendJsonRecordHead(std::string* dst, const char* kind, const std::string& path,
                          const DumpOptions& options);

}  // namespace hfile

#endif  // HFILE_DUMP_H_
