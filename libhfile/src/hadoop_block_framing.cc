#include "hadoop_block_framing.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>

#include "hfile/coding.h"

namespace hfile {

namespace {

// Java writes these lengths with a signed int; anything above is not something Hadoop wrote.
constexpr uint32_t kMaxJavaInt = 0x7FFFFFFFu;

}  // namespace

Status HadoopBlockDecode(std::string_view codec, const Slice& in, char* out, size_t raw_len,
                         ChunkDecoder decode) {
  const char* const base = in.data();
  size_t pos = 0;       // read offset in `in`
  size_t produced = 0;  // bytes written to `out`
  uint32_t last_seg_len = 0;
  for (int seg = 0; produced < raw_len; ++seg) {
    if (in.size() - pos < 4) {
      return Status::Corruption(fmt::format(
          "{}: body ends at offset {} inside the length of segment {} ({} of {} bytes produced)",
          codec, in.size(), seg, produced, raw_len));
    }
    const uint32_t seg_len = DecodeFixed32BE(base + pos);
    if (seg_len == 0 || seg_len > kMaxJavaInt || seg_len > raw_len - produced) {
      return Status::Corruption(fmt::format(
          "{}: segment {} at offset {} claims {} raw bytes, but {} of {} remain to produce",
          codec, seg, pos, seg_len, raw_len - produced, raw_len));
    }
    pos += 4;
    size_t seg_done = 0;
    for (int chunk = 0; seg_done < seg_len; ++chunk) {
      if (in.size() - pos < 4) {
        return Status::Corruption(fmt::format(
            "{}: body ends at offset {} inside the length of chunk {} of segment {}", codec,
            in.size(), chunk, seg));
      }
      const uint32_t clen = DecodeFixed32BE(base + pos);
      if (clen == 0 || clen > in.size() - pos - 4) {
        return Status::Corruption(fmt::format(
            "{}: chunk {} of segment {} at offset {} claims {} compressed bytes, {} remain", codec,
            chunk, seg, pos, clen, in.size() - pos - 4));
      }
      pos += 4;
      size_t n = 0;
      Status s = decode(Slice(base + pos, clen), out + produced + seg_done, seg_len - seg_done, &n);
      if (!s.ok()) {
        return s.WithContext(fmt::format(
            "{}: chunk {} of segment {} (bytes [{}, {}) of the body, raw offset {})", codec, chunk,
            seg, pos, pos + clen, produced + seg_done));
      }
      seg_done += n;  // decode() guarantees n <= seg_len - seg_done
      pos += clen;
    }
    produced += seg_len;
    last_seg_len = seg_len;
  }
  // What BlockCompressorStream can legitimately leave after the data. finish() writes the
  // compressor's getBytesRead() as one more segment header unless the compressor is already
  // finished: 0 after the large-body path reset it, but the segment's own length when write()
  // had to flush early because the compressor's buffer was smaller than the stream's MAX_INPUT
  // (a pooled compressor built with a smaller buffer size). HBase reads exactly raw_len bytes
  // and never looks at either marker; any other trailing bytes no Hadoop writer produces.
  bool length_marker_seen = false;
  while (pos < in.size()) {
    const uint32_t word = in.size() - pos >= 4 ? DecodeFixed32BE(base + pos) : UINT32_MAX;
    const bool marker = !length_marker_seen && word == last_seg_len && last_seg_len != 0;
    if (word != 0 && !marker) {
      return Status::Corruption(fmt::format(
          "{}: {} trailing bytes at offset {} after all {} raw bytes were produced", codec,
          in.size() - pos, pos, raw_len));
    }
    length_marker_seen |= marker;
    pos += 4;
  }
  return Status::OK();
}

Status HadoopBlockEncode(const Slice& in, size_t max_input, int level, ChunkEncoder encode,
                         std::string* out) {
  if (in.size() > kMaxJavaInt) {
    return Status::InvalidArgument(
        fmt::format("block body of {} bytes does not fit Hadoop block framing", in.size()));
  }
  PutFixed32BE(out, static_cast<uint32_t>(in.size()));
  size_t off = 0;
  while (off < in.size()) {
    const size_t n = std::min(max_input, in.size() - off);
    const size_t len_pos = out->size();
    out->append(4, '\0');
    HFILE_RETURN_IF_ERROR(encode(Slice(in.data() + off, n), level, out));
    EncodeFixed32BE(&(*out)[len_pos], static_cast<uint32_t>(out->size() - len_pos - 4));
    off += n;
  }
  // The large-body path resets the compressor, so finish() adds an empty segment.
  if (in.size() > max_input) PutFixed32BE(out, 0);
  return Status::OK();
}

}  // namespace hfile
