#include "region/compacted_files.h"

#include <utility>

#include "hfile/file_info.h"
#include "region/store_file_reader.h"

namespace hfile::region {

void SeparateCompactedAway(FamilyDir* dir, const ReaderOptions& options) {
  std::vector<StoreFileCompactionEvent> events;
  for (const auto& sf : dir->store_files) {
    StoreFileCompactionEvent e;
    e.name = sf.name.name;
    if (auto r = StoreFileReader::Open(sf, options); r.ok()) {
      if (auto ev = (*r)->hfile().file_info().Get(fileinfo::kCompactionEvent))
        e.compacted_files = hfile::DecodeCompactionEvent(*ev).value_or(std::vector<std::string>());
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
