#include "region/family_descriptor.h"

#include <algorithm>
#include <cctype>
#include <charconv>

#include "hfile/escape.h"
#include "java_order.h"

namespace hfile::region {

namespace fk = family_key;

std::string_view KeepDeletedCellsName(KeepDeletedCells k) {
  switch (k) {
    case KeepDeletedCells::kFalse: return "FALSE";
    case KeepDeletedCells::kTrue: return "TRUE";
    case KeepDeletedCells::kTtl: return "TTL";
  }
  return "FALSE";
}

namespace {

std::string Upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

template <typename T>
std::optional<T> ParseNumber(std::string_view s) {
  T v{};
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size() || s.empty()) return std::nullopt;
  return v;
}

// Java Boolean.parseBoolean: "true" (any case) is true, anything else false. We are stricter
// in Validate() so that typos are reported.
std::optional<bool> ParseBool(std::string_view s) {
  std::string u = Upper(s);
  if (u == "TRUE") return true;
  if (u == "FALSE") return false;
  return std::nullopt;
}

// The defaults ColumnFamilyDescriptorBuilder pre-populates, in the order HBase 2.5+/2.6 writes
// them (a HashMap iteration order, observed in real .tableinfo / data.manifest bytes). This is
// also the order the shell prints them.
const std::vector<std::pair<const char*, const char*>>& DefaultValues() {
  static const auto* kDefaults = new std::vector<std::pair<const char*, const char*>>{
      {fk::kBloomFilter, "ROW"},         {fk::kIndexBlockEncoding, "NONE"},
      {fk::kInMemory, "false"},          {fk::kVersions, "1"},
      {fk::kKeepDeletedCells, "FALSE"},  {fk::kDataBlockEncoding, "NONE"},
      {fk::kCompression, "NONE"},        {fk::kTtl, "2147483647"},
      {fk::kMinVersions, "0"},           {fk::kBlockCache, "true"},
      {fk::kBlockSize, "65536"},         {fk::kReplicationScope, "0"},
  };
  return *kDefaults;
}

// ColumnFamilyDescriptorBuilder's RESERVED_KEYWORDS (2.6): printed as KEY => 'value'; every
// other value goes under METADATA (checked against HBase 2.6.4's toString, key by key).
bool IsReservedKey(std::string_view k) {
  static const char* const kReserved[] = {
      fk::kBloomFilter, fk::kReplicationScope, fk::kVersions, fk::kMinVersions,
      fk::kCompression, fk::kTtl, fk::kBlockSize, fk::kInMemory, fk::kBlockCache,
      fk::kKeepDeletedCells, fk::kDataBlockEncoding, fk::kIndexBlockEncoding, fk::kIsMob,
      fk::kMobThreshold, fk::kEncryption, "ENCRYPTION_KEY", "MOB_COMPACT_PARTITION_POLICY"};
  for (const char* r : kReserved)
    if (k == r) return true;
  return false;
}

}  // namespace

std::optional<KeepDeletedCells> ParseKeepDeletedCells(std::string_view s) {
  std::string u = Upper(s);
  if (u == "FALSE") return KeepDeletedCells::kFalse;
  if (u == "TRUE") return KeepDeletedCells::kTrue;
  if (u == "TTL") return KeepDeletedCells::kTtl;
  return std::nullopt;
}

FamilyDescriptor FamilyDescriptor::WithDefaults(std::string name) {
  FamilyDescriptor f(std::move(name));
  for (const auto& [k, v] : DefaultValues()) f.values_.emplace_back(k, v);
  return f;
}

std::optional<std::string> FamilyDescriptor::GetValue(const Slice& key) const {
  for (const auto& [k, v] : values_)
    if (Slice(k) == key) return v;
  return std::nullopt;
}

void FamilyDescriptor::SetValue(const Slice& key, const Slice& value) {
  for (auto& [k, v] : values_) {
    if (Slice(k) == key) {
      v = value.ToString();
      return;
    }
  }
  values_.emplace_back(key.ToString(), value.ToString());
}

bool FamilyDescriptor::RemoveValue(const Slice& key) {
  auto it = std::find_if(values_.begin(), values_.end(),
                         [&](const Entry& e) { return Slice(e.first) == key; });
  if (it == values_.end()) return false;
  values_.erase(it);
  return true;
}

std::optional<std::string> FamilyDescriptor::GetConfiguration(const Slice& key) const {
  for (const auto& [k, v] : configuration_)
    if (Slice(k) == key) return v;
  return std::nullopt;
}

void FamilyDescriptor::SetConfiguration(const Slice& key, const Slice& value) {
  for (auto& [k, v] : configuration_) {
    if (Slice(k) == key) {
      v = value.ToString();
      return;
    }
  }
  configuration_.emplace_back(key.ToString(), value.ToString());
}

