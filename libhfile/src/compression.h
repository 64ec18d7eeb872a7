// Block body codecs: pure functions over one block body, keyed by the trailer's codec ordinal.
//
// Every HFile block body is compressed independently (HBase resets the codec per block). The
// framing of the compressed bytes depends on the Hadoop codec class that wrote them:
//
//   GZ      one gzip member (RFC 1952)
//   BZIP2   one .bz2 stream ("BZh...")
//   SNAPPY, LZ4, LZO, LZMA, BROTLI, and ZSTD written by HBase's ZstdCodec: Hadoop block framing
//     repeat: int32 BE uncompressed length of a segment,
//             then repeat until that many bytes are produced:
//               int32 BE compressed length, raw codec block of that length
//     (raw Snappy / LZ4 block / LZO1X block / .lzma stream with known size / Brotli stream /
//     zstd frame); see hadoop_block_framing.h
//   ZSTD written by Hadoop's ZStandardCodec: plain zstd frame(s) (magic 28 B5 2F FD)
//
// Each codec_<name>.cc records the HBase/Hadoop source its framing and defaults come from.
#ifndef HFILE_SRC_COMPRESSION_H_
#define HFILE_SRC_COMPRESSION_H_

#include <cstddef>
#include <string>

#include "hfile/slice.h"
#include "hfile/status.h"
#include "hfile/types.h"

namespace hfile {

// How ZSTD bodies are framed on write (reads detect either).
enum class ZstdFraming : uint8_t {
  kHadoopBlock,  // org.apache.hadoop.hbase.io.compress.zstd.ZstdCodec (HBase 2.5+ module)
  kRawFrame,     // org.apache.hadoop.io.compress.ZStandardCodec (native Hadoop)
};

struct CompressOptions {
  // 0: the codec's HBase default: GZ 6, BZIP2 9, ZSTD 3, LZMA 6, BROTLI 6, LZ4 fast (levels
  // 2..12 select LZ4HC). SNAPPY and LZO have no level.
  int level = 0;
  ZstdFraming zstd_framing = ZstdFraming::kHadoopBlock;
};

// True iff this build can read and write `c`.
bool CompressionAvailable(Compression c);

// Decompresses `in` (one block body as stored) into exactly `raw_len` bytes at `out`.
// Returns Corruption if the data is malformed or does not decompress to exactly raw_len bytes,
// NotSupported if `c` is not built in. Never writes past out + raw_len.
Status Decompress(Compression c, const Slice& in, char* out, size_t raw_len);

// Appends the compressed form of `in` to *out, framed as HBase's codec for `c` frames it.
Status Compress(Compression c, const Slice& in, const CompressOptions& options, std::string* out);

}  // namespace hfile

#endif  // HFILE_SRC_COMPRESSION_H_
