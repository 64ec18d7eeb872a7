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
#include <string_view>
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
  // Read the blocks (I/O, checksums, decompression) on a second thread a few blocks ahead of
  // the checks: the same checks and report, sooner when a core is idle (a writing tool's
  // verification of its last output).
  bool read_ahead = false;
};

// Errors break HBase's reads or its use of the metadata; warnings are deviations from what HBase
// writes that HBase's reader tolerates (e.g. a wrong informational trailer field).
enum class Severity : uint8_t { kError, kWarning };

// What a problem is about: one stable name per distinct check, for scripts (the JSON `code`;
// hfile-verify(1) lists them with their meanings). The text (`what`) may change; a code does not.
enum class ProblemCode : uint8_t {
  // A block that cannot be read (data, index, meta or bloom block alike).
  kIoError,              // the read itself failed (EIO, ...): not proof of damage
  kBlockHeaderInvalid,   // no block magic, or header fields no writer produces
  kBlockSizeInvalid,     // a size the header or index claims does not fit the file or the limits
  kChecksumMismatch,     // the block's checksums do not match its bytes
  kDecompressionFailed,  // the codec refused the body, or it decompressed to another size
  // The walk over the blocks.
  kPrevOffsetMismatch,         // prevBlockOffset does not name the previous block of its type
  kBlockOverlapsLoadOnOpen,    // a block runs into the load-on-open section
  kBlocksPastTrailer,          // the blocks do not end where the trailer starts
  // The data index against the data blocks.
  kDataBlockNotIndexed,        // a data block with no index entry
  kIndexEntryMismatch,         // an index entry's offset or size is not the data block's
  kIndexEntriesPastData,       // index entries beyond the last data block
  kIndexKeyAfterFirstKey,      // an index key sorts after its block's first cell
  kIndexKeyNotIncreasing,      // an index key does not sort after the previous block's last cell
  kFirstIndexKeyMismatch,      // the first index key is not the file's first key
  kIndexBlockWrongType,        // an index entry points at a block of another type
  kIndexBlockInvalid,          // an index block's entries do not parse, or it has none
  kIndexKeyParentMismatch,     // an index block's first key differs from its parent entry's
  // Cells.
  kCellUndecodable,       // a cell of a data block does not decode
  kDataBlockEmpty,        // a data block with no cells
  kCellKeyMalformed,      // a key whose lengths do not add up
  kCellTypeUndefined,     // a type byte HBase does not define (KeyValue.Type.codeToType throws)
  kCellOutOfOrder,        // a cell sorts before the one it follows
  // The trailer and the file info against the cells.
  kTrailerDataOffsetMismatch,   // first/last_data_block_offset is not where the data blocks are
  kTrailerIndexSizeMismatch,    // uncompressed_data_index_size is not the index blocks' size
  kTrailerUncompressedBytesMismatch,  // totalUncompressedBytes is not what HBase's writer counts
  kEntryCountMismatch,          // the trailer's entry_count is not the number of cells
  kLastKeyMismatch,             // LASTKEY is not the last cell's key
  kAverageLengthMismatch,       // AVG_KEY_LEN / AVG_VALUE_LEN disagree with the cells
  kTimeRangeMismatch,           // TIMERANGE does not decode or is not the cells' range
  kMaxMemstoreTsMismatch,       // MAX_MEMSTORE_TS_KEY is not the cells' largest sequence id
  kMaxTagsLenMismatch,          // MAX_TAGS_LEN is not the cells' longest tags
  kEarliestPutTsMismatch,       // EARLIEST_PUT_TS is not the oldest Put's timestamp
  kDeleteFamilyCountMismatch,   // DELETE_FAMILY_COUNT is not the number of family deletes
  kTotalsUnchecked,             // data blocks could not be read: the totals were not checked
  // Blooms.
  kBloomMissing,              // BLOOM_FILTER_TYPE declares a bloom the file does not have
  kBloomChunkWrongType,       // a bloom chunk index entry points at a block of another type
  kBloomKeyCountMismatch,     // the bloom meta's key count is not the cells' distinct keys
  kLastBloomKeyMismatch,      // LAST_BLOOM_KEY is not the cells' last bloom key
  kBloomFalseNegative,        // the bloom misses a key the file holds
  kBloomKeyBeforeFirstChunk,  // a key sorts before the first chunk: the bloom misses it
  kBloomKeyAfterLast,         // a key sorts after LAST_BLOOM_KEY: the bloom misses it
  // Meta blocks.
  kMetaIndexDangling,         // a meta index entry points at no meta block
  kMetaIndexSizeMismatch,     // a meta index entry's size is not its block's
  kCount                      // not a code: the number of codes
};
std::string_view ProblemCodeName(ProblemCode code);  // "checksum-mismatch", ...

// The code of a file that could not be opened at all ("" for OK): trailer-unreadable,
// load-on-open-unreadable, unsupported, file-missing, io-error, open-failed. `path` is the
// file, read again (opened as the reader with `options` opens it) to tell a damaged trailer
// from damage behind it.
std::string_view OpenErrorCode(const std::string& path, const Status& open_status,
                               const ReaderOptions& options = {});

struct VerifyProblem {
  std::string what;
  ProblemCode code = ProblemCode::kBlockHeaderInvalid;
  Severity severity = Severity::kError;
  int64_t offset = -1;     // file offset of the block concerned, -1 if none
  std::string block;       // block type name, empty if none
};

struct VerifyReport {
  std::string path;
  Status open_status;      // not OK: the file could not be opened at all
  std::string open_error_code;  // OpenErrorCode of open_status ("" when it opened)
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
