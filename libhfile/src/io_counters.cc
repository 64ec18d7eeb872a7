#include "io_counters.h"

namespace hfile {

void IoCounters::AddRead(uint64_t offset, uint64_t n) {
  constexpr auto kRelaxed = std::memory_order_relaxed;
  read_calls_.fetch_add(1, kRelaxed);
  bytes_read_.fetch_add(n, kRelaxed);
  // Sequential: starts inside or right at the end of the previous read (a block read after its
  // predecessor starts within the header that came with it).
  const uint64_t start = last_start_.load(kRelaxed), end = last_end_.load(kRelaxed);
  if (start == UINT64_MAX || offset < start || offset > end) seeks_.fetch_add(1, kRelaxed);
  last_start_.store(offset, kRelaxed);
  last_end_.store(offset + n, kRelaxed);
}

void IoCounters::AddBlock(BlockType type, uint64_t on_disk_size) {
  Kind k = kOther;
  if (opening_.load(std::memory_order_relaxed)) {
    k = kOpen;
  } else {
    switch (type) {
      case BlockType::kData:
      case BlockType::kEncodedData:
        k = kData;
        break;
      case BlockType::kLeafIndex:
      case BlockType::kIntermediateIndex:
        k = kIndex;
        break;
      case BlockType::kBloomChunk:
        k = kBloom;
        break;
      case BlockType::kMeta:
        k = kMeta;
        break;
      default:
        break;
    }
  }
  blocks_[k].count.fetch_add(1, std::memory_order_relaxed);
  blocks_[k].bytes.fetch_add(on_disk_size, std::memory_order_relaxed);
}

IoStats IoCounters::Snapshot() const {
  constexpr auto kRelaxed = std::memory_order_relaxed;
  auto get = [&](Kind k) {
    IoStats::Blocks b;
    b.count = blocks_[k].count.load(kRelaxed);
    b.bytes = blocks_[k].bytes.load(kRelaxed);
    return b;
  };
  IoStats s;
  s.open = get(kOpen);
  s.data = get(kData);
  s.index = get(kIndex);
  s.bloom = get(kBloom);
  s.meta = get(kMeta);
  s.other = get(kOther);
  s.read_calls = read_calls_.load(kRelaxed);
  s.bytes_read = bytes_read_.load(kRelaxed);
  s.seeks = seeks_.load(kRelaxed);
  s.cache_hits = cache_hits_.load(kRelaxed);
  return s;
}

}  // namespace hfile
