#include "region/store_file_reader.h"

#include <algorithm>
#include <tuple>

#include "region/merging_iterator.h"

namespace hfile::region {

namespace {

// HalfStoreFileReader's scanner: BOTTOM stops at the split key, TOP starts there.
class HalfIterator : public CellIterator {
 public:
  HalfIterator(std::unique_ptr<CellIterator> inner, ComparatorKind kind, std::string split,
               bool top)
      : inner_(std::move(inner)), kind_(kind), split_(std::move(split)), top_(top) {}

  bool Valid() const override {
    if (!inner_->Valid()) return false;
    return top_ || CompareKeys(kind_, inner_->cell().key, split_) < 0;
  }
  void SeekToFirst() override {
    if (top_) inner_->Seek(split_);
    else inner_->SeekToFirst();
  }
  void Seek(const Slice& key) override {
    if (top_ && CompareKeys(kind_, key, split_) < 0) inner_->Seek(split_);
    else inner_->Seek(key);
  }
  void Next() override { inner_->Next(); }
  const Cell& cell() const override { return inner_->cell(); }
  Status status() const override { return inner_->status(); }

 private:
  std::unique_ptr<CellIterator> inner_;
  ComparatorKind kind_;
  std::string split_;
  bool top_;
};

class SequenceIdOverride : public CellIterator {
 public:
  SequenceIdOverride(std::unique_ptr<CellIterator> inner, uint64_t seq)
      : inner_(std::move(inner)), seq_(seq) {}
  bool Valid() const override { return inner_->Valid(); }
  void SeekToFirst() override {
    inner_->SeekToFirst();
    Load();
  }
  void Seek(const Slice& key) override {
    inner_->Seek(key);
    Load();
  }
  void Next() override {
    inner_->Next();
    Load();
  }
  const Cell& cell() const override { return cell_; }
  Status status() const override { return inner_->status(); }

 private:
  void Load() {
    if (!inner_->Valid()) return;
    cell_ = inner_->cell();
    cell_.sequence_id = seq_;
  }
  std::unique_ptr<CellIterator> inner_;
  uint64_t seq_;
  Cell cell_;
};

}  // namespace

std::unique_ptr<CellIterator> NewHalfIterator(std::unique_ptr<CellIterator> inner,
                                              ComparatorKind kind, std::string split_key,
                                              bool top) {
  return std::make_unique<HalfIterator>(std::move(inner), kind, std::move(split_key), top);
}

std::unique_ptr<CellIterator> NewSequenceIdOverride(std::unique_ptr<CellIterator> inner,
                                                    uint64_t sequence_id) {
  return std::make_unique<SequenceIdOverride>(std::move(inner), sequence_id);
}

StoreFileReader::StoreFileReader(StoreFile file, std::unique_ptr<Reader> reader,
                                 StoreFileSequence seq)
    : file_(std::move(file)), reader_(std::move(reader)), sequence_(seq) {}

Result<std::unique_ptr<StoreFileReader>> StoreFileReader::Open(const StoreFile& file,
                                                               const ReaderOptions& options) {
  if (file.target_path.empty()) {
    if (!file.target_status.ok()) return file.target_status;
    return Status::NotFound(file.path, "store file entry does not resolve to an HFile");
  }
  HFILE_ASSIGN_OR_RETURN(auto reader, Reader::Open(file.target_path, options));
  bool top = file.reference && file.reference->top();
  StoreFileSequence seq = ComputeStoreFileSequence(file.name, top, reader->file_info());
  return std::unique_ptr<StoreFileReader>(new StoreFileReader(file, std::move(reader), seq));
}

std::optional<int64_t> StoreFileReader::bulk_load_time() const {
  return reader_->file_info().GetInt64(fileinfo::kBulkloadTimestamp);
}

std::unique_ptr<CellIterator> StoreFileReader::NewIterator() const {
  return NewIterator(IteratorOptions());
}

std::unique_ptr<CellIterator> StoreFileReader::NewIterator(const IteratorOptions& options) const {
  std::unique_ptr<CellIterator> it = reader_->NewIterator(options);
  if (file_.reference) {
    it = NewHalfIterator(std::move(it), reader_->comparator(), file_.reference->split_key,
                         file_.reference->top());
  }
  if (sequence_.reset_cell_sequence_ids && sequence_.sequence_id >= 0) {
    it = NewSequenceIdOverride(std::move(it), static_cast<uint64_t>(sequence_.sequence_id));
  }
  return it;
}

void SortForScan(std::vector<std::unique_ptr<StoreFileReader>>* readers) {
  auto key = [](const StoreFileReader& r) {
    auto bl = r.bulk_load_time();
    return std::make_tuple(r.sequence().sequence_id, -static_cast<int64_t>(r.hfile().file_size()),
                           bl ? 0 : 1, bl.value_or(0), r.file().name.name);
  };
  std::stable_sort(readers->begin(), readers->end(),
                   [&](const auto& a, const auto& b) { return key(*a) < key(*b); });
}

std::unique_ptr<CellIterator> NewStoreFilesIterator(
    const std::vector<std::unique_ptr<StoreFileReader>>& readers, const IteratorOptions& options) {
  std::vector<std::unique_ptr<CellIterator>> inputs;
  ComparatorKind kind = ComparatorKind::kDefault;
  for (const auto& r : readers) {
    if (inputs.empty()) kind = r->hfile().comparator();
    inputs.push_back(r->NewIterator(options));
  }
  return NewMergingIterator(std::move(inputs), kind);
}

}  // namespace hfile::region
