// ScanDeleteTracker: the delete markers seen so far in the current row, and whether a put is
// masked by them (REGION_LAYOUT §6.3 steps 3a and 4).
#ifndef REGION_SRC_DELETE_TRACKER_H_
#define REGION_SRC_DELETE_TRACKER_H_

#include <cstdint>
#include <set>
#include <string>

#include "hfile/cell.h"

namespace hfile::region {

class DeleteTracker {
 public:
  enum class Result : uint8_t {
    kNotDeleted,
    kFamilyDeleted,         // ts <= DeleteFamily ts: skip to next column
    kFamilyVersionDeleted,  // ts in the DeleteFamilyVersion set: skip this cell
    kColumnDeleted,         // DeleteColumn on the qualifier: skip to next column
    kVersionDeleted,        // Delete at exactly this ts: skip this cell
  };

  void Reset();
  bool empty() const;
  // REQUIRES: IsDeleteType(cell.type())
  void Add(const Cell& cell);
  // For puts. Forgets a column delete that no longer applies (as HBase does).
  Result IsDeleted(const Cell& cell);

 private:
  bool has_family_stamp_ = false;
  int64_t family_stamp_ = 0;
  std::set<int64_t> family_version_stamps_;
  bool has_column_delete_ = false;
  std::string column_qualifier_;
  uint8_t column_type_ = 0;
  int64_t column_ts_ = 0;
};

}  // namespace hfile::region

#endif  // REGION_SRC_DELETE_TRACKER_H_
