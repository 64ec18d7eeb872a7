// WriterOptionsFromFile / InferBlockSize: what an HFile says about how it was written.
#include <fmt/format.h>

#include <algorithm>

#include "hfile/file_info.h"
#include "hfile/rewrite.h"
#include "reader_internal.h"

namespace hfile {

namespace {

// File-info keys the writer produces itself (recomputed, not copied).
bool IsRecomputedKey(const std::string& key) {
  namespace k = fileinfo;
  static const char* const kKeys[] = {
      k::kMaxMemstoreTs,   k::kKeyValueVersion,    k::kDataBlockEncoding, k::kBloomFilterType,
      k::kBloomFilterParam, k::kLastBloomKey,      k::kDeleteFamilyCount, k::kHistorical,
      k::kMaxSeqId,        k::kMajorCompaction,    k::kCompactionEvent,   k::kMobCellsCount,
      k::kBulkloadTimestamp, k::kBulkloadSourceTask, k::kExcludeFromMinorCompaction,
      k::kTimeRange,       k::kEarliestPutTs};
  if (Slice(key).starts_with("hfile.")) return true;
  for (const char* k : kKeys) {
    if (key == k) return true;
  }
  return false;
}

}  // namespace

Result<WriterOptions> WriterOptionsFromFile(const Reader& in) {
  namespace k = fileinfo;
  const Reader::Rep& r = in.rep();
  const FileInfo& fi = in.file_info();
  WriterOptions o;
  o.compression = in.trailer().compression();
  o.encoding = in.data_block_encoding();
  o.include_tags = in.includes_tags();
  o.compress_tags = in.tags_compressed();
  o.include_mvcc = in.includes_mvcc();
  o.comparator = in.comparator();
  o.comparator_class_name = in.trailer().comparator_class_name;
  // Files from before HBase checksums (v2.0) have none to keep; they get HBase's defaults.
  if (!r.load_on_open.empty() &&
      r.load_on_open.front().header.header_size == kBlockHeaderSizeWithChecksum) {
    o.checksum_type = r.load_on_open.front().header.checksum_type;
    o.bytes_per_checksum = r.load_on_open.front().header.bytes_per_checksum;
  }
  o.bloom_type = in.bloom_type();
  o.bloom_prefix_length = r.bloom_prefix_length;
  o.store_file = fi.Get(k::kDeleteFamilyCount).has_value();
  o.flavor = fi.Get(k::kKeyOfBiggestCell) || fi.Get(k::kHistorical) ? HBaseFlavor::k2_6
                                                                     : HBaseFlavor::k2_4;
  o.track_timestamps = fi.Get(k::kTimeRange).has_value();
  o.create_time_ms = fi.GetInt64(k::kCreateTimeTs).value_or(0);
  if (auto v = fi.GetInt64(k::kMaxSeqId)) o.max_seq_id = *v;
  if (auto v = fi.GetBool(k::kMajorCompaction)) o.major_compaction = *v;
  if (auto v = fi.GetInt64(k::kMobCellsCount)) o.mob_cells_count = *v;
  if (auto v = fi.GetInt64(k::kBulkloadTimestamp)) o.bulkload_timestamp = *v;
  if (auto v = fi.Get(k::kBulkloadSourceTask)) o.bulkload_source_task = v->ToString();
  if (auto v = fi.GetBool(k::kExcludeFromMinorCompaction)) o.exclude_from_minor_compaction = *v;
  for (const auto& [key, value] : fi.entries()) {
    // COMPACTION_EVENT_KEY is copied verbatim (its names refer to the input's history).
    if (key == k::kCompactionEvent || !IsRecomputedKey(key)) {
      o.extra_file_info.emplace_back(key, value);
    }
  }
  if (o.comparator == ComparatorKind::kRawBytes) {
    o.store_file = false;
    o.track_timestamps = false;
  }
  return o;
}

Result<uint32_t> InferBlockSize(const Reader& in) {
  const Reader::Rep& r = in.rep();
  const Trailer& t = in.trailer();
  if (t.first_data_block_offset < 0 || t.entry_count == 0) return uint32_t{65536};
  BlockReader br = r.NewBlockReader();
  Block block;
  uint64_t offset = static_cast<uint64_t>(t.first_data_block_offset);
  const uint64_t last = static_cast<uint64_t>(t.last_data_block_offset);
  uint64_t smallest = UINT64_MAX, largest = 0;
  size_t blocks = 0;
  while (offset <= last) {
    // A plain data block's size is in its header: only an encoded block's body is read (and
    // decompressed), for the unencoded size inside it.
    BlockHeader h;
    HFILE_RETURN_IF_ERROR(br.ReadHeader(offset, &h));
    if (h.type == BlockType::kData) {
      const uint64_t size = h.uncompressed_size_without_header;
      if (offset != last) smallest = std::min(smallest, size);
      largest = std::max(largest, size);
      ++blocks;
      offset += h.on_disk_size_with_header();
      continue;
    }
    HFILE_RETURN_IF_ERROR(br.ReadBlock(offset, 0, &block));
    if (IsDataBlock(block.header.type)) {
      uint64_t size = block.body.size();
      // Delta encodings record the unencoded size right after the id; HBase closes a block on
      // the larger of the two.
      if (block.header.type == BlockType::kEncodedData && block.body.size() >= 6) {
        const uint16_t id = static_cast<uint16_t>((block.body.byte(0) << 8) | block.body.byte(1));
        if (id == 2 || id == 3 || id == 4) {
          uint64_t unenc = (uint64_t{block.body.byte(2)} << 24) | (block.body.byte(3) << 16) |
                           (block.body.byte(4) << 8) | block.body.byte(5);
          size = std::max<uint64_t>(unenc, size - 6);
        }
      }
      if (offset != last) smallest = std::min(smallest, size);
      largest = std::max(largest, size);
      ++blocks;
    }
    offset += block.header.on_disk_size_with_header();
  }
  if (smallest == UINT64_MAX) {
    uint32_t bs = 65536;
    while (bs < largest && bs < (1u << 30)) bs <<= 1;
    return bs;
  }
  uint32_t bs = 1;
  while (uint64_t{bs} * 2 <= smallest && bs < (1u << 30)) bs <<= 1;
  return bs;
}

}  // namespace hfile
