#include "region/table_descriptor.h"

#include <algorithm>
#include <charconv>
#include <cstdio>

#include "fs_util.h"
#include "hfile/escape.h"
#include "pb_util.h"
#include "region_format.pb.h"

namespace hfile::region {

namespace tk = table_key;

std::optional<std::string> TableDescriptor::GetValue(const Slice& key) const {
  for (const auto& [k, v] : values_)
    if (Slice(k) == key) return v;
  return std::nullopt;
}

void TableDescriptor::SetValue(const Slice& key, const Slice& value) {
  for (auto& [k, v] : values_) {
    if (Slice(k) == key) {
      v = value.ToString();
      return;
    }
  }
  values_.emplace_back(key.ToString(), value.ToString());
}

const FamilyDescriptor* TableDescriptor::FindFamily(const Slice& name) const {
  for (const auto& f : families_)
    if (Slice(f.name()) == name) return &f;
  return nullptr;
}

void TableDescriptor::AddFamily(FamilyDescriptor family) {
  for (auto& f : families_) {
    if (f.name() == family.name()) {
      f = std::move(family);
      return;
    }
  }
  auto it = std::lower_bound(
      families_.begin(), families_.end(), family.name(),
      [](const FamilyDescriptor& f, const std::string& n) { return f.name() < n; });
  families_.insert(it, std::move(family));
}

namespace {

bool BoolValue(const std::optional<std::string>& v, bool dflt) {
  if (!v) return dflt;
  std::string u = *v;
  for (char& c : u) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (u == "TRUE") return true;
  if (u == "FALSE") return false;
  return dflt;
}

template <typename T>
T NumberValue(const std::optional<std::string>& v, T dflt) {
  if (!v) return dflt;
  T n{};
  auto [p, ec] = std::from_chars(v->data(), v->data() + v->size(), n);
  return ec == std::errc() && p == v->data() + v->size() ? n : dflt;
}

}  // namespace

bool TableDescriptor::is_meta() const { return BoolValue(GetValue(tk::kIsMeta), false); }
int64_t TableDescriptor::max_file_size() const {
  return NumberValue<int64_t>(GetValue(tk::kMaxFileSize), int64_t{10} << 30);
}
bool TableDescriptor::read_only() const { return BoolValue(GetValue(tk::kReadOnly), false); }
bool TableDescriptor::compaction_enabled() const {
  return BoolValue(GetValue(tk::kCompactionEnabled), true);
}
bool TableDescriptor::split_enabled() const { return BoolValue(GetValue(tk::kSplitEnabled), true); }
int32_t TableDescriptor::region_replication() const {
  return NumberValue<int32_t>(GetValue(tk::kRegionReplication), 1);
}
std::string TableDescriptor::store_file_tracker() const {
  return GetValue(tk::kStoreFileTracker).value_or("DEFAULT");
}

Status TableDescriptor::DecodeFrom(const Slice& contents) {
  if (!contents.starts_with(kPbMagic)) {
    return Status::NotSupported(
        "pre-protobuf (HBase <= 0.94 Writable) table descriptor; upgrade the table with HBase "
        "0.96+ first");
  }
  pb::TableSchemaProto p;
  if (!p.ParseFromArray(contents.data() + 4, static_cast<int>(contents.size() - 4)))
    return Status::Corruption("table descriptor: malformed TableSchema protobuf");
  name_.namespace_name = p.table_name().namespace_();
  name_.qualifier = p.table_name().qualifier();
  if (!p.has_table_name() || name_.qualifier.empty())
    return Status::Corruption("table descriptor: no table name");
  values_.clear();
  families_.clear();
  for (const auto& a : p.attributes()) values_.emplace_back(a.first(), a.second());
  for (const auto& c : p.configuration()) SetValue(c.name(), c.value());
  for (const auto& cf : p.column_families()) {
    FamilyDescriptor f(cf.name());
    for (const auto& a : cf.attributes()) f.SetValue(a.first(), a.second());
    for (const auto& c : cf.configuration()) f.SetConfiguration(c.name(), c.value());
    families_.push_back(std::move(f));
  }
  return Status::OK();
}

void TableDescriptor::EncodeTo(std::string* dst) const {
  pb::TableSchemaProto p;
  p.mutable_table_name()->set_namespace_(name_.namespace_name);
  p.mutable_table_name()->set_qualifier(name_.qualifier);
  for (const auto& [k, v] : values_) {
    auto* a = p.add_attributes();
    a->set_first(k);
    a->set_second(v);
  }
  for (const auto& f : families_) {
    auto* cf = p.add_column_families();
    cf->set_name(f.name());
    for (const auto& [k, v] : f.values()) {
      auto* a = cf->add_attributes();
      a->set_first(k);
      a->set_second(v);
    }
    for (const auto& [k, v] : f.configuration()) {
      auto* c = cf->add_configuration();
      c->set_name(k);
      c->set_value(v);
    }
  }
  dst->append(kPbMagic);
  dst->append(p.SerializeAsString());
}

Status TableDescriptor::Validate() const {
  for (const auto& f : families_) HFILE_RETURN_IF_ERROR(f.Validate());
  return Status::OK();
}

namespace {

// TableDescriptorBuilder's RESERVED_KEYWORDS as its toString treats them (2.6; checked key by
// key against HBase 2.6.4): printed as KEY => 'value', the rest under METADATA.
bool IsReservedTableKey(const std::string& k) {
  static const char* const kReserved[] = {
      tk::kMaxFileSize,       tk::kReadOnly, tk::kMemstoreFlushSize, tk::kIsMeta, tk::kDurability,
      tk::kRegionReplication, "PRIORITY",    "ERASURE_CODING_POLICY"};
  for (const char* r : kReserved)
    if (k == r) return true;
  return k.rfind("coprocessor$", 0) == 0;
}

}  // namespace

std::string TableDescriptor::Describe() const {
  // The shell's "<table>" + toStringTableAttributes(): reserved keys, then METADATA, each sorted
  // by key bytes (TreeSets there); IS_META only when true; sizes through PrettyPrinter.
  std::vector<const Entry*> reserved, user;
  for (const auto& e : values_) {
    if (!IsReservedTableKey(e.first)) {
      user.push_back(&e);
      continue;
    }
    if (e.first == tk::kIsMeta && e.second != "true") continue;
    reserved.push_back(&e);
  }
  auto by_key = [](const Entry* a, const Entry* b) { return a->first < b->first; };
  std::sort(reserved.begin(), reserved.end(), by_key);
  std::sort(user.begin(), user.end(), by_key);
  std::string out = name_.ToString();
  if (!reserved.empty() || !user.empty()) {
    std::string attrs;
    for (const Entry* e : reserved) {
      std::string shown = ToStringBinary(e->second);
      if (e->first == tk::kMaxFileSize || e->first == tk::kMemstoreFlushSize) {
        int64_t n = 0;
        auto [p, ec] = std::from_chars(e->second.data(), e->second.data() + e->second.size(), n);
        if (ec == std::errc() && p == e->second.data() + e->second.size() && !e->second.empty())
          shown = HumanReadableBytes(n);
      }
      attrs += (attrs.empty() ? "" : ", ") + e->first + " => '" + shown + "'";
    }
    if (!user.empty()) {
      attrs += std::string(attrs.empty() ? "" : ", ") + "METADATA => {";
      for (size_t i = 0; i < user.size(); ++i)
        attrs += (i ? ", '" : "'") + ToStringBinary(user[i]->first) + "' => '" +
                 ToStringBinary(user[i]->second) + "'";
      attrs += "}";
    }
    out += ", {TABLE_ATTRIBUTES => {" + attrs + "}}";
  }
  out += "\nCOLUMN FAMILIES DESCRIPTION\n";
  for (const auto& f : families_) out += f.Describe() + "\n";
  return out;
}

std::optional<TableInfoFileName> ParseTableInfoFileName(std::string_view name) {
  constexpr std::string_view kPrefix = ".tableinfo";
  if (name.substr(0, kPrefix.size()) != kPrefix) return std::nullopt;
  std::string_view rest = name.substr(kPrefix.size());
  TableInfoFileName out;
  if (rest.empty()) return out;
  auto number = [](std::string_view s) -> std::optional<uint64_t> {
    uint64_t v;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
    return v;
  };
  if (rest[0] != '.' || rest.size() < 11) return std::nullopt;
  auto seq = number(rest.substr(1, 10));
  if (!seq) return std::nullopt;
  out.sequence = *seq;
  rest = rest.substr(11);
  if (rest.empty()) return out;
  if (rest[0] != '.') return std::nullopt;
  auto len = number(rest.substr(1));
  if (!len) return std::nullopt;
  out.content_length = *len;
  return out;
}

std::string TableInfoFileNameFor(uint64_t sequence, std::optional<uint64_t> length) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), ".tableinfo.%010llu", static_cast<unsigned long long>(sequence));
  std::string name = buf;
  if (length) name += "." + std::to_string(*length);
  return name;
}

