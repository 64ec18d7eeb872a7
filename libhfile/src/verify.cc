#include "hfile/verify.h"

#include <fmt/format.h>

#include <map>
#include <ostream>

#include "block_read_ahead.h"
#include "hfile/cell_batch.h"
#include "hfile/escape.h"
#include "verify_internal.h"

namespace hfile {
namespace {

// Streams every block of the file once, checking blocks, index, cells and blooms as it goes.
class Verifier {
 public:
  Verifier(const Reader& reader, const VerifyOptions& options, VerifyReport* report)
      : r_(reader.rep()),
        options_(options),
        report_(report),
        reader_(r_.NewBlockReader()),
        index_(r_, Sink()),
        decoder_(r_.cell_format) {
    keyed_ = r_.comparator != ComparatorKind::kRawBytes;
    if (options.check_blooms && r_.general_bloom && keyed_) {
      general_.emplace(r_, *r_.general_bloom, true, "general", Sink(), WarningSink());
    }
    if (options.check_blooms && r_.delete_family_bloom && keyed_) {
      delete_family_.emplace(r_, *r_.delete_family_bloom, false, "delete-family", Sink(),
                             WarningSink());
    }
  }

  void Run() {
    if (options_.read_ahead) {
      ahead_ = std::make_unique<BlockReadAhead>(r_.file.get(), r_.block_options, 4);
    }
    WalkBlocks();
    ahead_.reset();
    CheckIndexEnd();
    CheckTotalUncompressedBytes();
    if (incomplete_data_blocks_ == 0) {
      CheckFileInfo();
      CheckBlooms();
    } else {
      // The totals of the cells that could be read say nothing about the file's metadata.
      Warning(-1, "", ProblemCode::kTotalsUnchecked,
              fmt::format("{} data block(s) could not be read in full: file info and "
                                  "bloom totals were not checked against the cells",
                                  incomplete_data_blocks_));
    }
    CheckMetaIndex();
    // A read error in the index or a bloom is not proof of damage either (see io_error).
    for (const Status* s : {&index_.io_error(), general_ ? &general_->io_error() : nullptr,
                            delete_family_ ? &delete_family_->io_error() : nullptr})
      if (s != nullptr && !s->ok() && report_->io_error.ok()) report_->io_error = *s;
    // Every denied key is a warning; only the first few of each bloom are listed.
    for (const auto* scan : {general_ ? &*general_ : nullptr,
                             delete_family_ ? &*delete_family_ : nullptr}) {
      if (scan == nullptr) continue;
      report_->hbase_bloom_denials += scan->hbase_denials();
      report_->warning_count += scan->hbase_denials() - scan->hbase_denials_reported();
    }
  }

 private:
  ProblemSink Sink() {
    return [this](int64_t offset, const char* block, ProblemCode code, std::string what) {
      Problem(offset, block ? block : "", code, std::move(what));
    };
  }
  ProblemSink WarningSink() {
    return [this](int64_t offset, const char* block, ProblemCode code, std::string what) {
      Warning(offset, block ? block : "", code, std::move(what));
    };
  }
  void Problem(int64_t offset, std::string_view block, ProblemCode code, std::string what,
               Severity severity = Severity::kError) {
    if (report_->problems.size() < options_.max_problems) {
      report_->problems.push_back({std::move(what), code, severity, offset, std::string(block)});
    }
    ++(severity == Severity::kError ? report_->problem_count : report_->warning_count);
  }
  void Warning(int64_t offset, std::string_view block, ProblemCode code, std::string what) {
    Problem(offset, block, code, std::move(what), Severity::kWarning);
  }

  void WalkBlocks();
  void SkipDataBlock(uint64_t offset);
  void CountUncompressed(const BlockHeader& h, uint64_t offset);
  void CheckDataBlock(const Block& b);
  // `prev`: the last key kept (a view, into the batch or prev_key_), set to the cell's key when
  // it is kept.
  void CheckCell(const Cell& cell, const Block& b, uint64_t ordinal, Slice* prev);
  void CheckIndexEnd();
  void CheckTotalUncompressedBytes();
  void CheckFileInfo();
  void CheckBlooms();
  void CheckMetaIndex();

