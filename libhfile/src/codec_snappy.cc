// SNAPPY (ordinal 3): Hadoop block framing (hadoop_block_framing.h) of raw Snappy blocks
// (varint raw length + elements; no framing format, no CRC).
//
// Settled from apache/hadoop hadoop-common .../io/compress/SnappyCodec.java (HBase's default
// class): BlockCompressorStream with io.compression.codec.snappy.buffersize = 256 KiB and
// overhead bufferSize / 6 + 32, so MAX_INPUT = 262144 - 43722 = 218422. HBase's own
// hbase-compression-snappy xerial SnappyCodec uses the same buffer size and overhead. Snappy
// has no level.
#include <fmt/format.h>
#include <snappy.h>

#include "codecs.h"
#include "hadoop_block_framing.h"

namespace hfile {

namespace {

constexpr size_t kBufferSize = 256 * 1024;
constexpr size_t kMaxInput = kBufferSize - (kBufferSize / 6 + 32);

Status DecodeChunk(const Slice& chunk, char* out, size_t cap, size_t* produced) {
  size_t n = 0;
  if (!snappy::GetUncompressedLength(chunk.data(), chunk.size(), &n)) {
    return Status::Corruption("bad Snappy length preamble");
  }
  if (n > cap) {
    return Status::Corruption(
        fmt::format("Snappy block holds {} bytes, only {} expected", n, cap));
  }
  if (!snappy::RawUncompress(chunk.data(), chunk.size(), out)) {
    return Status::Corruption("malformed Snappy block");
  }
  *produced = n;
  return Status::OK();
}

Status EncodeChunk(const Slice& in, int /*level*/, std::string* out) {
  const size_t start = out->size();
  out->resize(start + snappy::MaxCompressedLength(in.size()));
  size_t n = 0;
  snappy::RawCompress(in.data(), in.size(), out->data() + start, &n);
  out->resize(start + n);
  return Status::OK();
}

}  // namespace

Status SnappyDecompress(const Slice& in, char* out, size_t raw_len) {
  return HadoopBlockDecode("SNAPPY", in, out, raw_len, DecodeChunk);
}

Status SnappyCompress(const Slice& in, int level, std::string* out) {
  return HadoopBlockEncode(in, kMaxInput, level, EncodeChunk, out);
}

}  // namespace hfile
