#include "test_hfile.h"

#include <fmt/format.h>

#include <map>
#include <optional>
#include <vector>

#include "block_header.h"
#include "block_index.h"
#include "bloom.h"
#include "checksum.h"
#include "coding.h"
#include "compression.h"
#include "data_block_codec.h"
#include "hfile/cell.h"
#include "hfile/file_info.h"
#include "hfile/trailer.h"

namespace hfile::test {
namespace {

class Builder {
 public:
  explicit Builder(const TestHFileOptions& o) : o_(o) {}

  // Appends one block (compressed, checksummed) and returns its offset.
  uint64_t Block(BlockType type, const std::string& raw, uint32_t* on_disk_size = nullptr) {
    std::string body;
    if (!Compress(o_.compression, raw, {}, &body).ok()) std::abort();
    BlockHeader h;
    h.type = type;
    h.uncompressed_size_without_header = static_cast<uint32_t>(raw.size());
    auto chain = prev_.find(BlockTypeChainId(type));
    h.prev_block_offset = chain == prev_.end() ? -1 : chain->second;
    h.checksum_type = o_.checksum;
    h.bytes_per_checksum = o_.bytes_per_checksum;
    h.on_disk_data_size_with_header = static_cast<uint32_t>(kBlockHeaderSizeWithChecksum + body.size());
    h.on_disk_size_without_header =
        static_cast<uint32_t>(body.size() + ChecksumBytesFor(h.on_disk_data_size_with_header));
    std::string block;
    h.EncodeTo(&block);
    block += body;
    if (o_.checksum != ChecksumType::kNull) {
      std::string sums;
      AppendChecksums(o_.checksum, o_.bytes_per_checksum, block, &sums);
      block += sums;
    }
    const uint64_t offset = out_.size();
    out_ += block;
    prev_[BlockTypeChainId(type)] = static_cast<int64_t>(offset);
    uncompressed_bytes_ += kBlockHeaderSizeWithChecksum + raw.size();
    if (on_disk_size) *on_disk_size = static_cast<uint32_t>(block.size());
    return offset;
  }

  size_t ChecksumBytesFor(size_t data_len) const {
    return o_.checksum == ChecksumType::kNull ? 0 : ChecksumBytes(o_.bytes_per_checksum, data_len);
  }

  std::string Build();