  const Reader::Rep& r_;
  const VerifyOptions& options_;
  VerifyReport* report_;
  BlockReader reader_;
  std::unique_ptr<BlockReadAhead> ahead_;  // the walk's blocks read ahead, or null
  IndexWalker index_;
  BlockCellDecoder decoder_;
  CellBatch batch_;  // a data block's cells
  std::optional<BloomScanner> general_, delete_family_;
  bool keyed_ = true;

  // What the walk learned.
  std::map<uint64_t, std::pair<BlockType, uint64_t>> meta_blocks_;  // offset -> (type, size)
  int64_t first_data_offset_ = -1, last_data_offset_ = -1;
  uint64_t data_index_bytes_ = 0;
  bool index_exhausted_ = false;
  uint64_t incomplete_data_blocks_ = 0;  // unreadable, or with a cell that does not decode
  // What HFileWriterImpl adds to totalUncompressedBytes for the blocks walked; false if the
  // walk could not step over every block.
  uint64_t counted_uncompressed_bytes_ = 0;
  bool walked_all_blocks_ = false;
  uint64_t undefined_types_ = 0;

  // What the cells say.
  // prev_key_: the last kept cell's key as of the end of the last data block (within a block
  // the checks compare views of the batch's cells, without a copy per cell).
  std::string prev_key_, first_key_, block_index_key_, prev_block_last_key_;
  std::string prev_bloom_key_, prev_df_row_;
  bool have_prev_ = false, have_prev_bloom_ = false, have_prev_df_ = false;
  uint64_t order_errors_ = 0, key_sum_ = 0, value_sum_ = 0;
  TimeRange time_range_;
  uint64_t max_seq_id_ = 0;
  uint32_t max_tags_len_ = 0;
  int64_t earliest_put_ = INT64_MAX;
  int64_t delete_family_count_ = 0;
  std::string bloom_hash_, bloom_index_;
};

void Verifier::WalkBlocks() {
  const Trailer& t = r_.trailer;
  const uint64_t end = r_.block_options.section_end;
  std::map<BlockType, int64_t> prev_in_chain;
  Block b;
  bool data_index_root_seen = false;
  uint64_t offset = 0;
  while (offset < end) {
    Status s;
    BlockReader::Fault fault = BlockReader::Fault::kNone;
    const BlockReadAhead::Taken taken = ahead_ != nullptr ? ahead_->Take(offset, &b, &s, &fault)
                                                          : BlockReadAhead::Taken::kNotAhead;
    // After a failed or missing hand-over the walk reads on its own.
    if (taken != BlockReadAhead::Taken::kBlock) ahead_.reset();
    if (taken == BlockReadAhead::Taken::kNotAhead) {
      s = reader_.ReadBlock(offset, 0, &b);
      fault = reader_.last_fault();
    }
    if (!s.ok()) {
      if (s.IsIOError() && report_->io_error.ok()) report_->io_error = s;
      BlockHeader h;  // a readable header still lets the walk step over the damaged block
      if (!reader_.ReadHeader(offset, &h).ok()) {
        Problem(static_cast<int64_t>(offset), "", BlockReadCode(fault, s), s.message());
        return;
      }
      Problem(static_cast<int64_t>(offset), BlockTypeName(h.type), BlockReadCode(fault, s),
              s.message());
      CountUncompressed(h, offset);
      if (IsDataBlock(h.type)) SkipDataBlock(offset);
      prev_in_chain[BlockTypeChainId(h.type)] = static_cast<int64_t>(offset);
      offset += h.on_disk_size_with_header();
      ++report_->blocks;
      continue;
    }
    const BlockHeader& h = b.header;
    const std::string_view type = BlockTypeName(h.type);
    ++report_->blocks;
    CountUncompressed(h, offset);
    auto chain = prev_in_chain.find(BlockTypeChainId(h.type));
    int64_t expected_prev = chain == prev_in_chain.end() ? -1 : chain->second;
    if (h.prev_block_offset != expected_prev) {
      // HBase follows the data-block chain backwards (seekBefore); the other chains are unused.
      Problem(static_cast<int64_t>(offset), type, ProblemCode::kPrevOffsetMismatch,
              fmt::format("prevBlockOffset is {}, the previous block of its type is at {}",
                          h.prev_block_offset, expected_prev),
              IsDataBlock(h.type) ? Severity::kError : Severity::kWarning);
    }
    prev_in_chain[BlockTypeChainId(h.type)] = static_cast<int64_t>(offset);
    if (offset < t.load_on_open_data_offset &&
        offset + h.on_disk_size_with_header() > t.load_on_open_data_offset) {
      Problem(static_cast<int64_t>(offset), type, ProblemCode::kBlockOverlapsLoadOnOpen,
              fmt::format("block overlaps the load-on-open section starting at {}",
                          t.load_on_open_data_offset));
    }
    switch (h.type) {
      case BlockType::kData:
      case BlockType::kEncodedData:
        if (first_data_offset_ < 0) first_data_offset_ = static_cast<int64_t>(offset);
        last_data_offset_ = static_cast<int64_t>(offset);
        ++report_->data_blocks;
        CheckDataBlock(b);
        break;
      case BlockType::kLeafIndex:
      case BlockType::kIntermediateIndex:
        data_index_bytes_ += h.uncompressed_size_without_header;
        break;
      case BlockType::kRootIndex:
        if (!data_index_root_seen && offset == t.load_on_open_data_offset) {
          data_index_bytes_ += h.uncompressed_size_without_header;
          data_index_root_seen = true;
        }
        break;
      case BlockType::kMeta:
        meta_blocks_[offset] = {h.type, h.on_disk_size_with_header()};
        break;
      default:
        break;
    }
    offset += h.on_disk_size_with_header();
  }
  if (offset != end) {
    Problem(static_cast<int64_t>(offset), "", ProblemCode::kBlocksPastTrailer,
            fmt::format("the last block ends at {}, past the trailer at {}", offset, end));
  } else {
    walked_all_blocks_ = true;
  }
}

// HFileWriterImpl adds getUncompressedSizeWithHeader() of every block it writes itself (data,
// inline leaf-index and bloom-chunk blocks, meta blocks, the meta root index, file info, bloom
// metas) and finally the trailer size; the data root index and intermediate index blocks are
// written by HFileBlockIndex.BlockIndexWriter.writeIndexBlocks, which keeps its own count
// (uncompressed_data_index_size) and adds nothing to it.
void Verifier::CountUncompressed(const BlockHeader& h, uint64_t offset) {
  if (h.type == BlockType::kIntermediateIndex) return;
  if (h.type == BlockType::kRootIndex && offset == r_.trailer.load_on_open_data_offset) return;
  counted_uncompressed_bytes_ += uint64_t{h.uncompressed_size_without_header} + r_.block_options.header_size;
}

// A data block that cannot be read still takes its place in the data index, so that the blocks
// after it are matched with their own index entries.
void Verifier::SkipDataBlock(uint64_t offset) {
  if (first_data_offset_ < 0) first_data_offset_ = static_cast<int64_t>(offset);
  last_data_offset_ = static_cast<int64_t>(offset);
  ++report_->data_blocks;
  ++incomplete_data_blocks_;
  uint64_t entry_offset;
  uint32_t entry_size;
  if (!index_exhausted_ && !index_.Next(&entry_offset, &entry_size, &block_index_key_)) {
    index_exhausted_ = true;
  }
}

void Verifier::CheckDataBlock(const Block& b) {
  const int64_t off = static_cast<int64_t>(b.offset);
  const std::string_view type = BlockTypeName(b.header.type);
  uint64_t entry_offset = 0;
  uint32_t entry_size = 0;
  bool indexed = !index_exhausted_ && index_.Next(&entry_offset, &entry_size, &block_index_key_);
  if (!indexed) {
    index_exhausted_ = true;
    Problem(off, type, ProblemCode::kDataBlockNotIndexed, "data block is not in the data index");
  } else if (entry_offset != b.offset || entry_size != b.header.on_disk_size_with_header()) {
    Problem(off, type, ProblemCode::kIndexEntryMismatch,
            fmt::format("data index entry points at offset {} size {}, but the next "
                                   "data block is at {} size {}",
                                   entry_offset, entry_size, b.offset,
                                   b.header.on_disk_size_with_header()));
  }
  // The block's cells a batch at a time (ReadRest stops before a cell that does not decode,
  // whose error status() then holds).
  Status s = decoder_.Reset(b);
  batch_.Clear();
  if (Cell first; s.ok() && decoder_.Next(&first)) decoder_.ReadRest(first, &batch_);
  Slice prev = have_prev_ ? Slice(prev_key_) : Slice();
  uint64_t n = 0;
  for (const Cell& cell : batch_) {
    if (n == 0 && indexed && keyed_) {
      if (r_.CompareKeys(block_index_key_, cell.key) > 0) {
        Problem(off, type, ProblemCode::kIndexKeyAfterFirstKey,
                "index key is greater than the block's first key");
      }
      if (!prev_block_last_key_.empty() && r_.CompareKeys(block_index_key_, prev_block_last_key_) <= 0) {
        Problem(off, type, ProblemCode::kIndexKeyNotIncreasing,
                "index key is not greater than the previous block's last key");
      }
      if (report_->data_blocks == 1 && Slice(block_index_key_) != cell.key) {
        Problem(off, type, ProblemCode::kFirstIndexKeyMismatch,
                "first index key differs from the file's first key (HBase takes the index key as "
                "the first key)",
                IsValidKey(block_index_key_) ? Severity::kError : Severity::kWarning);
      }
    }
    CheckCell(cell, b, n++, &prev);
    if (options_.on_cell) options_.on_cell(cell);
  }
  if (have_prev_ && prev.data() != prev_key_.data()) prev_key_.assign(prev.data(), prev.size());
  if (s.ok()) s = decoder_.status();
  if (!s.ok()) {
    Problem(off, type, ProblemCode::kCellUndecodable, fmt::format("cell {}: {}", n, s.message()));
    ++incomplete_data_blocks_;
  }
  if (n == 0 && s.ok())
    Problem(off, type, ProblemCode::kDataBlockEmpty, "data block holds no cells");
  prev_block_last_key_ = prev_key_;
}

void Verifier::CheckCell(const Cell& cell, const Block& b, uint64_t ordinal, Slice* prev) {
  const int64_t off = static_cast<int64_t>(b.offset);
  ++report_->cells;
  if (keyed_ && !IsValidKey(cell.key)) {
    Problem(off, BlockTypeName(b.header.type), ProblemCode::kCellKeyMalformed,
            fmt::format("cell {}: malformed key", ordinal));
    return;
  }
  if (keyed_ && !IsDefinedKeyType(cell.type()) && undefined_types_++ < 5) {
    // KeyValue.Type.codeToType throws on it: HBase cannot scan past this cell.
    Problem(off, BlockTypeName(b.header.type), ProblemCode::kCellTypeUndefined,
            fmt::format("cell {}: type {} is not a cell type HBase defines ({})", ordinal,
                        cell.type(), DescribeKey(cell.key, r_.comparator)));
  }
  // Keyed: both keys passed IsValidKey (the previous one when it was kept), so the checked
  // compare, without CompareKeys' two IsValidKey calls per cell.
  KeyField unused;
  const int order = !have_prev_ ? 0
                    : keyed_    ? CompareCheckedKeys(r_.comparator, *prev, cell.key, &unused)
                                : r_.CompareKeys(*prev, cell.key);
  if (order > 0 && order_errors_++ < 5) {
    Problem(off, BlockTypeName(b.header.type), ProblemCode::kCellOutOfOrder,
            fmt::format("cell {} is out of order: {} after {}", ordinal,
                        DescribeKey(cell.key, r_.comparator), DescribeKey(*prev, r_.comparator)));
  }
  if (!have_prev_) first_key_.assign(cell.key.data(), cell.key.size());
  *prev = cell.key;
  have_prev_ = true;
  key_sum_ += cell.key.size();
  value_sum_ += cell.value.size();
  max_seq_id_ = std::max(max_seq_id_, cell.sequence_id);
  max_tags_len_ = std::max(max_tags_len_, static_cast<uint32_t>(cell.tags.size()));
  if (!keyed_) return;
  const uint8_t type = cell.type();
  const int64_t ts = cell.timestamp();
  time_range_.min = std::min(time_range_.min, ts);
  time_range_.max = std::max(time_range_.max, ts);
  // HBase's TimeRangeTracker counts DeleteColumn and DeleteFamily markers as reaching back to 0.
  if (type == static_cast<uint8_t>(KeyType::kDeleteColumn) ||
      type == static_cast<uint8_t>(KeyType::kDeleteFamily)) {
    time_range_.min = std::min<int64_t>(time_range_.min, 0);
  }
  if (type == static_cast<uint8_t>(KeyType::kPut)) earliest_put_ = std::min(earliest_put_, ts);
  const bool df = type == static_cast<uint8_t>(KeyType::kDeleteFamily) ||
                  type == static_cast<uint8_t>(KeyType::kDeleteFamilyVersion);
  if (df) {
    ++delete_family_count_;
    if (delete_family_ && (!have_prev_df_ || cell.row() != Slice(prev_df_row_))) {
      delete_family_->Check(cell.row(), cell.row());
      prev_df_row_ = cell.row().ToString();
      have_prev_df_ = true;
    }
  }
  // A ROW bloom's key is the row: the cells after a row's first add nothing to check, and are
  // told apart without building their keys (once per cell of every verified file).
  const bool same_row_key = general_ && r_.bloom_type == BloomType::kRow && have_prev_bloom_ &&
                            cell.row() == Slice(prev_bloom_key_);
  if (general_ && !same_row_key) {
    bloom_hash_.clear();
    bloom_index_.clear();
    AppendBloomHashKey(r_.bloom_type, r_.bloom_prefix_length, cell.row(), cell.qualifier(),
                       &bloom_hash_);
    AppendBloomIndexKey(r_.bloom_type, r_.bloom_prefix_length, cell.row(), cell.family(),
                        cell.qualifier(), &bloom_index_);
    if (!have_prev_bloom_ || Slice(bloom_hash_) != Slice(prev_bloom_key_)) {
      general_->Check(bloom_hash_, bloom_index_);
      prev_bloom_key_ = bloom_hash_;
      have_prev_bloom_ = true;
    }
  }
}

void Verifier::CheckIndexEnd() {
  const Trailer& t = r_.trailer;
  uint64_t o;
  uint32_t sz;
  std::string k;
  if (!index_exhausted_ && index_.Next(&o, &sz, &k)) {
    Problem(static_cast<int64_t>(o), "", ProblemCode::kIndexEntriesPastData,
            "data index has entries past the last data block (pointing at a non-data block?)");
  }
  if (first_data_offset_ != t.first_data_block_offset) {
    Problem(-1, "TRAILER", ProblemCode::kTrailerDataOffsetMismatch,
            fmt::format("trailer first_data_block_offset is {}, the first data "
                                       "block is at {}",
                                       t.first_data_block_offset, first_data_offset_));
  }
  if (last_data_offset_ != t.last_data_block_offset) {
    Problem(-1, "TRAILER", ProblemCode::kTrailerDataOffsetMismatch,
            fmt::format("trailer last_data_block_offset is {}, the last data "
                                       "block is at {}",
                                       t.last_data_block_offset, last_data_offset_));
  }
  if (t.uncompressed_data_index_size != data_index_bytes_) {
    Warning(-1, "TRAILER", ProblemCode::kTrailerIndexSizeMismatch,
            fmt::format("trailer uncompressed_data_index_size is {}, the data "
                                       "index blocks hold {} bytes",
                                       t.uncompressed_data_index_size, data_index_bytes_));
  }
}

void Verifier::CheckTotalUncompressedBytes() {
  if (!walked_all_blocks_) return;  // the walk stopped early: the sum is incomplete
  const Trailer& t = r_.trailer;
  const uint64_t expected = counted_uncompressed_bytes_ + t.size();
  if (t.total_uncompressed_bytes == expected) return;
  // HBase uses the figure for store sizes and metrics, and our reader as the bound on every
  // block's claimed size, so a wrong one is an error; writers that are not HBase's (Apache
  // Hudi's) count differently and get a warning.
  const bool hbase_writer =
      r_.trailer.comparator_class_name.find("org.apache.hudi.") == std::string::npos;
  Problem(-1, "TRAILER", ProblemCode::kTrailerUncompressedBytesMismatch,
          fmt::format("trailer totalUncompressedBytes is {}, the blocks HBase's writer counts "
                      "(all but the data root and intermediate index blocks, with headers) plus "
                      "the trailer give {}",
                      t.total_uncompressed_bytes, expected),
          hbase_writer ? Severity::kError : Severity::kWarning);
}

void Verifier::CheckFileInfo() {
  const FileInfo& fi = r_.file_info;
  const Trailer& t = r_.trailer;
  const uint64_t n = report_->cells;
  auto mismatch = [&](ProblemCode code, const char* key, const std::string& stored,
                      const std::string& actual) {
    Problem(static_cast<int64_t>(t.file_info_offset), "FILE_INFO", code,
            fmt::format("{} is {}, the cells say {}", key, stored, actual));
  };
  if (t.entry_count != n)
    mismatch(ProblemCode::kEntryCountMismatch, "trailer entry_count",
             std::to_string(t.entry_count), std::to_string(n));
  auto last = fi.Get(fileinfo::kLastKey);
  if (n > 0 && (!last || *last != Slice(prev_key_))) {
    // Hudi's writer stores only the row; accept that form only if the row matches.
    bool row_only = last && keyed_ && last->size() >= 2 &&
                    Slice(last->data() + 2, last->size() - 2) == KeyRow(prev_key_);
    if (!row_only) {
      mismatch(ProblemCode::kLastKeyMismatch, fileinfo::kLastKey,
               last ? DescribeKey(*last, r_.comparator) : "absent",
               DescribeKey(prev_key_, r_.comparator));
    }
  }
  if (auto v = fi.GetInt32(fileinfo::kAvgKeyLen); v && n > 0) {
    // HBase counts the key either with or without its 4-byte length, depending on the cell class.
    int64_t plain = static_cast<int64_t>(key_sum_ / n), framed = static_cast<int64_t>((key_sum_ + 4 * n) / n);
    if (*v != plain && *v != framed) {
      Warning(static_cast<int64_t>(t.file_info_offset), "FILE_INFO",
              ProblemCode::kAverageLengthMismatch,
              fmt::format("{} is {}, the cells say {} (or {})", fileinfo::kAvgKeyLen, *v, plain,
                          framed));
    }
  }
  if (auto v = fi.GetInt32(fileinfo::kAvgValueLen); v && n > 0 && *v != static_cast<int64_t>(value_sum_ / n)) {
    Warning(static_cast<int64_t>(t.file_info_offset), "FILE_INFO",
            ProblemCode::kAverageLengthMismatch,
            fmt::format("{} is {}, the cells say {}", fileinfo::kAvgValueLen, *v, value_sum_ / n));
  }
  if (!keyed_) return;
  if (auto v = fi.Get(fileinfo::kTimeRange)) {
    auto tr = DecodeTimeRange(*v);
    if (!tr) {
      mismatch(ProblemCode::kTimeRangeMismatch, fileinfo::kTimeRange, "undecodable", "-");
    } else if (n > 0 && (tr->min != time_range_.min || tr->max != time_range_.max)) {
      mismatch(ProblemCode::kTimeRangeMismatch, fileinfo::kTimeRange,
               fmt::format("{}...{}", tr->min, tr->max),
               fmt::format("{}...{}", time_range_.min, time_range_.max));
    }
  }
  if (r_.cell_format.include_mvcc) {
    auto v = fi.GetInt64(fileinfo::kMaxMemstoreTs);
    if (!v || static_cast<uint64_t>(*v) != max_seq_id_) {
      mismatch(ProblemCode::kMaxMemstoreTsMismatch, fileinfo::kMaxMemstoreTs,
               v ? std::to_string(*v) : "absent", std::to_string(max_seq_id_));
    }
  }
  if (auto v = fi.GetInt32(fileinfo::kMaxTagsLen); v && static_cast<uint32_t>(*v) != max_tags_len_) {
    mismatch(ProblemCode::kMaxTagsLenMismatch, fileinfo::kMaxTagsLen, std::to_string(*v),
             std::to_string(max_tags_len_));
  }
  if (auto v = fi.GetInt64(fileinfo::kEarliestPutTs); v && *v != earliest_put_) {
    mismatch(ProblemCode::kEarliestPutTsMismatch,
             fileinfo::kEarliestPutTs, std::to_string(*v), std::to_string(earliest_put_));
  }
  if (auto v = fi.GetInt64(fileinfo::kDeleteFamilyCount); v && *v != delete_family_count_) {
    mismatch(ProblemCode::kDeleteFamilyCountMismatch, fileinfo::kDeleteFamilyCount,
             std::to_string(*v), std::to_string(delete_family_count_));
  }
}

void Verifier::CheckBlooms() {
  // StoreFileWriter writes BLOOM_FILTER_TYPE only together with a general bloom that has keys,
  // so a file with cells that declares one but has no bloom meta block lost it; HBase then
  // reads the file without a bloom (every Get reads it).
  if (auto bt = r_.file_info.Get(fileinfo::kBloomFilterType); bt && !r_.general_bloom &&
      report_->cells > 0) {
    auto type = ParseBloomType(bt->view());
    if (type && *type != BloomType::kNone) {
      Warning(static_cast<int64_t>(r_.trailer.file_info_offset), "FILE_INFO",
              ProblemCode::kBloomMissing,
              fmt::format("file info declares BLOOM_FILTER_TYPE={} but the file has no general "
                          "bloom meta block",
                          ToStringBinary(*bt)));
    }
  }
  auto check = [&](const std::optional<BloomScanner>& scan, const BloomMeta& meta,
                   const char* name) {
    if (!scan) return;
    if (static_cast<uint64_t>(meta.total_key_count) != scan->keys()) {
      Problem(-1, name, ProblemCode::kBloomKeyCountMismatch,
              fmt::format("bloom meta counts {} keys, the cells give {}",
                                    meta.total_key_count, scan->keys()));
    }
  };
  if (general_) {
    check(general_, *r_.general_bloom, "GENERAL_BLOOM_META");
    if (r_.last_bloom_key && general_->keys() > 0 &&
        Slice(*r_.last_bloom_key) != Slice(general_->last_index_key())) {
      Problem(-1, "FILE_INFO", ProblemCode::kLastBloomKeyMismatch,
              "LAST_BLOOM_KEY differs from the last bloom key of the cells");
    }
  }
  if (delete_family_) check(delete_family_, *r_.delete_family_bloom, "DELETE_FAMILY_BLOOM_META");
}

void Verifier::CheckMetaIndex() {
  for (const auto& e : r_.meta_index.entries()) {
    auto it = meta_blocks_.find(e.offset);
    if (it == meta_blocks_.end()) {
      Problem(static_cast<int64_t>(e.offset), "META", ProblemCode::kMetaIndexDangling,
              fmt::format("meta index entry \"{}\" points at no meta block", ToStringBinary(e.key)));
    } else if (it->second.second != e.on_disk_size) {
      Problem(static_cast<int64_t>(e.offset), "META", ProblemCode::kMetaIndexSizeMismatch,
              fmt::format("meta index entry \"{}\" says {} bytes, the block has {}",
                          ToStringBinary(e.key), e.on_disk_size, it->second.second));
    }
  }
}

}  // namespace

VerifyReport VerifyFile(const std::string& path, const VerifyOptions& options) {
  VerifyReport report;
  report.path = path;
  auto reader = Reader::Open(path, options.reader);
  if (!reader.ok()) {
    report.open_status = reader.status();
    report.open_error_code =
        std::string(OpenErrorCode(path, report.open_status, options.reader));
    return report;
  }
  Verifier(**reader, options, &report).Run();
  return report;
}

void PrintVerifyReport(const VerifyReport& report, bool json, std::ostream& out) {
  std::string s;
  if (json) {
    s = "{\"kind\":\"file\",\"v\":1,\"path\":";
    AppendJsonString(&s, report.path);
    s += fmt::format(",\"clean\":{},\"opened\":{},", report.clean(), report.open_status.ok());
    s += "\"error\":";
    AppendJsonString(&s, report.open_status.ok() ? "" : report.open_status.ToString());
    s += ",\"error_code\":";
    AppendJsonString(&s, report.open_error_code);
    s += fmt::format(",\"blocks\":{},\"data_blocks\":{},\"cells\":{},\"error_count\":{},"
                     "\"warning_count\":{},\"problems\":[",
                     report.blocks, report.data_blocks, report.cells, report.problem_count,
                     report.warning_count);
    for (size_t i = 0; i < report.problems.size(); ++i) {
      const auto& p = report.problems[i];
      s += fmt::format("{}{{\"severity\":\"{}\",\"offset\":{},\"block\":", i ? "," : "",
                       p.severity == Severity::kError ? "error" : "warning", p.offset);
      AppendJsonString(&s, p.block);
      s += fmt::format(",\"code\":\"{}\",\"what\":", ProblemCodeName(p.code));
      AppendJsonString(&s, p.what);
      s += "}";
    }
    s += "]}\n";
  } else if (!report.open_status.ok()) {
    // The label matches the tools' exit code: CORRUPT (2) for a damaged HFile that cannot be
    // opened, UNREADABLE (3) for I/O errors, missing files, non-HFiles, unsupported features.
    s = fmt::format("{}: {}: {}\n", report.path,
                    report.open_status.IsCorruption() ? "CORRUPT" : "UNREADABLE",
                    report.open_status.ToString());
  } else {
    s = report.clean()
            ? fmt::format("{}: OK ({} blocks, {} data blocks, {} cells{})\n", report.path,
                          report.blocks, report.data_blocks, report.cells,
                          report.warning_count
                              ? fmt::format(", {} warning(s)", report.warning_count)
                              : "")
            : fmt::format("{}: CORRUPT: {} error(s), {} warning(s)\n", report.path,
                          report.problem_count, report.warning_count);
    for (const auto& p : report.problems) {
      s += p.severity == Severity::kError ? "  error: " : "  warning: ";
      if (p.offset >= 0) s += fmt::format("offset {}: ", p.offset);
      if (!p.block.empty()) s += p.block + " block: ";
      s += p.what + "\n";
    }
    if (report.problems.size() < report.problem_count + report.warning_count) {
      s += fmt::format("  ... and {} more\n",
                       report.problem_count + report.warning_count - report.problems.size());
    }
  }
  out << s;
}

}  // namespace hfile
