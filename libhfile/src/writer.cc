// Writer: HFileWriterImpl's append / block boundary / close sequence plus the StoreFileWriter
// duties (blooms, delete-family count, timestamps). Sources: apache/hbase branch-2.6
// hbase-server/src/main/java/org/apache/hadoop/hbase/io/hfile/{HFileWriterImpl,HFileBlock,
// HFileBlockIndex,CompoundBloomFilterWriter}.java, regionserver/StoreFileWriter.java.
//
// Per cell (StoreFileWriter.append, then HFileWriterImpl.append):
//   order check (equal keys are "duplicates") -> general bloom key (if new) -> delete-family
//   bloom key (DeleteFamily / DeleteFamilyVersion rows) -> unless duplicate, block boundary:
//   the block is finished when its encoded or unencoded size >= block size -> encode the cell ->
//   stats -> TIMERANGE (DeleteColumn / DeleteFamily also include 0) and EARLIEST_PUT_TS.
// At a boundary: write the data block, add its index key (index_key.h), then the inline blocks:
//   leaf index chunk, general bloom chunks, delete-family bloom chunks.
// Close: last data block, inline blocks (closing), META blocks by name, intermediate + root data
//   index, meta index root, FILEINF2, BLMFMET2, DFBLMET2, trailer.
#include <fmt/format.h>

#include <algorithm>

#include "hfile/coding.h"
#include "hfile/file_info.h"
#include "hfile/trailer.h"
#include "index_key.h"
#include "writer_internal.h"

