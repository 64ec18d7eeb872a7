// `hfile dump --hpp -m` (HFilePrettyPrinter.printMeta) and the key and number renderings the
// other --hpp sections share.
#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <ostream>

#include "dump_hpp.h"
#include "hfile/coding.h"
#include "hfile/escape.h"
#include "hfile/file_info.h"

namespace hfile {
namespace hpp {

namespace {

void AppendKeyToString(std::string* s, const Slice& key) {
  if (!IsValidKey(key)) {
    AppendStringBinary(s, key);
    return;
  }
  AppendStringBinary(s, KeyRow(key));
  s->push_back('/');
  Slice family = KeyFamily(key);
  AppendStringBinary(s, family);
  if (!family.empty()) s->push_back(':');
  AppendStringBinary(s, KeyQualifier(key));
  s->push_back('/');
  const int64_t ts = KeyTimestamp(key);
  if (ts == INT64_MAX) {
    s->append("LATEST_TIMESTAMP");
  } else if (ts == INT64_MIN) {
    s->append("OLDEST_TIMESTAMP");
  } else {
    s->append(std::to_string(ts));
  }
  s->push_back('/');
  s->append(KeyTypeName(KeyTypeByte(key)));
}

// Rounds the shortest decimal form of v >= 0 (what Java's FloatingDecimal gives its formatters)
// to `decimals` fraction digits; HALF_UP (Formatter) or HALF_EVEN (DecimalFormat).
std::string RoundShortest(double v, int decimals, bool half_even) {
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof(buf), v, std::chars_format::scientific);
  std::string sci(buf, r.ptr);
  const size_t e = sci.find('e');
  std::string digits;
  for (size_t i = 0; i < e; ++i)
    if (sci[i] != '.') digits.push_back(sci[i]);
  const int exp10 = std::stoi(sci.substr(e + 1));
  // value = 0.<digits> * 10^(exp10 + 1); place the decimal point.
  int int_len = exp10 + 1;
  if (int_len <= 0) {
    digits.insert(0, static_cast<size_t>(-int_len + 1), '0');
    int_len = 1;
  }
  if (static_cast<int>(digits.size()) < int_len) digits.append(int_len - digits.size(), '0');
  const size_t keep = static_cast<size_t>(int_len + decimals);
  if (digits.size() < keep) digits.append(keep - digits.size(), '0');
  std::string kept = digits.substr(0, keep);
  std::string rest = digits.substr(keep);
  bool up = false;
  if (!rest.empty()) {
    const char first = rest[0];
    const bool beyond = rest.find_first_not_of('0', 1) != std::string::npos;
    if (first > '5' || (first == '5' && (beyond || !half_even))) {
      up = true;
    } else if (first == '5' && half_even) {
      up = !kept.empty() && ((kept.back() - '0') % 2 == 1);
    }
  }
  if (up) {
    int i = static_cast<int>(kept.size()) - 1;
    for (; i >= 0; --i) {
      if (kept[i] == '9') {
        kept[i] = '0';
      } else {
        ++kept[i];
        break;
      }
    }
    if (i < 0) {
      kept.insert(0, 1, '1');
      ++int_len;
    }
  }
  std::string out = kept.substr(0, int_len);
  const size_t nz = out.find_first_not_of('0');
  out = nz == std::string::npos ? "0" : out.substr(nz);
  if (decimals > 0) out += "." + kept.substr(int_len);
  return out;
}

// HFilePrettyPrinter.asSeparateLines: ", NAME=" (NAME of ASCII letters) starts a new line.
std::string AsSeparateLines(const std::string& s) {
  std::string out;
  size_t i = 0;
  while (i < s.size()) {
    if (s[i] == ',' && i + 1 < s.size() && s[i + 1] == ' ') {
      size_t j = i + 2;
      while (j < s.size() && ((s[j] >= 'a' && s[j] <= 'z') || (s[j] >= 'A' && s[j] <= 'Z'))) ++j;
      if (j > i + 2 && j < s.size() && s[j] == '=') {
        out += ",\n    ";
        out.append(s, i + 2, j + 1 - (i + 2));
        i = j + 1;
        continue;
      }
    }
    out.push_back(s[i++]);
  }
  return out;
}

// ClassSize on a 64-bit JVM with compressed oops (HBase's ClassSize via Unsafe).
constexpr int64_t kRef = 4, kObject = 12, kArray = 16;
int64_t Align(int64_t n) { return ((n + 7) >> 3) << 3; }
// KeyValue.KeyOnlyKeyValue(key, 0, len).heapSize(), aligned.
int64_t KeyOnlyHeap(size_t len) {
  const int64_t fixed = Align(kObject + kRef + 2 * 4 + 8);  // KeyValue.FIXED_OVERHEAD
  return Align(fixed + Align(kArray + static_cast<int64_t>(len)) + 2);
}

// HFileReaderImpl.indexSize(): the data index (CellBasedKeyBlockIndexReaderV2 around a
// NoOpEncodedSeeker) plus the meta index (ByteArrayKeyBlockIndexReader).
int64_t IndexHeapSize(const RootIndex& data, const RootIndex& meta) {
  const int64_t mid_key_metadata = 8 + 2 * 4;
  const int64_t n = static_cast<int64_t>(data.size());
  int64_t seeker = Align(kObject) + mid_key_metadata + Align(kArray + n * 8) +
                   Align(kArray + n * 4) + kRef + Align(kArray + n * kRef);
  for (const auto& e : data.entries()) seeker += KeyOnlyHeap(e.key.size());
  seeker = Align(seeker + 2 * kRef + 2 * 4);
  const int64_t reader_base = Align(3 * kRef + 2 * 4 + kObject) + mid_key_metadata;
  const int64_t data_heap = Align(reader_base + 2 * kRef + kRef + seeker);
  const int64_t m = static_cast<int64_t>(meta.size());
  int64_t meta_heap = reader_base + kRef + Align(kArray + m * kRef);
  for (const auto& e : meta.entries()) {
    meta_heap += Align(kArray + static_cast<int64_t>(e.key.size()));
  }
  meta_heap += Align(kArray + m * 8) + Align(kArray + m * 4);
  return data_heap + Align(meta_heap);
}

std::string ComparatorSimpleName(const std::string& full) {
  const size_t p = full.find_last_of(".$");
  return p == std::string::npos ? full : full.substr(p + 1);
}

bool IsRawBytesComparator(const std::string& name) {
  return name == "org.apache.hadoop.hbase.KeyValue$RawBytesComparator" ||
         name == "org.apache.hadoop.hbase.util.Bytes$ByteArrayComparator";
}

// CompoundBloomFilter.toString, "; " turned into new lines by printMeta.
void BloomText(const char* title, const std::optional<BloomMeta>& m, std::string* s) {
  *s += title;
  *s += ":\n";
  if (!m) {
    *s += "    Not present\n";
    return;
  }
  *s += fmt::format("    BloomSize: {}\n    No of Keys in bloom: {}\n    Max Keys for bloom: {}\n",
                    m->total_byte_size, m->total_key_count, m->total_max_keys);
  if (m->total_max_keys > 0) {
    // NumberFormat.getPercentInstance(): x100 in double, HALF_EVEN to an integer.
    const double filled = static_cast<double>(m->total_key_count) * 1.0 /
                          static_cast<double>(m->total_max_keys) * 100.0;
    *s += "    Percentage filled: " + RoundShortest(filled, 0, true) + "%\n";
  }
  std::string comparator = "ByteArrayComparator";
  if (!m->comparator_class_name.empty() && !IsRawBytesComparator(m->comparator_class_name)) {
    comparator = ComparatorSimpleName(RuntimeComparatorClass(m->comparator_class_name));
  }
  *s += fmt::format("    Number of chunks: {}\n    Comparator: {}\n", m->chunks.size(), comparator);
}

int64_t Int64(const Slice& v) {
  return v.size() >= 8 ? static_cast<int64_t>(DecodeFixed64BE(v.data())) : 0;
}

// printMeta's rendering of one file-info value (by key, as HBase 2.6 does).
std::string FileInfoValue(const std::string& k, const Slice& v) {
  using namespace fileinfo;
  if (k == kMaxSeqId || k == kDeleteFamilyCount || k == kEarliestPutTs || k == kMaxMemstoreTs ||
      k == kCreateTimeTs || k == kBulkloadTimestamp) {
    if (v.size() == 8) return std::to_string(Int64(v));
  } else if (k == kTimeRange) {
    if (auto tr = DecodeTimeRange(v)) return fmt::format("{}....{}", tr->min, tr->max);
  } else if (k == kAvgKeyLen || k == kAvgValueLen || k == kKeyValueVersion || k == kMaxTagsLen) {
    if (v.size() == 4) return std::to_string(static_cast<int32_t>(DecodeFixed32BE(v.data())));
  } else if (k == kMajorCompaction || k == kTagsCompressed || k == kExcludeFromMinorCompaction ||
             k == kHistorical) {
    if (v.size() == 1) return v[0] != 0 ? "true" : "false";
  } else if (k == kLastKey) {
    return KeyOnlyString(v);
  }
  return ToStringBinary(v);
}

}  // namespace

std::string KeyOnlyString(const Slice& key) {
  if (key.empty()) return "empty";
  std::string s;
  AppendKeyToString(&s, key);
  s += "/vlen=0/mvcc=0";
  return s;
}

std::string CellKeyString(const Slice& key) {
  std::string s;
  AppendKeyToString(&s, key);
  s += "/seqid=0";
  return s;
}

std::string RuntimeComparatorClass(const std::string& stored) {
  static const char* const kInner[] = {"org.apache.hadoop.hbase.KeyValue$KeyComparator",
                                       "org.apache.hadoop.hbase.KeyValue$KVComparator",
                                       "org.apache.hadoop.hbase.CellComparator"};
  static const char* const kMeta[] = {
      "org.apache.hadoop.hbase.KeyValue$MetaKeyComparator",
      "org.apache.hadoop.hbase.KeyValue$MetaComparator",
      "org.apache.hadoop.hbase.CellComparator$MetaCellComparator",
      "org.apache.hadoop.hbase.CellComparatorImpl$MetaCellComparator",
      "org.apache.hadoop.hbase.MetaCellComparator"};
  const std::string inner = "org.apache.hadoop.hbase.InnerStoreCellComparator";
  if (stored.empty() || IsRawBytesComparator(stored)) return inner;
  for (const char* n : kInner)
    if (stored == n) return inner;
  for (const char* n : kMeta)
    if (stored == n) return "org.apache.hadoop.hbase.MetaCellComparator";
  return stored;
}

std::string JavaFixed(double v, int decimals) {
  if (std::isnan(v)) return "NaN";
  if (v < 0) return "-" + RoundShortest(-v, decimals, false);
  return RoundShortest(v, decimals, false);
}

}  // namespace hpp

