// Byte coding helpers: big-endian fixed widths (Java DataOutput), Hadoop VInt/VLong
// (WritableUtils), HBase "compressed int" (unsigned LEB128) and protobuf varints. Public because
// every HBase format built on HFiles (.regioninfo Writables, Reference files, .filelist, cell
// keys) is made of these; libregion uses them through this header.
//
// Put* append to a std::string. Get* parse from the front of a Slice and advance it; they return
// false, leaving the value unspecified, if the input is too short or malformed, and never read
// past the end. Encode*/Decode* work on raw pointers and do no bounds checking.
#ifndef HFILE_CODING_H_
#define HFILE_CODING_H_

#include <cstdint>
#include <cstring>
#include <string>

#include "hfile/slice.h"

namespace hfile {

inline void EncodeFixed16BE(char* dst, uint16_t v) {
  dst[0] = static_cast<char>(v >> 8);
  dst[1] = static_cast<char>(v);
}
inline void EncodeFixed32BE(char* dst, uint32_t v) {
  v = __builtin_bswap32(v);
  std::memcpy(dst, &v, 4);
}
inline void EncodeFixed64BE(char* dst, uint64_t v) {
  v = __builtin_bswap64(v);
  std::memcpy(dst, &v, 8);
}
inline uint16_t DecodeFixed16BE(const char* p) {
  const auto* u = reinterpret_cast<const unsigned char*>(p);
  return static_cast<uint16_t>((u[0] << 8) | u[1]);
}
inline uint32_t DecodeFixed32BE(const char* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return __builtin_bswap32(v);
}
inline uint64_t DecodeFixed64BE(const char* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return __builtin_bswap64(v);
}

inline void PutFixed8(std::string* dst, uint8_t v) { dst->push_back(static_cast<char>(v)); }
void PutFixed16BE(std::string* dst, uint16_t v);
void PutFixed32BE(std::string* dst, uint32_t v);
void PutFixed64BE(std::string* dst, uint64_t v);

// Inline: they sit on the per-cell decode path.
inline bool GetFixed8(Slice* in, uint8_t* v) {
  if (in->size() < 1) return false;
  *v = in->byte(0);
  in->remove_prefix(1);
  return true;
}
inline bool GetFixed16BE(Slice* in, uint16_t* v) {
  if (in->size() < 2) return false;
  *v = DecodeFixed16BE(in->data());
  in->remove_prefix(2);
  return true;
}
inline bool GetFixed32BE(Slice* in, uint32_t* v) {
  if (in->size() < 4) return false;
  *v = DecodeFixed32BE(in->data());
  in->remove_prefix(4);
  return true;
}
inline bool GetFixed64BE(Slice* in, uint64_t* v) {
  if (in->size() < 8) return false;
  *v = DecodeFixed64BE(in->data());
  in->remove_prefix(8);
  return true;
}

// Hadoop WritableUtils.writeVLong / writeVInt (the same encoding).
inline constexpr int kMaxVLongSize = 9;
// Writes v at dst (kMaxVLongSize bytes of room) and returns the number of bytes written.
inline int EncodeVLong(char* dst, int64_t v) {
  if (v >= -112 && v <= 127) {
    dst[0] = static_cast<char>(v);
    return 1;
  }
  int len = -112;
  uint64_t u = static_cast<uint64_t>(v);
  if (v < 0) {
    u = ~u;
    len = -120;
  }
  const int n = 8 - __builtin_clzll(u) / 8;  // u != 0 here
  dst[0] = static_cast<char>(len - n);
  // The n payload bytes as one big-endian 8-byte store, shifted so that they come first (the
  // bytes after them are within the room and not part of the VLong).
  EncodeFixed64BE(dst + 1, u << (8 * (8 - n)));
  return 1 + n;
}
void PutVLong(std::string* dst, int64_t v);
int VLongSize(int64_t v);
// Decodes a VLong at p (at most limit - p bytes). Returns the byte after it, or nullptr.
const char* DecodeVLongSlow(const char* p, const char* limit, int64_t* v);
inline const char* DecodeVLong(const char* p, const char* limit, int64_t* v) {
  if (p < limit) {
    const int8_t first = static_cast<int8_t>(*p);
    // One byte holds -112..127: every sequence id of a compacted file, and small ones.
    if (first >= -112) {
      *v = first;
      return p + 1;
    }
    // Flushed files carry large sequence ids: with 8 readable bytes after the length byte, one
    // big-endian load and a shift replace the byte loop.
    if (limit - p >= 9) {
      const bool negative = first < -120;
      const int n = negative ? (-120 - first) : (-112 - first);  // 1..8
      const uint64_t u = DecodeFixed64BE(p + 1) >> (8 * (8 - n));
      *v = static_cast<int64_t>(negative ? ~u : u);
      return p + 1 + n;
    }
  }
  return DecodeVLongSlow(p, limit, v);
}
inline bool GetVLong(Slice* in, int64_t* v) {
  const char* p = DecodeVLong(in->data(), in->end(), v);
  if (p == nullptr) return false;
  in->remove_prefix(static_cast<size_t>(p - in->data()));
  return true;
}
// Parses a VInt; fails if the value does not fit in int32.
bool GetVInt(Slice* in, int32_t* v);

// Bytes.writeByteArray: VInt length + bytes. GetByteArray returns a view into the input.
void PutByteArray(std::string* dst, const Slice& bytes);
bool GetByteArray(Slice* in, Slice* bytes);

// ByteBufferUtils.putCompressedInt: 7 bits per byte, least significant group first.
void PutCompressedInt(std::string* dst, uint32_t v);
// Inline for the one-byte case (lengths and common prefixes of small cells, read three times
// per cell of a DIFF / FAST_DIFF block); longer ones go to GetCompressedIntSlow.
bool GetCompressedIntSlow(Slice* in, uint32_t* v);
inline bool GetCompressedInt(Slice* in, uint32_t* v) {
  if (!in->empty() && (in->byte(0) & 0x80) == 0) {
    *v = in->byte(0);
    in->remove_prefix(1);
    return true;
  }
  return GetCompressedIntSlow(in, v);
}

// Protobuf base-128 varints. EncodeVarint64 writes at most 10 bytes at dst and returns their
// end; DecodeVarint64 returns the end of the varint at p, or nullptr when it runs past `limit`
// or over 64 bits. Inline: per record of a bulk load's sort runs.
inline char* EncodeVarint64(char* dst, uint64_t v) {
  while (v >= 0x80) {
    *dst++ = static_cast<char>((v & 0x7F) | 0x80);
    v >>= 7;
  }
  *dst++ = static_cast<char>(v);
  return dst;
}
inline const char* DecodeVarint64(const char* p, const char* limit, uint64_t* v) {
  uint64_t result = 0;
  for (int shift = 0; shift <= 63 && p < limit; shift += 7) {
    const uint64_t b = static_cast<unsigned char>(*p++);
    result |= (b & 0x7F) << shift;
    if ((b & 0x80) == 0) {
      *v = result;
      return p;
    }
  }
  return nullptr;
}
void PutVarint32(std::string* dst, uint32_t v);
void PutVarint64(std::string* dst, uint64_t v);
int Varint64Size(uint64_t v);
bool GetVarint32(Slice* in, uint32_t* v);
bool GetVarint64(Slice* in, uint64_t* v);

}  // namespace hfile

#endif  // HFILE_CODING_H_