namespace hfile {

namespace {

Status ValidateOptions(const WriterOptions& o) {
  if (o.block_size == 0) return Status::InvalidArgument("block size must be > 0");
  if (o.bytes_per_checksum == 0) return Status::InvalidArgument("bytes per checksum must be > 0");
  if (o.index_block_max_size == 0) return Status::InvalidArgument("index block max size must be > 0");
  if (o.index_min_entries < 2) return Status::InvalidArgument("index min entries must be >= 2");
  if (!CompressionAvailable(o.compression)) {
    return Status::NotSupported(fmt::format("compression {} is not built in",
                                            CompressionName(o.compression)));
  }
  if (o.encoding == DataBlockEncoding::kPrefixTree ||
      !DataBlockEncodingFromId(static_cast<uint16_t>(o.encoding))) {
    return Status::NotSupported("data block encoding cannot be written");
  }
  if (o.store_file && o.bloom_type != BloomType::kNone) {
    if (!(o.bloom_error_rate > 0 && o.bloom_error_rate < 1)) {
      return Status::InvalidArgument("bloom error rate must be in (0, 1)");
    }
    if (o.bloom_chunk_size <= 0 || o.bloom_max_fold < 0 || o.bloom_max_fold > 30) {
      return Status::InvalidArgument("bad bloom chunk size or max fold");
    }
    if (o.bloom_type == BloomType::kRowPrefixFixedLength && o.bloom_prefix_length <= 0) {
      return Status::InvalidArgument("ROWPREFIX_FIXED_LENGTH needs a prefix length > 0");
    }
  }
  for (const auto& [key, value] : o.extra_file_info) {
    if (Slice(key).starts_with("hfile.")) {
      return Status::InvalidArgument(
          fmt::format("file info key '{}': keys starting with 'hfile.' are reserved", key));
    }
  }
  return Status::OK();
}

}  // namespace

Writer::Writer(std::unique_ptr<Rep> rep) : rep_(std::move(rep)) {}

Writer::~Writer() {
  if (rep_->file && !rep_->finished) rep_->file->Abandon();
}

uint64_t Writer::entries() const { return rep_->entry_count; }

Result<std::unique_ptr<Writer>> Writer::Create(const std::string& path,
                                               const WriterOptions& options) {
  HFILE_RETURN_IF_ERROR(ValidateOptions(options));
  auto rep = std::make_unique<Rep>();
  rep->options = options;
  const WriterOptions& o = rep->options;
  rep->format.include_tags = o.include_tags;
  rep->format.include_mvcc = o.include_mvcc;
  rep->format.tags_compressed =
      o.include_tags && o.compress_tags && o.encoding != DataBlockEncoding::kNone;
  rep->data_block_type =
      o.encoding == DataBlockEncoding::kNone ? BlockType::kData : BlockType::kEncodedData;
  rep->encoder = NewDataBlockEncoder(o.encoding, rep->format);
  if (!rep->encoder) return Status::NotSupported("data block encoding cannot be written");
  HFILE_ASSIGN_OR_RETURN(rep->file, WritableFile::Create(path));
  BlockWriterOptions bo;
  bo.compression = o.compression;
  bo.compress.level = o.compression_level;
  bo.compress.zstd_framing =
      o.zstd_hadoop_framing ? ZstdFraming::kHadoopBlock : ZstdFraming::kRawFrame;
  bo.checksum_type = o.checksum_type;
  bo.bytes_per_checksum = o.bytes_per_checksum;
  rep->blocks = std::make_unique<BlockWriter>(rep->file.get(), bo);
  rep->index = std::make_unique<IndexWriter>(o.index_block_max_size, o.index_min_entries);
  if (o.store_file) {
    BloomWriter::Options bloom;
    bloom.error_rate = o.bloom_error_rate;
    bloom.chunk_byte_size = o.bloom_chunk_size;
    bloom.max_fold = o.bloom_max_fold;
    if (o.bloom_type != BloomType::kNone) {
      bloom.type = o.bloom_type;
      bloom.prefix_length = o.bloom_prefix_length;
      rep->general_bloom = std::make_unique<BloomWriter>(bloom);
    }
    if (o.bloom_type != BloomType::kRowCol && o.delete_family_bloom) {
      bloom.type = BloomType::kRow;
      bloom.prefix_length = 0;
      bloom.delete_family = true;
      rep->delete_family_bloom = std::make_unique<BloomWriter>(bloom);
    }
  }
  return std::unique_ptr<Writer>(new Writer(std::move(rep)));
}

bool Writer::Rep::ShouldFinishBlock() const {
  const size_t encoded = encoder->EncodedSize();
  if (options.encoded_block_size_ratio > 0) {
    const auto limit = static_cast<int64_t>(options.block_size * options.encoded_block_size_ratio);
    return static_cast<int64_t>(encoded) >= limit;
  }
  return encoded >= options.block_size || encoder->UnencodedSize() >= options.block_size;
}

Status Writer::Rep::FinishDataBlock(const Slice& block_last_key) {
  if (encoder->cell_count() == 0) return Status::OK();
  // The index key from the previous block's last key, then the block's own last key kept for
  // the next: both before the encoder finishes, as block_last_key may be its last_key().
  Slice prev(prev_block_last_key);
  MakeIndexKey(options.comparator, options.flavor, has_prev_block ? &prev : nullptr,
               first_key_in_block, &index_key);
  prev_block_last_key.assign(block_last_key.data(), block_last_key.size());
  has_prev_block = true;
  const Slice block_body = encoder->FinishBlock(&body);
  WrittenBlock b;
  HFILE_RETURN_IF_ERROR(blocks->Write(data_block_type, block_body, &b));
  if (first_data_block_offset < 0) first_data_block_offset = static_cast<int64_t>(b.offset);
  last_data_block_offset = static_cast<int64_t>(b.offset);
  index->AddEntry(index_key, b.offset, b.on_disk_size_with_header);
  total_uncompressed_bytes += b.uncompressed_size_with_header();
  encoder->Reset();
  return Status::OK();
}

Status Writer::Rep::WriteInlineBlocks(bool closing) {
  HFILE_RETURN_IF_ERROR(index->MaybeWriteLeaf(blocks.get(), closing, &total_uncompressed_bytes));
  for (BloomWriter* bloom : {general_bloom.get(), delete_family_bloom.get()}) {
    if (bloom == nullptr) continue;
    if (closing) bloom->FinishChunks();
    while (bloom->HasReadyChunk()) {
      WrittenBlock b;
      HFILE_RETURN_IF_ERROR(blocks->Write(BlockType::kBloomChunk, bloom->ReadyChunk(), &b));
      bloom->ChunkWritten(b.offset, b.on_disk_size_with_header);
      total_uncompressed_bytes += b.uncompressed_size_with_header();
    }
  }
  return Status::OK();
}

void Writer::Rep::AddToBlooms(const Cell& cell, KeyField differs) {
  const Slice row = cell.row();
  if (general_bloom) {
    // BloomContext.isNewKey: ROW compares the row, ROWCOL row+family+qualifier (both known from
    // the order check's comparison with the previous cell), ROWPREFIX the row prefix.
    const bool first = general_bloom->key_count() == 0;
    bool new_key;
    if (options.bloom_type == BloomType::kRow) {
      new_key = first || differs == KeyField::kRow;
    } else if (options.bloom_type == BloomType::kRowCol) {
      new_key = first || differs < KeyField::kTimestamp;
    } else {
      const size_t n = std::min<size_t>(row.size(), static_cast<size_t>(options.bloom_prefix_length));
      const Slice prefix(row.data(), n);
      new_key = first || (differs == KeyField::kRow && prefix != Slice(prev_bloom_prefix));
      if (new_key) prev_bloom_prefix.assign(prefix.data(), prefix.size());
    }
    if (new_key && options.bloom_type == BloomType::kRow) {
      // The row is the key: hashed in place, and the last one is the last cell's (file info).
      general_bloom->Add(row, row);
    } else if (new_key) {
      bloom_key.clear();
      AppendBloomHashKey(options.bloom_type, options.bloom_prefix_length, row, cell.qualifier(),
                         &bloom_key);
      general_bloom->Add(bloom_key, bloom_key);
      last_bloom_key.swap(bloom_key);
    }
  }
  const uint8_t type = cell.type();
  if (type == static_cast<uint8_t>(KeyType::kDeleteFamily) ||
      type == static_cast<uint8_t>(KeyType::kDeleteFamilyVersion)) {
    ++delete_family_count;
    if (delete_family_bloom &&
        (!has_delete_family_row || Slice(prev_delete_family_row) != row)) {
      delete_family_bloom->Add(row, row);
      prev_delete_family_row.assign(row.data(), row.size());
      has_delete_family_row = true;
    }
  }
}

void Writer::Rep::TrackTimestamps(const Cell& cell) {
  // The key passed IsValidKey in Append: its last 9 bytes are the timestamp and the type (read
  // in place rather than through the out-of-line KeyTimestamp).
  const int64_t ts = static_cast<int64_t>(DecodeFixed64BE(cell.key.end() - 9));
  const uint8_t type = KeyTypeByte(cell.key);
  if (type == static_cast<uint8_t>(KeyType::kPut)) earliest_put_ts = std::min(earliest_put_ts, ts);
  // TimeRangeTracker.includeTimestamp(Cell): DeleteColumn / DeleteFamily also include 0.
  auto include = [this](int64_t t) {
    time_range.min = std::min(time_range.min, t);
    time_range.max = std::max(time_range.max, t);
  };
  include(ts);
  if (type == static_cast<uint8_t>(KeyType::kDeleteColumn) ||
      type == static_cast<uint8_t>(KeyType::kDeleteFamily)) {
    include(0);
  }
}

// Append's work for one cell, shared with AppendBatch, which passes each cell's predecessor as
// a view. Neither copies keys: the previous cell's key is the encoder's last_key().
Status Writer::Rep::AddCell(const Cell& cell, const Slice& prev_key, bool key_valid,
                            const KeyField* known) {
  const ComparatorKind kind = options.comparator;
  if (kind != ComparatorKind::kRawBytes && !key_valid && !IsValidKey(cell.key)) {
    return Status::InvalidArgument(
        fmt::format("malformed key of {} bytes (cell #{})", cell.key.size(), entry_count));
  }
  if (!cell.tags.empty() && !options.include_tags) {
    return Status::InvalidArgument("cell has tags but the writer does not include tags");
  }
  // KeyValue allows 65535 bytes of tags, but HBase 2.6.4's reader takes the tags length of a
  // NONE or ROW_INDEX_V1 block as a signed short and cannot read a file with more than 32767
  // (HFileReaderImpl: "Invalid currTagsLen -4633"; RowIndexSeekerV1: "newPosition < 0"), so
  // such a cell would make the whole file unreadable to HBase (tests/hbase, matrix "-edge").
  if (cell.tags.size() > 0x7FFF) {
    return Status::InvalidArgument(fmt::format(
        "tags of {} bytes: HBase 2.6 cannot read cells with more than 32767 bytes of tags",
        cell.tags.size()));
  }
  bool duplicate = false;
  KeyField differs = KeyField::kRow;  // what changed since the previous cell
  // Whether this cell starts a new block unless it is a duplicate key.
  const bool block_full = encoder->cell_count() > 0 && ShouldFinishBlock();
  if (entry_count > 0) {
    // A known difference is checked where a block may end (it decides the block's last key and
    // the next block's first); anywhere else it stands for the compare.
    if (known != nullptr && kind != ComparatorKind::kRawBytes && !block_full) {
      differs = *known;
      duplicate = differs == KeyField::kNone;
    } else {
      // Both keys passed IsValidKey (the previous one when it was appended): the checked compare.
      const int c = kind == ComparatorKind::kRawBytes
                        ? CompareKeys(kind, prev_key, cell.key, &differs)
                        : CompareCheckedKeys(kind, prev_key, cell.key, &differs);
      if (c > 0) {
        return Status::InvalidArgument(fmt::format(
            "cell #{} out of order: key {} sorts before the previous key {}", entry_count,
            DescribeKey(cell.key, kind), DescribeKey(prev_key, kind)));
      }
      if (known != nullptr && kind != ComparatorKind::kRawBytes && differs != *known) {
        return Status::InvalidArgument(fmt::format(
            "cell #{} (key {}): the caller's first difference from the previous key is wrong",
            entry_count, DescribeKey(cell.key, kind)));
      }
      duplicate = c == 0;  // HFileWriterImpl.checkKey: a "duplicate key" never starts a block
    }
  }
  if (options.store_file && kind != ComparatorKind::kRawBytes) AddToBlooms(cell, differs);
  if (!duplicate && block_full) {
    Status s = FinishDataBlock(prev_key);
    if (s.ok()) s = WriteInlineBlocks(false);
    if (!s.ok()) return Fail(s);
  }
  if (encoder->cell_count() == 0) first_key_in_block.assign(cell.key.data(), cell.key.size());
  encoder->Add(cell);

  const size_t kv_len = 8 + cell.key.size() + cell.value.size() +
                        (cell.tags.empty() ? 0 : 2 + cell.tags.size());
  unencoded_bytes += kv_len;
  total_key_length += cell.key.size();
  total_value_length += cell.value.size();
  // PrivateCellUtil.estimatedSerializedSizeOf: KeyValue length (with tags) + 4; strict '<'.
  if (len_of_biggest_cell < static_cast<int64_t>(kv_len + 4)) {
    len_of_biggest_cell = static_cast<int64_t>(kv_len + 4);
    key_of_biggest_cell.assign(cell.key.data(), cell.key.size());
  }
  max_memstore_ts = std::max(max_memstore_ts, cell.sequence_id);
  max_tags_length = std::max(max_tags_length, static_cast<uint32_t>(cell.tags.size()));
  ++entry_count;
  if (kind != ComparatorKind::kRawBytes) TrackTimestamps(cell);
  return Status::OK();
}

Status Writer::Rep::AppendOne(const Cell& cell, const KeyField* known) {
  if (failed || finished) return Status::InvalidArgument("writer is finished or failed");
  return AddCell(cell, encoder->last_key(), false, known);
}

Status Writer::Append(const Cell& cell) { return rep_->AppendOne(cell, nullptr); }

Status Writer::AppendAfter(const Cell& cell, KeyField first_difference) {
  return rep_->AppendOne(cell, &first_difference);
}

Status Writer::AppendBatch(const CellBatch& batch) {
  Rep* r = rep_.get();
  if (r->failed || r->finished) return Status::InvalidArgument("writer is finished or failed");
  if (batch.empty()) return Status::OK();
  // Each cell's predecessor is the one before it in the batch (a view into the source); the
  // first cell's is the encoder's last key.
  const bool valid = batch.keys_valid();
  HFILE_RETURN_IF_ERROR(r->AddCell(batch[0], r->encoder->last_key(), valid));
  for (size_t i = 1; i < batch.size(); ++i) {
    HFILE_RETURN_IF_ERROR(r->AddCell(batch[i], batch[i - 1].key, valid));
  }
  return Status::OK();
}

Status Writer::AppendMetaBlock(const std::string& name, const Slice& bytes) {
  if (rep_->failed || rep_->finished) return Status::InvalidArgument("writer is finished or failed");
  rep_->meta_blocks.emplace_back(name, bytes.ToString());
  return Status::OK();
}

Status Writer::Finish(WriterStats* stats) {
  Rep* r = rep_.get();
  if (r->failed || r->finished) return Status::InvalidArgument("writer is finished or failed");
  auto fail = [r](Status s) { return r->Fail(std::move(s)); };
  // The file's last key (file info) is the last block's: taken before that block is finished.
  if (r->entry_count > 0) r->last_key.Assign(r->encoder->last_key());
  Status s = r->FinishDataBlock(r->last_key.slice());
  if (s.ok()) s = r->WriteInlineBlocks(true);
  if (!s.ok()) return fail(s);

  // META blocks sorted by name (appendMetaBlock inserts after equal names: a stable sort).
  std::stable_sort(r->meta_blocks.begin(), r->meta_blocks.end(),
                   [](const auto& a, const auto& b) { return Slice(a.first).compare(b.first) < 0; });
  IndexChunk meta_index;
  for (const auto& [name, bytes] : r->meta_blocks) {
    WrittenBlock b;
    if (!(s = r->blocks->Write(BlockType::kMeta, bytes, &b)).ok()) return fail(s);
    r->total_uncompressed_bytes += b.uncompressed_size_with_header();
    meta_index.Add(name, b.offset, b.on_disk_size_with_header);
  }

  Trailer t;
  if (!(s = r->index->Finish(r->blocks.get(), &t.load_on_open_data_offset)).ok()) return fail(s);
  r->body.clear();
  meta_index.EncodeRoot(&r->body);
  WrittenBlock b;
  if (!(s = r->blocks->Write(BlockType::kRootIndex, r->body, &b)).ok()) return fail(s);
  r->total_uncompressed_bytes += b.uncompressed_size_with_header();

  FileInfo info;
  r->BuildFileInfo(&info);
  r->body.clear();
  info.EncodeTo(&r->body);
  t.file_info_offset = r->blocks->offset();
  if (!(s = r->blocks->Write(BlockType::kFileInfo, r->body, &b)).ok()) return fail(s);
  r->total_uncompressed_bytes += b.uncompressed_size_with_header();

  const std::pair<BloomWriter*, BlockType> metas[] = {
      {r->general_bloom.get(), BlockType::kGeneralBloomMeta},
      {r->delete_family_bloom.get(), BlockType::kDeleteFamilyBloomMeta}};
  for (const auto& [bloom, type] : metas) {
    if (bloom == nullptr || bloom->key_count() == 0) continue;
    r->body.clear();
    bloom->EncodeMeta(&r->body);
    if (!(s = r->blocks->Write(type, r->body, &b)).ok()) return fail(s);
    r->total_uncompressed_bytes += b.uncompressed_size_with_header();
  }

  t.major_version = 3;
  t.minor_version = 3;
  t.num_data_index_levels = r->index->num_levels();
  t.uncompressed_data_index_size = r->index->uncompressed_size();
  t.first_data_block_offset = r->first_data_block_offset;
  t.last_data_block_offset = r->last_data_block_offset;
  t.comparator_class_name = r->options.comparator_class_name.empty()
                                ? std::string(ComparatorClassName(r->options.comparator))
                                : r->options.comparator_class_name;
  t.data_index_count = r->index->root_entries();
  t.meta_index_count = static_cast<uint32_t>(r->meta_blocks.size());
  t.total_uncompressed_bytes = r->total_uncompressed_bytes + t.size();
  t.entry_count = r->entry_count;
  t.compression_ordinal = static_cast<uint32_t>(r->options.compression);
  r->body.clear();
  if (!(s = t.EncodeTo(&r->body)).ok()) return fail(s);
  if (!(s = r->file->Append(r->body)).ok()) return fail(s);
  const uint64_t size = r->file->size();
  if (!(s = r->file->Commit()).ok()) return fail(s);
  r->finished = true;
  if (stats) {
    stats->entries = r->entry_count;
    stats->data_blocks = r->index->data_blocks();
    stats->file_size = size;
    stats->index_levels = r->index->num_levels();
    stats->unencoded_cell_bytes = r->unencoded_bytes;
  }
  return Status::OK();
}

}  // namespace hfile
