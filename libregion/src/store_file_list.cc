#include "region/store_file_list.h"

#include <zlib.h>

#include <charconv>

#include "hfile/coding.h"
#include "fs_util.h"
#include "region_format.pb.h"

namespace hfile::region {

namespace {
constexpr uint32_t kMaxPayload = 16u << 20;
}

Status StoreFileList::DecodeFrom(const Slice& contents) {
  Slice in = contents;
  uint32_t len;
  if (!GetFixed32BE(&in, &len) || len == 0 || len > kMaxPayload || in.size() < len + 4u)
    return Status::Corruption("store file list: bad length");
  Slice payload = in.sub(0, len);
  in.remove_prefix(len);
  uint32_t crc = 0;
  GetFixed32BE(&in, &crc);  // cannot fail: the length check above left 4 bytes
  uint32_t actual = static_cast<uint32_t>(
      crc32(0, reinterpret_cast<const Bytef*>(payload.data()), static_cast<uInt>(payload.size())));
  if (crc != actual) return Status::Corruption("store file list: CRC32 mismatch");
  pb::StoreFileListProto p;
  if (!p.ParseFromArray(payload.data(), static_cast<int>(payload.size())))
    return Status::Corruption("store file list: malformed protobuf");
  if (p.version() > 1)
    return Status::NotSupported("store file list version " + std::to_string(p.version()));
  timestamp = p.timestamp();
  version = p.version();
  files.clear();
  for (const auto& f : p.store_file()) files.push_back({f.name(), f.size()});
  return Status::OK();
}

void StoreFileList::EncodeTo(std::string* dst) const {
  pb::StoreFileListProto p;
  p.set_timestamp(timestamp);
  p.set_version(version);
  for (const auto& f : files) {
    auto* e = p.add_store_file();
    e->set_name(f.name);
    e->set_size(f.size);
  }
  std::string payload = p.SerializeAsString();
  PutFixed32BE(dst, static_cast<uint32_t>(payload.size()));
  dst->append(payload);
  PutFixed32BE(dst, static_cast<uint32_t>(crc32(
                        0, reinterpret_cast<const Bytef*>(payload.data()),
                        static_cast<uInt>(payload.size()))));
}

std::optional<StoreFileListName> ParseStoreFileListName(std::string_view name) {
  if (name.size() < 2 || name[0] != 'f' || (name[1] != '1' && name[1] != '2')) return std::nullopt;
  StoreFileListName out;
  out.which = name[1] - '0';
  std::string_view rest = name.substr(2);
  if (rest.empty()) return out;
  if (rest[0] != '.' || rest.size() < 2) return std::nullopt;
  rest.remove_prefix(1);
  auto [p, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), out.suffix);
  if (ec != std::errc() || p != rest.data() + rest.size()) return std::nullopt;
  return out;
}

Result<StoreFileList> ReadStoreFileList(const std::string& family_dir) {
  std::string dir = JoinPath(family_dir, ".filelist");
  auto entries = ListDir(dir);
  if (!entries.ok()) return entries.status();
  uint64_t best_suffix = 0;
  bool any = false;
  for (const auto& e : *entries) {
    if (auto n = ParseStoreFileListName(e.name)) {
      if (!any || n->suffix > best_suffix) best_suffix = n->suffix;
      any = true;
    }
  }
  if (!any) return Status::NotFound(dir, "no f1/f2 tracker file");
  std::optional<StoreFileList> best;
  Status last;
  for (const auto& e : *entries) {
    auto n = ParseStoreFileListName(e.name);
    if (!n || n->suffix != best_suffix) continue;
    auto data = ReadWholeFile(JoinPath(dir, e.name));
    if (!data.ok()) {
      last = data.status();
      continue;
    }
    StoreFileList list;
    Status s = list.DecodeFrom(*data);
    if (s.IsNotSupported()) return s.WithContext(JoinPath(dir, e.name));
    if (!s.ok()) {
      last = s.WithContext(JoinPath(dir, e.name));
      continue;
    }
    if (!best || list.timestamp > best->timestamp) best = std::move(list);
  }
  if (!best) return last.ok() ? Status::NotFound(dir, "no readable tracker file") : last;
  return *best;
}

}  // namespace hfile::region
