// LZMA (ordinal 7): Hadoop block framing (hadoop_block_framing.h) whose chunks are legacy
// ".lzma" (LZMA_Alone) streams, not .xz containers and not raw LZMA2:
//
//   | props u8 = (pb * 5 + lp) * 9 + lc | dictSize LE32 | rawSize LE64 | LZMA1 range-coded data |
//
// Settled from apache/hbase hbase-compression-xz .../xz/LzmaCodec.java, LzmaCompressor.java and
// LzmaDecompressor.java: BlockCompressorStream, hbase.io.compress.lzma.buffersize 256 KiB,
// overhead bufferSize / 6 + 32 (MAX_INPUT 218422); each piece is written by XZ for Java's
// LZMAOutputStream(out, LZMA2Options(preset), inputSize) -- the .lzma header with the KNOWN raw
// size and therefore no end marker -- and read by LZMAInputStream, which also accepts an
// unknown size (all FF) with an end marker. Level: hbase.io.compress.lzma.level, default 6.
// We write preset `level` with the header's dictionary shrunk to the piece size (rounded up to a
// power of two, at least 4 KiB): a larger window cannot help a smaller input, and it keeps
// encoder and decoder memory proportional to the block. For the same reason the decoder clamps
// the header's (untrusted) dictionary size to the bytes it may still produce.
#include <fmt/format.h>
#include <lzma.h>

#include <algorithm>

#include "codecs.h"
#include "hadoop_block_framing.h"