namespace {

template <typename T>
T NumberOr(const std::optional<std::string>& v, T dflt) {
  if (!v) return dflt;
  auto n = ParseNumber<T>(*v);
  return n ? *n : dflt;
}

bool BoolOr(const std::optional<std::string>& v, bool dflt) {
  if (!v) return dflt;
  auto b = ParseBool(*v);
  return b ? *b : dflt;
}

}  // namespace

int32_t FamilyDescriptor::max_versions() const { return NumberOr<int32_t>(GetValue(fk::kVersions), 1); }
int32_t FamilyDescriptor::min_versions() const { return NumberOr<int32_t>(GetValue(fk::kMinVersions), 0); }
int32_t FamilyDescriptor::ttl_seconds() const { return NumberOr<int32_t>(GetValue(fk::kTtl), kTtlForever); }
bool FamilyDescriptor::ttl_is_forever() const {
  int32_t t = ttl_seconds();
  return t == kTtlForever || t == -1;
}
int64_t FamilyDescriptor::ttl_ms() const {
  return ttl_is_forever() ? INT64_MAX : int64_t{ttl_seconds()} * 1000;
}

KeepDeletedCells FamilyDescriptor::keep_deleted_cells() const {
  auto v = GetValue(fk::kKeepDeletedCells);
  if (!v) return KeepDeletedCells::kFalse;
  return ParseKeepDeletedCells(*v).value_or(KeepDeletedCells::kFalse);
}

BloomType FamilyDescriptor::bloom_type() const {
  auto v = GetValue(fk::kBloomFilter);
  if (!v) return BloomType::kRow;
  return ParseBloomType(*v).value_or(BloomType::kRow);
}

int32_t FamilyDescriptor::bloom_prefix_length() const {
  auto v = GetConfiguration(fk::kPrefixLengthConfig);
  if (!v) v = GetValue(fk::kPrefixLengthConfig);
  return NumberOr<int32_t>(v, 0);
}

DataBlockEncoding FamilyDescriptor::data_block_encoding() const {
  auto v = GetValue(fk::kDataBlockEncoding);
  if (!v) return DataBlockEncoding::kNone;
  return ParseDataBlockEncoding(*v).value_or(DataBlockEncoding::kNone);
}

Compression FamilyDescriptor::compression() const {
  auto v = GetValue(fk::kCompression);
  if (!v) return Compression::kNone;
  return ParseCompression(*v).value_or(Compression::kNone);
}

Compression FamilyDescriptor::compaction_compression(bool major) const {
  for (const char* key : {major ? fk::kCompressionCompactMajor : fk::kCompressionCompactMinor,
                          fk::kCompressionCompact}) {
    auto v = GetValue(key);
    if (v) {
      if (auto c = ParseCompression(*v)) return *c;
    }
  }
  return compression();
}

int32_t FamilyDescriptor::block_size() const { return NumberOr<int32_t>(GetValue(fk::kBlockSize), 65536); }
bool FamilyDescriptor::in_memory() const { return BoolOr(GetValue(fk::kInMemory), false); }
bool FamilyDescriptor::block_cache_enabled() const { return BoolOr(GetValue(fk::kBlockCache), true); }
int32_t FamilyDescriptor::replication_scope() const {
  return NumberOr<int32_t>(GetValue(fk::kReplicationScope), 0);
}
bool FamilyDescriptor::compress_tags() const { return BoolOr(GetValue(fk::kCompressTags), true); }
bool FamilyDescriptor::is_mob() const { return BoolOr(GetValue(fk::kIsMob), false); }
int64_t FamilyDescriptor::mob_threshold() const {
  return NumberOr<int64_t>(GetValue(fk::kMobThreshold), 102400);
}
bool FamilyDescriptor::new_version_behavior() const {
  return BoolOr(GetValue(fk::kNewVersionBehavior), false);
}
bool FamilyDescriptor::encrypted() const { return GetValue(fk::kEncryption).has_value(); }

Status FamilyDescriptor::Validate() const {
  auto bad = [&](const char* key, const std::string& v) {
    return Status::InvalidArgument("family '" + ToStringBinary(name_) + "': bad " + key,
                                   ToStringBinary(v));
  };
  for (const char* key : {fk::kVersions, fk::kMinVersions, fk::kTtl, fk::kBlockSize,
                          fk::kReplicationScope}) {
    auto v = GetValue(key);
    if (v && !ParseNumber<int32_t>(*v)) return bad(key, *v);
  }
  if (auto v = GetValue(fk::kMobThreshold); v && !ParseNumber<int64_t>(*v))
    return bad(fk::kMobThreshold, *v);
  for (const char* key : {fk::kInMemory, fk::kBlockCache, fk::kCompressTags, fk::kIsMob,
                          fk::kNewVersionBehavior}) {
    auto v = GetValue(key);
    if (v && !ParseBool(*v)) return bad(key, *v);
  }
  if (auto v = GetValue(fk::kKeepDeletedCells); v && !ParseKeepDeletedCells(*v))
    return bad(fk::kKeepDeletedCells, *v);
  if (auto v = GetValue(fk::kBloomFilter); v && !ParseBloomType(*v))
    return bad(fk::kBloomFilter, *v);
  if (auto v = GetValue(fk::kDataBlockEncoding); v && !ParseDataBlockEncoding(*v))
    return bad(fk::kDataBlockEncoding, *v);
  for (const char* key : {fk::kCompression, fk::kCompressionCompact,
                          fk::kCompressionCompactMajor, fk::kCompressionCompactMinor}) {
    auto v = GetValue(key);
    if (v && !ParseCompression(*v)) return bad(key, *v);
  }
  if (min_versions() > max_versions())
    return Status::InvalidArgument("family '" + ToStringBinary(name_) + "'",
                                   "MIN_VERSIONS > VERSIONS");
  return Status::OK();
}