void DumpHppMeta(const Reader& reader, const std::string& path, std::ostream& out) {
  using namespace hpp;
  const Reader::Rep& r = reader.rep();
  const Trailer& t = reader.trailer();
  std::string s = fmt::format("Block index size as per heapsize: {}\n",
                              IndexHeapSize(r.data_index, r.meta_index));
  auto avg = [&](const char* key) {
    auto v = reader.file_info().GetInt32(key);
    return v ? *v : 0;
  };
  std::string first = "Optional.empty", last = "Optional.empty";
  if (r.data_index.size() > 0) {
    first = "Optional[" + CellKeyString(r.data_index.entry(0).key) + "]";
    auto lk = reader.file_info().Get(fileinfo::kLastKey);
    last = lk ? "Optional[" + CellKeyString(*lk) + "]" : "Optional[null]";
  }
  std::string compression(CompressionName(t.compression()));
  for (char& c : compression) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  // HFileReaderImpl.toString, with CacheConfig.DISABLED's toString inside.
  s += AsSeparateLines(fmt::format(
      "reader={}, compression={}, cacheConf=cacheDataOnRead=false, cacheDataOnWrite=false, "
      "cacheIndexesOnWrite=false, cacheBloomsOnWrite=false, cacheEvictOnClose=false, "
      "cacheDataCompressed=false, prefetchOnOpen=false, firstKey={}, lastKey={}, avgKeyLen={}, "
      "avgValueLen={}, entries={}, length={}",
      path, compression, first, last, avg(fileinfo::kAvgKeyLen),
      avg(fileinfo::kAvgValueLen), t.entry_count, reader.file_size()));
  s += "\n";
  std::string trailer = fmt::format(
      "fileinfoOffset={}, loadOnOpenDataOffset={}, dataIndexCount={}, metaIndexCount={}, "
      "totalUncomressedBytes={}, entryCount={}, compressionCodec={}, "
      "uncompressedDataIndexSize={}, numDataIndexLevels={}, firstDataBlockOffset={}, "
      "lastDataBlockOffset={}, comparatorClassName={}",
      t.file_info_offset, t.load_on_open_data_offset, t.data_index_count, t.meta_index_count,
      t.total_uncompressed_bytes, t.entry_count, CompressionName(t.compression()),
      t.uncompressed_data_index_size, t.num_data_index_levels, t.first_data_block_offset,
      t.last_data_block_offset, RuntimeComparatorClass(t.comparator_class_name));
  if (t.major_version >= 3) {
    trailer += fmt::format(", encryptionKey={}", t.encryption_key.empty() ? "NONE" : "PRESENT");
  }
  trailer += fmt::format(", majorVersion={}, minorVersion={}", t.major_version, t.minor_version);
  s += "Trailer:\n    " + AsSeparateLines(trailer) + "\n";
  s += "Fileinfo:\n";
  for (const auto& [k, v] : reader.file_info().entries()) {
    s += "    " + k + " = " + FileInfoValue(k, v) + "\n";
  }
  auto mid = reader.MidKey();
  if (mid.ok() && mid->has_value()) {
    s += "Mid-key: Optional[" + CellKeyString(**mid) + "]\n";
  } else {
    s += "Unable to retrieve the midkey\n";  // HBase throws on an empty index
  }
  BloomText("Bloom filter", r.general_bloom, &s);
  BloomText("Delete Family Bloom filter", r.delete_family_bloom, &s);
  out << s;
}

}  // namespace hfile
