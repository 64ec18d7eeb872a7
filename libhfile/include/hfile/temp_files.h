// Temporary names under which files are written before they appear under their final name, and
// the clean-up of those a killed process left behind.
//
//   <dir>/.<name>.tmp-<pid>       a Writer's file until Finish() renames it to <dir>/<name>
//   <dir>/.<name>.rewrite-<pid>   hfile rewrite's output until it is verified (itself written
//                                 by a Writer as <dir>/..<name>.rewrite-<pid>.tmp-<pid>)
// A process killed with SIGKILL cannot remove them; the next run for the same final name does,
// once no process with any pid in the name is alive.
#ifndef HFILE_TEMP_FILES_H_
#define HFILE_TEMP_FILES_H_

#include <string>
#include <vector>

#include "hfile/status.h"

namespace hfile {

// <dir of path>/.<name of path>.<kind>-<pid>, kind "tmp" (Writer) or "rewrite".
std::string TempPathFor(const std::string& path, const char* kind, long pid);

// Temp files for `path` in its directory whose every pid is gone (a dead run's), removed; their
// paths appended to `removed`. IOError only when one cannot be removed.
Status RemoveStaleTempFiles(const std::string& path, std::vector<std::string>* removed);

// The same for every store-file name (32 hex digits, as `--out-dir` names outputs) in `dir`:
// a killed run's outputs had names the next run cannot know.
Status RemoveStaleStoreFileTemps(const std::string& dir, std::vector<std::string>* removed);

}  // namespace hfile

#endif  // HFILE_TEMP_FILES_H_
