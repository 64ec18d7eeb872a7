// The distributed side of the writing tools (doc/distributed.md): --emit-units, which plans a
// job instead of running the tool, and the in-process runner `hfile task` runs a unit's tool
// with.
#ifndef HFILE_CMD_UNITS_CLI_H_
#define HFILE_CMD_UNITS_CLI_H_

#include <iosfwd>
#include <string>
#include <vector>

#include "region/units.h"

namespace CLI {
class App;
}  // namespace CLI

namespace hfile::cli {

struct EmitFlags {
  bool emit_units = false;
  std::string job_id;
};
// --emit-units and --job-id.
void AddEmitFlags(CLI::App& app, EmitFlags* flags);

// Plans the job (region::PlanJob) and prints it: a "units" JSON record with --json, else a
// line per unit file. Returns the exit code.
int EmitUnits(const std::string& tool, const region::JobPlanOptions& options, bool json,
              std::ostream& out, std::ostream& err);

// Runs a writing tool of this binary in process: argv[0] is its name ("compact").
int RunToolInProcess(const std::vector<std::string>& argv, std::string* out, std::string* err);

}  // namespace hfile::cli

#endif  // HFILE_CMD_UNITS_CLI_H_
