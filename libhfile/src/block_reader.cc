#include "block_reader.h"

#include <fmt/format.h>

#include <algorithm>

#include "checksum.h"
#include "compression.h"
#include "io_counters.h"

namespace hfile {

Status BlockReader::ReadHeader(uint64_t offset, BlockHeader* header) {
  const size_t hdr = options_.header_size;
  if (offset >= options_.section_end || options_.section_end - offset < hdr) {
    return Status::Corruption(
        fmt::format("block header at offset {} would run into the trailer at {}", offset,
                    options_.section_end));
  }
  char buf[kBlockHeaderSizeWithChecksum];
  HFILE_RETURN_IF_ERROR(file_->Read(offset, hdr, buf));
  return header->DecodeFrom(Slice(buf, hdr), hdr);
}

Status BlockReader::ReadBlock(uint64_t offset, uint64_t expected_size, Block* block) {
  Status s = ReadBlockImpl(offset, expected_size, block);
  if (!s.ok()) {
    if (s.IsIOError()) fault_ = Fault::kIo;
    next_offset_ = UINT64_MAX;
    return s.WithContext(fmt::format("block at offset {}", offset));
  }
  return s;
}

Status BlockReader::ReadBlockImpl(uint64_t offset, uint64_t expected_size, Block* block) {
  const size_t hdr = options_.header_size;
  uint64_t size = expected_size;
  if (size == 0 && offset == next_offset_) size = next_size_;
  fault_ = Fault::kHeader;
  if (size == 0) {
    BlockHeader h;
    HFILE_RETURN_IF_ERROR(ReadHeader(offset, &h));
    size = h.on_disk_size_with_header();
  }
  fault_ = Fault::kSize;
  if (size < hdr || offset >= options_.section_end || size > options_.section_end - offset) {
    return Status::Corruption(fmt::format(
        "on-disk size {} runs past the end of the block section at {}", size, options_.section_end));
  }
  if (size > options_.max_block_size + hdr + (options_.max_block_size >> 4)) {
    return Status::Corruption(fmt::format("on-disk size {} exceeds the {}-byte block limit", size,
                                          options_.max_block_size));
  }
  const uint64_t extra = options_.section_end - (offset + size) >= hdr ? hdr : 0;
  if (!block->raw.Resize(size + extra)) {
    return Status::Corruption(fmt::format("cannot allocate {} bytes to read the block", size + extra));
  }
  HFILE_RETURN_IF_ERROR(file_->Read(offset, size + extra, block->raw.data()));
  block->offset = offset;
  BlockHeader& h = block->header;
  fault_ = Fault::kHeader;
  HFILE_RETURN_IF_ERROR(h.DecodeFrom(Slice(block->raw.data(), hdr), hdr));
  fault_ = Fault::kSize;
  if (h.on_disk_size_with_header() != size) {
    return Status::Corruption(fmt::format(
        "{} block header says {} bytes on disk, the index says {}", BlockTypeName(h.type),
        h.on_disk_size_with_header(), size));
  }
  if (IoCounters* c = file_->counters()) c->AddBlock(h.type, size);
  next_offset_ = UINT64_MAX;
  if (extra) {
    BlockHeader next;
    if (next.DecodeFrom(Slice(block->raw.data() + size, hdr), hdr).ok()) {
      next_offset_ = offset + size;
      next_size_ = next.on_disk_size_with_header();
    }
  }

  const char* raw = block->raw.data();
  if (options_.verify_checksums && hdr == kBlockHeaderSizeWithChecksum &&
      h.checksum_type != ChecksumType::kNull) {
    Slice data(raw, h.on_disk_data_size_with_header);
    Slice sums(raw + h.on_disk_data_size_with_header, h.checksum_bytes());
    fault_ = Fault::kChecksum;
    if (sums.size() != ChecksumBytes(h.bytes_per_checksum, data.size())) {
      return Status::Corruption(fmt::format(
          "{} block has {} checksum bytes, {} expected for {} bytes at {} bytes per checksum",
          BlockTypeName(h.type), sums.size(), ChecksumBytes(h.bytes_per_checksum, data.size()),
          data.size(), h.bytes_per_checksum));
    }
    // The context is formatted only for a failure: this runs once per block read.
    Status s = VerifyChecksums(h.checksum_type, h.bytes_per_checksum, data, sums);
    if (!s.ok()) return s.WithContext(fmt::format("{} block", BlockTypeName(h.type)));
  }

  Slice on_disk_body(raw + hdr, h.on_disk_body_size());
  const uint32_t raw_len = h.uncompressed_size_without_header;
  fault_ = Fault::kSize;
  if (options_.compression == Compression::kNone) {
    if (on_disk_body.size() != raw_len) {
      return Status::Corruption(fmt::format(
          "{} block: uncompressed file, but body is {} bytes on disk and {} uncompressed",
          BlockTypeName(h.type), on_disk_body.size(), raw_len));
    }
    block->body = on_disk_body;
    fault_ = Fault::kNone;
    return Status::OK();
  }
  // The header's claim is checked against the file's own figures before any allocation:
  // decompressors write into exactly raw_len bytes and stop there, so this bounds memory.
  if (raw_len > options_.max_block_size) {
    return Status::Corruption(fmt::format("{} block: uncompressed size {} exceeds the {}-byte limit",
                                          BlockTypeName(h.type), raw_len, options_.max_block_size));
  }
  const uint64_t file_bound =
      std::max(options_.total_uncompressed_bytes, options_.uncompressed_data_index_size);
  if (options_.total_uncompressed_bytes != 0 && raw_len > file_bound) {
    return Status::Corruption(fmt::format(
        "{} block claims {} uncompressed bytes, more than the whole file holds (trailer: "
        "totalUncompressedBytes {}, uncompressed data index size {})",
        BlockTypeName(h.type), raw_len, options_.total_uncompressed_bytes,
        options_.uncompressed_data_index_size));
  }
  if (!block->uncompressed.Resize(raw_len)) {
    return Status::Corruption(fmt::format("{} block: cannot allocate {} bytes for its uncompressed body",
                                          BlockTypeName(h.type), raw_len));
  }
  fault_ = Fault::kDecompression;
  Status s = Decompress(options_.compression, on_disk_body, block->uncompressed.data(), raw_len);
  if (!s.ok()) {
    return s.WithContext(
        fmt::format("{} block ({})", BlockTypeName(h.type), CompressionName(options_.compression)));
  }
  block->body = Slice(block->uncompressed.data(), raw_len);
  fault_ = Fault::kNone;
  return Status::OK();
}

}  // namespace hfile
