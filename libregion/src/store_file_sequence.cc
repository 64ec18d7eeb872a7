#include "region/store_file_sequence.h"

namespace hfile::region {

StoreFileSequence ComputeStoreFileSequence(const StoreFileName& name, bool top_reference,
                                           const FileInfo& file_info) {
  StoreFileSequence out;
  // HStoreFile.open: start from MAX_SEQ_ID_KEY (+1 for a TOP reference) ...
  if (auto max = file_info.GetInt64(fileinfo::kMaxSeqId)) {
    out.sequence_id = *max + (top_reference ? 1 : 0);
  }
  out.bulk_loaded = name.bulk_load_seq_id.has_value() ||
                    file_info.Get(fileinfo::kBulkloadTimestamp).has_value();
  if (!out.bulk_loaded) return out;
  // ... and for bulk-loaded files take the name's _SeqId_<n>_ instead when present.
  bool skip_reset = file_info.GetBool(fileinfo::kSkipResetSeqId).value_or(false);
  if (name.bulk_load_seq_id) {
    out.sequence_id = static_cast<int64_t>(*name.bulk_load_seq_id) + (top_reference ? 1 : 0);
    if (skip_reset) out.sequence_id += 1;
  }
  out.reset_cell_sequence_ids = !skip_reset;
  return out;
}

Result<StoreFileSequence> ReadStoreFileSequence(const StoreFile& file,
                                                const ReaderOptions& options) {
  if (file.target_path.empty()) return file.target_status;
  HFILE_ASSIGN_OR_RETURN(auto reader, Reader::Open(file.target_path, options));
  bool top = file.reference && file.reference->top();
  return ComputeStoreFileSequence(file.name, top, reader->file_info());
}

}  // namespace hfile::region
