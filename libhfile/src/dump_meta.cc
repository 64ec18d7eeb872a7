// `hfile dump -m`: trailer, file info, mid-key and bloom metadata, in HFilePrettyPrinter's
// layout (text) or as the canonical "trailer"/"fileinfo" JSON records.
#include <fmt/format.h>

#include <ostream>

#include "dump_internal.h"
#include "hfile/escape.h"

namespace hfile {
namespace {

void TrailerJson(const std::string& head, const Trailer& t, std::string* s) {
  *s += fmt::format(
      "{},\"major\":{},\"minor\":{},\"entry_count\":{},\"compression\":\"{}\","
      "\"data_index_count\":{},\"meta_index_count\":{},\"num_data_index_levels\":{},"
      "\"first_data_block_offset\":{},\"last_data_block_offset\":{},\"file_info_offset\":{},"
      "\"load_on_open_data_offset\":{},\"uncompressed_data_index_size\":{},"
      "\"total_uncompressed_bytes\":{},\"comparator\":",
      // A damaged trailer holds any 64-bit value: hfile-json(7)'s rule for large integers.
      head, t.major_version, t.minor_version, JsonUInt(t.entry_count),
      CompressionName(t.compression()), t.data_index_count, t.meta_index_count,
      t.num_data_index_levels, JsonInt(t.first_data_block_offset),
      JsonInt(t.last_data_block_offset), JsonUInt(t.file_info_offset),
      JsonUInt(t.load_on_open_data_offset), JsonUInt(t.uncompressed_data_index_size),
      JsonUInt(t.total_uncompressed_bytes));
  AppendJsonString(s, t.comparator_class_name);
  *s += "}\n";
}

void TrailerText(const Trailer& t, std::string* s) {
  *s += fmt::format(
      "Trailer:\n    fileinfoOffset={},\n    loadOnOpenDataOffset={},\n    dataIndexCount={},\n"
      "    metaIndexCount={},\n    totalUncomressedBytes={},\n    entryCount={},\n"
      "    compressionCodec={},\n    uncompressedDataIndexSize={},\n    numDataIndexLevels={},\n"
      "    firstDataBlockOffset={},\n    lastDataBlockOffset={},\n    comparatorClassName={},\n"
      "    encryptionKey={},\n    majorVersion={},\n    minorVersion={}\n",
      t.file_info_offset, t.load_on_open_data_offset, t.data_index_count, t.meta_index_count,
      t.total_uncompressed_bytes, t.entry_count, CompressionName(t.compression()),
      t.uncompressed_data_index_size, t.num_data_index_levels, t.first_data_block_offset,
      t.last_data_block_offset, t.comparator_class_name,
      t.encryption_key.empty() ? "NONE" : "PRESENT", t.major_version, t.minor_version);
}

void BloomText(const char* title, const std::optional<BloomMeta>& m, const Reader::Rep& r,
               bool general, std::string* s) {
  *s += title;
  *s += ":\n";
  if (!m) {
    *s += "    Not present\n";
    return;
  }
  *s += fmt::format(
      "    BloomSize: {}\n    No of Keys in bloom: {}\n    Max Keys for bloom: {}\n"
      "    Percentage filled: {:.0f}%\n    Number of chunks: {}\n    Hash count: {}\n"
      "    Hash type: {}\n    Comparator: {}\n",
      m->total_byte_size, m->total_key_count, m->total_max_keys,
      m->total_max_keys ? 100.0 * static_cast<double>(m->total_key_count) /
                              static_cast<double>(m->total_max_keys)
                        : 0.0,
      m->chunks.size(), m->hash_count, static_cast<int>(m->hash_type),
      m->comparator_class_name.empty() ? "RawBytesComparator" : m->comparator_class_name);
  if (general) *s += fmt::format("    Bloom type: {}\n", BloomTypeName(r.bloom_type));
}

void BloomJson(const std::string& head, const char* filter, const std::optional<BloomMeta>& m,
               std::string* s) {
  if (!m) return;
  *s += fmt::format(
      "{},\"filter\":\"{}\",\"total_byte_size\":{},\"key_count\":{},"
      "\"max_keys\":{},\"chunks\":{},\"hash_count\":{},\"hash_type\":{},\"comparator\":",
      head, filter, m->total_byte_size, m->total_key_count, m->total_max_keys, m->chunks.size(),
      m->hash_count, static_cast<int>(m->hash_type));
  AppendJsonString(s, m->comparator_class_name);
  *s += "}\n";
}

}  // namespace

void DumpMeta(const Reader& reader, const DumpFormat& fmt, std::ostream& out) {
  const Reader::Rep& r = reader.rep();
  const Trailer& t = reader.trailer();
  const ComparatorKind kind = reader.comparator();
  std::string s;
  auto mid = reader.MidKey();
  if (fmt.options().json) {
    TrailerJson(fmt.JsonHead("trailer"), t, &s);
    for (const auto& [k, v] : reader.file_info().entries()) {
      s += fmt.JsonHead("fileinfo") + ",";
      fmt.AppendJsonBytes(&s, "key", k);
      s.push_back(',');
      fmt.AppendJsonBytes(&s, "value", v);
      s += ",\"decoded\":";
      AppendJsonString(&s, DescribeFileInfoValue(k, v, kind));
      s += "}\n";
    }
    if (mid.ok() && mid->has_value()) {
      s += fmt.JsonHead("midkey") + ",";
      fmt.AppendJsonBytes(&s, "key", **mid);
      s += "}\n";
    }
    BloomJson(fmt.JsonHead("bloom_meta"), "general", r.general_bloom, &s);
    BloomJson(fmt.JsonHead("bloom_meta"), "delete_family", r.delete_family_bloom, &s);
    out << s;
    return;
  }
  std::string first, last;
  if (auto k = reader.first_key()) fmt.AppendKey(&first, *k, kind);
  if (auto k = reader.last_key()) fmt.AppendKey(&last, *k, kind);
  auto avg = [&](const char* key) {
    auto v = reader.file_info().GetInt32(key);
    return v ? std::to_string(*v) : std::string("-");
  };
  s += fmt::format(
      "reader={},\n    compression={},\n    dataBlockEncoding={},\n    firstKey={},\n"
      "    lastKey={},\n    avgKeyLen={},\n    avgValueLen={},\n    entries={},\n    length={}\n",
      reader.path(), CompressionName(t.compression()),
      DataBlockEncodingName(reader.data_block_encoding()), first.empty() ? "<none>" : first,
      last.empty() ? "<none>" : last, avg(fileinfo::kAvgKeyLen), avg(fileinfo::kAvgValueLen),
      t.entry_count, reader.file_size());
  TrailerText(t, &s);
  s += "Fileinfo:\n";
  for (const auto& [k, v] : reader.file_info().entries()) {
    s += "    ";
    AppendStringBinary(&s, k);
    s += " = ";
    s += DescribeFileInfoValue(k, v, kind);
    s += "\n";
  }
  if (!mid.ok()) {
    s += "Unable to retrieve the midkey: " + mid.status().ToString() + "\n";
  } else if (mid->has_value()) {
    s += "Mid-key: ";
    fmt.AppendKey(&s, **mid, kind);
    s += "\n";
  } else {
    s += "Mid-key: <none>\n";
  }
  BloomText("Bloom filter", r.general_bloom, r, true, &s);
  BloomText("Delete Family Bloom filter", r.delete_family_bloom, r, false, &s);
  out << s;
}

}  // namespace hfile
