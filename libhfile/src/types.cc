#include "hfile/types.h"

#include <array>
#include <cctype>

namespace hfile {
namespace {

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::toupper(static_cast<unsigned char>(a[i])) !=
        std::toupper(static_cast<unsigned char>(b[i])))
      return false;
  }
  return true;
}

constexpr std::array<std::string_view, kNumCompressions> kCompressionNames = {
    "LZO", "GZ", "NONE", "SNAPPY", "LZ4", "BZIP2", "ZSTD", "LZMA", "BROTLI"};

struct EncodingName {
  DataBlockEncoding e;
  std::string_view name;
};
constexpr EncodingName kEncodingNames[] = {
    {DataBlockEncoding::kNone, "NONE"},         {DataBlockEncoding::kPrefix, "PREFIX"},
    {DataBlockEncoding::kDiff, "DIFF"},         {DataBlockEncoding::kFastDiff, "FAST_DIFF"},
    {DataBlockEncoding::kPrefixTree, "PREFIX_TREE"},
    {DataBlockEncoding::kRowIndexV1, "ROW_INDEX_V1"},
};

}  // namespace

std::string_view CompressionName(Compression c) {
  auto i = static_cast<size_t>(c);
  return i < kCompressionNames.size() ? kCompressionNames[i] : "UNKNOWN";
}

std::string_view ChecksumTypeName(ChecksumType t) {
  switch (t) {
    case ChecksumType::kNull: return "NULL";
    case ChecksumType::kCrc32: return "CRC32";
    case ChecksumType::kCrc32c: return "CRC32C";
  }
  return "UNKNOWN";
}

std::string_view DataBlockEncodingName(DataBlockEncoding e) {
  for (const auto& n : kEncodingNames)
    if (n.e == e) return n.name;
  return "UNKNOWN";
}

std::string_view BloomTypeName(BloomType b) {
  switch (b) {
    case BloomType::kNone: return "NONE";
    case BloomType::kRow: return "ROW";
    case BloomType::kRowCol: return "ROWCOL";
    case BloomType::kRowPrefixFixedLength: return "ROWPREFIX_FIXED_LENGTH";
  }
  return "UNKNOWN";
}

std::string_view ComparatorKindName(ComparatorKind k) {
  switch (k) {
    case ComparatorKind::kDefault: return "default";
    case ComparatorKind::kMeta: return "meta";
    case ComparatorKind::kRawBytes: return "raw-bytes";
  }
  return "unknown";
}

std::optional<Compression> ParseCompression(std::string_view name) {
  for (size_t i = 0; i < kCompressionNames.size(); ++i)
    if (EqualsIgnoreCase(name, kCompressionNames[i])) return static_cast<Compression>(i);
  return std::nullopt;
}

std::optional<ChecksumType> ParseChecksumType(std::string_view name) {
  for (auto t : {ChecksumType::kNull, ChecksumType::kCrc32, ChecksumType::kCrc32c})
    if (EqualsIgnoreCase(name, ChecksumTypeName(t))) return t;
  return std::nullopt;
}

std::optional<DataBlockEncoding> ParseDataBlockEncoding(std::string_view name) {
  for (const auto& n : kEncodingNames)
    if (EqualsIgnoreCase(name, n.name)) return n.e;
  return std::nullopt;
}

std::optional<BloomType> ParseBloomType(std::string_view name) {
  for (auto b : {BloomType::kNone, BloomType::kRow, BloomType::kRowCol,
                 BloomType::kRowPrefixFixedLength})
    if (EqualsIgnoreCase(name, BloomTypeName(b))) return b;
  return std::nullopt;
}

std::optional<Compression> CompressionFromOrdinal(uint32_t ordinal) {
  if (ordinal >= static_cast<uint32_t>(kNumCompressions)) return std::nullopt;
  return static_cast<Compression>(ordinal);
}

std::optional<ChecksumType> ChecksumTypeFromByte(uint8_t b) {
  if (b > 2) return std::nullopt;
  return static_cast<ChecksumType>(b);
}

std::optional<DataBlockEncoding> DataBlockEncodingFromId(uint16_t id) {
  for (const auto& n : kEncodingNames)
    if (static_cast<uint16_t>(n.e) == id) return n.e;
  return std::nullopt;
}

std::optional<ComparatorKind> ComparatorKindFromClassName(std::string_view name) {
  static constexpr std::string_view kDefaultNames[] = {
      "org.apache.hadoop.hbase.KeyValue$KeyComparator",
      "org.apache.hadoop.hbase.KeyValue$KVComparator",
      "org.apache.hadoop.hbase.CellComparator",
      "org.apache.hadoop.hbase.CellComparatorImpl",
  };
  static constexpr std::string_view kMetaNames[] = {
      "org.apache.hadoop.hbase.KeyValue$MetaKeyComparator",
      "org.apache.hadoop.hbase.KeyValue$MetaComparator",
      "org.apache.hadoop.hbase.MetaCellComparator",
      "org.apache.hadoop.hbase.CellComparatorImpl$MetaCellComparator",
      // -ROOT- files of 0.9x clusters order like meta for our purposes.
      "org.apache.hadoop.hbase.KeyValue$RootKeyComparator",
      "org.apache.hadoop.hbase.KeyValue$RootComparator",
  };
  static constexpr std::string_view kRawNames[] = {
      "org.apache.hadoop.hbase.KeyValue$RawBytesComparator",
      "org.apache.hadoop.hbase.util.Bytes$ByteArrayComparator",
  };
  for (auto n : kDefaultNames)
    if (name == n) return ComparatorKind::kDefault;
  for (auto n : kMetaNames)
    if (name == n) return ComparatorKind::kMeta;
  for (auto n : kRawNames)
    if (name == n) return ComparatorKind::kRawBytes;
  // Apache Hudi writes its own comparator class, which orders KeyValue keys as HBase does.
  if (name == "org.apache.hudi.io.storage.HoodieHBaseKVComparator") return ComparatorKind::kDefault;
  return std::nullopt;
}

std::string_view ComparatorClassName(ComparatorKind k) {
  switch (k) {
    case ComparatorKind::kDefault: return "org.apache.hadoop.hbase.KeyValue$KVComparator";
    case ComparatorKind::kMeta: return "org.apache.hadoop.hbase.KeyValue$MetaComparator";
    case ComparatorKind::kRawBytes: return "org.apache.hadoop.hbase.util.Bytes$ByteArrayComparator";
  }
  return "";
}

}  // namespace hfile
