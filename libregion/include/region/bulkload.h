// Bulk load, offline: delimited input lines (as ImportTsv reads them, region/delimited_parser.h)
// -> cells -> external sort (region/cell_sorter.h) -> one HFile per region per family, written
// by the StoreWriter into <out>/<family>/ (more when a file reaches max_file_size), the layout
// completebulkload
// (BulkLoadHFilesTool / LoadIncrementalHFiles) takes.
//
//   BulkLoadOptions o;  o.import = *ParseImportArgs(args);  o.table_dir = ...;  o.out_dir = ...;
//   auto plan = PlanBulkLoad(o);          // regions, families, inputs; nothing written
//   BulkLoadReport rep;
//   Status s = RunBulkLoad(*plan, o, &rep);
//
// Regions come from the table's .regioninfo files (offline split parents excluded, as
// RegionLocator excludes them); they must cover the row space without hole or overlap. Each
// family's writer settings come from the table descriptor (WriterOptionsForFamily: codec,
// encoding, bloom, block size); the file info is what HFileOutputFormat2 (HBase 2.6) writes at
// close: BULKLOAD_TIMESTAMP (the run's clock), BULKLOAD_SOURCE_TASK (the tool's task name),
// MAJOR_COMPACTION_KEY true, EXCLUDE_FROM_MINOR_COMPACTION false
// (hbase.mapreduce.hfileoutputformat.compaction.exclude's default), TIMERANGE and
// EARLIEST_PUT_TS; cells carry sequence id 0 and tags (a TTL tag when the line has a TTL).
//
// Crash safety: everything is written under "<parent>/.<out name>.hfile-bulkload-<pid>" and,
// once every file is finished, fsynced and verified, that directory is renamed to `out_dir`
// (which must be absent or an empty directory): a kill leaves either no `out_dir` content or
// all of it. A rerun removes a dead run's staging directory and starts over.
//
// --into (HBase stopped): no out_dir; the files go straight into the table's regions' family
// dirs, as completebulkload with sequence-id assignment (its default) leaves them: named
// "<uuid>_SeqId_<N>_" (HRegionFileSystem.bulkLoadStoreFile), N one more than the region's
// highest sequence id (its store files' and its recovered.edits/<n>.seqid markers), which is
// above every edit the region holds, as the flush sequence id HBase takes for the load is; the
// same N for every family of a region, as one bulkLoadHFiles call gives. HBase reads a file
// with "_SeqId_" in its name as bulk-loaded: every cell gets N (REGION_LAYOUT §4.5), so the
// loaded cells shadow older ones of the same key, and its next open starts above N. The table
// must look offline and clean (compaction's checks, as copy-family and split use), under an
// flock on the table dir; everything is staged in <table>/.hfile-bulkload-*/ and verified,
// then committed by ONE transaction of the table's journal (region/commit.h): intent, commit
// record, a mkdir for each target family dir, a put for each file. A kill leaves the old table
// (before the commit record) or, after a rerun (which recovers the journal first), all files.
//
// Duplicates: cells with identical keys (row, family, qualifier, timestamp, type) keep the value
// of the LAST line (input order over all inputs); ImportTsv keeps an arbitrary one.
#ifndef REGION_BULKLOAD_H_
#define REGION_BULKLOAD_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "hfile/status.h"
#include "hfile/writer.h"
#include "region/delimited_parser.h"
#include "region/import_options.h"
#include "region/region_info.h"
#include "region/table_descriptor.h"

