// ScanWildcardColumnTracker as compactions use it: per-column version counting with
// VERSIONS, MIN_VERSIONS and the family TTL (REGION_LAYOUT §6.3 step 5).
#ifndef REGION_SRC_COLUMN_TRACKER_H_
#define REGION_SRC_COLUMN_TRACKER_H_

#include <cstdint>
#include <string>

#include "byte_copy.h"
#include "hfile/cell.h"

namespace hfile::region {

class ColumnTracker {
 public:
  enum class Result : uint8_t {
    kInclude,
    kSkipDuplicate,     // same (ts, type) as the last kept cell of the column
    kTooManyVersions,   // then skip to next column
    kExpired,           // beyond MIN_VERSIONS and older than the TTL; skip to next column
  };

  ColumnTracker(int32_t min_versions, int32_t max_versions, int64_t oldest_unexpired_ts)
      : min_versions_(min_versions), max_versions_(max_versions), oldest_(oldest_unexpired_ts) {}

  void Reset() { has_column_ = false; has_last_ = false; }
  // Family-TTL early out: MIN_VERSIONS == 0 and ts older than the TTL.
  bool IsDone(int64_t ts) const { return min_versions_ <= 0 && ts < oldest_; }
  Result CheckVersions(const Cell& cell);

 private:
  Result CheckVersion(uint8_t type, int64_t ts);

  int32_t min_versions_;
  int32_t max_versions_;
  int64_t oldest_;
  bool has_column_ = false;
  ByteCopy qualifier_;
  int32_t count_ = 0;
  bool has_last_ = false;
  int64_t last_ts_ = 0;
  uint8_t last_type_ = 0;
};

}  // namespace hfile::region

#endif  // REGION_SRC_COLUMN_TRACKER_H_
