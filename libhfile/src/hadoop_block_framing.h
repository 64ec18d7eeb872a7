// Hadoop BlockCompressorStream / BlockDecompressorStream framing, shared by SNAPPY, LZ4, LZO,
// LZMA, BROTLI and HBase's ZstdCodec.
//
//   body <= max_input:  | rawLen BE32 | clen BE32 | chunk (clen bytes) |
//   body  > max_input:  | rawLen BE32 | clen BE32 | chunk | clen BE32 | chunk | ... | 00 00 00 00 |
//   empty body:         | 00 00 00 00 |
//
// Settled from apache/hadoop hadoop-common .../io/compress/BlockCompressorStream.java and
// BlockDecompressorStream.java, and the way HBase drives them
// (hbase-common .../io/encoding/HFileBlockDefaultEncodingContext.java: resetState, ONE write of
// the whole body, flush, finish):
//  * write(len <= MAX_INPUT) only buffers; finish() emits [rawLen] then one [clen][chunk].
//  * write(len > MAX_INPUT) emits [len] once, then compresses independent pieces of at most
//    MAX_INPUT bytes, each as [clen][chunk] with no per-piece raw length. It then resets the
//    compressor, so the following finish() emits one more segment header of 0 (no chunks).
//  * An empty body writes nothing in write(); finish() emits the 0 header alone.
//  * A compressor whose own buffer is smaller than the stream's MAX_INPUT (HBase's codec pool
//    hands out one built with a smaller io.compression.codec.*.buffersize) makes write() emit
//    [len] and several [clen][chunk] at once; finish() then emits [len] again (getBytesRead()).
//  * MAX_INPUT = bufferSize - overhead is chosen so that one piece always compresses into a
//    single chunk: every [clen][chunk] we read is an independently decodable raw block.
// The reader stops at the first 0 segment header; HBase also ignores bytes left after it has
// read uncompressedSizeWithoutHeader bytes. We are stricter: after raw_len bytes only what
// finish() can write may follow: 0 headers and one repeat of the last segment's length.
#ifndef HFILE_SRC_HADOOP_BLOCK_FRAMING_H_
#define HFILE_SRC_HADOOP_BLOCK_FRAMING_H_

#include <cstddef>
#include <string>
#include <string_view>

#include "hfile/slice.h"
#include "hfile/status.h"

namespace hfile {

// Decodes one raw codec block into at most `cap` bytes at `out` and sets *produced.
// Must return Corruption (never write past out + cap) if the block needs more room.
using ChunkDecoder = Status (*)(const Slice& chunk, char* out, size_t cap, size_t* produced);

// Appends the raw codec block for `in` to *out.
using ChunkEncoder = Status (*)(const Slice& in, int level, std::string* out);

// Decodes a Hadoop-block-framed body to exactly raw_len bytes at `out`. `codec` names the
// codec in error messages.
Status HadoopBlockDecode(std::string_view codec, const Slice& in, char* out, size_t raw_len,
                         ChunkDecoder decode);

// Appends `in` framed as BlockCompressorStream frames it for a codec whose
// MAX_INPUT (bufferSize - compressionOverhead) is `max_input`.
Status HadoopBlockEncode(const Slice& in, size_t max_input, int level, ChunkEncoder encode,
                         std::string* out);

}  // namespace hfile

#endif  // HFILE_SRC_HADOOP_BLOCK_FRAMING_H_
