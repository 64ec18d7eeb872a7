// VerifyFile: checks one HFile and says exactly what is wrong and where.
//
// Checked: the trailer; every block's header, checksums and decompression; the prevBlockOffset
// chains; that blocks tile the file up to the trailer; every index entry (all levels) points at
// a block of the right type and size; index keys bracket their data blocks; cells are
// well-formed and in order within and across blocks; entry count, first and last key, average
// lengths, TIMERANGE, MAX_MEMSTORE_TS, MAX_TAGS_LEN, EARLIEST_PUT_TS and DELETE_FAMILY_COUNT
// agree with the cells; every cell is found by the blooms as HBase's StoreFileReader looks it up
// (no false negatives; in hbase:meta files HBase's own misses are warnings); cell types are ones
// HBase defines; a declared bloom exists; totalUncompressedBytes is what HBase's writer counts.
#ifndef HFILE_VERIFY_H_
#define HFILE_VERIFY_H_

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "hfile/cell.h"
#include "hfile/reader.h"
#include "hfile/status.h"

namespace hfile {

struct VerifyOptions {
  bool check_blooms = true;
  size_t max_problems = 100;  // stop listing after this many (the count stays exact)
  ReaderOptions reader;
  // Called with every cell the walk decodes, in file order (a caller's own per-cell checks, e.g.
  // the family and key-range checks of a region's verify, in the same pass).
  std::function<void(const Cell&)> on_cell;
};

// Errors break HBase's reads or its use of the metadata; warnings are deviations from what HBase
// writes that HBase's reader tolerates (e.g. a wrong informational trailer field).
enum class Severity : uint8_t { kError, kWarning };

struct VerifyProblem {
  std::string what;
  Severity severity = Severity::kError;
  int64_t offset = -1;     // file offset of the block concerned, -1 if none
  std::string block;       // block type name, empty if none
};

struct VerifyReport {
  std::string path;
  Status open_status;      // not OK: the file could not be opened at all
  std::vector<VerifyProblem> problems;
  uint64_t problem_count = 0;  // errors
  uint64_t warning_count = 0;
  // Of the warnings: keys of an hbase:meta file that HBase's own bloom lookup misses. HBase's
  // writer produces such files, so a writer's self-check must not refuse them.
  uint64_t hbase_bloom_denials = 0;
  // The first read that failed with an I/O error (EIO, ...), also listed as a problem: the
  // file could not be checked, which is not proof of damage (writing tools exit 3, not 2).
  Status io_error;
  uint64_t blocks = 0, data_blocks = 0, cells = 0;

  bool clean() const { return open_status.ok() && problem_count == 0; }
};

VerifyReport VerifyFile(const std::string& path, const VerifyOptions& options);

// Text: "<path>: OK (...)" or one line per problem. JSON: one object per file.
void PrintVerifyReport(const VerifyReport& report, bool json, std::ostream& out);

}  // namespace hfile

#endif  // HFILE_VERIFY_H_
