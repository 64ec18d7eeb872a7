// Which store files a compaction takes, as HBase 2.x decides (SortedCompactionPolicy,
// RatioBasedCompactionPolicy, ExploringCompactionPolicy, DefaultStoreFileManager,
// HStore.removeUnneededFiles). Facts restated from the source; no code copied.
//
// Minor selection over the files in sequence-id order:
//   1. drop files marked EXCLUDE_FROM_MINOR_COMPACTION;
//   2. explore every contiguous window of min..max files; a window is admissible if its total
//      is <= max_size and (total < min_size or every file <= ratio * the sum of the others);
//      keep the window with the most files, then the smallest total. If the store "might be
//      stuck" (>= blocking_files files), a better window is the one with more files per byte
//      by a factor 1.05, and with no admissible window the smallest window of min files wins;
//   3. fewer than min files: nothing; more than max files: keep the first (oldest) max.
// After a split (any reference among the files) steps 1-3 are skipped: every file is taken,
// then cut to the first max files (SortedCompactionPolicy: isAfterSplit makes the request
// "trying major", and removeExcessFiles cuts any request that is not a user major one).
#include <algorithm>
#include <cstdint>

#include "region/compact.h"

#include "java_order.h"

namespace hfile::region {

void SortBySequenceId(std::vector<CandidateFile>* files) {
  std::stable_sort(files->begin(), files->end(), [](const CandidateFile& a, const CandidateFile& b) {
    if (a.sequence_id != b.sequence_id) return a.sequence_id < b.sequence_id;
    if (a.size != b.size) return a.size > b.size;
    int64_t ta = a.bulkload_time.value_or(INT64_MAX), tb = b.bulkload_time.value_or(INT64_MAX);
    if (ta != tb) return ta < tb;
    return a.name < b.name;
  });
}

std::vector<size_t> SelectExpiredFiles(const std::vector<CandidateFile>& files,
                                       int32_t min_versions, int64_t ttl_ms, int64_t now_ms) {
  std::vector<size_t> out;
  if (min_versions > 0 || ttl_ms == INT64_MAX || files.empty()) return out;
  const int64_t max_ts = static_cast<int64_t>(static_cast<uint64_t>(now_ms) -
                                              static_cast<uint64_t>(ttl_ms));
  for (size_t i = 0; i + 1 < files.size(); ++i) {
    if (files[i].max_timestamp < max_ts) out.push_back(i);
  }
  return out;
}

namespace {

bool FilesInRatio(const std::vector<uint64_t>& sizes, size_t start, size_t end, double ratio) {
  if (end - start < 2) return true;
  uint64_t total = 0;
  for (size_t i = start; i < end; ++i) total += sizes[i];
  for (size_t i = start; i < end; ++i) {
    if (static_cast<double>(sizes[i]) > static_cast<double>(total - sizes[i]) * ratio) return false;
  }
  return true;
}

}  // namespace

std::vector<size_t> SelectMinorCompaction(const std::vector<CandidateFile>& files,
                                          const SelectionConfig& c) {
  const size_t max_files = static_cast<size_t>(std::max(c.min_files, c.max_files));
  if (std::any_of(files.begin(), files.end(), [](const auto& f) { return f.reference; })) {
    std::vector<size_t> all;  // after a split: every file (even excluded ones), oldest first
    for (size_t i = 0; i < files.size() && i < max_files; ++i) all.push_back(i);
    return all;
  }
  std::vector<size_t> cand;  // indexes into `files`
  for (size_t i = 0; i < files.size(); ++i)
    if (!files[i].exclude_from_minor) cand.push_back(i);
  const bool stuck = static_cast<int>(files.size()) >= c.blocking_files;
  const size_t min_files = static_cast<size_t>(std::max(2, c.min_files));
  std::vector<uint64_t> sizes;
  for (size_t i : cand) sizes.push_back(files[i].size);

  size_t best_start = 0, best_len = 0, small_start = 0, small_len = 0;
  uint64_t best_size = 0, small_size = UINT64_MAX;
  for (size_t start = 0; start < cand.size(); ++start) {
    uint64_t size = 0;
    for (size_t i = start; i < start + min_files - 1 && i < cand.size(); ++i) size += sizes[i];
    for (size_t end = start + min_files; end <= cand.size(); ++end) {
      size += sizes[end - 1];
      const size_t len = end - start;
      if (len > max_files) break;
      if (stuck && size < small_size) {
        small_start = start, small_len = len, small_size = size;
      }
      if (static_cast<int64_t>(size) > c.max_size) continue;
      if (static_cast<int64_t>(size) >= c.min_size && !FilesInRatio(sizes, start, end, c.ratio))
        continue;
      bool better;
      if (stuck && best_size > 0 && size > 0) {
        double threshold = (static_cast<double>(best_len) / best_size) * 1.05;
        better = threshold < static_cast<double>(len) / size;
      } else {
        better = len > best_len || (len == best_len && size < best_size);
      }
      if (better) best_start = start, best_len = len, best_size = size;
    }
  }
  if (best_len == 0 && stuck) best_start = small_start, best_len = small_len;
  std::vector<size_t> out;
  if (best_len < min_files) return out;
  for (size_t i = best_start; i < best_start + std::min(best_len, max_files); ++i)
    out.push_back(cand[i]);
  return out;
}

std::vector<std::string> JavaHashSetOrder(const std::vector<std::string>& names) {
  // java.util.HashSet filled by add(): a table of 16 buckets, doubled when the size exceeds
  // 0.75 * capacity; keys hashed with String.hashCode() (the names are ASCII).
  std::vector<std::string> unique;
  for (const auto& n : names)
    if (std::find(unique.begin(), unique.end(), n) == unique.end()) unique.push_back(n);
  uint32_t capacity = 16;
  while (unique.size() > capacity * 3 / 4) capacity *= 2;
  std::vector<std::string> out;
  out.reserve(unique.size());
  for (size_t i : JavaBucketOrder(unique, JavaKey::kString, capacity)) out.push_back(unique[i]);
  return out;
}

}  // namespace hfile::region