Result<LoadedTableDescriptor> ReadTableDescriptor(const std::string& table_dir) {
  std::vector<std::string> dirs = {JoinPath(table_dir, ".tabledesc"), table_dir};
  Status last = Status::NotFound(table_dir, "no .tableinfo file");
  for (const auto& dir : dirs) {
    auto entries = ListDir(dir);
    if (!entries.ok()) continue;
    std::vector<std::pair<std::string, TableInfoFileName>> candidates;
    for (const auto& e : *entries) {
      if (e.is_dir) continue;
      if (auto parsed = ParseTableInfoFileName(e.name)) candidates.emplace_back(e.name, *parsed);
    }
    // HBase sorts by name descending: the 10-digit sequence makes that newest first.
    std::sort(candidates.begin(), candidates.end(),
              [](const auto& a, const auto& b) { return a.first > b.first; });
    for (const auto& [name, parsed] : candidates) {
      std::string path = JoinPath(dir, name);
      auto data = ReadWholeFile(path);
      if (!data.ok()) {
        last = data.status();
        continue;
      }
      if (parsed.content_length) {
        if (data->size() < *parsed.content_length) {
          last = Status::Corruption(path, "shorter than the length in its name (half-written)");
          continue;
        }
        data->resize(*parsed.content_length);
      }
      LoadedTableDescriptor out;
      Status s = out.descriptor.DecodeFrom(*data);
      if (!s.ok()) {
        last = s.WithContext(path);
        continue;
      }
      out.path = path;
      out.file_name = parsed;
      return out;
    }
    if (!candidates.empty()) break;  // found the descriptor directory; don't look further
  }
  return last;
}

}  // namespace hfile::region
