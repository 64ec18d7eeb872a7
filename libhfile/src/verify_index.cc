#include <fmt/format.h>

#include "hfile/file_info.h"
#include "verify_internal.h"

namespace hfile {

struct IndexWalker::Level {
  Block block;
  NonRootIndexView view;
  uint32_t pos = 0;
};

IndexWalker::IndexWalker(const Reader::Rep& rep, ProblemSink problem)
    : rep_(rep), problem_(std::move(problem)), reader_(rep.NewBlockReader()) {}
IndexWalker::~IndexWalker() = default;

bool IndexWalker::Descend(uint64_t offset, uint32_t size, const std::string& parent_key,
                          uint32_t level) {
  const uint32_t levels = rep_.trailer.num_data_index_levels;
  const BlockType want = level + 1 == levels ? BlockType::kLeafIndex : BlockType::kIntermediateIndex;
  auto l = std::make_unique<Level>();
  Status s = reader_.ReadBlock(offset, size, &l->block);
  ++index_blocks_read_;
  ProblemCode code = s.ok() ? ProblemCode::kIndexBlockInvalid : BlockReadCode(reader_, s);
  if (s.ok() && l->block.header.type != want) {
    code = ProblemCode::kIndexBlockWrongType;
    s = Status::Corruption(fmt::format("index entry points at a {} block, expected {}",
                                       BlockTypeName(l->block.header.type), BlockTypeName(want)));
  }
  if (s.ok()) s = l->view.Init(l->block.body);
  if (s.ok() && l->view.size() == 0) s = Status::Corruption("index block has no entries");
  if (!s.ok()) {
    if (s.IsIOError() && io_error_.ok()) io_error_ = s;
    problem_(static_cast<int64_t>(offset), BlockTypeName(want).data(), code, s.message());
    failed_ = true;
    return false;
  }
  if (l->view.entry(0).key != Slice(parent_key)) {
    problem_(static_cast<int64_t>(offset), BlockTypeName(want).data(),
             ProblemCode::kIndexKeyParentMismatch,
             "first key differs from the parent index entry's key");
  }
  stack_.push_back(std::move(l));
  return true;
}

bool IndexWalker::Next(uint64_t* offset, uint32_t* size, std::string* key) {
  const uint32_t levels = rep_.trailer.num_data_index_levels;
  const RootIndex& root = rep_.data_index;
  while (!failed_) {
    if (stack_.empty()) {
      if (root_pos_ >= root.size()) return false;
      const IndexEntry& e = root.entry(root_pos_++);
      if (levels == 1) {
        *offset = e.offset;
        *size = e.on_disk_size;
        key->assign(e.key.data(), e.key.size());
        return true;
      }
      if (!Descend(e.offset, e.on_disk_size, e.key.ToString(), 1)) return false;
      continue;
    }
    Level& top = *stack_.back();
    if (top.pos >= top.view.size()) {
      stack_.pop_back();
      continue;
    }
    IndexEntry e = top.view.entry(top.pos++);
    if (stack_.size() + 1 == levels) {  // a leaf: its entries point at data blocks
      *offset = e.offset;
      *size = e.on_disk_size;
      key->assign(e.key.data(), e.key.size());
      return true;
    }
    if (!Descend(e.offset, e.on_disk_size, e.key.ToString(), static_cast<uint32_t>(stack_.size()) + 1))
      return false;
  }
  return false;
}

BloomScanner::BloomScanner(const Reader::Rep& rep, const BloomMeta& meta, bool general,
                           const char* name, ProblemSink problem, ProblemSink warning)
    : rep_(rep),
      meta_(meta),
      general_(general),
      rowcol_(general && rep.bloom_type == BloomType::kRowCol),
      name_(name),
      problem_(std::move(problem)),
      warning_(std::move(warning)),
      reader_(rep.NewBlockReader()) {}

// One probe of one chunk as CompoundBloomFilter.contains does it.
BloomScanner::Answer BloomScanner::Probe(const Slice& hash_key, const Slice& index_key,
                                         int* chunk_out) {
  const int chunk = meta_.FindChunk(index_key);
  *chunk_out = chunk;
  if (chunk < 0) return Answer::kBeforeFirstChunk;
  if (chunk != loaded_) {
    loaded_ = chunk;
    const auto& c = meta_.chunks[chunk];
    Status s = reader_.ReadBlock(c.offset, c.on_disk_size, &chunk_);
    ProblemCode code = s.ok() ? ProblemCode::kBloomChunkWrongType : BlockReadCode(reader_, s);
    if (s.ok() && chunk_.header.type != BlockType::kBloomChunk) {
      s = Status::Corruption(
          fmt::format("bloom chunk index points at a {} block", BlockTypeName(chunk_.header.type)));
    }
    chunk_ok_ = s.ok();
    if (s.IsIOError() && io_error_.ok()) io_error_ = s;
    if (!s.ok() && bad_chunks_.insert(chunk).second) {
      problem_(static_cast<int64_t>(c.offset), "BLOOM_CHUNK", code, s.message());
    }
  }
  if (!chunk_ok_) return Answer::kPasses;  // reported above; not a bloom answer
  return BloomChunkMightContain(chunk_.body, hash_key, meta_.hash_count, meta_.hash_type)
             ? Answer::kPasses
             : Answer::kBitsUnset;
}

void BloomScanner::Check(const Slice& hash_key, const Slice& index_key) {
  ++keys_;
  last_index_key_.assign(index_key.data(), index_key.size());
  // StoreFileReader.checkGeneralBloomFilter, for a key the file holds. LAST_BLOOM_KEY and the
  // chunk keys are compared in the bloom's order (raw bytes for ROW, the default cell order for
  // ROWCOL), which is not the order of an hbase:meta file's cells.
  const std::optional<std::string>& last = rep_.last_bloom_key;
  bool after_last = false;
  if (general_ && last) {
    after_last = rowcol_ ? CompareKeys(ComparatorKind::kDefault, index_key, *last) > 0
                         : index_key.compare(*last) > 0;
  }
  Answer a;
  int chunk = -1;
  if (!rowcol_) {
    a = after_last ? Answer::kAfterLastBloomKey : Probe(hash_key, index_key, &chunk);
  } else {
    // ROWCOL also passes on the first-on-row key (a row-wide delete has an empty qualifier).
    std::string row_key;
    AppendKey(&row_key, KeyRow(index_key), Slice(), Slice(), kLatestTimestamp,
              static_cast<uint8_t>(KeyType::kMaximum));
    if (after_last && CompareKeys(ComparatorKind::kDefault, row_key, *last) > 0) {
      a = Answer::kAfterLastBloomKey;
    } else {
      a = Probe(hash_key, index_key, &chunk);
      int row_chunk = -1;
      if (a != Answer::kPasses && Probe(row_key, row_key, &row_chunk) == Answer::kPasses) {
        a = Answer::kPasses;
      }
    }
  }
  if (a == Answer::kPasses) return;
  std::string what;
  ProblemCode code;
  switch (a) {
    case Answer::kBeforeFirstChunk:
      what = "bloom key sorts before the first chunk: the bloom would miss it";
      code = ProblemCode::kBloomKeyBeforeFirstChunk;
      break;
    case Answer::kAfterLastBloomKey:
      what = "bloom key sorts after LAST_BLOOM_KEY: the bloom would miss it";
      code = ProblemCode::kBloomKeyAfterLast;
      break;
    default:
      what = fmt::format("{} bloom misses a key present in the file (false negative)", name_);
      code = ProblemCode::kBloomFalseNegative;
      break;
  }
  const int64_t offset = chunk >= 0 ? static_cast<int64_t>(meta_.chunks[chunk].offset) : -1;
  const char* block = chunk >= 0 ? "BLOOM_CHUNK" : name_;
  if (rep_.comparator == ComparatorKind::kMeta) {
    // HBase's own writer and reader do exactly this with hbase:meta cells: its bloom lookup
    // assumes the default order, so a Get of such a key skips this file. Not damage.
    ++hbase_denials_;
    if (hbase_denials_ <= kListed) {
      warning_(offset, block, code,
               fmt::format("{} (HBase's StoreFileReader denies this key too: hbase:meta cells "
                           "are not in the order its bloom lookup assumes, key {})",
                           what, DescribeKey(index_key, rowcol_ ? ComparatorKind::kDefault
                                                                : ComparatorKind::kRawBytes)));
    }
    return;
  }
  if (misses_++ < kListed) problem_(offset, block, code, what);
}

}  // namespace hfile
