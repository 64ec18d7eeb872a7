#include "data_block_delta.h"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "hfile/coding.h"

namespace hfile {
namespace {

// EncodeVLong (Hadoop writeVLong) where dst has kMaxVLongSize bytes of room whatever v is: the
// bytes after the length byte as one shifted 8-byte store instead of a byte loop (multi-byte
// sequence ids are the common case in files written before a compaction).
inline int EncodeVLongInRoom(char* dst, int64_t v) {
  if (v >= -112 && v <= 127) {
    dst[0] = static_cast<char>(v);
    return 1;
  }
  int len = -112;
  uint64_t u = static_cast<uint64_t>(v);
  if (v < 0) {
    u = ~u;
    len = -120;
  }
  const int n = 8 - __builtin_clzll(u) / 8;  // 1..8, u != 0 here
  dst[0] = static_cast<char>(len - n);
  EncodeFixed64BE(dst + 1, u << (8 * (8 - n)));
  return 1 + n;
}

}  // namespace

bool DecodeDiffKeyHead(Slice* in, const Slice& prev_key, const Slice& family, uint32_t klen,
                       uint32_t common, bool first, char* key, const char** why) {
  if (klen < kKeyInfrastructureSize) {
    *why = "key length < 12";
    return false;
  }
  if (first && common != 0) {
    *why = "first cell of the block has a common prefix";
    return false;
  }
  // Each piece is checked against the input before it is copied and consumed as it is copied,
  // so that a corruption names the offset where the piece that is missing would start.
  size_t pos = 0;
  auto read = [&](size_t n) {
    if (n > in->size()) return false;
    memcpy(key + pos, in->data(), n);
    pos += n;
    in->remove_prefix(n);
    return true;
  };
  const size_t prev_row_end = first ? 0 : 2 + KeyRowLength(prev_key);
  if (first || common < prev_row_end) {
    if (common > 0) memcpy(key, prev_key.data(), common);
    pos = common;
    if (common < 2 && !read(2 - common)) {
      *why = "truncated row length";
      return false;
    }
    const size_t row_end = 2 + size_t{DecodeFixed16BE(key)};
    if (row_end - pos > in->size()) {
      *why = "truncated row";
      return false;
    }
    if (size_t{klen} < row_end + family.size() + 9) {
      *why = "key length too small for its row and family";
      return false;
    }
    read(row_end - pos);
    memcpy(key + pos, family.data(), family.size());
    pos += family.size();
    if (!read(klen - 9 - pos)) {
      *why = "truncated qualifier";
      return false;
    }
  } else {
    if (common > prev_key.size() - 9) {
      *why = "common prefix longer than the previous key's row, family and qualifier";
      return false;
    }
    if (common > klen - 9) {
      *why = "common prefix longer than the key";
      return false;
    }
    memcpy(key, prev_key.data(), common);
    pos = common;
    if (!read(klen - 9 - common)) {
      *why = "truncated qualifier";
      return false;
    }
  }
  return true;
}

DeltaBlockEncoder::DeltaBlockEncoder(DataBlockEncoding encoding, const CellFormat& format)
    : encoding_(encoding), format_(format) {}

void DeltaBlockEncoder::Reset() {
  used_ = kHeaderSize;
  count_ = 0;
  encoded_ = 0;
  unencoded_ = 0;
  last_key_ = Slice();
  dict_.Clear();
}

void DeltaBlockEncoder::Add(const Cell& cell) {
  // One bound for the whole cell, so that everything below is a plain store: the tags are
  // compressed first (the dictionary only sees tags, so the order against the key is free).
  Slice tags = cell.tags;
  size_t suffix = 0;
  if (format_.include_tags) {
    if (format_.tags_compressed && !tags.empty()) {
      tags_buf_.clear();
      CompressTags(tags, &dict_, &tags_buf_);
      tags = Slice(tags_buf_);
    }
    suffix += 5 + tags.size();
  }
  if (format_.include_mvcc) suffix += kMaxVLongSize;
  Reserve(kMaxKeyValueOverhead + cell.key.size() + cell.value.size() + suffix);
  char* p = EncodeKeyValue(cell, buf_.data() + used_);
  if (format_.include_tags) {
    // The uncompressed length, even before compressed tags.
    p = EncodeCompressedInt(p, static_cast<uint32_t>(cell.tags.size()));
    if (!tags.empty()) {
      memcpy(p, tags.data(), tags.size());
      p += tags.size();
    }
  }
  // UnencodedCellSize, from what was just written: the vlong's size is the bytes it took.
  size_t unencoded = 8 + cell.key.size() + cell.value.size();
  if (format_.include_tags) unencoded += 2 + cell.tags.size();
  if (format_.include_mvcc) {
    const int n = EncodeVLongInRoom(p, static_cast<int64_t>(cell.sequence_id));
    p += n;
    unencoded += static_cast<size_t>(n);
  }
  used_ = static_cast<size_t>(p - buf_.data());
  unencoded_ += unencoded;
  if (prev_key_.size() < cell.key.size()) {
    prev_key_.resize(std::max(cell.key.size(), 2 * prev_key_.size()));
  }
  memcpy(prev_key_.data(), cell.key.data(), cell.key.size());
  prev_key_len_ = cell.key.size();
  last_key_ = prev_key();
  encoded_ = used_ - kHeaderSize;
  ++count_;
}

void DeltaBlockEncoder::WriteHeader() {
  Reserve(0);  // a block without cells still has its header
  EncodeFixed16BE(buf_.data(), static_cast<uint16_t>(encoding_));
  EncodeFixed32BE(buf_.data() + 2, static_cast<uint32_t>(unencoded_));
}

void DeltaBlockEncoder::Finish(std::string* body) {
  WriteHeader();
  body->append(buf_.data(), used_);
  used_ = kHeaderSize;
}

Slice DeltaBlockEncoder::FinishBlock(std::string* /*scratch*/) {
  WriteHeader();
  return Slice(buf_.data(), used_);
}

DeltaBlockDecoder::DeltaBlockDecoder(DataBlockEncoding encoding, const CellFormat& format)
    : encoding_(encoding), format_(format) {}

Status DeltaBlockDecoder::Reset(const Slice& body) {
  body_ = body;
  in_ = Slice();
  ordinal_ = 0;
  key_ = value_ = Slice();
  dict_.Clear();
  status_ = Status::OK();
  if (body.size() < 6 || DecodeFixed16BE(body.data()) != static_cast<uint16_t>(encoding_)) {
    return status_ = Status::Corruption(fmt::format(
        "{} data block (body of {} bytes): {}", DataBlockEncodingName(encoding_), body.size(),
        body.size() < 6 ? "shorter than its 6-byte header" : "starts with another encoding id"));
  }
  in_ = body.sub(6);  // the unencodedSize int32 is only an allocation hint
  if (!StartBlock()) {
    status_ = CellCorruption(0, offset(), "truncated block header");
    in_ = Slice();
  }
  return status_;
}

bool DeltaBlockDecoder::Read(size_t n, std::string* dst) {
  if (n > in_.size()) return false;
  dst->append(in_.data(), n);
  in_.remove_prefix(n);
  return true;
}

bool DeltaBlockDecoder::Next(Cell* cell) {
  if (!status_.ok() || in_.empty()) return false;
  const char* why = nullptr;
  if (!DecodeKeyValue(&why) || !DecodeSuffix(cell, &why)) {
    status_ = CellCorruption(ordinal_, offset(), why);
    in_ = Slice();
    return false;
  }
  cell->key = key_;
  cell->value = value_;
  ++ordinal_;
  return true;
}

}  // namespace hfile
