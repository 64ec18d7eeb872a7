// Compound Bloom filter writing side: chunk sizing, bit setting, folding, the meta block.
// (Layout diagram in bloom.h.)
//
// Confirmed by reading apache/hbase (below hbase-server/src/main/java/org/apache/hadoop/hbase/):
//   util/BloomFilterFactory.java   io.storefile.bloom.error.rate is read with getFloat (default
//       0.01f); ROWCOL: err = (float)(1 - Math.sqrt(1 - err)) where `1 - err` is float
//       arithmetic; max fold default 7, chunk size default 128 KiB, hash type from
//       hbase.hash.type ("murmur" -> 1); comparator: CellComparatorImpl.COMPARATOR for ROWCOL,
//       null (written as VInt 0) otherwise; the delete-family bloom is a ROW bloom with the
//       unadjusted rate.
//   util/BloomFilterUtil.java   createBySize: byteSize = computeFoldableByteSize(hint * 8,
//       maxFold) (ceil to bytes, rounded up to a multiple of 2^maxFold); bitSize = 8 * byteSize;
//       maxKeys = (int)(long)(bitSize * (LOG2_SQUARED / -log(err))); hashCount =
//       (int)ceil(log(2) * (bitSize / maxKeys)) with integer division; maxKeys =
//       (int)(long)(-bitSize * 1.0 / hashCount * log(1 - exp(log(err) / hashCount))).
//       The float rate is widened to double there. Defaults: ROW 7 hashes / 109306 keys,
//       ROWCOL 8 / 95069 per 131072-byte chunk.
//   util/BloomFilterChunk.java   add: bit abs((h1 + i * h2) % (8 * byteSize)) (int sum, long
//       remainder); compactBloom: while newByteSize is even and newMaxKeys > keyCount << 1, halve
//       both (no cap by maxFold), OR pieces into the first, keep newByteSize bytes.
//   io/hfile/CompoundBloomFilterWriter.java   a chunk is allocated on the first key after the
//       previous one was queued, its first key is that key's row (ROWCOL: createFirstOnRowCol,
//       which drops the family); before each append and at every data-block boundary a chunk
//       with keyCount >= maxKeys (or any chunk when closing) is folded and queued;
//       totalByteSize / totalMaxKeys sum the folded sizes; blockWritten adds (firstKey, offset,
//       onDiskSizeWithHeader) to a single-level index; the meta writes numChunks (chunks
//       allocated) and the last chunk's hash count.
//   regionserver/StoreFileWriter.java + util/{RowBloomContext,RowColBloomContext,
//       RowPrefixFixedLengthBloomContext}.java   a key is appended only when it differs from the
//       previous one (row / row+qualifier / prefix); a bloom with no keys is not written.
// Queuing a full chunk right after its last key (instead of before the next one) produces the
// same chunks at the same block boundaries.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "bloom.h"
#include "hfile/coding.h"

namespace hfile {

namespace {

constexpr int32_t kBloomVersion = 3;
constexpr const char* kCellComparatorImpl = "org.apache.hadoop.hbase.CellComparatorImpl";

// Java's (long) cast of a double: saturating, NaN -> 0.
int64_t JavaDoubleToLong(double d) {
  if (std::isnan(d)) return 0;
  if (d >= 9223372036854775807.0) return INT64_MAX;
  if (d <= -9223372036854775808.0) return INT64_MIN;
  return static_cast<int64_t>(d);
}

int32_t FoldableByteSize(int64_t bit_size, int fold) {
  int64_t bytes = (bit_size + 7) / 8;
  const int64_t mask = (int64_t{1} << fold) - 1;
  if ((mask & bytes) != 0) {
    bytes >>= fold;
    ++bytes;
    bytes <<= fold;
  }
  return bytes > INT32_MAX ? INT32_MAX : static_cast<int32_t>(bytes);
}

void SetBits(std::string* bits, int32_t hash_count, HashType type, const Slice& key) {
  const int64_t bit_size = static_cast<int64_t>(bits->size()) * 8;
  const int32_t h1 = Hash(type, key.data(), key.size(), 0);
  const int32_t h2 = Hash(type, key.data(), key.size(), h1);
  char* b = bits->data();
  ForEachBloomBit(bit_size, h1, h2, hash_count, [b](int64_t pos) {
    b[pos >> 3] = static_cast<char>(b[pos >> 3] | (1 << (pos & 7)));
    return true;
  });
}

}  // namespace

float BloomErrorRate(BloomType type, double configured_error_rate) {
  float err = static_cast<float>(configured_error_rate);
  if (type == BloomType::kRowCol) {
    const float one_minus = 1.0f - err;  // Java: int 1 - float -> float arithmetic
    err = static_cast<float>(1 - std::sqrt(static_cast<double>(one_minus)));
  }
  return err;
}

BloomChunkParams ComputeBloomChunkParams(int32_t byte_size_hint, float error_rate, int max_fold) {
  const double err = error_rate;  // widened, as createBySize takes a double
  const double log2 = std::log(2.0);
  const double log2_squared = log2 * log2;
  // Out-of-contract inputs are clamped so that nothing below divides by zero or over-shifts.
  byte_size_hint = std::max<int32_t>(byte_size_hint, 1);
  max_fold = std::clamp(max_fold, 0, 30);
  BloomChunkParams p;
  p.byte_size = FoldableByteSize(int64_t{byte_size_hint} * 8, max_fold);
  const int64_t bit_size = int64_t{p.byte_size} * 8;
  int32_t max_keys =
      static_cast<int32_t>(JavaDoubleToLong(bit_size * (log2_squared / -std::log(err))));
  if (max_keys < 1) max_keys = 1;  // HBase would divide by zero; only for absurd rates
  const int64_t bits_per_key = bit_size / max_keys;
  const double hc = std::ceil(log2 * static_cast<double>(bits_per_key));
  p.hash_count = hc < 1 ? 1 : hc > INT32_MAX ? INT32_MAX : static_cast<int32_t>(hc);
  const double mk = -bit_size * 1.0 / p.hash_count *
                    std::log(1 - std::exp(std::log(err) / p.hash_count));
  p.max_keys = static_cast<int32_t>(JavaDoubleToLong(mk));
  return p;
}

void FoldBloomChunk(std::string* bits, int32_t key_count, int32_t* max_keys) {
  if (key_count <= 0 || bits->size() > INT32_MAX) return;
  int32_t pieces = 1;
  int32_t new_size = static_cast<int32_t>(bits->size());
  int32_t new_max = *max_keys;
  const int64_t twice = int64_t{key_count} << 1;
  while ((new_size & 1) == 0 && new_size > 0 && new_max > twice) {
    pieces <<= 1;
    new_size >>= 1;
    new_max >>= 1;
  }
  if (pieces <= 1) return;
  char* a = bits->data();
  size_t off = static_cast<size_t>(new_size);
  for (int32_t p = 1; p < pieces; ++p) {
    for (int32_t pos = 0; pos < new_size; ++pos) a[pos] = static_cast<char>(a[pos] | a[off++]);
  }
  bits->resize(static_cast<size_t>(new_size));
  *max_keys = new_max;
}

struct BloomWriter::Rep {
  Options options;
  BloomChunkParams params;

