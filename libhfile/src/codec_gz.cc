// GZ (ordinal 1): one gzip member (RFC 1952) per block body.
//
//   | 1F 8B 08 00 | mtime 00 00 00 00 | xfl 00 | os 00 | raw DEFLATE | crc32 LE32 | isize LE32 |
//
// Settled from apache/hbase hbase-common .../io/compress/ReusableStreamGzipCodec.java: without
// native Hadoop zlib it writes the ten header bytes captured from java.util.zip.GZIPOutputStream
// (the header above, OS byte 0 as seen in the hudi-rs GZ fixtures), DEFLATE via
// java.util.zip.Deflater at its default level (zlib Z_DEFAULT_COMPRESSION = 6), and the
// standard trailer; with native zlib it uses Hadoop's GzipCodec, i.e. zlib's own gzip header
// (OS byte 3). Readers accept any gzip member, so we write the JDK bytes exactly.
// Reading: gzip-only inflate; concatenated members are accepted (GZIPInputStream reads them).
#include <fmt/format.h>
#include <zlib.h>

#include <climits>
#include <cstring>

#include "checksum.h"
#include "codecs.h"
#include "hfile/coding.h"

namespace hfile {

namespace {

constexpr int kDefaultLevel = 6;
constexpr char kJdkGzipHeader[10] = {'\x1f', '\x8b', 8, 0, 0, 0, 0, 0, 0, 0};

// One inflate state per thread: inflateReset keeps its 32 KiB window allocated.
struct Inflater {
  z_stream s{};
  bool ok;
  Inflater() { ok = inflateInit2(&s, 16 + MAX_WBITS) == Z_OK; }  // gzip wrapper only
  ~Inflater() {
    if (ok) inflateEnd(&s);
  }
};

struct Deflater {
  z_stream s{};
  bool ok;
  int level = kDefaultLevel;
  Deflater() {
    ok = deflateInit2(&s, kDefaultLevel, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY) == Z_OK;
  }
  ~Deflater() {
    if (ok) deflateEnd(&s);
  }
};

void PutFixed32LE(char* p, uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<char>(v >> (8 * i));
}

}  // namespace

Status GzDecompress(const Slice& in, char* out, size_t raw_len) {
  if (in.size() > UINT_MAX || raw_len > UINT_MAX) {
    return Status::Corruption("GZ: block larger than 4 GiB");
  }
  thread_local Inflater inf;
  if (!inf.ok) return Status::IOError("GZ: inflateInit2 failed");
  z_stream& s = inf.s;
  inflateReset(&s);
  char dummy;
  s.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  s.avail_in = static_cast<uInt>(in.size());
  s.next_out = reinterpret_cast<Bytef*>(raw_len > 0 ? out : &dummy);
  s.avail_out = static_cast<uInt>(raw_len);
  for (int member = 0;;) {
    const size_t member_start = in.size() - s.avail_in;
    const int r = inflate(&s, Z_FINISH);
    if (r == Z_STREAM_END) {
      ++member;
      if (s.avail_in == 0) break;
      inflateReset(&s);  // another member follows (or garbage, which inflate will reject)
      continue;
    }
    if (r == Z_OK) continue;  // progress was made; Z_FINISH will end in one of the cases below
    const size_t at = in.size() - s.avail_in;
    if (r == Z_BUF_ERROR && s.avail_out == 0) {
      return Status::Corruption(fmt::format(
          "GZ: member {} decompresses to more than {} bytes (input offset {})", member, raw_len,
          at));
    }
    if (r == Z_BUF_ERROR) {
      return Status::Corruption(fmt::format(
          "GZ: member {} (starting at offset {}) is truncated at offset {} after {} raw bytes",
          member, member_start, at, raw_len - s.avail_out));
    }
    return Status::Corruption(
        fmt::format("GZ: member {} (starting at offset {}): {} near offset {}", member,
                    member_start, s.msg ? s.msg : "inflate error", at));
  }
  if (s.avail_out != 0) {
    return Status::Corruption(fmt::format("GZ: decompressed to {} bytes, expected {}",
                                          raw_len - s.avail_out, raw_len));
  }
  return Status::OK();
}

Status GzCompress(const Slice& in, int level, std::string* out) {
  if (level == 0) level = kDefaultLevel;
  if (level < 1 || level > 9) {
    return Status::InvalidArgument(fmt::format("GZ: level {} outside 1..9", level));
  }
  if (in.size() > UINT_MAX) return Status::InvalidArgument("GZ: block larger than 4 GiB");
  thread_local Deflater def;
  if (!def.ok) return Status::IOError("GZ: deflateInit2 failed");
  z_stream& s = def.s;
  deflateReset(&s);
  if (level != def.level) {
    if (deflateParams(&s, level, Z_DEFAULT_STRATEGY) != Z_OK) {
      return Status::IOError("GZ: deflateParams failed");
    }
    def.level = level;
  }
  const size_t start = out->size();
  const size_t bound = deflateBound(&s, static_cast<uLong>(in.size()));
  out->resize(start + sizeof(kJdkGzipHeader) + bound + 8);
  char* p = out->data() + start;
  std::memcpy(p, kJdkGzipHeader, sizeof(kJdkGzipHeader));
  s.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  s.avail_in = static_cast<uInt>(in.size());
  s.next_out = reinterpret_cast<Bytef*>(p + sizeof(kJdkGzipHeader));
  s.avail_out = static_cast<uInt>(bound);
  if (deflate(&s, Z_FINISH) != Z_STREAM_END) {
    out->resize(start);
    return Status::IOError("GZ: deflate did not finish within deflateBound");
  }
  char* trailer = p + sizeof(kJdkGzipHeader) + (bound - s.avail_out);
  PutFixed32LE(trailer, Crc32(in.data(), in.size()));
  PutFixed32LE(trailer + 4, static_cast<uint32_t>(in.size()));
  out->resize(trailer + 8 - out->data());
  return Status::OK();
}

}  // namespace hfile
