// HBase's Bloom hash functions, bit for bit (Java int arithmetic: wrap-around, `>>>` logical).
//
// Confirmed by reading apache/hbase (hbase-common/src/main/java/org/apache/hadoop/hbase/util/):
//   Hash.java         JENKINS_HASH 0, MURMUR_HASH 1, MURMUR_HASH3 2; unknown type -> no hash.
//   MurmurHash.java   MurmurHash2 32-bit: h = seed ^ len; 4-byte little-endian blocks mixed with
//                     m = 0x5bd1e995, r = 24; the 1-3 tail bytes are Java (signed) bytes that
//                     are sign-extended before `<< 16` / `<< 8` / `^` -- unlike the C original.
//                     The HashKey variant (getIntLE for the blocks, get() for the tail) is the
//                     same function.
//   MurmurHash3.java  MurmurHash3_x86_32 (tail bytes masked with 0xff, so no quirk).
//   JenkinsHash.java  lookup3 hashlittle(); a length of 0 returns c without the final mix.
//
// All arithmetic is done on uint32_t and the result reinterpreted as int32_t.
#include <cstdint>
#include <cstring>

#include "bloom.h"

namespace hfile {

namespace {

inline uint32_t LoadLE32(const unsigned char* p) {
  return static_cast<uint32_t>(p[0]) | (static_cast<uint32_t>(p[1]) << 8) |
         (static_cast<uint32_t>(p[2]) << 16) | (static_cast<uint32_t>(p[3]) << 24);
}

// A Java byte widened to int: sign-extended.
inline uint32_t SignExtend(unsigned char b) {
  return static_cast<uint32_t>(static_cast<int32_t>(static_cast<int8_t>(b)));
}

inline uint32_t Rotl(uint32_t x, int r) { return (x << r) | (x >> (32 - r)); }

}  // namespace

int32_t MurmurHash(const char* data, size_t n, int32_t seed) {
  const auto* p = reinterpret_cast<const unsigned char*>(data);
  const uint32_t m = 0x5bd1e995;
  const int r = 24;
  const uint32_t length = static_cast<uint32_t>(n);  // Java int length
  uint32_t h = static_cast<uint32_t>(seed) ^ length;

  const size_t blocks = n >> 2;
  for (size_t i = 0; i < blocks; i++) {
    uint32_t k = LoadLE32(p + 4 * i);
    k *= m;
    k ^= k >> r;
    k *= m;
    h *= m;
    h ^= k;
  }

  const unsigned char* tail = p + 4 * blocks;
  const size_t left = n & 3;
  if (left != 0) {
    if (left >= 3) h ^= SignExtend(tail[2]) << 16;
    if (left >= 2) h ^= SignExtend(tail[1]) << 8;
    h ^= SignExtend(tail[0]);
    h *= m;
  }

  h ^= h >> 13;
  h *= m;
  h ^= h >> 15;
  return static_cast<int32_t>(h);
}

int32_t Murmur3Hash(const char* data, size_t n, int32_t seed) {
  const auto* p = reinterpret_cast<const unsigned char*>(data);
  const uint32_t c1 = 0xcc9e2d51;
  const uint32_t c2 = 0x1b873593;
  uint32_t h1 = static_cast<uint32_t>(seed);

  const size_t rounded_end = n & ~static_cast<size_t>(3);
  for (size_t i = 0; i < rounded_end; i += 4) {
    uint32_t k1 = LoadLE32(p + i);
    k1 *= c1;
    k1 = Rotl(k1, 15);
    k1 *= c2;
    h1 ^= k1;
    h1 = Rotl(h1, 13);
    h1 = h1 * 5 + 0xe6546b64;
  }

  uint32_t k1 = 0;
  switch (n & 3) {
    case 3:
      k1 = static_cast<uint32_t>(p[rounded_end + 2]) << 16;
      [[fallthrough]];
    case 2:
      k1 |= static_cast<uint32_t>(p[rounded_end + 1]) << 8;
      [[fallthrough]];
    case 1:
      k1 |= p[rounded_end];
      k1 *= c1;
      k1 = Rotl(k1, 15);
      k1 *= c2;
      h1 ^= k1;
      break;
    default:
      break;
  }

  h1 ^= static_cast<uint32_t>(n);
  h1 ^= h1 >> 16;
  h1 *= 0x85ebca6b;
  h1 ^= h1 >> 13;
  h1 *= 0xc2b2ae35;
  h1 ^= h1 >> 16;
  return static_cast<int32_t>(h1);
}

int32_t JenkinsHash(const char* data, size_t n, int32_t seed) {
  const auto* k = reinterpret_cast<const unsigned char*>(data);
  uint32_t a, b, c;
  a = b = c = 0xdeadbeefu + static_cast<uint32_t>(n) + static_cast<uint32_t>(seed);
  size_t length = n;
  for (; length > 12; k += 12, length -= 12) {
    a += LoadLE32(k);
    b += LoadLE32(k + 4);
    c += LoadLE32(k + 8);
    a -= c; a ^= Rotl(c, 4);  c += b;
    b -= a; b ^= Rotl(a, 6);  a += c;
    c -= b; c ^= Rotl(b, 8);  b += a;
    a -= c; a ^= Rotl(c, 16); c += b;
    b -= a; b ^= Rotl(a, 19); a += c;
    c -= b; c ^= Rotl(b, 4);  b += a;
  }
  switch (length) {  // every case falls through
    case 12: c += static_cast<uint32_t>(k[11]) << 24; [[fallthrough]];
    case 11: c += static_cast<uint32_t>(k[10]) << 16; [[fallthrough]];
    case 10: c += static_cast<uint32_t>(k[9]) << 8;   [[fallthrough]];
    case 9:  c += k[8];                               [[fallthrough]];
    case 8:  b += static_cast<uint32_t>(k[7]) << 24;  [[fallthrough]];
    case 7:  b += static_cast<uint32_t>(k[6]) << 16;  [[fallthrough]];
    case 6:  b += static_cast<uint32_t>(k[5]) << 8;   [[fallthrough]];
    case 5:  b += k[4];                               [[fallthrough]];
    case 4:  a += static_cast<uint32_t>(k[3]) << 24;  [[fallthrough]];
    case 3:  a += static_cast<uint32_t>(k[2]) << 16;  [[fallthrough]];
    case 2:  a += static_cast<uint32_t>(k[1]) << 8;   [[fallthrough]];
    case 1:  a += k[0]; break;
    case 0:  return static_cast<int32_t>(c);
  }
  c ^= b; c -= Rotl(b, 14);
  a ^= c; a -= Rotl(c, 11);
  b ^= a; b -= Rotl(a, 25);
  c ^= b; c -= Rotl(b, 16);
  a ^= c; a -= Rotl(c, 4);
  b ^= a; b -= Rotl(a, 14);
  c ^= b; c -= Rotl(b, 24);
  return static_cast<int32_t>(c);
}

int32_t Hash(HashType type, const char* data, size_t n, int32_t seed) {
  switch (type) {
    case HashType::kJenkins: return JenkinsHash(data, n, seed);
    case HashType::kMurmur3: return Murmur3Hash(data, n, seed);
    case HashType::kMurmur: break;
  }
  return MurmurHash(data, n, seed);
}

}  // namespace hfile
