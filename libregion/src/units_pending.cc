// PendingUnits: what a driver still has to run of a planned job (doc/distributed.md).
#include "fs_util.h"
#include "region/units.h"
#include "units.pb.h"
#include "units_internal.h"

namespace hfile::region {

Status PendingUnits(const std::string& job_dir, std::vector<std::string>* unit_lines) {
  unit_lines->clear();
  HFILE_ASSIGN_OR_RETURN(auto fs_owner, FileSystemFor(job_dir));
  FileSystem* fs = fs_owner.get();
  HFILE_ASSIGN_OR_RETURN(const bool planned, fs->ExistsOrError(JoinPath(job_dir, kJobFile)));
  if (!planned)
    return Status::NotFound(job_dir, "no job.json: not a planned job (or committed and removed)");
  std::vector<pb::UnitProto> units;
  std::vector<std::string> lines;
  HFILE_RETURN_IF_ERROR(ReadJobUnits(fs, job_dir, &units, &lines));
  for (size_t i = 0; i < units.size(); ++i) {
    const std::string dir = JoinPath(JoinPath(job_dir, kAttemptsDir), units[i].id());
    bool complete = false;
    auto attempts = fs->ListDir(dir);
    if (!attempts.ok() && !attempts.status().IsNotFound()) return attempts.status();
    if (attempts.ok()) {
      for (const auto& a : *attempts) {
        if (!a.is_dir) continue;
        HFILE_ASSIGN_OR_RETURN(complete,
                               fs->ExistsOrError(JoinPath(JoinPath(dir, a.name), kResultFile)));
        if (complete) break;
      }
    }
    if (!complete) unit_lines->push_back(std::move(lines[i]));
  }
  return Status::OK();
}

}  // namespace hfile::region
