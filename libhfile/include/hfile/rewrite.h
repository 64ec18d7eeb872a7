// RewriteFile: copies every cell and meta block of an HFile into a new HFile written with other
// settings (codec, encoding, bloom, block size, checksum), keeps the file-info keys HBase would
// carry, and verifies the result cell for cell (and with VerifyFile) before reporting success.
#ifndef HFILE_REWRITE_H_
#define HFILE_REWRITE_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "hfile/reader.h"
#include "hfile/status.h"
#include "hfile/types.h"
#include "hfile/writer.h"

namespace hfile {

// Unset fields keep the input's setting.
struct RewriteOptions {
  std::optional<Compression> compression;
  std::optional<int> compression_level;
  std::optional<DataBlockEncoding> encoding;
  std::optional<BloomType> bloom_type;
  std::optional<int> bloom_prefix_length;
  std::optional<uint32_t> block_size;
  std::optional<ChecksumType> checksum_type;
  std::optional<uint32_t> index_block_max_size;
  std::optional<uint32_t> index_min_entries;
  bool verify = true;  // read the output back and compare every cell; run VerifyFile
  // false: only CheckInput's cheap checks on the input, not VerifyFile's full check
  // (--trust-inputs). The cells read are compared with the trailer either way.
  bool verify_input = true;
  // The output may name the input itself (same inode: a hard link, a symlink, the same path);
  // it is then replaced only after the new file is complete, fsynced and verified.
  bool in_place = false;
  // Set (by a signal handler) to stop: the output is removed, the input left alone.
  const std::atomic<bool>* cancel = nullptr;
  // Called now and then with (cells done in the current phase, total cells).
  std::function<void(uint64_t, uint64_t)> progress;
  // Called when the write is done and the read-back verification starts.
  std::function<void()> verifying;
  // Called as each phase starts: "checking input" (the full check of the input, unless
  // verify_input is false), "writing", "comparing" (the output read back against the input) and
  // "verifying output" (VerifyFile of the output); `progress` then counts that phase's cells.
  std::function<void(const char* phase)> phase;
};

struct RewriteResult {
  WriterOptions settings;  // what the output was written with
  uint64_t cells = 0;
  uint64_t meta_blocks = 0;
  uint64_t input_size = 0, output_size = 0;
  uint64_t output_data_blocks = 0;
  double write_seconds = 0, verify_seconds = 0;
  uint64_t input_warnings = 0;          // VerifyFile warnings of the input (when verified)
  std::vector<std::string> stale_removed;  // temp files of killed earlier runs, removed
};

// The settings `in` was written with, as far as the file records them: codec, encoding, tags,
// MVCC, checksum type and bytes per checksum (first block header), comparator, bloom type and
// prefix, whether StoreFileWriter wrote it, HBase flavor (2.6 keys present), CREATE_TIME_TS,
// the store-file keys (MAX_SEQ_ID_KEY, MAJOR_COMPACTION_KEY, BULKLOAD_*, ...) and caller keys.
// The block size is not recorded: see InferBlockSize. Index chunk sizes keep HBase's defaults.
Result<WriterOptions> WriterOptionsFromFile(const Reader& in);

// A block size consistent with the input's data block boundaries: HBase closes a block once its
// size reaches the block size, so every block but the last is at least that big. Returns the
// largest power of two <= the smallest such block (65536 when there is one block or none).
Result<uint32_t> InferBlockSize(const Reader& in);

// Rewrites `in_path` to `out_path`:
//   1. the input is checked (CheckInput; VerifyFile unless !verify_input);
//   2. the output is written to <dir>/.<name>.rewrite-<pid> (fsynced), the cells read compared
//      with the input's entry count;
//   3. it is read back and compared cell for cell with the input, and VerifyFile'd;
//   4. only then renamed to `out_path` (directory fsynced).
// Nothing is left under out_path (or the staging name) on error, and the input is never
// touched. Errors: InvalidArgument when out_path is the input and !in_place; Corruption when the
// input is damaged or the output does not read back equal; IOError (naming the output) when the
// output cannot be written; Aborted-as-IOError "interrupted" when `cancel` was set.
// Temp files left by killed earlier runs for the same out_path are removed first.
Status RewriteFile(const std::string& in_path, const std::string& out_path,
                   const RewriteOptions& options, RewriteResult* result);

// Compares two files cell by cell (key, value, tags, sequence id) and meta block by meta block.
// `progress`, when set, is called now and then with (cells compared, a's entry count).
Status CompareFileContents(const Reader& a, const Reader& b,
                           const std::function<void(uint64_t, uint64_t)>& progress = nullptr);

// A store file name as HBase makes them: 32 lowercase hex digits of a random (v4) UUID.
std::string NewStoreFileName();

// --- trying settings (like RocksDB's `sst_dump --command=recompress`) ---

struct CompareCandidate {
  Compression compression = Compression::kNone;
  DataBlockEncoding encoding = DataBlockEncoding::kNone;
  uint32_t block_size = 65536;
  int level = 0;  // the codec's compression level; 0: its HBase default
};

struct CompareOptions {
  // Empty: every built-in codec with NONE and FAST_DIFF encodings at the input's block size, and
  // the input's codec and encoding at 16 KiB and 256 KiB blocks.
  std::vector<CompareCandidate> candidates;
  uint64_t sample_blocks = 0;  // 0: the whole file; else about this many input data blocks
  std::string tmp_dir;         // where trial files go (removed after); empty: next to the input
  // Called before each combination is tried with (its index, how many there are, it).
  std::function<void(size_t, size_t, const CompareCandidate&)> on_candidate;
};

struct CompareRow {
  CompareCandidate candidate;
  uint64_t output_size = 0;
  double ratio = 0;       // unencoded cell bytes / output size
  double write_mb_s = 0;  // unencoded cell MB per second, writing
  double read_mb_s = 0;   // unencoded cell MB per second, a full scan of the output
};

struct CompareReport {
  uint64_t cells = 0;
  uint64_t cell_bytes = 0;  // unencoded
  std::vector<CompareRow> rows;
};

Status CompareRewrites(const std::string& in_path, const CompareOptions& options,
                       CompareReport* report);

}  // namespace hfile

#endif  // HFILE_REWRITE_H_
