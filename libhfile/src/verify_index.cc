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
  if (s.ok() && l->block.header.type != want) {
    s = Status::Corruption(fmt::format("index entry points at a {} block, expected {}",
                                       BlockTypeName(l->block.header.type), BlockTypeName(want)));
  }
  if (s.ok()) s = l->view.Init(l->block.body);
  if (s.ok() && l->view.size() == 0) s = Status::Corruption("index block has no entries");
  if (!s.ok()) {
    problem_(static_cast<int64_t>(offset), BlockTypeName(want).data(), s.message());
    failed_ = true;
    return false;
  }
  if (l->view.entry(0).key != Slice(parent_key)) {
    problem_(static_cast<int64_t>(offset), BlockTypeName(want).data(),
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

BloomScanner::BloomScanner(const Reader::Rep& rep, const BloomMeta& meta, bool raw_keys,
                           const char* name, ProblemSink problem)
    : rep_(rep),
      meta_(meta),
      raw_keys_(raw_keys),
      name_(name),
      problem_(std::move(problem)),
      reader_(rep.NewBlockReader()) {}

void BloomScanner::Check(const Slice& hash_key, const Slice& index_key) {
  ++keys_;
  last_index_key_.assign(index_key.data(), index_key.size());
  int chunk = -1;
  if (raw_keys_) {
    chunk = meta_.FindChunk(index_key);
  } else {
    for (int lo = 0, hi = static_cast<int>(meta_.chunks.size()) - 1; lo <= hi;) {
      int mid = lo + (hi - lo) / 2;
      if (rep_.CompareKeys(meta_.chunks[mid].first_key, index_key) <= 0) {
        chunk = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
  }
  if (chunk < 0) {
    if (misses_++ < 5) {
      problem_(-1, name_, "bloom key sorts before the first chunk: the bloom would miss it");
    }
    return;
  }
  if (chunk != loaded_) {
    loaded_ = chunk;
    const auto& c = meta_.chunks[chunk];
    Status s = reader_.ReadBlock(c.offset, c.on_disk_size, &chunk_);
    if (s.ok() && chunk_.header.type != BlockType::kBloomChunk) {
      s = Status::Corruption(
          fmt::format("bloom chunk index points at a {} block", BlockTypeName(chunk_.header.type)));
    }
    chunk_ok_ = s.ok();
    if (!s.ok()) problem_(static_cast<int64_t>(c.offset), "BLOOM_CHUNK", s.message());
  }
  if (chunk_ok_ &&
      !BloomChunkMightContain(chunk_.body, hash_key, meta_.hash_count, meta_.hash_type)) {
    if (misses_++ < 5) {
      problem_(static_cast<int64_t>(meta_.chunks[chunk].offset), "BLOOM_CHUNK",
               fmt::format("{} bloom misses a key present in the file (false negative)", name_));
    }
  }
}

}  // namespace hfile
