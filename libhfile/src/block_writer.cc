#include "block_writer.h"

#include <fmt/format.h>

#include <cstring>

#include "block_header.h"
#include "checksum.h"

namespace hfile {

BlockWriter::BlockWriter(WritableFile* file, const BlockWriterOptions& options)
    : file_(file), options_(options) {
  for (int64_t& p : prev_offset_) p = -1;
}

Status BlockWriter::Write(BlockType type, const Slice& body, WrittenBlock* written) {
  if (body.size() > INT32_MAX) {
    return Status::InvalidArgument(
        fmt::format("{} block body of {} bytes exceeds 2 GiB", BlockTypeName(type), body.size()));
  }
  const uint64_t offset = file_->size();
  // An uncompressed body is written as it is; a compressed one goes after the header's room.
  const bool compressed = options_.compression != Compression::kNone;
  block_.assign(kBlockHeaderSizeWithChecksum, '\0');  // the header, filled in below
  if (compressed) {
    HFILE_RETURN_IF_ERROR(Compress(options_.compression, body, options_.compress, &block_));
  }
  const Slice on_disk_body = compressed ? Slice(block_).sub(kBlockHeaderSizeWithChecksum) : body;
  const size_t data_len = kBlockHeaderSizeWithChecksum + on_disk_body.size();
  if (data_len > INT32_MAX) {
    return Status::InvalidArgument(fmt::format("{} block too large after compression",
                                               BlockTypeName(type)));
  }
  const size_t sum_len = ChecksumBytes(options_.bytes_per_checksum, data_len);
  const int chain = static_cast<int>(BlockTypeChainId(type));

  BlockHeader h;
  h.type = type;
  h.on_disk_size_without_header =
      static_cast<uint32_t>(data_len - kBlockHeaderSizeWithChecksum + sum_len);
  h.uncompressed_size_without_header = static_cast<uint32_t>(body.size());
  h.prev_block_offset = prev_offset_[chain];
  h.checksum_type = options_.checksum_type;
  h.bytes_per_checksum = options_.bytes_per_checksum;
  h.on_disk_data_size_with_header = static_cast<uint32_t>(data_len);
  header_.clear();
  h.EncodeTo(&header_);
  std::memcpy(block_.data(), header_.data(), kBlockHeaderSizeWithChecksum);
  const Slice header(block_.data(), kBlockHeaderSizeWithChecksum);

  sums_.clear();
  AppendChecksums(options_.checksum_type, options_.bytes_per_checksum, header, on_disk_body,
                  &sums_);
  HFILE_RETURN_IF_ERROR(file_->Append(compressed ? Slice(block_) : header));
  if (!compressed) HFILE_RETURN_IF_ERROR(file_->Append(on_disk_body));
  HFILE_RETURN_IF_ERROR(file_->Append(sums_));

  prev_offset_[chain] = static_cast<int64_t>(offset);
  written->offset = offset;
  written->on_disk_size_with_header = static_cast<uint32_t>(data_len + sum_len);
  written->uncompressed_size_without_header = static_cast<uint32_t>(body.size());
  return Status::OK();
}

}  // namespace hfile
