// LZ4 (ordinal 4): Hadoop block framing (hadoop_block_framing.h) of raw LZ4 blocks (the LZ4
// "block format": no frame header, no raw length, no checksum).
//
// Settled from apache/hadoop hadoop-common .../io/compress/Lz4Codec.java (HBase's default
// class): BlockCompressorStream with io.compression.codec.lz4.buffersize = 256 KiB and overhead
// bufferSize / 255 + 16, so MAX_INPUT = 262144 - 1044 = 261100; the compressor is LZ4 fast
// unless io.compression.codec.lz4.use.lz4hc (default false). HBase's hbase-compression-lz4
// Lz4Codec (lz4-java fastCompressor) frames the same way but with overhead bufferSize / 6 + 32
// (CompressionUtil.compressionOverhead), i.e. smaller pieces; both readers accept either since
// every piece fits their 256 KiB buffers. We write like Hadoop's class.
// Level: 0 or 1 = LZ4 fast (the default), 2..12 = LZ4HC at that level (same block format).
#include <fmt/format.h>
#include <lz4.h>
#include <lz4hc.h>

#include <climits>
#include <memory>

#include "codecs.h"
#include "hadoop_block_framing.h"

namespace hfile {

namespace {

constexpr size_t kBufferSize = 256 * 1024;
constexpr size_t kMaxInput = kBufferSize - (kBufferSize / 255 + 16);

Status DecodeChunk(const Slice& chunk, char* out, size_t cap, size_t* produced) {
  if (chunk.size() > INT_MAX) return Status::Corruption("LZ4 block too large");
  const int capacity = cap > INT_MAX ? INT_MAX : static_cast<int>(cap);
  const int n = LZ4_decompress_safe(chunk.data(), out, static_cast<int>(chunk.size()), capacity);
  if (n < 0) {
    return Status::Corruption(fmt::format(
        "malformed LZ4 block, or it decodes to more than the {} bytes expected", cap));
  }
  *produced = static_cast<size_t>(n);
  return Status::OK();
}

Status EncodeChunk(const Slice& in, int level, std::string* out) {
  const int n = static_cast<int>(in.size());  // <= kMaxInput
  const size_t start = out->size();
  const int bound = LZ4_compressBound(n);
  out->resize(start + bound);
  int written;
  if (level <= 1) {
    written = LZ4_compress_default(in.data(), out->data() + start, n, bound);
  } else {
    // LZ4_compress_HC would malloc its 256 KiB state on every call; keep one per thread.
    thread_local std::unique_ptr<char[]> hc_state(new char[LZ4_sizeofStateHC()]);
    written = LZ4_compress_HC_extStateHC(hc_state.get(), in.data(), out->data() + start, n,
                                         bound, level);
  }
  if (written <= 0) {
    out->resize(start);
    return Status::IOError("LZ4 compression failed");
  }
  out->resize(start + written);
  return Status::OK();
}

}  // namespace

Status Lz4Decompress(const Slice& in, char* out, size_t raw_len) {
  return HadoopBlockDecode("LZ4", in, out, raw_len, DecodeChunk);
}

Status Lz4Compress(const Slice& in, int level, std::string* out) {
  if (level < 0 || level > LZ4HC_CLEVEL_MAX) {
    return Status::InvalidArgument(
        fmt::format("LZ4: level {} outside 0..{}", level, LZ4HC_CLEVEL_MAX));
  }
  return HadoopBlockEncode(in, kMaxInput, level, EncodeChunk, out);
}

}  // namespace hfile
