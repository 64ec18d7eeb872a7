#include "hfile/coding.h"

namespace hfile {

void PutFixed16BE(std::string* dst, uint16_t v) {
  char buf[2];
  EncodeFixed16BE(buf, v);
  dst->append(buf, 2);
}
void PutFixed32BE(std::string* dst, uint32_t v) {
  char buf[4];
  EncodeFixed32BE(buf, v);
  dst->append(buf, 4);
}
void PutFixed64BE(std::string* dst, uint64_t v) {
  char buf[8];
  EncodeFixed64BE(buf, v);
  dst->append(buf, 8);
}

// EncodeVLong's bytes, with the payload written as one big-endian 8-byte store (shifted so that
// its n bytes come first) rather than byte by byte: every cell of a PREFIX / DIFF / FAST_DIFF
// block ends with its sequence id as a VLong.
void PutVLong(std::string* dst, int64_t v) {
  if (v >= -112 && v <= 127) {
    dst->push_back(static_cast<char>(v));
    return;
  }
  int len = -112;
  uint64_t u = static_cast<uint64_t>(v);
  if (v < 0) {
    u = ~u;
    len = -120;
  }
  const int n = 8 - __builtin_clzll(u) / 8;  // 1..8, u != 0 here
  char buf[1 + 8];
  buf[0] = static_cast<char>(len - n);
  EncodeFixed64BE(buf + 1, u << (8 * (8 - n)));
  dst->append(buf, static_cast<size_t>(1 + n));
}

int VLongSize(int64_t v) {
  if (v >= -112 && v <= 127) return 1;
  const uint64_t u = v < 0 ? ~static_cast<uint64_t>(v) : static_cast<uint64_t>(v);  // != 0
  return 1 + 8 - __builtin_clzll(u) / 8;
}

const char* DecodeVLongSlow(const char* p, const char* limit, int64_t* v) {
  if (p >= limit) return nullptr;
  int8_t first = static_cast<int8_t>(*p++);
  if (first >= -112) {
    *v = first;
    return p;
  }
  const bool negative = first < -120;
  const int n = negative ? (-120 - first) : (-112 - first);
  if (limit - p < n) return nullptr;
  uint64_t u = 0;
  if (limit - p >= 8) {  // one load of the big-endian payload, then drop the bytes past n
    u = DecodeFixed64BE(p) >> (8 * (8 - n));
  } else {
    for (int i = 0; i < n; ++i) u = (u << 8) | static_cast<unsigned char>(p[i]);
  }
  *v = static_cast<int64_t>(negative ? ~u : u);
  return p + n;
}

bool GetVInt(Slice* in, int32_t* v) {
  int64_t l;
  if (!GetVLong(in, &l) || l < INT32_MIN || l > INT32_MAX) return false;
  *v = static_cast<int32_t>(l);
  return true;
}

void PutByteArray(std::string* dst, const Slice& bytes) {
  PutVLong(dst, static_cast<int64_t>(bytes.size()));
  dst->append(bytes.data(), bytes.size());
}

bool GetByteArray(Slice* in, Slice* bytes) {
  int32_t len;
  if (!GetVInt(in, &len) || len < 0 || static_cast<size_t>(len) > in->size()) return false;
  *bytes = Slice(in->data(), static_cast<size_t>(len));
  in->remove_prefix(static_cast<size_t>(len));
  return true;
}

void PutCompressedInt(std::string* dst, uint32_t v) {
  if (v < 0x80) {  // the common case: lengths and prefixes of small cells
    dst->push_back(static_cast<char>(v));
    return;
  }
  char buf[5];
  size_t n = 0;
  while (v >= 0x80) {
    buf[n++] = static_cast<char>((v & 0x7F) | 0x80);
    v >>= 7;
  }
  buf[n++] = static_cast<char>(v);
  dst->append(buf, n);
}

bool GetCompressedIntSlow(Slice* in, uint32_t* v) {
  uint32_t result = 0;
  for (int shift = 0, i = 0; shift <= 28 && static_cast<size_t>(i) < in->size(); shift += 7, ++i) {
    uint32_t b = in->byte(i);
    result |= (b & 0x7F) << shift;
    if ((b & 0x80) == 0) {
      *v = result;
      in->remove_prefix(i + 1);
      return true;
    }
  }
  return false;
}

void PutVarint32(std::string* dst, uint32_t v) { PutVarint64(dst, v); }

void PutVarint64(std::string* dst, uint64_t v) {
  char buf[10];
  dst->append(buf, static_cast<size_t>(EncodeVarint64(buf, v) - buf));
}

int Varint64Size(uint64_t v) {
  int n = 1;
  while (v >= 0x80) {
    v >>= 7;
    ++n;
  }
  return n;
}

bool GetVarint64(Slice* in, uint64_t* v) {
  const char* end = DecodeVarint64(in->data(), in->end(), v);
  if (end == nullptr) return false;
  in->remove_prefix(static_cast<size_t>(end - in->data()));
  return true;
}

bool GetVarint32(Slice* in, uint32_t* v) {
  Slice copy = *in;
  uint64_t l;
  if (!GetVarint64(&copy, &l) || l > UINT32_MAX) return false;
  *v = static_cast<uint32_t>(l);
  *in = copy;
  return true;
}

}  // namespace hfile
