#include "delete_tracker.h"

namespace hfile::region {

void DeleteTracker::Reset() {
  has_family_stamp_ = false;
  family_stamp_ = 0;
  family_version_stamps_.clear();
  has_column_delete_ = false;
}

bool DeleteTracker::empty() const {
  return !has_family_stamp_ && family_version_stamps_.empty() && !has_column_delete_;
}

void DeleteTracker::Add(const Cell& cell) {
  int64_t ts = cell.timestamp();
  uint8_t type = cell.type();
  // Markers at or below the family stamp add nothing.
  if (has_family_stamp_ && ts <= family_stamp_) return;
  if (type == static_cast<uint8_t>(KeyType::kDeleteFamily)) {
    has_family_stamp_ = true;
    family_stamp_ = ts;
    return;
  }
  if (type == static_cast<uint8_t>(KeyType::kDeleteFamilyVersion)) {
    family_version_stamps_.insert(ts);
    return;
  }
  // Delete / DeleteColumn: a less general marker of the same column is ignored.
  if (has_column_delete_ && type < column_type_ && cell.qualifier() == Slice(column_qualifier_))
    return;
  has_column_delete_ = true;
  const Slice q = cell.qualifier();
  column_qualifier_.assign(q.data(), q.size());
  column_type_ = type;
  column_ts_ = ts;
}

DeleteTracker::Result DeleteTracker::IsDeleted(const Cell& cell) {
  int64_t ts = cell.timestamp();
  if (has_family_stamp_ && ts <= family_stamp_) return Result::kFamilyDeleted;
  if (family_version_stamps_.count(ts)) return Result::kFamilyVersionDeleted;
  if (has_column_delete_) {
    int cmp = cell.qualifier().compare(Slice(column_qualifier_));
    if (cmp == 0) {
      if (column_type_ == static_cast<uint8_t>(KeyType::kDeleteColumn))
        return Result::kColumnDeleted;
      if (ts == column_ts_) return Result::kVersionDeleted;
      // An older version than the Delete: the Delete is used up.
      has_column_delete_ = false;
    } else if (cmp > 0) {
      // Moved past the marker's column.
      has_column_delete_ = false;
    }
    // cmp < 0 cannot happen in scan order (HBase throws IllegalStateException); ignore.
  }
  return Result::kNotDeleted;
}

}  // namespace hfile::region
