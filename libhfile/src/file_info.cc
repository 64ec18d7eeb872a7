#include "hfile/file_info.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "hfile/coding.h"
#include "hfile/cell.h"
#include "hfile/escape.h"
#include "hfile_format.pb.h"
#include "proto_util.h"

namespace hfile {
namespace {
constexpr char kPbufMagic[] = "PBUF";

bool KeyLess(const FileInfo::Entry& e, const Slice& key) { return Slice(e.first).compare(key) < 0; }

// Sorts decoded entries by key, keeping the last value of a repeated key (what Set does), in
// O(n log n): inserting them one by one with Set is quadratic in a hostile entry count.
void SortKeepingLast(std::vector<FileInfo::Entry>* entries) {
  auto less = [](const FileInfo::Entry& a, const FileInfo::Entry& b) {
    return Slice(a.first).compare(Slice(b.first)) < 0;
  };
  std::stable_sort(entries->begin(), entries->end(), less);
  size_t out = 0;
  for (size_t i = 0; i < entries->size(); ++i) {
    if (i + 1 < entries->size() && (*entries)[i].first == (*entries)[i + 1].first) continue;
    if (out != i) (*entries)[out] = std::move((*entries)[i]);
    ++out;
  }
  entries->resize(out);
}
}  // namespace

Status FileInfo::DecodeFrom(const Slice& body) {
  entries_.clear();
  Slice in = body;
  if (in.starts_with(Slice(kPbufMagic, 4))) {
    in.remove_prefix(4);
    was_protobuf_ = true;
    uint32_t len;
    if (!GetVarint32(&in, &len) || len > in.size()) {
      return Status::Corruption("file info protobuf length exceeds the block");
    }
    pb::FileInfoProto p;
    if (!ParseQuietly(&p, in.data(), len)) {
      return Status::Corruption("file info protobuf does not parse");
    }
    entries_.reserve(static_cast<size_t>(p.map_entry_size()));
    for (const auto& e : p.map_entry()) entries_.emplace_back(e.first(), e.second());
    SortKeepingLast(&entries_);
    return Status::OK();
  }
  was_protobuf_ = false;
  uint32_t count;
  if (!GetFixed32BE(&in, &count) || count > in.size() / 3) {
    return Status::Corruption("file info (Writable form) has a bad entry count");
  }
  for (uint32_t i = 0; i < count; ++i) {
    Slice key, value;
    uint8_t type;
    if (!GetByteArray(&in, &key) || !GetFixed8(&in, &type) || !GetByteArray(&in, &value)) {
      return Status::Corruption(fmt::format("file info (Writable form) entry {} is truncated", i));
    }
    entries_.emplace_back(key.ToString(), value.ToString());
  }
  SortKeepingLast(&entries_);
  return Status::OK();
}

void FileInfo::EncodeTo(std::string* dst) const {
  pb::FileInfoProto p;
  for (const auto& [k, v] : entries_) {
    auto* e = p.add_map_entry();
    e->set_first(k);
    e->set_second(v);
  }
  std::string msg;
  p.SerializeToString(&msg);
  dst->append(kPbufMagic, 4);
  PutVarint32(dst, static_cast<uint32_t>(msg.size()));
  dst->append(msg);
}

void FileInfo::Set(const Slice& key, const Slice& value) {
  auto it = std::lower_bound(entries_.begin(), entries_.end(), key, KeyLess);
  if (it != entries_.end() && Slice(it->first) == key) {
    it->second = value.ToString();
  } else {
    entries_.insert(it, Entry(key.ToString(), value.ToString()));
  }
}

void FileInfo::SetInt32(const Slice& key, int32_t v) {
  std::string s;
  PutFixed32BE(&s, static_cast<uint32_t>(v));
  Set(key, s);
}
void FileInfo::SetInt64(const Slice& key, int64_t v) {
  std::string s;
  PutFixed64BE(&s, static_cast<uint64_t>(v));
  Set(key, s);
}
void FileInfo::SetBool(const Slice& key, bool v) { Set(key, Slice(v ? "\xff" : "\x00", 1)); }

bool FileInfo::Remove(const Slice& key) {
  auto it = std::lower_bound(entries_.begin(), entries_.end(), key, KeyLess);
  if (it == entries_.end() || Slice(it->first) != key) return false;
  entries_.erase(it);
  return true;
}

std::optional<Slice> FileInfo::Get(const Slice& key) const {
  auto it = std::lower_bound(entries_.begin(), entries_.end(), key, KeyLess);
  if (it == entries_.end() || Slice(it->first) != key) return std::nullopt;
  return Slice(it->second);
}

std::optional<int32_t> FileInfo::GetInt32(const Slice& key) const {
  auto v = Get(key);
  if (!v || v->size() != 4) return std::nullopt;
  return static_cast<int32_t>(DecodeFixed32BE(v->data()));
}
std::optional<int64_t> FileInfo::GetInt64(const Slice& key) const {
  auto v = Get(key);
  if (!v || v->size() != 8) return std::nullopt;
  return static_cast<int64_t>(DecodeFixed64BE(v->data()));
}
std::optional<bool> FileInfo::GetBool(const Slice& key) const {
  auto v = Get(key);
  if (!v || v->size() != 1) return std::nullopt;
  return (*v)[0] != 0;
}

std::optional<TimeRange> DecodeTimeRange(const Slice& value) {
  TimeRange tr;
  if (value.starts_with(Slice(kPbufMagic, 4))) {
    pb::TimeRangeTracker p;
    if (!ParseQuietly(&p, value.data() + 4, value.size() - 4)) return std::nullopt;
    tr.min = static_cast<int64_t>(p.from());
    tr.max = static_cast<int64_t>(p.to());
    return tr;
  }
  // HBase reads two longs and ignores anything after them (0.98 wrote 32 bytes).
  if (value.size() < 16) return std::nullopt;
  tr.min = static_cast<int64_t>(DecodeFixed64BE(value.data()));
  tr.max = static_cast<int64_t>(DecodeFixed64BE(value.data() + 8));
  return tr;
}

void EncodeTimeRange(const TimeRange& tr, std::string* dst) {
  PutFixed64BE(dst, static_cast<uint64_t>(tr.min));
  PutFixed64BE(dst, static_cast<uint64_t>(tr.max));
}

std::optional<std::vector<std::string>> DecodeCompactionEvent(const Slice& value) {
  if (!value.starts_with(Slice(kPbufMagic, 4))) return std::nullopt;
  pb::CompactionEventTracker p;
  if (!ParseQuietly(&p, value.data() + 4, value.size() - 4)) return std::nullopt;
  return std::vector<std::string>(p.compacted_store_file().begin(), p.compacted_store_file().end());
}

void EncodeCompactionEvent(const std::vector<std::string>& files, std::string* dst) {
  pb::CompactionEventTracker p;
  for (const auto& f : files) p.add_compacted_store_file(f);
  dst->append(kPbufMagic, 4);
  p.AppendToString(dst);
}

std::string DescribeKey(const Slice& key, ComparatorKind kind) {
  if (kind == ComparatorKind::kRawBytes || !IsValidKey(key)) return ToStringBinary(key);
  std::string s;
  AppendStringBinary(&s, KeyRow(key));
  s.push_back('/');
  AppendStringBinary(&s, KeyFamily(key));
  s.push_back(':');
  AppendStringBinary(&s, KeyQualifier(key));
  s += fmt::format("/{}/{}", KeyTimestamp(key), KeyTypeName(KeyTypeByte(key)));
  return s;
}

std::string DescribeFileInfoValue(const Slice& key, const Slice& value, ComparatorKind kind) {
  using namespace fileinfo;
  const std::string k = key.ToString();
  auto i32 = [&]() -> std::string {
    return value.size() == 4 ? std::to_string(static_cast<int32_t>(DecodeFixed32BE(value.data())))
                             : ToStringBinary(value);
  };
  auto i64 = [&]() -> std::string {
    return value.size() == 8 ? std::to_string(static_cast<int64_t>(DecodeFixed64BE(value.data())))
                             : ToStringBinary(value);
  };
  auto boolean = [&]() -> std::string {
    return value.size() == 1 ? (value[0] != 0 ? "true" : "false") : ToStringBinary(value);
  };
  if (k == kAvgKeyLen || k == kAvgValueLen || k == kMaxTagsLen || k == kKeyValueVersion ||
      k == kBloomFilterParam)
    return i32();
  if (k == kCreateTimeTs || k == kMaxMemstoreTs || k == kMaxSeqId || k == kEarliestPutTs ||
      k == kDeleteFamilyCount || k == kMobCellsCount || k == kBulkloadTimestamp ||
      k == kLenOfBiggestCell)
    return i64();
  if (k == kTagsCompressed || k == kMajorCompaction || k == kExcludeFromMinorCompaction ||
      k == kSkipResetSeqId || k == kHistorical)
    return boolean();
  if (k == kLastKey || k == kKeyOfBiggestCell) return DescribeKey(value, kind);
  if (k == kTimeRange) {
    auto tr = DecodeTimeRange(value);
    if (!tr) return ToStringBinary(value);
    return fmt::format("{}...{}", tr->min, tr->max);
  }
  if (k == kCompactionEvent) {
    if (auto files = DecodeCompactionEvent(value)) {
      std::string s = "[";
      for (size_t i = 0; i < files->size(); ++i) {
        if (i) s += ", ";
        s += ToStringBinary((*files)[i]);
      }
      return s + "]";
    }
  }
  return ToStringBinary(value);
}

}  // namespace hfile
