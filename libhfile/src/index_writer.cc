#include "index_writer.h"

#include <algorithm>

#include "hfile/coding.h"

namespace hfile {

namespace {
int VIntSize(uint32_t n) { return VLongSize(static_cast<int64_t>(n)); }
}  // namespace

void IndexChunk::Add(const Slice& key, uint64_t offset, uint32_t on_disk_size,
                     int64_t cumulative) {
  keys_.append(key.data(), key.size());
  key_starts_.push_back(keys_.size());
  offsets_.push_back(offset);
  sizes_.push_back(on_disk_size);
  if (cumulative >= 0) cumulative_.push_back(cumulative);
  root_size_ += 12 + VIntSize(static_cast<uint32_t>(key.size())) + key.size();
}

void IndexChunk::Clear() {
  keys_.clear();
  key_starts_.assign(1, 0);
  offsets_.clear();
  sizes_.clear();
  cumulative_.clear();
  root_size_ = 0;
}

void IndexChunk::EncodeNonRoot(std::string* dst) const {
  PutFixed32BE(dst, static_cast<uint32_t>(size()));
  size_t rel = 0;
  for (size_t i = 0; i < size(); ++i) {
    PutFixed32BE(dst, static_cast<uint32_t>(rel));
    rel += 12 + (key_starts_[i + 1] - key_starts_[i]);
  }
  PutFixed32BE(dst, static_cast<uint32_t>(rel));
  for (size_t i = 0; i < size(); ++i) {
    PutFixed64BE(dst, offsets_[i]);
    PutFixed32BE(dst, sizes_[i]);
    Slice k = key(i);
    dst->append(k.data(), k.size());
  }
}

void IndexChunk::EncodeRoot(std::string* dst) const {
  for (size_t i = 0; i < size(); ++i) {
    PutFixed64BE(dst, offsets_[i]);
    PutFixed32BE(dst, sizes_[i]);
    PutByteArray(dst, key(i));
  }
}

void IndexChunk::EncodeMidKeyMetadata(std::string* dst) const {
  const int64_t total = cumulative_.back();
  const int64_t mid = (total - 1) / 2;
  // BlockIndexChunk.getEntryBySubEntry: the chunk entry whose leaf holds sub-entry `mid`.
  auto it = std::lower_bound(cumulative_.begin(), cumulative_.end(), mid);
  size_t entry = static_cast<size_t>(it - cumulative_.begin());
  if (it != cumulative_.end() && *it == mid) ++entry;
  const int64_t before = entry > 0 ? cumulative_[entry - 1] : 0;
  PutFixed64BE(dst, offsets_[entry]);
  PutFixed32BE(dst, sizes_[entry]);
  PutFixed32BE(dst, static_cast<uint32_t>(mid - before));
}

void IndexWriter::AddEntry(const Slice& key, uint64_t offset, uint32_t on_disk_size) {
  leaf_.Add(key, offset, on_disk_size);
  ++total_entries_;
}

Status IndexWriter::MaybeWriteLeaf(BlockWriter* w, bool closing,
                                   uint64_t* uncompressed_with_header) {
  if (leaf_.size() == 0 || leaf_moved_to_root_) return Status::OK();
  if (closing) {
    if (root_.size() == 0) {
      root_ = std::move(leaf_);
      leaf_ = IndexChunk();
      leaf_moved_to_root_ = true;
      return Status::OK();
    }
  } else if (leaf_.NonRootSize() < max_chunk_size_) {
    return Status::OK();
  }
  body_.clear();
  leaf_.EncodeNonRoot(&body_);
  WrittenBlock b;
  HFILE_RETURN_IF_ERROR(w->Write(BlockType::kLeafIndex, body_, &b));
  uncompressed_size_ += b.uncompressed_size_without_header;
  *uncompressed_with_header += b.uncompressed_size_with_header();
  num_levels_ = 2;
  root_.Add(leaf_.key(0), b.offset, b.on_disk_size_with_header, total_entries_);
  leaf_.Clear();
  return Status::OK();
}

Status IndexWriter::WriteIntermediateLevel(BlockWriter* w) {
  IndexChunk parent, chunk;
  auto flush = [&]() -> Status {
    body_.clear();
    chunk.EncodeNonRoot(&body_);
    WrittenBlock b;
    HFILE_RETURN_IF_ERROR(w->Write(BlockType::kIntermediateIndex, body_, &b));
    uncompressed_size_ += b.uncompressed_size_without_header;
    parent.Add(chunk.key(0), b.offset, b.on_disk_size_with_header);
    chunk.Clear();
    return Status::OK();
  };
  for (size_t i = 0; i < root_.size(); ++i) {
    chunk.Add(root_.key(i), root_.offset(i), root_.on_disk_size(i));
    if (i >= min_entries_ && chunk.RootSize() >= max_chunk_size_) HFILE_RETURN_IF_ERROR(flush());
  }
  if (chunk.size() > 0) HFILE_RETURN_IF_ERROR(flush());
  root_ = std::move(parent);
  return Status::OK();
}

Status IndexWriter::Finish(BlockWriter* w, uint64_t* root_offset) {
  std::string mid_key;
  if (num_levels_ > 1) root_.EncodeMidKeyMetadata(&mid_key);
  if (!leaf_moved_to_root_) {
    while (root_.RootSize() > max_chunk_size_ && root_.size() > min_entries_ &&
           num_levels_ < 16) {
      HFILE_RETURN_IF_ERROR(WriteIntermediateLevel(w));
      ++num_levels_;
    }
  }
  body_.clear();
  root_.EncodeRoot(&body_);
  body_.append(mid_key);
  WrittenBlock b;
  HFILE_RETURN_IF_ERROR(w->Write(BlockType::kRootIndex, body_, &b));
  uncompressed_size_ += b.uncompressed_size_without_header;
  *root_offset = b.offset;
  return Status::OK();
}

}  // namespace hfile
