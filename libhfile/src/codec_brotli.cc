// BROTLI (ordinal 8): Hadoop block framing (hadoop_block_framing.h) whose chunks are complete
// raw Brotli streams (RFC 7932; no container, no length prefix of their own).
//
// Settled from apache/hbase hbase-compression-brotli .../brotli/BrotliCodec.java and
// BrotliCompressor.java: BlockCompressorStream, hbase.io.compress.brotli.buffersize 256 KiB,
// overhead bufferSize / 6 + 32 (MAX_INPUT 218422); each piece is one
// Brotli4j Encoders.compress(in, out, params) call with quality = hbase.io.compress.brotli.level
// (default 6) and Brotli4j's default window (lgwin 22), generic mode.
// Decoder memory is bounded by the format (ring buffer of at most 16 MiB for lgwin 24), and the
// decoder shrinks it for a single last meta-block, which is what a small chunk is.
#include <brotli/decode.h>
#include <brotli/encode.h>
#include <fmt/format.h>

#include <memory>

#include "codecs.h"
#include "hadoop_block_framing.h"

namespace hfile {

namespace {

constexpr int kDefaultQuality = 6;
constexpr size_t kBufferSize = 256 * 1024;
constexpr size_t kMaxInput = kBufferSize - (kBufferSize / 6 + 32);

Status DecodeChunk(const Slice& chunk, char* out, size_t cap, size_t* produced) {
  // brotli 1.0 has no decoder reset, so a fresh state per chunk (a few small allocations).
  std::unique_ptr<BrotliDecoderState, void (*)(BrotliDecoderState*)> st(
      BrotliDecoderCreateInstance(nullptr, nullptr, nullptr), BrotliDecoderDestroyInstance);
  if (!st) return Status::IOError("BrotliDecoderCreateInstance failed");
  size_t avail_in = chunk.size();
  const uint8_t* next_in = chunk.udata();
  uint8_t dummy;
  size_t avail_out = cap;
  uint8_t* next_out = cap > 0 ? reinterpret_cast<uint8_t*>(out) : &dummy;
  const BrotliDecoderResult r =
      BrotliDecoderDecompressStream(st.get(), &avail_in, &next_in, &avail_out, &next_out, nullptr);
  switch (r) {
    case BROTLI_DECODER_RESULT_SUCCESS:
      if (avail_in != 0) {
        return Status::Corruption(
            fmt::format("{} bytes left in Brotli chunk after its end", avail_in));
      }
      *produced = cap - avail_out;
      return Status::OK();
    case BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT:
      return Status::Corruption(fmt::format("Brotli chunk decodes to more than {} bytes", cap));
    case BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT:
      return Status::Corruption(
          fmt::format("Brotli chunk truncated after {} raw bytes", cap - avail_out));
    default:
      return Status::Corruption(fmt::format(
          "malformed Brotli chunk: {}",
          BrotliDecoderErrorString(BrotliDecoderGetErrorCode(st.get()))));
  }
}

Status EncodeChunk(const Slice& in, int level, std::string* out) {
  const size_t start = out->size();
  size_t n = BrotliEncoderMaxCompressedSize(in.size());
  out->resize(start + n);
  if (!BrotliEncoderCompress(level, BROTLI_DEFAULT_WINDOW, BROTLI_MODE_GENERIC, in.size(),
                             in.udata(), &n, reinterpret_cast<uint8_t*>(out->data() + start))) {
    out->resize(start);
    return Status::IOError("Brotli compression failed");
  }
  out->resize(start + n);
  return Status::OK();
}

}  // namespace

Status BrotliDecompress(const Slice& in, char* out, size_t raw_len) {
  return HadoopBlockDecode("BROTLI", in, out, raw_len, DecodeChunk);
}

Status BrotliCompress(const Slice& in, int level, std::string* out) {
  if (level == 0) level = kDefaultQuality;
  if (level < BROTLI_MIN_QUALITY || level > BROTLI_MAX_QUALITY) {
    return Status::InvalidArgument(fmt::format("BROTLI: level {} outside {}..{}", level,
                                               BROTLI_MIN_QUALITY, BROTLI_MAX_QUALITY));
  }
  return HadoopBlockEncode(in, kMaxInput, level, EncodeChunk, out);
}

}  // namespace hfile
