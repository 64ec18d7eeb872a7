// AdviseTable: the family-design advisor. Measures a table from its own files (descriptor,
// trailers, file info, a bounded stream of cells per family, trial re-encodings of a sample of
// real blocks) and returns findings against the design rules, each with its figures, a
// severity and the command that fixes it. Read-only: trial files go to a temp dir, never into
// the table.
//
// Rules, thresholds and their sources are listed in man/hfile-advise.1.md (and PRIOR_ART §D).
#ifndef REGION_ADVISE_H_
#define REGION_ADVISE_H_

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "hfile/status.h"
#include "hfile/types.h"
#include "region/region_set.h"

namespace hfile::region {

enum class AdviceSeverity : uint8_t { kInfo, kWarn, kError };
std::string_view AdviceSeverityName(AdviceSeverity s);  // "info" "warn" "error"

struct Finding {
  std::string code;  // stable, e.g. "too-many-families"
  AdviceSeverity severity = AdviceSeverity::kInfo;
  std::string family;  // empty: about the table
  std::string region;  // encoded name, empty: not about one region
  std::string message;
  std::map<std::string, double> figures;  // name -> number, the evidence
  std::string fix;                        // the exact command line, or "move to a new table ..."
};

struct AdviseOptions {
  std::string table_dir;  // or root_dir + table
  std::string root_dir;
  std::string table;   // "ns:name" with root_dir
  int64_t now_ms = 0;  // 0: the wall clock (TTL decisions)
  // Cells streamed per family: at most this many data blocks' worth of bytes (by the family's
  // BLOCKSIZE) over all its files, files taken round-robin by region; 0: every cell.
  uint64_t sample_blocks = 256;
  // Data blocks re-encoded per family for the codec/encoding and family-name trials.
  uint64_t trial_blocks = 16;
  std::string tmp_dir;  // trial files; empty: $TMPDIR or /tmp
  // Called with a short "what I am doing" line now and then (stderr progress).
  std::function<void(const std::string&)> progress;

  // Layout thresholds (defaults from PRIOR_ART §D2; tests lower them).
  uint64_t large_region_bytes = uint64_t{20} << 30;  // the book's 5-20 GB upper end
  uint64_t small_region_bytes = uint64_t{1} << 30;   // below: fewer, bigger regions would do
  uint64_t many_regions = 100;                       // the book's "right around 100"
  uint64_t blocking_store_files = 16;                // hbase.hstore.blockingStoreFiles
  uint64_t max_directory_items = 1048576;            // dfs.namenode.fs-limits.max-directory-items
};

// What was measured of one family (the figures behind the findings and the HTML page).
struct FamilyMeasure {
  std::string name;
  uint64_t store_files = 0, bytes = 0, trailer_cells = 0;
  uint64_t regions_with_files = 0;
  std::vector<uint64_t> region_bytes;  // per region of Advice::regions, 0 if none
  std::vector<uint64_t> region_files;
  std::vector<uint64_t> file_sizes;
  int64_t min_ts = INT64_MAX, max_ts = INT64_MIN;      // from the files' TIMERANGE
  uint64_t expired_files = 0, expired_file_bytes = 0;  // TIMERANGE max older than TTL
  // Streamed cells (the sample, or all when `sampled` is false).
  bool sampled = false;
  uint64_t cells = 0, cell_bytes = 0, key_bytes = 0, value_bytes = 0;
  uint64_t rows = 0;  // row changes in the streamed cells, per file
  uint64_t max_cell = 0, cells_over_10mb = 0, cells_over_50mb = 0;
  uint64_t max_versions_seen = 0;    // cells of one column in one file
  uint64_t distinct_qualifiers = 0;  // capped at kQualifierCap
  bool qualifiers_capped = false;
  uint64_t expired_cells = 0;           // older than the family TTL
  uint64_t cell_ttl_beyond_family = 0;  // TTL tags longer than the family TTL
  int64_t max_cell_ttl_ms = 0;
  uint64_t delete_markers = 0;
  std::vector<uint64_t> size_histogram;    // cells by KeyValue size, bucket i: [2^i, 2^(i+1))
  uint64_t row_hash = 0, row_ts_hash = 0;  // order-free fingerprints of rows, (row, ts)
  bool fingerprint_partial = false;        // a row with more timestamps than were kept
  // Files whose settings differ from the descriptor's.
  uint64_t files_other_codec = 0, files_other_encoding = 0, files_other_bloom = 0;
  uint64_t files_smaller_blocks = 0;
  // Trials (empty when too little data).
  uint64_t trial_cell_bytes = 0;
  uint64_t name_trial_size = 0, short_name_trial_size = 0;  // same cells, family as is / "x"
  struct Trial {
    Compression compression;
    DataBlockEncoding encoding;
    uint32_t block_size;
    uint64_t size;
    double ratio, write_mb_s, read_mb_s;
  };
  std::vector<Trial> trials;
};

inline constexpr uint64_t kQualifierCap = 1000;
// Codec and encoding trials need this many cell bytes to say anything.
inline constexpr uint64_t kMinTrialCellBytes = 64 * 1024;

struct Advice {
  std::string table;  // "ns:name"
  std::string table_dir;
  std::vector<std::string> regions;  // encoded names, start-key order (split parents left out)
  std::vector<uint64_t> region_bytes;
  std::vector<FamilyMeasure> families;  // descriptor order
  std::vector<Finding> findings;        // rule order
  std::vector<std::string> sampling;    // what was sampled, in words
  int64_t now_ms = 0;
  AdviseOptions options;  // what it was measured with (thresholds, budgets)
};

// Opens the table, measures it and applies every rule. NotFound / Corruption from opening the
// table; a store file that cannot be read is a finding ("unreadable-file"), not an error.
Result<Advice> AdviseTable(const AdviseOptions& options);

// --- the pieces (advise_*.cc), public for the tests ---

// Measures every family of `set` (descriptor required) into `advice`.
Status MeasureTable(const RegionSet& set, const AdviseOptions& options, Advice* advice);
// The rules, by theme. Each appends its findings.
void ApplySchemaRules(const TableDescriptor& d, const Advice& a, std::vector<Finding>* out);
void ApplyDataRules(const TableDescriptor& d, const Advice& a, std::vector<Finding>* out);
void ApplyLayoutRules(const TableDescriptor& d, const Advice& a, std::vector<Finding>* out);
// The fix for a family attribute change: hfile alter TABLE_DIR "alter 'T', {NAME => 'f', ...}".
std::string AlterFix(const Advice& a, const std::string& family, const std::string& attrs);
// A word for a shell command line, quoted when it needs to be.
std::string ShellWord(const std::string& s);

// Output.
std::string AdviceText(const Advice& a);
std::string AdviceJson(const Advice& a);
// One self-contained XHTML page with inline SVG figures.
std::string AdviceHtml(const Advice& a);

}  // namespace hfile::region

#endif  // REGION_ADVISE_H_
