#include "block_index.h"

#include <fmt/format.h>

#include "hfile/coding.h"

namespace hfile {

Status RootIndex::DecodeFrom(const Slice& body, uint32_t count, bool expect_mid_key) {
  bytes_.assign(body.data(), body.size());
  entries_.clear();
  mid_key_.reset();
  Slice in(bytes_);
  // Each entry takes at least 13 bytes; a larger count cannot be real.
  if (count > in.size() / 13) {
    return Status::Corruption(fmt::format(
        "root index claims {} entries but its {}-byte body holds at most {}", count, in.size(),
        in.size() / 13));
  }
  entries_.reserve(count);
  for (uint32_t i = 0; i < count; ++i) {
    IndexEntry e;
    uint32_t size;
    if (!GetFixed64BE(&in, &e.offset) || !GetFixed32BE(&in, &size) || !GetByteArray(&in, &e.key)) {
      return Status::Corruption(fmt::format("root index entry {} of {} is truncated", i, count));
    }
    if (static_cast<int32_t>(size) < 0 || static_cast<int64_t>(e.offset) < 0) {
      return Status::Corruption(fmt::format("root index entry {} has a negative offset or size", i));
    }
    e.on_disk_size = size;
    entries_.push_back(e);
  }
  if (expect_mid_key && in.size() >= 16) {
    MidKeyMetadata m;
    uint32_t size, index;
    (void)GetFixed64BE(&in, &m.leaf_offset);
    (void)GetFixed32BE(&in, &size);
    (void)GetFixed32BE(&in, &index);
    m.leaf_on_disk_size = size;
    m.entry_index = index;
    mid_key_ = m;
  }
  return Status::OK();
}

int RootIndex::FindLastLE(const Slice& key, const IndexKeyCompare& cmp) const {
  int lo = 0, hi = static_cast<int>(entries_.size()) - 1, found = -1;
  while (lo <= hi) {
    int mid = lo + (hi - lo) / 2;
    if (cmp(entries_[mid].key, key) <= 0) {
      found = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return found;
}

Status NonRootIndexView::Init(const Slice& body) {
  body_ = body;
  if (body.size() < 4) return Status::Corruption("non-root index block shorter than 4 bytes");
  int32_t n = static_cast<int32_t>(DecodeFixed32BE(body.data()));
  if (n < 0 || static_cast<uint64_t>(n) > (body.size() - 4) / 16) {
    return Status::Corruption(
        fmt::format("non-root index block claims {} entries in {} bytes", n, body.size()));
  }
  count_ = static_cast<uint32_t>(n);
  const size_t secondary_end = 4 + 4 * (size_t{count_} + 1);
  if (secondary_end > body.size()) {
    return Status::Corruption("non-root index secondary array runs past the block");
  }
  entries_ = body.data() + secondary_end;
  const size_t entries_size = body.size() - secondary_end;
  uint32_t prev = 0;
  for (uint32_t i = 0; i <= count_; ++i) {
    uint32_t off = DecodeFixed32BE(body.data() + 4 + 4 * i);
    if (off > entries_size || off < prev || (i > 0 && off - prev < 12) || (i == 0 && off != 0)) {
      return Status::Corruption(fmt::format(
          "non-root index secondary offset {} = {} is out of order or past the block", i, off));
    }
    prev = off;
  }
  return Status::OK();
}

IndexEntry NonRootIndexView::entry(uint32_t i) const {
  const char* sec = body_.data() + 4;
  uint32_t start = DecodeFixed32BE(sec + 4 * i);
  uint32_t end = DecodeFixed32BE(sec + 4 * (i + 1));
  IndexEntry e;
  e.offset = DecodeFixed64BE(entries_ + start);
  e.on_disk_size = DecodeFixed32BE(entries_ + start + 8);
  e.key = Slice(entries_ + start + 12, end - start - 12);
  return e;
}

int NonRootIndexView::FindLastLE(const Slice& key, const IndexKeyCompare& cmp) const {
  int lo = 0, hi = static_cast<int>(count_) - 1, found = -1;
  while (lo <= hi) {
    int mid = lo + (hi - lo) / 2;
    if (cmp(entry(static_cast<uint32_t>(mid)).key, key) <= 0) {
      found = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return found;
}

void AppendRootIndexEntry(std::string* dst, uint64_t offset, uint32_t on_disk_size,
                          const Slice& key) {
  PutFixed64BE(dst, offset);
  PutFixed32BE(dst, on_disk_size);
  PutByteArray(dst, key);
}

void EncodeNonRootIndex(const std::vector<IndexEntry>& entries, std::string* dst) {
  PutFixed32BE(dst, static_cast<uint32_t>(entries.size()));
  uint32_t off = 0;
  for (const auto& e : entries) {
    PutFixed32BE(dst, off);
    off += 12 + static_cast<uint32_t>(e.key.size());
  }
  PutFixed32BE(dst, off);
  for (const auto& e : entries) {
    PutFixed64BE(dst, e.offset);
    PutFixed32BE(dst, e.on_disk_size);
    dst->append(e.key.data(), e.key.size());
  }
}

}  // namespace hfile