 private:
  const TestHFileOptions& o_;
  std::string out_;
  std::map<BlockType, int64_t> prev_;
  uint64_t uncompressed_bytes_ = 0;
};

struct OwnedCell {
  std::string key, value, tags;
  uint64_t seq = 0;
  Cell view() const { return Cell{Slice(key), Slice(value), Slice(tags), seq}; }
};

std::string Builder::Build() {
  CellFormat format;
  format.include_tags = o_.tags;
  format.include_mvcc = o_.mvcc;
  std::vector<OwnedCell> cells;
  for (int r = 0; r < o_.rows; ++r) {
    for (int q = 0; q < o_.cells_per_row; ++q) {
      OwnedCell c;
      const int64_t ts = 1000 + r * 10 + q;
      AppendKey(&c.key, fmt::format("row{:04d}", r), "f", fmt::format("q{}", q), ts,
                static_cast<uint8_t>(KeyType::kPut));
      c.value = fmt::format("value-{}-{}-{}", r, q, std::string(static_cast<size_t>(r % 7), 'v'));
      if (o_.tags) c.tags = std::string("\x00\x02\x01", 3) + std::to_string(q % 10);
      c.seq = o_.mvcc ? static_cast<uint64_t>(r + 1) : 0;
      cells.push_back(std::move(c));
    }
  }

  std::optional<BloomWriter> bloom;
  if (o_.bloom) {
    BloomWriter::Options bo;
    bo.chunk_byte_size = 64;
    bloom.emplace(bo);
  }
  auto flush_bloom_chunks = [&] {
    while (bloom && bloom->HasReadyChunk()) {
      uint32_t size;
      uint64_t off = Block(BlockType::kBloomChunk, bloom->ReadyChunk().ToString(), &size);
      bloom->ChunkWritten(off, size);
    }
  };

  // Data blocks, with bloom chunks inline as they fill.
  std::string root_index;
  uint32_t data_blocks = 0;
  int64_t first_data = -1, last_data = -1;
  auto encoder = NewDataBlockEncoder(o_.encoding, format);
  const BlockType data_type =
      o_.encoding == DataBlockEncoding::kNone ? BlockType::kData : BlockType::kEncodedData;
  uint64_t key_sum = 0, value_sum = 0;
  TimeRange tr;
  std::string first_in_block, last_row;
  auto finish_block = [&] {
    if (encoder->cell_count() == 0) return;
    std::string body;
    encoder->Finish(&body);
    uint32_t size;
    uint64_t off = Block(data_type, body, &size);
    if (first_data < 0) first_data = static_cast<int64_t>(off);
    last_data = static_cast<int64_t>(off);
    AppendRootIndexEntry(&root_index, off, size, first_in_block);
    ++data_blocks;
    encoder->Reset();
    flush_bloom_chunks();
  };
  encoder->Reset();
  for (const auto& c : cells) {
    if (encoder->cell_count() == 0) first_in_block = c.key;
    encoder->Add(c.view());
    key_sum += c.key.size();
    value_sum += c.value.size();
    tr.min = std::min(tr.min, KeyTimestamp(c.key));
    tr.max = std::max(tr.max, KeyTimestamp(c.key));
    std::string row = KeyRow(c.key).ToString();
    if (bloom && row != last_row) bloom->Add(row, row);
    last_row = row;
    if (encoder->UnencodedSize() >= o_.block_size) finish_block();
  }
  finish_block();
  if (bloom) {
    bloom->FinishChunks();
    flush_bloom_chunks();
  }

  std::string meta_index;
  if (o_.meta_block) {
    uint32_t size;
    uint64_t off = Block(BlockType::kMeta, "hello from the test meta block", &size);
    AppendRootIndexEntry(&meta_index, off, size, "TESTMETA");
  }

  // Load-on-open: data root index, meta root index, file info, bloom meta.
  Trailer t;
  t.load_on_open_data_offset = out_.size();
  Block(BlockType::kRootIndex, root_index);
  Block(BlockType::kRootIndex, meta_index);
  FileInfo fi;
  fi.Set(fileinfo::kLastKey, cells.back().key);
  fi.SetInt32(fileinfo::kAvgKeyLen, static_cast<int32_t>(key_sum / cells.size()));
  fi.SetInt32(fileinfo::kAvgValueLen, static_cast<int32_t>(value_sum / cells.size()));
  fi.SetInt64(fileinfo::kCreateTimeTs, 1700000000000);
  if (o_.tags) fi.SetInt32(fileinfo::kMaxTagsLen, 4);
  if (o_.mvcc) {
    fi.SetInt32(fileinfo::kKeyValueVersion, fileinfo::kKeyValueVersionWithMvcc);
    fi.SetInt64(fileinfo::kMaxMemstoreTs, o_.rows);
  }
  fi.Set(fileinfo::kDataBlockEncoding, std::string(DataBlockEncodingName(o_.encoding)));
  std::string trs;
  EncodeTimeRange(tr, &trs);
  fi.Set(fileinfo::kTimeRange, trs);
  fi.SetInt64(fileinfo::kEarliestPutTs, tr.min);
  fi.SetInt64(fileinfo::kMaxSeqId, o_.rows);
  fi.SetBool(fileinfo::kMajorCompaction, false);
  if (bloom) {
    fi.Set(fileinfo::kBloomFilterType, "ROW");
    fi.Set(fileinfo::kLastBloomKey, last_row);
  }
  fi.SetInt64(fileinfo::kDeleteFamilyCount, 0);
  std::string fi_body;
  fi.EncodeTo(&fi_body);
  t.file_info_offset = Block(BlockType::kFileInfo, fi_body);
  if (bloom) {
    std::string meta;
    bloom->EncodeMeta(&meta);
    Block(BlockType::kGeneralBloomMeta, meta);
  }

  t.major_version = 3;
  t.minor_version = 3;
  t.uncompressed_data_index_size = root_index.size();
  t.total_uncompressed_bytes = uncompressed_bytes_;
  t.data_index_count = data_blocks;
  t.meta_index_count = o_.meta_block ? 1 : 0;
  t.entry_count = cells.size();
  t.num_data_index_levels = 1;
  t.first_data_block_offset = first_data;
  t.last_data_block_offset = last_data;
  t.comparator_class_name = "org.apache.hadoop.hbase.CellComparatorImpl";
  t.compression_ordinal = static_cast<uint32_t>(o_.compression);
  if (!t.EncodeTo(&out_).ok()) std::abort();
  return out_;
}

}  // namespace

std::string BuildTestHFile(const TestHFileOptions& options) { return Builder(options).Build(); }

}  // namespace hfile::test
