// The enumerations of the HFile format that users see: codecs, checksums, data block encodings,
// bloom types, and the comparators named in the trailer. Values are the on-disk numbers.
#ifndef HFILE_TYPES_H_
#define HFILE_TYPES_H_

#include <cstdint>
#include <optional>
#include <string_view>

namespace hfile {

// Compression.Algorithm ordinals, as stored in the trailer.
enum class Compression : uint8_t {
  kLzo = 0,
  kGz = 1,
  kNone = 2,
  kSnappy = 3,
  kLz4 = 4,
  kBzip2 = 5,
  kZstd = 6,
  kLzma = 7,
  kBrotli = 8,
};
inline constexpr int kNumCompressions = 9;

// Block header checksum type byte.
enum class ChecksumType : uint8_t { kNull = 0, kCrc32 = 1, kCrc32c = 2 };

// DataBlockEncoding ids, as stored (int16 BE) at the start of every DATABLKE body.
enum class DataBlockEncoding : uint16_t {
  kNone = 0,
  kPrefix = 2,
  kDiff = 3,
  kFastDiff = 4,
  kPrefixTree = 6,  // removed in HBase 2.0; recognised, never decoded
  kRowIndexV1 = 7,
};

enum class BloomType : uint8_t { kNone, kRow, kRowCol, kRowPrefixFixedLength };

// Which cell order a file uses, from the trailer's comparator class name.
enum class ComparatorKind : uint8_t {
  kDefault,   // CellComparatorImpl / KeyValue$KVComparator: user tables
  kMeta,      // MetaCellComparator / KeyValue$MetaComparator: hbase:meta
  kRawBytes,  // Bytes$ByteArrayComparator / RawBytesComparator: keys are not KeyValue keys
};

// Upper-case names as HBase spells them ("SNAPPY", "FAST_DIFF", "CRC32C", "ROWCOL").
std::string_view CompressionName(Compression c);
std::string_view ChecksumTypeName(ChecksumType t);
std::string_view DataBlockEncodingName(DataBlockEncoding e);
std::string_view BloomTypeName(BloomType b);
std::string_view ComparatorKindName(ComparatorKind k);

// Case-insensitive parse of the names above; nullopt if unknown.
std::optional<Compression> ParseCompression(std::string_view name);
std::optional<ChecksumType> ParseChecksumType(std::string_view name);
std::optional<DataBlockEncoding> ParseDataBlockEncoding(std::string_view name);
std::optional<BloomType> ParseBloomType(std::string_view name);

// nullopt for an ordinal the format does not define.
std::optional<Compression> CompressionFromOrdinal(uint32_t ordinal);
std::optional<ChecksumType> ChecksumTypeFromByte(uint8_t b);
std::optional<DataBlockEncoding> DataBlockEncodingFromId(uint16_t id);

// Maps a trailer comparator class name to the order it denotes; nullopt if unknown.
std::optional<ComparatorKind> ComparatorKindFromClassName(std::string_view class_name);
// The class name HBase 2.x writes for `k` (HBase-1-compatible spelling).
std::string_view ComparatorClassName(ComparatorKind k);

}  // namespace hfile

#endif  // HFILE_TYPES_H_
