#include "block_header.h"

#include <fmt/format.h>

#include "hfile/coding.h"
#include "hfile/escape.h"

namespace hfile {
namespace {
struct MagicEntry {
  BlockType type;
  std::string_view magic;
  std::string_view name;
};
constexpr MagicEntry kMagics[] = {
    {BlockType::kData, "DATABLK*", "DATA"},
    {BlockType::kEncodedData, "DATABLKE", "ENCODED_DATA"},
    {BlockType::kLeafIndex, "IDXLEAF2", "LEAF_INDEX"},
    {BlockType::kBloomChunk, "BLMFBLK2", "BLOOM_CHUNK"},
    {BlockType::kMeta, "METABLKc", "META"},
    {BlockType::kIntermediateIndex, "IDXINTE2", "INTERMEDIATE_INDEX"},
    {BlockType::kRootIndex, "IDXROOT2", "ROOT_INDEX"},
    {BlockType::kFileInfo, "FILEINF2", "FILE_INFO"},
    {BlockType::kGeneralBloomMeta, "BLMFMET2", "GENERAL_BLOOM_META"},
    {BlockType::kDeleteFamilyBloomMeta, "DFBLMET2", "DELETE_FAMILY_BLOOM_META"},
    {BlockType::kTrailer, "TRABLK\"$", "TRAILER"},
    {BlockType::kIndexV1, "IDXBLK)+", "INDEX_V1"},
};
}  // namespace

std::string_view BlockMagic(BlockType t) { return kMagics[static_cast<size_t>(t)].magic; }
std::string_view BlockTypeName(BlockType t) { return kMagics[static_cast<size_t>(t)].name; }

std::optional<BlockType> BlockTypeFromMagic(const Slice& magic8) {
  if (magic8.size() < 8) return std::nullopt;
  for (const auto& m : kMagics)
    if (std::string_view(magic8.data(), 8) == m.magic) return m.type;
  return std::nullopt;
}

Status BlockHeader::DecodeFrom(const Slice& in, size_t hdr_size) {
  if (in.size() < hdr_size) {
    return Status::Corruption(fmt::format("block header truncated: {} of {} bytes", in.size(),
                                          hdr_size));
  }
  auto t = BlockTypeFromMagic(in);
  if (!t) {
    return Status::Corruption(
        fmt::format("bad block magic \"{}\"", ToStringBinary(Slice(in.data(), 8))));
  }
  type = *t;
  header_size = hdr_size;
  const char* p = in.data();
  int32_t on_disk = static_cast<int32_t>(DecodeFixed32BE(p + 8));
  int32_t uncompressed = static_cast<int32_t>(DecodeFixed32BE(p + 12));
  prev_block_offset = static_cast<int64_t>(DecodeFixed64BE(p + 16));
  if (on_disk < 0 || uncompressed < 0) {
    return Status::Corruption(fmt::format(
        "negative block size in header (onDiskSizeWithoutHeader {}, uncompressedSize {})", on_disk,
        uncompressed));
  }
  if (prev_block_offset < -1) {
    return Status::Corruption(fmt::format("bad prevBlockOffset {}", prev_block_offset));
  }
  on_disk_size_without_header = static_cast<uint32_t>(on_disk);
  uncompressed_size_without_header = static_cast<uint32_t>(uncompressed);
  if (hdr_size == kBlockHeaderSizeNoChecksum) {
    checksum_type = ChecksumType::kNull;
    bytes_per_checksum = 0;
    on_disk_data_size_with_header = static_cast<uint32_t>(hdr_size) + on_disk_size_without_header;
    return Status::OK();
  }
  auto ct = ChecksumTypeFromByte(static_cast<uint8_t>(p[24]));
  if (!ct) {
    return Status::Corruption(
        fmt::format("unknown checksum type {} in block header", static_cast<uint8_t>(p[24])));
  }
  checksum_type = *ct;
  int32_t bpc = static_cast<int32_t>(DecodeFixed32BE(p + 25));
  int32_t data_size = static_cast<int32_t>(DecodeFixed32BE(p + 29));
  if (bpc <= 0 && checksum_type != ChecksumType::kNull) {
    return Status::Corruption(fmt::format("bad bytesPerChecksum {} in block header", bpc));
  }
  bytes_per_checksum = static_cast<uint32_t>(bpc < 0 ? 0 : bpc);
  if (data_size < static_cast<int32_t>(hdr_size) ||
      static_cast<uint64_t>(data_size) > on_disk_size_with_header()) {
    return Status::Corruption(fmt::format(
        "block header onDiskDataSizeWithHeader {} is outside [{}, {}]", data_size, hdr_size,
        on_disk_size_with_header()));
  }
  on_disk_data_size_with_header = static_cast<uint32_t>(data_size);
  return Status::OK();
}

void BlockHeader::EncodeTo(std::string* dst) const {
  dst->append(BlockMagic(type));
  PutFixed32BE(dst, on_disk_size_without_header);
  PutFixed32BE(dst, uncompressed_size_without_header);
  PutFixed64BE(dst, static_cast<uint64_t>(prev_block_offset));
  if (header_size == kBlockHeaderSizeWithChecksum) {
    PutFixed8(dst, static_cast<uint8_t>(checksum_type));
    PutFixed32BE(dst, bytes_per_checksum);
    PutFixed32BE(dst, on_disk_data_size_with_header);
  }
}

}  // namespace hfile
