// StoreFileReader: one store file as a region server reads it (HBase's StoreFileReader +
// HalfStoreFileReader + StoreFileScanner), whatever the entry in the family dir is:
//
//   plain HFile      all cells
//   HFileLink        the target's cells
//   Reference        one half of the referenced (parent) file: BOTTOM = keys < split key,
//                    TOP = keys >= split key, where the split key is the first-on-row key of
//                    the split row (so a row never straddles the halves)
//
// with the file's sequence id (REGION_LAYOUT §4.5): bulk-loaded files hand every cell the
// file's sequence id unless SKIP_RESET_SEQ_ID is set; other files keep the cells' own mvcc.
#ifndef REGION_STORE_FILE_READER_H_
#define REGION_STORE_FILE_READER_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "hfile/iterator.h"
#include "hfile/reader.h"
#include "hfile/status.h"
#include "region/layout.h"
#include "region/store_file_sequence.h"

namespace hfile::region {

class StoreFileReader {
 public:
  // Opens `file.target_path` (returns `file.target_status` when the entry is unresolved).
  static Result<std::unique_ptr<StoreFileReader>> Open(const StoreFile& file,
                                                       const ReaderOptions& options = {});

  const StoreFile& file() const { return file_; }
  const Reader& hfile() const { return *reader_; }
  const StoreFileSequence& sequence() const { return sequence_; }
  // BULKLOAD_TIMESTAMP, if the file info has one.
  std::optional<int64_t> bulk_load_time() const;

  // The cells this store file contributes, in key order: the half for a reference, with
  // sequence ids overridden for bulk-loaded files. The reader must outlive the iterator.
  std::unique_ptr<CellIterator> NewIterator() const;
  // The same, reading no data block the options' upper bound rules out.
  std::unique_ptr<CellIterator> NewIterator(const IteratorOptions& options) const;

 private:
  StoreFileReader(StoreFile file, std::unique_ptr<Reader> reader, StoreFileSequence seq);
  StoreFile file_;
  std::unique_ptr<Reader> reader_;
  StoreFileSequence sequence_;
};

// Restricts `inner` (a file iterator of order `kind`) to one half around `split_key`.
std::unique_ptr<CellIterator> NewHalfIterator(std::unique_ptr<CellIterator> inner,
                                              ComparatorKind kind, std::string split_key,
                                              bool top);
// Gives every cell of `inner` the sequence id `sequence_id`.
std::unique_ptr<CellIterator> NewSequenceIdOverride(std::unique_ptr<CellIterator> inner,
                                                    uint64_t sequence_id);

// Sorts readers into HBase's scanner order (StoreFileComparators.SEQ_ID): max sequence id
// ascending, then file length descending, bulk-load time ascending (none last), name
// ascending. The position in the result is the "scanner order": later is newer.
void SortForScan(std::vector<std::unique_ptr<StoreFileReader>>* readers);

// A k-way merge, in HBase's scan order, of the readers' NewIterator()s (any families: the
// cell order puts family right after row, as HBase's RegionScanner heap does). The readers
// must outlive the iterator and be in scanner order (SortForScan) per store.
std::unique_ptr<CellIterator> NewStoreFilesIterator(
    const std::vector<std::unique_ptr<StoreFileReader>>& readers,
    const IteratorOptions& options = {});

}  // namespace hfile::region

#endif  // REGION_STORE_FILE_READER_H_
