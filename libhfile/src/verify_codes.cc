// The stable names of VerifyFile's problems (hfile-verify(1) lists them) and the classification
// of read and open failures into them.
#include <algorithm>
#include <string>

#include "file.h"
#include "reader_internal.h"
#include "hfile/trailer.h"
#include "hfile/verify.h"
#include "verify_internal.h"

namespace hfile {

std::string_view ProblemCodeName(ProblemCode code) {
  // A switch without default: adding a code without a name is a compiler warning.
  switch (code) {
    case ProblemCode::kIoError: return "io-error";
    case ProblemCode::kBlockHeaderInvalid: return "block-header-invalid";
    case ProblemCode::kBlockSizeInvalid: return "block-size-invalid";
    case ProblemCode::kChecksumMismatch: return "checksum-mismatch";
    case ProblemCode::kDecompressionFailed: return "decompression-failed";
    case ProblemCode::kPrevOffsetMismatch: return "prev-offset-mismatch";
    case ProblemCode::kBlockOverlapsLoadOnOpen: return "block-overlaps-load-on-open";
    case ProblemCode::kBlocksPastTrailer: return "blocks-past-trailer";
    case ProblemCode::kDataBlockNotIndexed: return "data-block-not-indexed";
    case ProblemCode::kIndexEntryMismatch: return "index-entry-mismatch";
    case ProblemCode::kIndexEntriesPastData: return "index-entries-past-data";
    case ProblemCode::kIndexKeyAfterFirstKey: return "index-key-after-first-key";
    case ProblemCode::kIndexKeyNotIncreasing: return "index-key-not-increasing";
    case ProblemCode::kFirstIndexKeyMismatch: return "first-index-key-mismatch";
    case ProblemCode::kIndexBlockWrongType: return "index-block-wrong-type";
    case ProblemCode::kIndexBlockInvalid: return "index-block-invalid";
    case ProblemCode::kIndexKeyParentMismatch: return "index-key-parent-mismatch";
    case ProblemCode::kCellUndecodable: return "cell-undecodable";
    case ProblemCode::kDataBlockEmpty: return "data-block-empty";
    case ProblemCode::kCellKeyMalformed: return "cell-key-malformed";
    case ProblemCode::kCellTypeUndefined: return "cell-type-undefined";
    case ProblemCode::kCellOutOfOrder: return "cell-out-of-order";
    case ProblemCode::kTrailerDataOffsetMismatch: return "trailer-data-offset-mismatch";
    case ProblemCode::kTrailerIndexSizeMismatch: return "trailer-index-size-mismatch";
    case ProblemCode::kTrailerUncompressedBytesMismatch:
      return "trailer-uncompressed-bytes-mismatch";
    case ProblemCode::kEntryCountMismatch: return "entry-count-mismatch";
    case ProblemCode::kLastKeyMismatch: return "last-key-mismatch";
    case ProblemCode::kAverageLengthMismatch: return "average-length-mismatch";
    case ProblemCode::kTimeRangeMismatch: return "time-range-mismatch";
    case ProblemCode::kMaxMemstoreTsMismatch: return "max-memstore-ts-mismatch";
    case ProblemCode::kMaxTagsLenMismatch: return "max-tags-len-mismatch";
    case ProblemCode::kEarliestPutTsMismatch: return "earliest-put-ts-mismatch";
    case ProblemCode::kDeleteFamilyCountMismatch: return "delete-family-count-mismatch";
    case ProblemCode::kTotalsUnchecked: return "totals-unchecked";
    case ProblemCode::kBloomMissing: return "bloom-missing";
    case ProblemCode::kBloomChunkWrongType: return "bloom-chunk-wrong-type";
    case ProblemCode::kBloomKeyCountMismatch: return "bloom-key-count-mismatch";
    case ProblemCode::kLastBloomKeyMismatch: return "last-bloom-key-mismatch";
    case ProblemCode::kBloomFalseNegative: return "bloom-false-negative";
    case ProblemCode::kBloomKeyBeforeFirstChunk: return "bloom-key-before-first-chunk";
    case ProblemCode::kBloomKeyAfterLast: return "bloom-key-after-last";
    case ProblemCode::kMetaIndexDangling: return "meta-index-dangling";
    case ProblemCode::kMetaIndexSizeMismatch: return "meta-index-size-mismatch";
    case ProblemCode::kCount: break;
  }
  return "";
}

ProblemCode BlockReadCode(const BlockReader& reader, const Status& s) {
  return BlockReadCode(reader.last_fault(), s);
}

ProblemCode BlockReadCode(BlockReader::Fault fault, const Status& s) {
  if (s.IsIOError()) return ProblemCode::kIoError;
  switch (fault) {
    case BlockReader::Fault::kIo: return ProblemCode::kIoError;
    case BlockReader::Fault::kSize: return ProblemCode::kBlockSizeInvalid;
    case BlockReader::Fault::kChecksum: return ProblemCode::kChecksumMismatch;
    case BlockReader::Fault::kDecompression: return ProblemCode::kDecompressionFailed;
    case BlockReader::Fault::kHeader:
    case BlockReader::Fault::kNone: break;
  }
  return ProblemCode::kBlockHeaderInvalid;
}

std::string_view OpenErrorCode(const std::string& path, const Status& s,
                               const ReaderOptions& options) {
  if (s.ok()) return "";
  if (s.IsIOError()) return "io-error";
  if (s.IsNotFound()) return "file-missing";
  if (s.IsNotSupported()) return "unsupported";  // not an HFile, encryption, a codec not built in
  if (!s.IsCorruption()) return "open-failed";
  // Reader::Open reads the trailer first, then the load-on-open section it points at: a trailer
  // that decodes here means the damage is behind it (root indexes, file info, bloom metas).
  auto file = OpenReaderFile(path, options);  // as the reader opened it (hdfs:// too)
  if (!file.ok()) return "open-failed";
  const uint64_t size = (*file)->size();
  std::string tail(static_cast<size_t>(std::min<uint64_t>(size, 4096)), '\0');
  if (!(*file)->Read(size - tail.size(), tail.size(), tail.data()).ok()) return "open-failed";
  Trailer t;
  return t.DecodeFrom(tail, size).ok() ? "load-on-open-unreadable" : "trailer-unreadable";
}

}  // namespace hfile
