// Decompress for every codec. Byte 0 picks the codec (ordinal mod 9), bytes 1..3 the claimed
// uncompressed length (24 bits, up to 16 MiB: within the reader's production max_block_size,
// no smaller cap here); the rest is the compressed body. The output buffer is exactly that
// long, so ASan sees overruns, and a decompressor must stop at its end instead of growing.
#include <memory>

#include "compression.h"
#include "hfile/reader.h"
#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace hfile;
  if (size < 4) return 0;
  const auto codec = static_cast<Compression>(data[0] % kNumCompressions);
  const size_t raw_len = (size_t{data[1]} << 16) | (size_t{data[2]} << 8) | data[3];
  if (raw_len > ReaderOptions().max_block_size) return 0;  // a block reader refuses it first
  std::string in(reinterpret_cast<const char*>(data) + 4, size - 4);
  std::unique_ptr<char[]> out(new char[raw_len == 0 ? 1 : raw_len]);
  if (Decompress(codec, in, out.get(), raw_len).ok()) {
    (void)fuzz::Touch(Slice(out.get(), raw_len));
  }
  return 0;
}