namespace hfile {

namespace {

constexpr int kDefaultLevel = 6;
constexpr size_t kBufferSize = 256 * 1024;
constexpr size_t kMaxInput = kBufferSize - (kBufferSize / 6 + 32);
constexpr size_t kHeaderSize = 13;
constexpr uint32_t kMinDict = 4096;

struct LzmaStream {
  lzma_stream s = LZMA_STREAM_INIT;
  ~LzmaStream() { lzma_end(&s); }
};

// liblzma reuses a stream's coder allocations when it is re-initialised with the same filter.
lzma_stream* ThreadDecoder() {
  thread_local LzmaStream st;
  return &st.s;
}
lzma_stream* ThreadEncoder() {
  thread_local LzmaStream st;
  return &st.s;
}

uint64_t DecodeLE(const unsigned char* p, int n) {
  uint64_t v = 0;
  for (int i = n - 1; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

Status DecodeChunk(const Slice& chunk, char* out, size_t cap, size_t* produced) {
  if (chunk.size() < kHeaderSize) return Status::Corruption("LZMA chunk shorter than its header");
  const unsigned char* h = chunk.udata();
  unsigned props = h[0];
  if (props > (4 * 5 + 4) * 9 + 8) return Status::Corruption("bad LZMA properties byte");
  lzma_options_lzma opt{};
  opt.lc = props % 9;
  props /= 9;
  opt.lp = props % 5;
  opt.pb = props / 5;
  if (opt.lc + opt.lp > LZMA_LCLP_MAX) {
    return Status::NotSupported("LZMA chunk with lc + lp > 4");
  }
  const uint64_t dict = DecodeLE(h + 1, 4);
  const uint64_t size = DecodeLE(h + 5, 8);
  const bool known = size != UINT64_MAX;
  if (known && size > cap) {
    return Status::Corruption(
        fmt::format("LZMA chunk header claims {} raw bytes, only {} expected", size, cap));
  }
  const uint64_t limit = known ? size : cap;
  opt.dict_size = static_cast<uint32_t>(std::max<uint64_t>(kMinDict, std::min(dict, limit)));
  opt.ext_flags = LZMA_LZMA1EXT_ALLOW_EOPM;  // XZ for Java tolerates an end marker too
  lzma_set_ext_size(opt, known ? size : UINT64_MAX);
  const lzma_filter filters[] = {{LZMA_FILTER_LZMA1EXT, &opt},
                                 {LZMA_VLI_UNKNOWN, nullptr}};
  lzma_stream* s = ThreadDecoder();
  if (lzma_raw_decoder(s, filters) != LZMA_OK) return Status::IOError("lzma_raw_decoder failed");
  uint8_t dummy;
  s->next_in = h + kHeaderSize;
  s->avail_in = chunk.size() - kHeaderSize;
  s->next_out = cap > 0 ? reinterpret_cast<uint8_t*>(out) : &dummy;
  s->avail_out = limit;
  const lzma_ret r = lzma_code(s, LZMA_FINISH);
  if (r == LZMA_OK || r == LZMA_BUF_ERROR) {  // stopped short of the end of the stream
    if (s->avail_out == 0) {
      return Status::Corruption(fmt::format("LZMA chunk decodes to more than {} bytes", limit));
    }
    return Status::Corruption(
        fmt::format("LZMA chunk truncated after {} raw bytes", limit - s->avail_out));
  }
  if (r != LZMA_STREAM_END) {
    return Status::Corruption(
        fmt::format("malformed LZMA chunk (liblzma error {})", static_cast<int>(r)));
  }
  if (s->avail_in != 0) {
    return Status::Corruption(
        fmt::format("{} bytes left in LZMA chunk after its end", s->avail_in));
  }
  *produced = limit - s->avail_out;
  return Status::OK();
}

Status EncodeChunk(const Slice& in, int level, std::string* out) {
  lzma_options_lzma opt;
  if (lzma_lzma_preset(&opt, static_cast<uint32_t>(level))) {
    return Status::InvalidArgument(fmt::format("LZMA: bad preset {}", level));
  }
  uint32_t dict = kMinDict;
  while (dict < in.size() && dict < opt.dict_size) dict <<= 1;
  opt.dict_size = std::min(dict, opt.dict_size);
  opt.ext_flags = 0;  // no end marker: the header carries the size, as LZMAOutputStream writes
  lzma_set_ext_size(opt, UINT64_MAX);  // ignored by the encoder
  const lzma_filter filters[] = {{LZMA_FILTER_LZMA1EXT, &opt},
                                 {LZMA_VLI_UNKNOWN, nullptr}};
  lzma_stream* s = ThreadEncoder();
  if (lzma_raw_encoder(s, filters) != LZMA_OK) return Status::IOError("lzma_raw_encoder failed");
  const size_t start = out->size();
  const size_t bound = in.size() + in.size() / 3 + 128;
  out->resize(start + kHeaderSize + bound);
  unsigned char* h = reinterpret_cast<unsigned char*>(out->data() + start);
  h[0] = static_cast<unsigned char>((opt.pb * 5 + opt.lp) * 9 + opt.lc);
  for (int i = 0; i < 4; ++i) h[1 + i] = static_cast<unsigned char>(opt.dict_size >> (8 * i));
  for (int i = 0; i < 8; ++i) h[5 + i] = static_cast<unsigned char>(uint64_t{in.size()} >> (8 * i));
  s->next_in = reinterpret_cast<const uint8_t*>(in.data());
  s->avail_in = in.size();
  s->next_out = h + kHeaderSize;
  s->avail_out = bound;
  const lzma_ret r = lzma_code(s, LZMA_FINISH);
  if (r != LZMA_STREAM_END) {
    out->resize(start);
    return Status::IOError(fmt::format("LZMA compression failed ({})", static_cast<int>(r)));
  }
  out->resize(start + kHeaderSize + (bound - s->avail_out));
  return Status::OK();
}

}  // namespace

Status LzmaDecompress(const Slice& in, char* out, size_t raw_len) {
  return HadoopBlockDecode("LZMA", in, out, raw_len, DecodeChunk);
}

Status LzmaCompress(const Slice& in, int level, std::string* out) {
  if (level == 0) level = kDefaultLevel;
  if (level < 1 || level > 9) {
    return Status::InvalidArgument(fmt::format("LZMA: level {} outside 1..9", level));
  }
  return HadoopBlockEncode(in, kMaxInput, level, EncodeChunk, out);
}

}  // namespace hfile
