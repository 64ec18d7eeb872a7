// The file-level cell iterator: walks data blocks in file order (skipping the inline index and
// bloom blocks between them) and decodes each with the decoder its encoding needs.
#include <fmt/format.h>

#include <algorithm>

#include "hfile/coding.h"
#include "reader_internal.h"

namespace hfile {

Status BlockCellDecoder::Reset(const Block& block) {
  DataBlockEncoding enc = DataBlockEncoding::kNone;
  if (block.header.type == BlockType::kEncodedData) {
    if (block.body.size() < 2) return Status::Corruption("encoded data block shorter than its id");
    uint16_t id = DecodeFixed16BE(block.body.data());
    auto e = DataBlockEncodingFromId(id);
    if (!e || *e == DataBlockEncoding::kNone) {
      return Status::Corruption(fmt::format("unknown data block encoding id {}", id));
    }
    enc = *e;
  } else if (block.header.type != BlockType::kData) {
    return Status::Corruption(
        fmt::format("expected a data block, found {}", BlockTypeName(block.header.type)));
  } else {
    current_ = nullptr;
    body_ = block.body;
    return none_.Reset(block.body);
  }
  auto& slot = decoders_[static_cast<size_t>(enc)];
  if (!slot) {
    HFILE_ASSIGN_OR_RETURN(slot, NewDataBlockDecoder(enc, format_));
  }
  current_ = slot.get();
  body_ = block.body;
  return current_->Reset(block.body);
}

void BlockCellDecoder::ReadRest(const Cell& first, CellBatch* batch) {
  if (current_ == nullptr) {
    *batch->Add() = first;
    none_.ReadAll(batch);
    return;
  }
  const char* const lo = body_.data();
  const char* const hi = body_.end();
  auto stable = [&](const Slice& s) {
    return s.empty() || (s.data() >= lo && s.end() <= hi) ? s : batch->Copy(s);
  };
  auto add = [&](const Cell& c) {
    Cell* out = batch->Add();
    out->key = stable(c.key);
    out->value = stable(c.value);
    out->tags = stable(c.tags);
    out->sequence_id = c.sequence_id;
  };
  add(first);  // its key is in the decoder's buffers, which the cells after it reuse
  // DIFF / FAST_DIFF read the rest themselves, building the keys straight into the batch's
  // arena; PREFIX and ROW_INDEX_V1 go cell by cell, copying what does not lie in the body.
  if (current_->ReadAll(batch)) return;
  for (Cell c; current_->Next(&c);) add(c);
}

namespace {

class FileIterator final : public CellIterator {
 public:
  FileIterator(const Reader::Rep* rep, const IteratorOptions& options)
      : rep_(rep),
        options_(options),
        block_reader_(rep->NewBlockReader()),
        decoder_(rep->cell_format) {}

  bool Valid() const override { return valid_; }
  const Cell& cell() const override { return cell_; }
  Status status() const override { return status_; }

  void SeekToFirst() override {
    Clear();
    if (rep_->trailer.first_data_block_offset < 0 || rep_->data_index.size() == 0) return;
    // With one index level the root names every data block; deeper, the leaf is not at hand.
    position_ = rep_->trailer.num_data_index_levels == 1 ? Position::kRoot : Position::kNone;
    entry_ = 0;
    if (LoadBlock(static_cast<uint64_t>(rep_->trailer.first_data_block_offset), 0)) Advance();
  }

  void Seek(const Slice& key) override {
    Clear();
    if (rep_->trailer.first_data_block_offset < 0 || rep_->data_index.size() == 0) return;
    auto located = Locate(key);
    if (!located.ok()) return Fail(located.status());
    if (!located->has_value()) return SeekToFirst();
    if (!LoadBlock((*located)->first, (*located)->second)) return;
    for (Advance(); valid_ && rep_->CompareKeys(cell_.key, key) < 0;) Advance();
  }

  void Next() override { Advance(); }

  void ReadBatch(CellBatch* batch) override {
    batch->Clear();
    decoder_.ReadRest(cell_, batch);
    batch->set_keys_valid(true);  // every decoder checks each key's lengths (IsValidKey's test)
    // On a decode error the batch ends before the bad cell and the next Next() reports it.
    cell_ = batch->back();
  }

 private:
  // Where the loaded data block's index entry is, for the next block's index key.
  enum class Position { kNone, kRoot, kLeaf };

  void Clear() {
    valid_ = false;
    status_ = Status::OK();
    block_loaded_ = false;
  }
  void Fail(Status s) {
    valid_ = false;
    block_loaded_ = false;
    have_block_ = false;
    status_ = s.WithContext(rep_->path);
  }