  // The chunk receiving keys.
  bool open = false;
  std::string bits;
  std::string first_key;
  int32_t key_count = 0;

  struct Ready {
    std::string bits;
    std::string first_key;
  };
  std::deque<Ready> ready;
  std::vector<BloomMeta::Chunk> written;

  int32_t num_chunks = 0;  // chunks allocated
  uint64_t total_key_count = 0;
  int64_t total_byte_size = 0;
  int64_t total_max_keys = 0;

  void Enqueue() {
    int32_t max_keys = params.max_keys;
    FoldBloomChunk(&bits, key_count, &max_keys);
    total_max_keys += max_keys;
    total_byte_size += static_cast<int64_t>(bits.size());
    ready.push_back(Ready{std::move(bits), std::move(first_key)});
    bits.clear();
    first_key.clear();
    key_count = 0;
    open = false;
  }
};

BloomWriter::BloomWriter(const Options& options) : rep_(new Rep) {
  rep_->options = options;
  const BloomType sizing_type = options.delete_family ? BloomType::kRow : options.type;
  rep_->params = ComputeBloomChunkParams(options.chunk_byte_size,
                                         BloomErrorRate(sizing_type, options.error_rate),
                                         options.max_fold);
}

BloomWriter::~BloomWriter() { delete rep_; }

const BloomChunkParams& BloomWriter::params() const { return rep_->params; }

void BloomWriter::Add(const Slice& hash_key, const Slice& index_key) {
  Rep* r = rep_;
  if (!r->open) {
    r->open = true;
    r->first_key.assign(index_key.data(), index_key.size());
    r->bits.assign(static_cast<size_t>(r->params.byte_size), '\0');
    r->key_count = 0;
    ++r->num_chunks;
  }
  SetBits(&r->bits, r->params.hash_count, r->options.hash_type, hash_key);
  ++r->key_count;
  ++r->total_key_count;
  if (r->key_count >= r->params.max_keys) r->Enqueue();
}

uint64_t BloomWriter::key_count() const { return rep_->total_key_count; }

bool BloomWriter::HasReadyChunk() const { return !rep_->ready.empty(); }

Slice BloomWriter::ReadyChunk() const { return Slice(rep_->ready.front().bits); }

void BloomWriter::ChunkWritten(uint64_t offset, uint32_t on_disk_size_with_header) {
  Rep* r = rep_;
  r->written.push_back(
      BloomMeta::Chunk{offset, on_disk_size_with_header, std::move(r->ready.front().first_key)});
  r->ready.pop_front();
}

void BloomWriter::FinishChunks() {
  if (rep_->open && rep_->key_count > 0) rep_->Enqueue();
}

void BloomWriter::EncodeMeta(std::string* dst) const {
  const Rep* r = rep_;
  const bool rowcol = !r->options.delete_family && r->options.type == BloomType::kRowCol;
  BloomMeta meta;
  meta.version = kBloomVersion;
  meta.total_byte_size = r->total_byte_size;
  meta.hash_count = r->params.hash_count;
  meta.hash_type = r->options.hash_type;
  meta.total_key_count = static_cast<int64_t>(r->total_key_count);
  meta.total_max_keys = r->total_max_keys;
  meta.comparator_class_name = rowcol ? kCellComparatorImpl : "";
  meta.chunks = r->written;
  meta.EncodeTo(dst);
}

}  // namespace hfile
