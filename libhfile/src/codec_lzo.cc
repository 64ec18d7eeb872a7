// LZO (ordinal 0): Hadoop block framing (hadoop_block_framing.h) of raw LZO1X blocks.
//
// Two writers exist and both are read here:
//  * hadoop-lzo com.hadoop.compression.lzo.LzoCodec (HBase's default class name; GPL, outside
//    Apache): BlockCompressorStream, compressor LZO1X_1, io.compression.codec.lzo.buffersize
//    default 256 KiB in its own code, overhead (bufferSize >> 4) + 64 + 3.
//  * apache/hbase hbase-compression-aircompressor .../aircompressor/LzoCodec.java: same framing,
//    bufferSize from io.compression.codec.lzo.buffersize with Hadoop's 64 KiB default
//    (CommonConfigurationKeys), overhead bufferSize / 6 + 32 => MAX_INPUT 54582.
// We write with the aircompressor parameters: its pieces are the smallest, so every reader's
// buffer (64 KiB or 256 KiB) holds them. Chunks are LZO1X-1 output; no level.
#include <fmt/format.h>
#include <lzo/lzo1x.h>

#include <memory>
#include <mutex>

#include "codecs.h"
#include "hadoop_block_framing.h"

namespace hfile {

namespace {

constexpr size_t kBufferSize = 64 * 1024;
constexpr size_t kMaxInput = kBufferSize - (kBufferSize / 6 + 32);

bool LzoReady() {
  static std::once_flag once;
  static bool ok = false;
  std::call_once(once, [] { ok = lzo_init() == LZO_E_OK; });
  return ok;
}

Status DecodeChunk(const Slice& chunk, char* out, size_t cap, size_t* produced) {
  lzo_uint n = cap;
  const int r = lzo1x_decompress_safe(reinterpret_cast<const unsigned char*>(chunk.data()),
                                      chunk.size(), reinterpret_cast<unsigned char*>(out), &n,
                                      nullptr);
  if (r == LZO_E_OUTPUT_OVERRUN) {
    return Status::Corruption(fmt::format("LZO1X block decodes to more than {} bytes", cap));
  }
  if (r == LZO_E_INPUT_NOT_CONSUMED) {
    return Status::Corruption("LZO1X block ends before its compressed bytes do");
  }
  if (r != LZO_E_OK) return Status::Corruption(fmt::format("malformed LZO1X block ({})", r));
  *produced = n;
  return Status::OK();
}

Status EncodeChunk(const Slice& in, int /*level*/, std::string* out) {
  thread_local std::unique_ptr<lzo_align_t[]> wrkmem(
      new lzo_align_t[(LZO1X_1_MEM_COMPRESS + sizeof(lzo_align_t) - 1) / sizeof(lzo_align_t)]);
  const size_t start = out->size();
  out->resize(start + in.size() + in.size() / 16 + 64 + 3);  // LZO1X worst case
  lzo_uint n = 0;
  const int r = lzo1x_1_compress(reinterpret_cast<const unsigned char*>(in.data()), in.size(),
                                 reinterpret_cast<unsigned char*>(out->data() + start), &n,
                                 wrkmem.get());
  if (r != LZO_E_OK) {
    out->resize(start);
    return Status::IOError(fmt::format("LZO1X compression failed ({})", r));
  }
  out->resize(start + n);
  return Status::OK();
}

}  // namespace

Status LzoDecompress(const Slice& in, char* out, size_t raw_len) {
  if (!LzoReady()) return Status::IOError("lzo_init failed");
  return HadoopBlockDecode("LZO", in, out, raw_len, DecodeChunk);
}

Status LzoCompress(const Slice& in, int level, std::string* out) {
  if (!LzoReady()) return Status::IOError("lzo_init failed");
  return HadoopBlockEncode(in, kMaxInput, level, EncodeChunk, out);
}

}  // namespace hfile
