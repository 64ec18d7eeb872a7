// What the three parts of the distributed runs share (units_plan.cc, units_task.cc,
// units_commit.cc): the records' JSON form and the job dir's names.
#ifndef REGION_SRC_UNITS_INTERNAL_H_
#define REGION_SRC_UNITS_INTERNAL_H_

#include <google/protobuf/message.h>

#include <string>
#include <vector>

#include "hfile/status.h"
#include "region/file_system.h"

namespace hfile::region {

namespace pb {
class UnitProto;
}

inline constexpr char kJobsDirName[] = ".hfile-jobs";
inline constexpr char kJobFile[] = "job.json";
inline constexpr char kUnitsFile[] = "units.jsonl";
inline constexpr char kAttemptsDir[] = "attempts";
inline constexpr char kResultFile[] = "result.json";
inline constexpr char kDoneSuffix[] = ".done";

// One line of JSON, field names as in units.proto, every field printed (defaults too).
std::string ToJsonLine(const google::protobuf::Message& m);
// Corruption naming `what` when `json` is not such a record.
Status FromJson(const std::string& json, const std::string& what, google::protobuf::Message* m);

// The units of <job_dir>/units.jsonl in plan order; `lines` (if not null) gets each one's JSON
// line as stored.
Status ReadJobUnits(FileSystem* fs, const std::string& job_dir, std::vector<pb::UnitProto>* units,
                    std::vector<std::string>* lines = nullptr);

// `path` relative to `base` when it lies under it ("" when equal); nullopt-like "" + false.
bool RelativeTo(const std::string& base, const std::string& path, std::string* rel);

}  // namespace hfile::region

#endif  // REGION_SRC_UNITS_INTERNAL_H_
