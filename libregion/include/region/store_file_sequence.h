// A store file's sequence id, as HStoreFile/StoreFileInfo assign it (REGION_LAYOUT §4.5):
//   bulk-loaded (name has "_SeqId_<n>_" or file info has BULKLOAD_TIMESTAMP): n from the name,
//     +1 for a TOP reference, +1 more if SKIP_RESET_SEQ_ID; every cell's sequence id is then
//     replaced by it unless SKIP_RESET_SEQ_ID is true;
//   otherwise: file info MAX_SEQ_ID_KEY, +1 for a TOP reference; cells keep their own mvcc.
//   Nothing known: -1.
#ifndef REGION_STORE_FILE_SEQUENCE_H_
#define REGION_STORE_FILE_SEQUENCE_H_

#include <cstdint>

#include "hfile/file_info.h"
#include "hfile/reader.h"
#include "region/layout.h"
#include "region/store_file_name.h"

namespace hfile::region {

struct StoreFileSequence {
  int64_t sequence_id = -1;
  bool bulk_loaded = false;
  // True when readers must overwrite every cell's sequence id with `sequence_id`.
  bool reset_cell_sequence_ids = false;
};

// Pure rule over a parsed name, the reference range and the (target) file's info.
StoreFileSequence ComputeStoreFileSequence(const StoreFileName& name, bool top_reference,
                                           const FileInfo& file_info);

// Opens the target HFile with hfile::Reader and applies the rule.
Result<StoreFileSequence> ReadStoreFileSequence(const StoreFile& file,
                                                const ReaderOptions& options = {});

}  // namespace hfile::region

#endif  // REGION_STORE_FILE_SEQUENCE_H_
