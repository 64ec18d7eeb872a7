#include "column_tracker.h"

namespace hfile::region {

ColumnTracker::Result ColumnTracker::CheckVersions(const Cell& cell) {
  int64_t ts = cell.timestamp();
  uint8_t type = cell.type();
  if (has_column_ && cell.qualifier() == qualifier_.slice()) {
    if (has_last_ && last_ts_ == ts && last_type_ == type) return Result::kSkipDuplicate;
    return CheckVersion(type, ts);
  }
  // A new column (the first of the row, or a later one).
  has_column_ = true;
  qualifier_.Assign(cell.qualifier());  // reuses the buffer: no allocation per column
  count_ = 0;
  has_last_ = false;
  return CheckVersion(type, ts);
}

ColumnTracker::Result ColumnTracker::CheckVersion(uint8_t type, int64_t ts) {
  if (!IsDeleteType(type)) ++count_;  // markers never use a version slot
  if (count_ > max_versions_) return Result::kTooManyVersions;
  if (count_ <= min_versions_ || ts >= oldest_) {
    has_last_ = true;
    last_ts_ = ts;
    last_type_ = type;
    return Result::kInclude;
  }
  return Result::kExpired;
}

}  // namespace hfile::region
