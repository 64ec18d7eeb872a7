// Compacted-away store files: which entries of one store HBase 2.2+ no longer reads.
//
// A compaction output records, in its COMPACTION_EVENT_KEY file-info entry ("PBUF" +
// CompactionEventTracker { 1: repeated bytes compacted_store_file }), the names of its inputs
// (and of their own inputs not yet archived). When HBase opens a store (HStore/StoreEngine),
// it collects those names from every store file it listed and drops the files so named from
// the store (and archives them on the primary replica). A compaction that committed its output
// but died before archiving its inputs therefore leaves files behind that HBase never reads
// again; a reader that took them would see their cells twice.
//
// Names are matched against the entry's own name in the family dir (for a link or a reference,
// the link or reference file name), never against the file it resolves to. A file naming
// itself is not dropped by this rule (HBase writers never do that).
//
// This is the one place that answers the question; the region reader (RegionSet) and the
// compaction planner both use it.
#ifndef REGION_COMPACTED_FILES_H_
#define REGION_COMPACTED_FILES_H_

#include <algorithm>
#include <string>
#include <vector>

#include "hfile/reader.h"
#include "hfile/slice.h"
#include "region/layout.h"

namespace hfile::region {

// COMPACTION_EVENT_KEY values are decoded by hfile::DecodeCompactionEvent (hfile/file_info.h).

// One compacted-away entry of a store and the entry whose COMPACTION_EVENT_KEY names it.
struct CompactedAway {
  std::string name;
  std::string named_by;
};

// The compacted-away entries among `store`, each once, in the order the namers and their lists
// give. `Entry` is any type with `std::string name` (the entry's name in the family dir) and
// `std::vector<std::string> compacted_files` (its decoded COMPACTION_EVENT_KEY), e.g.
// CandidateFile (compact.h) or StoreFileCompactionEvent below.
template <typename Entry>
std::vector<CompactedAway> FindCompactedAway(const std::vector<Entry>& store) {
  std::vector<CompactedAway> out;
  auto present = [&](const std::string& n) {
    return std::any_of(store.begin(), store.end(), [&](const Entry& e) { return e.name == n; });
  };
  auto listed = [&](const std::string& n) {
    return std::any_of(out.begin(), out.end(), [&](const CompactedAway& c) { return c.name == n; });
  };
  for (const Entry& f : store)
    for (const std::string& n : f.compacted_files)
      if (n != f.name && present(n) && !listed(n)) out.push_back(CompactedAway{n, f.name});
  return out;
}

struct StoreFileCompactionEvent {
  std::string name;
  std::vector<std::string> compacted_files;
};

// Opens every entry of `dir->store_files` (through StoreFileReader: a reference reads its
// parent's file info, as HBase does) and moves the compacted-away ones to
// `dir->compacted_away`. Entries that cannot be opened contribute no names and stay in
// `store_files` (HBase would fail the store open on them; describe/verify report them).
void SeparateCompactedAway(FamilyDir* dir, const ReaderOptions& options = {});

}  // namespace hfile::region

#endif  // REGION_COMPACTED_FILES_H_
