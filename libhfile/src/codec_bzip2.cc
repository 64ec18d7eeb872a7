// BZIP2 (ordinal 5): one standard .bz2 stream per block body.
//
//   | 'B' 'Z' | 'h' | '1'..'9' | bzip2 blocks ... | end-of-stream marker + combined CRC |
//
// Settled from apache/hadoop hadoop-common .../io/compress/BZip2Codec.java (HBase's default
// codec class for BZIP2): with native bzip2 it is a CompressorStream over libbz2 (a standard
// stream); in pure Java, BZip2CompressionOutputStream writes "BZ" itself and CBZip2OutputStream
// then writes "h9" and the blocks, so the bytes are again a standard "BZh9" stream. Block size 9
// is the default on both paths (Bzip2Factory: bzip2.compress.blocksize = 9), work factor 30.
// Hadoop's reader also accepts a stream whose "BZ" was stripped, and concatenated streams;
// so do we. Decoder memory is bounded by libbz2 (about 3.6 MB for level 9), not by the input.
#include <bzlib.h>
#include <fmt/format.h>

#include <climits>

#include "codecs.h"

namespace hfile {

namespace {

constexpr int kDefaultBlockSize100k = 9;
constexpr int kWorkFactor = 30;

struct BzDecoder {
  bz_stream s{};
  bool ok;
  BzDecoder() { ok = BZ2_bzDecompressInit(&s, 0, 0) == BZ_OK; }
  ~BzDecoder() {
    if (ok) BZ2_bzDecompressEnd(&s);
  }
  bool Reset() {
    if (ok) BZ2_bzDecompressEnd(&s);
    s = bz_stream{};
    ok = BZ2_bzDecompressInit(&s, 0, 0) == BZ_OK;
    return ok;
  }
};

}  // namespace

Status Bzip2Decompress(const Slice& in, char* out, size_t raw_len) {
  if (in.size() > UINT_MAX || raw_len > UINT_MAX) {
    return Status::Corruption("BZIP2: block larger than 4 GiB");
  }
  BzDecoder dec;
  if (!dec.ok) return Status::IOError("BZIP2: BZ2_bzDecompressInit failed");
  char dummy;
  bz_stream& s = dec.s;
  s.next_out = raw_len > 0 ? out : &dummy;
  s.avail_out = static_cast<unsigned>(raw_len);
  const char* p = in.data();
  size_t left = in.size();
  for (int stream = 0;; ++stream) {
    const size_t stream_start = in.size() - left;
    const bool has_magic = left >= 2 && p[0] == 'B' && p[1] == 'Z';
    if (stream > 0 && !has_magic) {
      return Status::Corruption(fmt::format(
          "BZIP2: {} trailing bytes at offset {} after the last stream", left, stream_start));
    }
    // Hadoop's reader tolerates a stream that lacks the leading "BZ"; feed it ourselves.
    if (!has_magic) {
      char magic[2] = {'B', 'Z'};
      s.next_in = magic;
      s.avail_in = 2;
      if (BZ2_bzDecompress(&s) != BZ_OK || s.avail_in != 0) {
        return Status::Corruption("BZIP2: cannot start stream");
      }
    }
    s.next_in = const_cast<char*>(p);
    s.avail_in = static_cast<unsigned>(left);
    int r;
    do {
      const unsigned before_in = s.avail_in, before_out = s.avail_out;
      r = BZ2_bzDecompress(&s);
      if (r == BZ_OK && s.avail_in == before_in && s.avail_out == before_out) {
        // libbz2 reports BZ_OK without progress when it needs input or output it cannot get.
        if (s.avail_out == 0) {
          return Status::Corruption(fmt::format(
              "BZIP2: stream {} decompresses to more than {} bytes", stream, raw_len));
        }
        return Status::Corruption(fmt::format(
            "BZIP2: stream {} (starting at offset {}) is truncated after {} raw bytes", stream,
            stream_start, raw_len - s.avail_out));
      }
    } while (r == BZ_OK);
    if (r != BZ_STREAM_END) {
      return Status::Corruption(fmt::format(
          "BZIP2: stream {} (starting at offset {}): libbz2 error {} near offset {}", stream,
          stream_start, r, in.size() - s.avail_in));
    }
    p = s.next_in;
    left = s.avail_in;
    if (left == 0) break;
    const size_t produced = raw_len - s.avail_out;  // Reset() clears the output cursor
    if (!dec.Reset()) return Status::IOError("BZIP2: BZ2_bzDecompressInit failed");
    s.next_out = raw_len > 0 ? out + produced : &dummy;
    s.avail_out = static_cast<unsigned>(raw_len - produced);
  }
  if (s.avail_out != 0) {
    return Status::Corruption(fmt::format("BZIP2: decompressed to {} bytes, expected {}",
                                          raw_len - s.avail_out, raw_len));
  }
  return Status::OK();
}

Status Bzip2Compress(const Slice& in, int level, std::string* out) {
  if (level == 0) level = kDefaultBlockSize100k;
  if (level < 1 || level > 9) {
    return Status::InvalidArgument(fmt::format("BZIP2: level {} outside 1..9", level));
  }
  if (in.size() > UINT_MAX / 2) return Status::InvalidArgument("BZIP2: block too large");
  bz_stream s{};
  if (BZ2_bzCompressInit(&s, level, 0, kWorkFactor) != BZ_OK) {
    return Status::IOError("BZIP2: BZ2_bzCompressInit failed");
  }
  const size_t start = out->size();
  const size_t bound = in.size() + in.size() / 100 + 600;  // libbz2's documented worst case
  out->resize(start + bound);
  s.next_in = const_cast<char*>(in.data());
  s.avail_in = static_cast<unsigned>(in.size());
  s.next_out = out->data() + start;
  s.avail_out = static_cast<unsigned>(bound);
  int r;
  do {
    r = BZ2_bzCompress(&s, BZ_FINISH);
  } while (r == BZ_FINISH_OK && s.avail_out > 0);
  BZ2_bzCompressEnd(&s);
  if (r != BZ_STREAM_END) {
    out->resize(start);
    return Status::IOError(fmt::format("BZIP2: compression failed ({})", r));
  }
  out->resize(start + (bound - s.avail_out));
  return Status::OK();
}

}  // namespace hfile
