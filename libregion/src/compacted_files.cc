#include "region/compacted_files.h"

#include <utility>

#include "hfile/file_info.h"
#include "region/store_file_reader.h"

namespace hfile::region {

std::vector<std::string> DecodeCompactionEvent(const Slice& v) {
  std::vector<std::string> out;
  if (v.size() < 4 || std::string_view(v.data(), 4) != "PBUF") return out;
  const uint8_t* p = reinterpret_cast<const uint8_t*>(v.data()) + 4;
  const uint8_t* end = reinterpret_cast<const uint8_t*>(v.data()) + v.size();
  auto varint = [&](uint64_t* x) {
    *x = 0;
    for (int shift = 0; p < end && shift < 64; shift += 7) {
      uint8_t b = *p++;
      *x |= uint64_t{b & 0x7Fu} << shift;
      if (!(b & 0x80)) return true;
    }
    return false;
  };
  // Only length-delimited fields occur in CompactionEventTracker; anything else is damage.
  while (p < end) {
    uint64_t tag, len;
    if (!varint(&tag) || (tag & 7) != 2 || !varint(&len) || len > uint64_t(end - p)) break;
    if (tag >> 3 == 1) out.emplace_back(reinterpret_cast<const char*>(p), len);
    p += len;
  }
  return out;
}

void SeparateCompactedAway(FamilyDir* dir, const ReaderOptions& options) {
  std::vector<StoreFileCompactionEvent> events;
  for (const auto& sf : dir->store_files) {
    StoreFileCompactionEvent e;
    e.name = sf.name.name;
    if (auto r = StoreFileReader::Open(sf, options); r.ok()) {
      if (auto ev = (*r)->hfile().file_info().Get(fileinfo::kCompactionEvent))
        e.compacted_files = DecodeCompactionEvent(*ev);
    }
    events.push_back(std::move(e));
  }
  std::vector<CompactedAway> away = FindCompactedAway(events);
  if (away.empty()) return;
  std::vector<StoreFile> kept;
  for (auto& sf : dir->store_files) {
    auto it = std::find_if(away.begin(), away.end(),
                           [&](const CompactedAway& c) { return c.name == sf.name.name; });
    if (it == away.end()) {
      kept.push_back(std::move(sf));
    } else {
      dir->compacted_away.push_back(CompactedAwayFile{std::move(sf), it->named_by});
    }
  }
  dir->store_files = std::move(kept);
}

}  // namespace hfile::region