std::string HumanReadableTtl(int64_t seconds) {
  if (seconds == kTtlForever || seconds == -1) return "FOREVER";
  std::string s = std::to_string(seconds) + " SECONDS";
  if (seconds < 60) return s;
  int64_t days = seconds / 86400, hours = seconds / 3600 % 24, minutes = seconds / 60 % 60,
          secs = seconds % 60;
  std::string parts;
  auto add = [&](int64_t n, const char* unit) {
    if (n <= 0) return;
    if (!parts.empty()) parts += " ";
    parts += std::to_string(n) + " " + unit + (n == 1 ? "" : "S");
  };
  add(days, "DAY");
  add(hours, "HOUR");
  add(minutes, "MINUTE");
  add(secs, "SECOND");
  return s + " (" + parts + ")";
}

std::string HumanReadableBytes(int64_t bytes) {
  // PrettyPrinter.humanReadableByte.
  std::string s = std::to_string(bytes) + " B";
  if (bytes < 1024) return s;
  std::string parts;
  int64_t rest = bytes;
  for (const auto& [unit, size] : {std::pair<const char*, int64_t>{"TB", int64_t{1} << 40},
                                   {"GB", int64_t{1} << 30},
                                   {"MB", int64_t{1} << 20},
                                   {"KB", int64_t{1} << 10},
                                   {"B", 1}}) {
    const int64_t n = rest / size;
    rest -= n * size;
    if (n == 0) continue;
    if (!parts.empty()) parts += " ";
    parts += std::to_string(n) + unit;
  }
  return s + " (" + parts + ")";
}

std::string FamilyDescriptor::Describe() const {
  // ModifyableColumnFamilyDescriptor.toString as the shell prints it: the values map's reserved
  // keys in its HashMap order, PrettyPrinter units for TTL and BLOCKSIZE, then METADATA (the
  // other values, same order), then CONFIGURATION (its own HashMap of Strings).
  std::string out = "{NAME => '" + ToStringBinary(name_) + "'";
  auto order = [](const std::vector<Entry>& entries, JavaKey kind) {
    std::vector<std::string> keys;
    for (const auto& e : entries) keys.push_back(e.first);
    std::vector<const Entry*> sorted;
    for (size_t i : JavaHashMapOrder(keys, kind)) sorted.push_back(&entries[i]);
    return sorted;
  };
  // What the shell holds: the 2.6 builder's defaults (ColumnFamilyDescriptorBuilder.parseFrom
  // starts from newBuilder(name)), then the stored values over them, so that a descriptor an
  // older HBase wrote shows e.g. INDEX_BLOCK_ENCODING as 2.6 does.
  std::vector<Entry> shown;
  for (const auto& [k, v] : DefaultValues()) shown.emplace_back(k, v);
  for (const auto& e : values_) {
    auto it = std::find_if(shown.begin(), shown.end(),
                           [&](const Entry& d) { return d.first == e.first; });
    if (it != shown.end()) it->second = e.second;
    else shown.push_back(e);
  }
  const auto values = order(shown, JavaKey::kBytes);
  bool metadata = false;
  for (const Entry* e : values) {
    if (!IsReservedKey(e->first)) {
      metadata = true;
      continue;
    }
    std::string shown = ToStringBinary(e->second);
    if (e->first == fk::kTtl) {
      if (auto n = ParseNumber<int64_t>(e->second)) shown = HumanReadableTtl(*n);
    } else if (e->first == fk::kBlockSize) {
      if (auto n = ParseNumber<int64_t>(e->second)) shown = HumanReadableBytes(*n);
    }
    out += ", " + e->first + " => '" + shown + "'";
  }
  auto print_map = [&](const char* label, const std::vector<const Entry*>& entries, bool all) {
    out += std::string(", ") + label + " => {";
    bool first = true;
    for (const Entry* e : entries) {
      if (!all && IsReservedKey(e->first)) continue;
      if (!first) out += ", ";
      first = false;
      out += "'" + ToStringBinary(e->first) + "' => '" + ToStringBinary(e->second) + "'";
    }
    out += "}";
  };
  if (metadata) print_map("METADATA", values, false);
  if (!configuration_.empty())
    print_map("CONFIGURATION", order(configuration_, JavaKey::kString), true);
  return out + "}";
}

}  // namespace hfile::region
