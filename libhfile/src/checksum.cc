// HBase block checksums (ChecksumType / ChecksumUtil in hbase-server).
//
//   | header + on-disk body: bytes_per_checksum-byte chunks, last one shorter |
//   | crc(chunk 0) BE32 | crc(chunk 1) BE32 | ...                           |
//
// Both CRCs come from ISA-L: crc32_gzip_refl is the reflected IEEE CRC that zlib computes
// (it applies the 0xFFFFFFFF init/xorout itself, so seed 0 gives the standard value), and
// crc32_iscsi is the raw Castagnoli update with no inversion, so we pre- and post-invert.
// ISA-L picks a PCLMUL/CRC32 path at run time, which keeps verification off the profile.
#include "checksum.h"

#include <fmt/format.h>
#include <isa-l/crc.h>

#include <algorithm>

#include "hfile/coding.h"

namespace hfile {

namespace {

// crc32_iscsi takes an int length; feed it at most 1 GiB at a time.
constexpr size_t kMaxIsalPiece = size_t{1} << 30;

uint32_t Compute(ChecksumType type, const char* data, size_t n) {
  return type == ChecksumType::kCrc32 ? Crc32(data, n) : Crc32c(data, n);
}

// Running CRC state: Start, Extend over pieces, Finish. CRC32 (ISA-L's gzip variant, like
// zlib's crc32) continues from its finished value; CRC32C keeps the raw register.
uint32_t Start(ChecksumType type) { return type == ChecksumType::kCrc32 ? 0 : 0xFFFFFFFFu; }
uint32_t Extend(ChecksumType type, uint32_t crc, const char* data, size_t n) {
  auto* p = reinterpret_cast<unsigned char*>(const_cast<char*>(data));
  while (n > 0) {
    const size_t piece = std::min(n, kMaxIsalPiece);
    crc = type == ChecksumType::kCrc32 ? crc32_gzip_refl(crc, p, piece)
                                       : crc32_iscsi(p, static_cast<int>(piece), crc);
    p += piece;
    n -= piece;
  }
  return crc;
}
uint32_t Finish(ChecksumType type, uint32_t crc) {
  return type == ChecksumType::kCrc32 ? crc : crc ^ 0xFFFFFFFFu;
}

}  // namespace

uint32_t Crc32(const char* data, size_t n) {
  return crc32_gzip_refl(0, reinterpret_cast<const unsigned char*>(data), n);
}

uint32_t Crc32c(const char* data, size_t n) {
  auto* p = reinterpret_cast<unsigned char*>(const_cast<char*>(data));
  uint32_t crc = 0xFFFFFFFFu;
  while (n > 0) {
    const size_t piece = std::min(n, kMaxIsalPiece);
    crc = crc32_iscsi(p, static_cast<int>(piece), crc);
    p += piece;
    n -= piece;
  }
  return crc ^ 0xFFFFFFFFu;
}

size_t ChecksumBytes(uint32_t bytes_per_checksum, size_t data_len) {
  if (bytes_per_checksum == 0) return 0;
  return (data_len + bytes_per_checksum - 1) / bytes_per_checksum * 4;
}

Status VerifyChecksums(ChecksumType type, uint32_t bytes_per_checksum, const Slice& data,
                       const Slice& sums) {
  if (type == ChecksumType::kNull) return Status::OK();
  if (type != ChecksumType::kCrc32 && type != ChecksumType::kCrc32c) {
    return Status::Corruption(
        fmt::format("unknown checksum type {}", static_cast<unsigned>(type)));
  }
  // The header field is untrusted; a zero chunk size would otherwise divide by zero.
  if (bytes_per_checksum == 0) return Status::Corruption("bytesPerChecksum is 0");
  const size_t need = ChecksumBytes(bytes_per_checksum, data.size());
  if (sums.size() != need) {
    return Status::Corruption(
        fmt::format("{} checksum bytes stored, {} expected for {} bytes at {} bytes per checksum",
                    sums.size(), need, data.size(), bytes_per_checksum));
  }
  size_t chunk = 0;
  for (size_t off = 0; off < data.size(); off += bytes_per_checksum, ++chunk) {
    const size_t len = std::min<size_t>(bytes_per_checksum, data.size() - off);
    const uint32_t computed = Compute(type, data.data() + off, len);
    const uint32_t stored = DecodeFixed32BE(sums.data() + 4 * chunk);
    if (computed != stored) {
      return Status::Corruption(fmt::format(
          "{} checksum mismatch in chunk {} (bytes [{}, {}) of {}): stored 0x{:08x}, computed 0x{:08x}",
          ChecksumTypeName(type), chunk, off, off + len, data.size(), stored, computed));
    }
  }
  return Status::OK();
}

void AppendChecksums(ChecksumType type, uint32_t bytes_per_checksum, const Slice& data,
                     std::string* out) {
  const size_t need = ChecksumBytes(bytes_per_checksum, data.size());
  if (need == 0) return;  // no data, or bytes_per_checksum == 0 (nothing sensible to write)
  if (type != ChecksumType::kCrc32 && type != ChecksumType::kCrc32c) {
    out->append(need, '\0');
    return;
  }
  size_t pos = out->size();
  out->resize(pos + need);
  for (size_t off = 0; off < data.size(); off += bytes_per_checksum, pos += 4) {
    const size_t len = std::min<size_t>(bytes_per_checksum, data.size() - off);
    EncodeFixed32BE(&(*out)[pos], Compute(type, data.data() + off, len));
  }
}

}  // namespace hfile

namespace hfile {

void AppendChecksums(ChecksumType type, uint32_t bytes_per_checksum, const Slice& head,
                     const Slice& tail, std::string* out) {
  const size_t total = head.size() + tail.size();
  const size_t need = ChecksumBytes(bytes_per_checksum, total);
  if (need == 0) return;
  if (type != ChecksumType::kCrc32 && type != ChecksumType::kCrc32c) {
    out->append(need, '\0');
    return;
  }
  size_t pos = out->size();
  out->resize(pos + need);
  for (size_t off = 0; off < total; off += bytes_per_checksum, pos += 4) {
    const size_t end = std::min<size_t>(off + bytes_per_checksum, total);
    uint32_t crc = Start(type);
    if (off < head.size()) {  // the part of this chunk inside head
      crc = Extend(type, crc, head.data() + off, std::min(end, head.size()) - off);
    }
    if (end > head.size()) {  // the part inside tail
      const size_t from = off > head.size() ? off - head.size() : 0;
      crc = Extend(type, crc, tail.data() + from, end - head.size() - from);
    }
    EncodeFixed32BE(&(*out)[pos], Finish(type, crc));
  }
}

}  // namespace hfile
