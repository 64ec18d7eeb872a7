// BloomMeta::DecodeFrom, chunk lookup, and bit tests on the bytes after the meta as a chunk; a
// decoded meta must survive an encode/decode round trip.
#include "bloom.h"
#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace hfile;
  Slice in(reinterpret_cast<const char*>(data), size);
  BloomMeta meta;
  if (!meta.DecodeFrom(&in).ok()) return 0;
  uint32_t h = 0;
  for (const auto& c : meta.chunks) {
    // Hostile chunk keys need not be sorted: a key may not be found, but the answer is in range.
    const int i = meta.FindChunk(c.first_key);
    HFILE_FUZZ_CHECK(i >= -1 && i < static_cast<int>(meta.chunks.size()));
    h += fuzz::Touch(c.first_key);
  }
  (void)meta.FindChunk(Slice("row"));
  (void)meta.FindChunk(Slice());
  std::string chunk = in.ToString();  // what follows the meta, as a chunk body
  for (Slice key : {Slice("row"), Slice(), Slice(chunk)}) {
    h += BloomChunkMightContain(chunk, key, meta.hash_count, meta.hash_type);
  }
  std::string again;
  meta.EncodeTo(&again);
  BloomMeta meta2;
  Slice in2(again);
  HFILE_FUZZ_CHECK(meta2.DecodeFrom(&in2).ok());
  HFILE_FUZZ_CHECK(meta2.chunks.size() == meta.chunks.size());
  return static_cast<int>(h & 0);
}
