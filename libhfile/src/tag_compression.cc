#include "tag_compression.h"

#include "hfile/coding.h"

namespace hfile {

void TagDictionary::Clear() {
  // Keep the strings' capacity: a fresh dictionary per block must not mean fresh allocations.
  for (int i = 0; i < size_; ++i) entries_[i].clear();
  head_ = tail_ = -1;
  size_ = 0;
}

void TagDictionary::Unlink(int i) {
  if (prev_[i] >= 0) next_[prev_[i]] = next_[i];
  else head_ = next_[i];
  if (next_[i] >= 0) prev_[next_[i]] = prev_[i];
  else tail_ = prev_[i];
}

void TagDictionary::PushFront(int i) {
  prev_[i] = -1;
  next_[i] = head_;
  if (head_ >= 0) prev_[head_] = i;
  head_ = i;
  if (tail_ < 0) tail_ = i;
}

void TagDictionary::Add(const Slice& payload) {
  if (payload.empty()) return;
  int slot;
  if (size_ < kCapacity) {
    slot = size_++;
  } else {
    slot = tail_;  // evict the least recently used; its index is reused
    Unlink(slot);
  }
  entries_[slot].assign(payload.data(), payload.size());
  PushFront(slot);
}

int TagDictionary::FindOrAdd(const Slice& payload) {
  // At most 127 entries: a linear scan (length first) is cheap and needs no hash table.
  for (int i = 0; i < size_; ++i) {
    if (entries_[i].size() == payload.size() && Slice(entries_[i]) == payload) {
      if (head_ != i) {
        Unlink(i);
        PushFront(i);
      }
      return i;
    }
  }
  Add(payload);
  return -1;
}

bool TagDictionary::Get(int index, Slice* entry) {
  if (index < 0 || index >= size_) return false;
  if (head_ != index) {
    Unlink(index);
    PushFront(index);
  }
  *entry = Slice(entries_[index]);
  return true;
}

void CompressTags(const Slice& tags, TagDictionary* dict, std::string* dst) {
  size_t pos = 0;
  while (pos + 2 <= tags.size()) {
    size_t len = DecodeFixed16BE(tags.data() + pos);
    pos += 2;
    if (len > tags.size() - pos) len = tags.size() - pos;
    Slice payload(tags.data() + pos, len);
    pos += len;
    int index = dict->FindOrAdd(payload);
    if (index < 0) {
      PutFixed8(dst, TagDictionary::kNotInDictionary);
      PutVarint32(dst, static_cast<uint32_t>(len));
      dst->append(payload.data(), payload.size());
    } else {
      PutFixed16BE(dst, static_cast<uint16_t>(index));
    }
  }
}

bool UncompressTags(Slice* in, size_t tags_length, TagDictionary* dict, std::string* out,
                    const char** why) {
  out->clear();
  while (out->size() < tags_length) {
    uint8_t status;
    if (!GetFixed8(in, &status)) {
      *why = "truncated compressed tag";
      return false;
    }
    Slice payload;
    if (status == TagDictionary::kNotInDictionary) {
      uint32_t len;
      if (!GetVarint32(in, &len)) {
        *why = "bad compressed tag length";
        return false;
      }
      if (len > in->size()) {
        *why = "truncated compressed tag payload";
        return false;
      }
      payload = Slice(in->data(), len);
      in->remove_prefix(len);
      dict->Add(payload);
    } else {
      uint8_t low;
      if (!GetFixed8(in, &low)) {
        *why = "truncated tag dictionary index";
        return false;
      }
      // int16 BE; a valid index is < 127, so the high byte is 0 (a negative short is never valid).
      int index = (static_cast<int>(status) << 8) | low;
      if (!dict->Get(index, &payload)) {
        *why = "missing tag dictionary entry";
        return false;
      }
    }
    if (2 + payload.size() > tags_length - out->size()) {
      *why = "decompressed tags exceed the tags length";
      return false;
    }
    PutFixed16BE(out, static_cast<uint16_t>(payload.size()));
    out->append(payload.data(), payload.size());
  }
  return true;
}

}  // namespace hfile