  // Rep::LocateDataBlock, remembering the entry it ends on (the leaf stays in index_block_).
  Result<std::optional<std::pair<uint64_t, uint32_t>>> Locate(const Slice& key) {
    position_ = Position::kNone;
    auto located =
        rep_->LocateDataBlock(&block_reader_, &index_block_, key, &next_after_leaf_);
    if (!located.ok() || !located->has_value()) return located;
    if (rep_->trailer.num_data_index_levels == 1) {
      position_ = Position::kRoot;
      int i = rep_->data_index.FindLastLE(key, rep_->KeyCompare());
      entry_ = static_cast<uint32_t>(std::max(i, 0));
    } else if (leaf_.Init(index_block_.body).ok()) {
      position_ = Position::kLeaf;
      entry_ = static_cast<uint32_t>(std::max(leaf_.FindLastLE(key, rep_->KeyCompare()), 0));
    }
    return located;
  }

  // False when the index says the data block after the loaded one starts at or past the upper
  // bound; true when it may hold wanted cells (or the index entry is not at hand).
  bool NextBlockMayBeWanted() const {
    if (!options_.upper_bound) return true;
    Slice next;
    if (position_ == Position::kRoot && entry_ + 1 < rep_->data_index.size()) {
      next = rep_->data_index.entry(entry_ + 1).key;
    } else if (position_ == Position::kLeaf && entry_ + 1 < leaf_.size()) {
      next = leaf_.entry(entry_ + 1).key;
    } else if (position_ == Position::kLeaf && entry_ + 1 == leaf_.size() && next_after_leaf_) {
      next = *next_after_leaf_;  // the next leaf's first entry, from the level above
    } else {
      return true;
    }
    return rep_->CompareKeys(next, *options_.upper_bound) < 0;
  }

  // Reads the data block at offset and starts decoding it; the one already held is reused.
  bool LoadBlock(uint64_t offset, uint64_t size) {
    Status s;
    if (have_block_ && block_.offset == offset) {
      rep_->io.AddCacheHit();
    } else {
      have_block_ = false;
      s = block_reader_.ReadBlock(offset, size, &block_);
      if (s.ok() && !IsDataBlock(block_.header.type)) {
        s = Status::Corruption(fmt::format("block at offset {} is {}, not a data block", offset,
                                           BlockTypeName(block_.header.type)));
      }
    }
    if (s.ok()) {
      s = decoder_.Reset(block_);
      if (!s.ok()) s = s.WithContext(fmt::format("data block at offset {}", offset));
    }
    if (!s.ok()) {
      Fail(s);
      return false;
    }
    block_loaded_ = have_block_ = true;
    return true;
  }

  // Moves to the next cell, crossing into following data blocks as needed.
  void Advance() {
    while (block_loaded_) {
      if (decoder_.Next(&cell_)) {
        valid_ = true;
        return;
      }
      if (!decoder_.status().ok()) {
        return Fail(decoder_.status().WithContext(
            fmt::format("data block at offset {}", block_.offset)));
      }
      if (!NextDataBlock()) break;
    }
    valid_ = false;
  }

  // Loads the data block after the current one; false at the end of the data, at the upper
  // bound, or on error.
  bool NextDataBlock() {
    const int64_t last = rep_->trailer.last_data_block_offset;
    uint64_t offset = block_.offset + block_.header.on_disk_size_with_header();
    block_loaded_ = false;
    if (!NextBlockMayBeWanted()) return false;
    have_block_ = false;
    while (last >= 0 && offset <= static_cast<uint64_t>(last)) {
      Status s = block_reader_.ReadBlock(offset, 0, &block_);
      if (!s.ok()) {
        Fail(s);
        return false;
      }
      if (IsDataBlock(block_.header.type)) {
        s = decoder_.Reset(block_);
        if (!s.ok()) {
          Fail(s.WithContext(fmt::format("data block at offset {}", offset)));
          return false;
        }
        block_loaded_ = have_block_ = true;
        ++entry_;
        return true;
      }
      offset += block_.header.on_disk_size_with_header();  // inline index or bloom block
    }
    return false;
  }

  const Reader::Rep* rep_;
  IteratorOptions options_;
  BlockReader block_reader_;
  Block block_;        // the data block being decoded (or, between blocks, an inline one)
  Block index_block_;  // the last index block a seek descended through: its leaf
  NonRootIndexView leaf_;
  Position position_ = Position::kNone;
  uint32_t entry_ = 0;  // the loaded data block's entry in the root (kRoot) or leaf_ (kLeaf)
  std::optional<std::string> next_after_leaf_;  // the index key after leaf_'s last entry
  BlockCellDecoder decoder_;
  Cell cell_;
  Status status_;
  bool valid_ = false;
  bool block_loaded_ = false;
  bool have_block_ = false;  // block_ holds an intact data block at block_.offset
};

}  // namespace

std::unique_ptr<CellIterator> Reader::NewIterator() const {
  return std::make_unique<FileIterator>(rep_.get(), IteratorOptions());
}

std::unique_ptr<CellIterator> Reader::NewIterator(const IteratorOptions& options) const {
  return std::make_unique<FileIterator>(rep_.get(), options);
}

}  // namespace hfile
