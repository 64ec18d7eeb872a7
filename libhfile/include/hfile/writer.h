// Writer: writes one HFile v3.3 that HBase 2.x opens, shaped as HBase's own writer
// (HFileWriterImpl + StoreFileWriter) shapes it for the same cells and settings: same block
// boundaries, index keys and levels, bloom chunks, file info keys and trailer fields.
//
//   auto w = hfile::Writer::Create("/path/f.hfile", options);   // Result<unique_ptr<Writer>>
//   w->Append(cell) ... ;                                       // cells in file order
//   w->Finish();                                                // fsync + rename into place
//
// The file is written under a temporary name in the same directory and renamed to `path` by
// Finish(); an error, or destroying the Writer without Finish(), leaves nothing under `path`.
// Not thread-safe.
#ifndef HFILE_WRITER_H_
#define HFILE_WRITER_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "hfile/cell.h"
#include "hfile/cell_batch.h"
#include "hfile/slice.h"
#include "hfile/status.h"
#include "hfile/types.h"

namespace hfile {

// Which HBase release's writer to imitate where releases differ.
enum class HBaseFlavor : uint8_t {
  // 2.0 - 2.5: no hfile.KEY_OF_BIGGEST_CELL / LEN_OF_BIGGEST_CELL, no HISTORICAL key; an index
  // key whose left row is a prefix of the right row is R[0..d].
  k2_4,
  // 2.6: writes the biggest-cell keys and HISTORICAL=false; prefix case R[0..d) + 0x00.
  // Settled for 2.6.4 (fixture none-none-row-crc32c-notags-prefixrows, written by HBase's
  // StoreFileWriter): rows "abc" | "abcd" at a block boundary give index row "abc\x00", and
  // qualifiers "q" | "qa" give "q\x00"; our writer reproduces the file byte for byte.
  k2_6,
};

struct WriterOptions {
  // --- blocks ---
  uint32_t block_size = 65536;                // BLOCKSIZE
  Compression compression = Compression::kNone;
  int compression_level = 0;                  // 0: the codec's HBase default
  bool zstd_hadoop_framing = true;            // false: raw zstd frames (Hadoop ZStandardCodec)
  DataBlockEncoding encoding = DataBlockEncoding::kNone;
  ChecksumType checksum_type = ChecksumType::kCrc32c;
  uint32_t bytes_per_checksum = 16384;        // hbase.bytes.per.checksum
  // hbase.writer.unified.encoded.blocksize.ratio: > 0 closes a block on encoded size alone
  // (at block_size * ratio); 0 closes it when the encoded or the unencoded size reaches
  // block_size.
  float encoded_block_size_ratio = 0;

  // --- cells ---
  bool include_tags = true;   // every cell carries a tags length (hfile.MAX_TAGS_LEN written)
  bool compress_tags = true;  // COMPRESS_TAGS: dictionary tags in PREFIX/DIFF/FAST_DIFF blocks
  bool include_mvcc = true;   // every cell carries its sequence id (KEY_VALUE_VERSION = 1)
  ComparatorKind comparator = ComparatorKind::kDefault;
  std::string comparator_class_name;  // trailer name; empty: ComparatorClassName(comparator)

  // --- index ---
  uint32_t index_block_max_size = 131072;  // hfile.index.block.max.size
  uint32_t index_min_entries = 16;         // hfile.index.block.min.entries

  // --- blooms (StoreFileWriter) ---
  BloomType bloom_type = BloomType::kRow;
  int bloom_prefix_length = 0;          // ROWPREFIX_FIXED_LENGTH
  double bloom_error_rate = 0.01;       // io.storefile.bloom.error.rate
  int bloom_chunk_size = 131072;        // io.storefile.bloom.block.size
  int bloom_max_fold = 7;               // io.storefile.bloom.max.fold
  bool delete_family_bloom = true;      // io.storefile.delete.family.bloom.enabled

  // --- file info ---
  HBaseFlavor flavor = HBaseFlavor::k2_6;
  // Write the keys StoreFileWriter adds at close (DELETE_FAMILY_COUNT, HISTORICAL on 2.6) and
  // the blooms. False imitates a bare HFile.Writer (e.g. Apache Hudi's HFiles): no blooms.
  bool store_file = true;
  // TIMERANGE + EARLIEST_PUT_TS (appendTrackedTimestampsToMetadata: flushes, compactions and
  // bulk loads all call it).
  bool track_timestamps = true;
  int64_t create_time_ms = 0;  // hfile.CREATE_TIME_TS (HBase stores the writer's wall clock)
  std::optional<int64_t> max_seq_id;        // MAX_SEQ_ID_KEY (flush / compaction)
  std::optional<bool> major_compaction;     // MAJOR_COMPACTION_KEY
  // COMPACTION_EVENT_KEY: names of the compacted store files ("PBUF" + CompactionEventTracker).
  std::optional<std::vector<std::string>> compaction_event;
  std::optional<int64_t> bulkload_timestamp;         // BULKLOAD_TIMESTAMP
  std::optional<std::string> bulkload_source_task;   // BULKLOAD_SOURCE_TASK
  std::optional<bool> exclude_from_minor_compaction; // EXCLUDE_FROM_MINOR_COMPACTION
  std::optional<int64_t> mob_cells_count;            // MOB_CELLS_COUNT
  // Other entries (caller keys, e.g. Hudi's). Keys starting with "hfile." are refused, as
  // HBase's appendFileInfo refuses them; entries replace the ones above with the same key.
  std::vector<std::pair<std::string, std::string>> extra_file_info;
};

// What Finish() wrote.
struct WriterStats {
  uint64_t entries = 0;
  uint64_t data_blocks = 0;
  uint64_t file_size = 0;
  uint32_t index_levels = 0;
  uint64_t unencoded_cell_bytes = 0;  // sum of the cells' plain KeyValue sizes
};

class Writer {
 public:
  // Validates `options` (InvalidArgument) and creates the temporary file (IOError).
  static Result<std::unique_ptr<Writer>> Create(const std::string& path,
                                                const WriterOptions& options);
  ~Writer();
  Writer(const Writer&) = delete;
  Writer& operator=(const Writer&) = delete;

  // Appends a cell; its bytes are copied as needed before returning. InvalidArgument if the
  // key is malformed, sorts before the previous key ("out of order", naming both keys), or has
  // tags while include_tags is false. Equal keys are allowed and stay in one block.
  Status Append(const Cell& cell);
  // Appends the cells of `batch` in order, each as Append would, without copying each key on
  // the way (a file's or a merge's batches of a data block). On an error the cells before the
  // failing one have been appended.
  Status AppendBatch(const CellBatch& batch);
  // Append for a caller that knows how `cell` follows the previous cell appended: its key sorts
  // after the previous one and first differs from it in `first_difference` (kNone: equal keys),
  // as a verified merge knows from its own comparisons (CellIterator::KeyDifference). The order
  // compare is then made only where the data block is full, and a wrong claim found there is
  // InvalidArgument; elsewhere the claim is trusted (the tools re-read every output).
  Status AppendAfter(const Cell& cell, KeyField first_difference);

  // Adds a META block named `name` (written at close, blocks sorted by name).
  Status AppendMetaBlock(const std::string& name, const Slice& bytes);

  // Writes the rest of the file and renames it into place. After an error the Writer is
  // unusable and nothing is left under the final path.
  Status Finish(WriterStats* stats = nullptr);

  uint64_t entries() const;

  struct Rep;

 private:
  explicit Writer(std::unique_ptr<Rep> rep);
  std::unique_ptr<Rep> rep_;
};

}  // namespace hfile

#endif  // HFILE_WRITER_H_
