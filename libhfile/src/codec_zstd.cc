// ZSTD (ordinal 6): two framings exist; reads detect which one a body uses.
//
//   HBase ZstdCodec:        Hadoop block framing (hadoop_block_framing.h), each chunk one zstd
//                           frame:  | rawLen BE32 | clen BE32 | 28 B5 2F FD ... |
//   Hadoop ZStandardCodec:  | 28 B5 2F FD ... | (plain zstd frame(s), no length prefixes)
//
// Settled from apache/hbase hbase-compression-zstd .../zstd/ZstdCodec.java and
// ZstdCompressor.java: BlockCompressorStream, hbase.io.compress.zstd.buffersize 256 KiB,
// overhead ZSTD_compressBound(bufferSize) - bufferSize = 1024, so MAX_INPUT = 261120; one
// ZstdCompressCtx.compress (ZSTD_compress2) per piece. Level: hbase.io.compress.zstd.level,
// falling back to io.compression.codec.zstd.level, default 3. And from apache/hadoop
// .../io/compress/ZStandardCodec.java: a plain CompressorStream (no framing) over a streaming
// zstd compressor. A block-framed body starts with its raw length, which could only equal the
// zstd magic for a 683 MB block, so the first four bytes tell the framings apart.
// Decoding goes straight into `out` with ZSTD_decompressDCtx, which never writes past the
// capacity it is given and needs no window buffer; contexts are reused per thread.
#include <fmt/format.h>
#include <zstd.h>

#include <memory>

#include "codecs.h"
#include "hfile/coding.h"
#include "hadoop_block_framing.h"

namespace hfile {

namespace {

constexpr int kDefaultLevel = 3;
constexpr size_t kBufferSize = 256 * 1024;
constexpr size_t kMaxInput = kBufferSize - (ZSTD_COMPRESSBOUND(kBufferSize) - kBufferSize);
constexpr uint32_t kZstdMagicBE = 0x28B52FFD;

ZSTD_DCtx* ThreadDCtx() {
  thread_local std::unique_ptr<ZSTD_DCtx, size_t (*)(ZSTD_DCtx*)> ctx(ZSTD_createDCtx(),
                                                                      ZSTD_freeDCtx);
  return ctx.get();
}

ZSTD_CCtx* ThreadCCtx() {
  thread_local std::unique_ptr<ZSTD_CCtx, size_t (*)(ZSTD_CCtx*)> ctx(ZSTD_createCCtx(),
                                                                      ZSTD_freeCCtx);
  return ctx.get();
}

// Decodes zstd frame(s) filling at most `cap` bytes.
Status DecodeFrames(const Slice& in, char* out, size_t cap, size_t* produced) {
  ZSTD_DCtx* dctx = ThreadDCtx();
  if (dctx == nullptr) return Status::IOError("ZSTD_createDCtx failed");
  char dummy;
  const size_t r = ZSTD_decompressDCtx(dctx, cap > 0 ? out : &dummy, cap, in.data(), in.size());
  if (ZSTD_isError(r)) {
    return Status::Corruption(
        fmt::format("zstd: {} (capacity {} bytes)", ZSTD_getErrorName(r), cap));
  }
  *produced = r;
  return Status::OK();
}

Status EncodeFrame(const Slice& in, int level, std::string* out) {
  ZSTD_CCtx* cctx = ThreadCCtx();
  if (cctx == nullptr) return Status::IOError("ZSTD_createCCtx failed");
  ZSTD_CCtx_reset(cctx, ZSTD_reset_session_and_parameters);
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, level);
  const size_t start = out->size();
  const size_t bound = ZSTD_compressBound(in.size());
  out->resize(start + bound);
  const size_t n = ZSTD_compress2(cctx, out->data() + start, bound, in.data(), in.size());
  if (ZSTD_isError(n)) {
    out->resize(start);
    return Status::IOError(fmt::format("zstd compression failed: {}", ZSTD_getErrorName(n)));
  }
  out->resize(start + n);
  return Status::OK();
}

}  // namespace

Status ZstdDecompress(const Slice& in, char* out, size_t raw_len) {
  if (in.size() >= 4 && DecodeFixed32BE(in.data()) == kZstdMagicBE) {
    size_t n = 0;
    Status s = DecodeFrames(in, out, raw_len, &n);
    if (!s.ok()) return s.WithContext("ZSTD (plain frames)");
    if (n != raw_len) {
      return Status::Corruption(
          fmt::format("ZSTD (plain frames): decompressed to {} bytes, expected {}", n, raw_len));
    }
    return Status::OK();
  }
  return HadoopBlockDecode("ZSTD", in, out, raw_len, DecodeFrames);
}

Status ZstdCompress(const Slice& in, int level, ZstdFraming framing, std::string* out) {
  if (level == 0) level = kDefaultLevel;
  if (level < ZSTD_minCLevel() || level > ZSTD_maxCLevel()) {
    return Status::InvalidArgument(fmt::format("ZSTD: level {} outside {}..{}", level,
                                               ZSTD_minCLevel(), ZSTD_maxCLevel()));
  }
  if (framing == ZstdFraming::kRawFrame) return EncodeFrame(in, level, out);
  return HadoopBlockEncode(in, kMaxInput, level, EncodeFrame, out);
}

}  // namespace hfile