namespace hfile::region {

struct BulkLoadProgress {
  std::string phase;            // "parse" (lines read, cells sorted) or "write" (cells written)
  uint64_t bytes_read = 0;      // decompressed input bytes so far (parse)
  uint64_t input_bytes = 0;     // the inputs' sizes on disk (0 when unknown, e.g. stdin)
  uint64_t cells = 0;           // cells added (parse) or written (write)
  uint64_t total_cells = 0;     // write: the cells to write
};

struct BulkLoadOptions {
  ImportOptions import;               // columns, separator, skip/log bad lines, formats ...
  std::vector<std::string> inputs;    // files, or "-" for stdin; empty: stdin
  std::string table_dir;              // <root>/data/<ns>/<table>
  // --splits: the output's key ranges cut at these rows instead of at the table's regions (for a
  // table to be created or re-split with them); the families' settings still come from the
  // table. Must be sorted, distinct and non-empty rows.
  std::optional<std::vector<std::string>> split_rows;
  // --create-splits N: N key ranges computed from the data instead (cut at the first row change
  // after each 1/N of the cells' bytes); the split rows found are reported (split_rows), for
  // creating the table with them.
  size_t create_splits = 0;
  std::string out_dir;                // <out>/<family>/<file>; absent or empty
  bool into = false;                  // instead of out_dir: into the table's regions (above)
  bool force = false;                 // --into: load a table that looks online or unclean
  // --into: load only this region (its encoded name): the others are neither read nor checked
  // for holes, and a row outside its key range is Corruption. The write stage of a distributed
  // bulk load, whose tasks see one region each.
  std::string only_region;
  size_t memory_bytes = size_t{256} << 20;  // the sort's budget
  // A file is rolled (the next row starts another file of the same region and family) once it
  // holds this many bytes of cells. 0: the table's MAX_FILESIZE (10 GiB when unset), the offline
  // stand-in for HFileOutputFormat2's hbase.hregion.max.filesize.
  uint64_t max_file_size = 0;
  std::string temp_dir;               // the sort's spill dir; empty: $TMPDIR, else /tmp
  // Threads writing the output's key ranges (regions), at most ToolThreads() (with one, the
  // sorter spills on the calling thread too: region/tool_threads.h). 1: the sorted cells are
  // written on the calling thread, one range after another. 2 (the default): each range's
  // cells go, in batches through a bounded queue, to a writer thread of its own. With the
  // regions known before the sort (a table's or --splits, not --create-splits), the sorter cuts
  // its runs at their start keys and this many ranges are merged at once, each on a thread of
  // its own (CellSorter::FinishRanges); otherwise the calling thread merges all runs and range
  // i+1 is written while range i is still being written and verified. At most this many
  // ranges are open at once. The files' contents, the order of the report's files and of the
  // journal's puts are the same either way (only the random names differ). Memory beyond
  // memory_bytes: at most 6 batches of 1 MiB per open range, and one more range's StoreWriters
  // (a block and its index/bloom chunks per family); the merges' read buffers are within it.
  int writer_threads = 2;
  int64_t now_ms = 0;                 // 0: the clock (default timestamp, BULKLOAD_TIMESTAMP)
  std::string source_task = "hfile-bulkload";  // BULKLOAD_SOURCE_TASK
  // Called with each bad line (the run fails after reading all input unless
  // import.skip_bad_lines; either way every bad line is counted).
  std::function<void(const BadLine&)> on_bad_line;
  // Progress per phase; in the write phase of regions merged in parallel it is called from
  // either writing thread, one call at a time.
  std::function<void(const BulkLoadProgress&)> progress;
  const std::atomic<bool>* cancel = nullptr;  // set to stop: IOError "interrupted", nothing kept
  // Crash tests: "parsed", "sorted", "written" (every file verified in staging), "published";
  // --into also the journal's (region/commit.h CommitOptions) and "verified" (after the commit).
  std::function<void(const std::string&)> checkpoint;
};

struct BulkLoadRegion {
  RegionInfo info;           // with split_rows: only start_key and end_key
  std::string encoded_name;  // with split_rows: "range-<i>"
  int64_t sequence_id = -1;  // --into: the N its files are named with
};

// Reads a --splits file: one row per line, \xNN-escaped as hfile-dump prints rows (a trailing
// "\r" is dropped, empty lines skipped). InvalidArgument for a bad escape or rows not sorted
// and distinct; NotFound/IOError for the file.
Result<std::vector<std::string>> ReadSplitsFile(const std::string& path);

struct BulkLoadFamily {
  std::string name;
  WriterOptions writer;
};

struct BulkLoadPlan {
  std::string table;                     // ns:name
  std::vector<BulkLoadRegion> regions;   // by start key; empty with create_splits
  size_t create_splits = 0;
  std::vector<std::string> boundaries;   // regions[1..]'s start keys
  std::vector<BulkLoadFamily> families;  // the spec's families (all the table's for JSON/CSV
                                         // headers, whose columns come from the data)
  std::vector<std::pair<std::string, uint64_t>> inputs;  // name, size on disk (0: unknown)
  uint64_t estimated_spill_bytes = 0;
  uint64_t max_file_size = 0;            // resolved
  std::string temp_dir;
  std::string staging_dir;
  std::vector<std::string> warnings;     // e.g. a stale staging dir that a run will remove
  bool into = false;
  std::vector<std::string> skipped;      // --into: split parents left alone
  std::vector<std::string> refused;      // --into: "<region>: why" (online/unclean)
  std::vector<std::string> recovery;     // --into: an interrupted transaction to finish first
};

struct BulkLoadFile {
  std::string region;   // encoded name
  std::string family;
  std::string path;     // final path under out_dir (--into: in the region's family dir)
  int64_t sequence_id = -1;  // --into: the "_SeqId_<n>_" of its name
  uint64_t cells = 0;
  uint64_t file_size = 0;
};

struct BulkLoadReport {
  ParseStats parse;
  uint64_t cells_sorted = 0;      // cells made from the records
  uint64_t duplicates_dropped = 0;
  uint64_t cells_written = 0;
  uint64_t sort_runs = 0;
  uint64_t sort_spilled_bytes = 0;
  uint64_t bytes_written = 0;
  std::vector<BulkLoadFile> files;  // by family, then region (create_splits: by range first)
  std::vector<std::string> split_rows;  // create_splits: the rows the ranges were cut at
  std::vector<std::string> removed_stale;  // dead runs' staging dirs removed
  std::vector<std::string> recovered;      // --into: what finishing a killed run's journal did
  // --into: the journal held a killed bulk load's committed transaction; the recovery finished
  // it and nothing else was read or loaded (a rerun after a kill loads the lines once).
  bool completed_by_recovery = false;
  double seconds = 0;
};

// Reads the table (descriptor, regions) and checks the options: InvalidArgument for a spec
// family the table lacks, HBASE_CELL_VISIBILITY (the labels' ordinals live in the cluster), an
// out_dir that holds anything, --into with out_dir, split_rows or create_splits; Corruption
// for regions with a hole or overlap; NotFound for a missing table or input. --into: the
// online/unclean checks' findings go to `refused` (RunBulkLoad refuses unless force).
Result<BulkLoadPlan> PlanBulkLoad(const BulkLoadOptions& options);

// Parses, sorts and writes. Bad lines without skip_bad_lines: Corruption ("N bad lines") after
// all input has been read, nothing written. *report is filled as far as the run got.
// --into: NotSupported when the plan has refusals (and not force); the lock taken, a killed
// run's journal recovered and the plan made again before anything is read. When the journal
// held a killed bulk load's commit, finishing it is the whole run (completed_by_recovery).
Status RunBulkLoad(const BulkLoadPlan& plan, const BulkLoadOptions& options,
                   BulkLoadReport* report);

struct BulkPartitionReport {
  ParseStats parse;
  std::vector<std::pair<std::string, uint64_t>> parts;  // region encoded name, bytes; by region
  uint64_t records_written = 0;
};

// The partition stage of a distributed bulk load (hfile-task(1)). The inputs' records are read
// and checked as RunBulkLoad reads them (bad lines handed to on_bad_line and counted, failing
// the run after all input unless skip_bad_lines; a family the table lacks refused) and each
// good one is written, as it was read, to `dir`/<encoded name of its region> (the plan's
// regions), in input order; a CSV input's header line starts each of its parts. Loading every
// input's part of a region, in input order, into that region (only_region) then gives the
// cells one RunBulkLoad of all the inputs gives it: the same parse, the same duplicates'
// order. The parts are fsynced; on an error none is left. Several inputs with CSV headers need
// one run each (a part has one header).
Status PartitionBulkLoadInput(const BulkLoadPlan& plan, const BulkLoadOptions& options,
                              const std::string& dir, BulkPartitionReport* report);

}  // namespace hfile::region

#endif  // REGION_BULKLOAD_H_
