// One way to name what a tool works on, for every tool: a table, region or family directory,
// or a root directory with a table name (and optionally a region), or a snapshot.
//
//   <table dir>                       <root>/data/<ns>/<table>   (has .tabledesc/)
//   <region dir>                      <table dir>/<encoded name>
//   <family dir>                      <region dir>/<family>
//   <root> <[ns:]table>               a root dir (has data/) and a table name
//   <root> <[ns:]table> <region>      ... and a region by encoded name
//
// On the command line (cmd/ TargetArgs) the same words are positional arguments; a tool that
// takes further positionals (copy-family's OLD NEW) takes them after the target.
#ifndef REGION_TARGET_H_
#define REGION_TARGET_H_

#include <cstddef>
#include <string>
#include <vector>

#include "hfile/status.h"
#include "region/table_name.h"

namespace hfile::region {

struct Target {
  enum class Kind : uint8_t { kTable, kRegion, kFamily };
  Kind kind = Kind::kTable;
  std::string root_dir;     // "" when the table dir is not under <root>/data/<ns>/
  std::string table_dir;
  std::string region_dir;   // kRegion, kFamily
  std::string family_dir;   // kFamily
  TableName table;          // from the directory names (<ns>/<table>)
  std::string encoded_region() const;
  std::string family() const;
  // The most specific directory named.
  const std::string& path() const;
};

// Resolves a directory: a table dir (has .tabledesc/), a region dir in one, or a family dir in
// one. InvalidArgument naming the path otherwise.
Result<Target> ResolveTarget(const std::string& path);

// Resolves a root dir and a table name ("ns:name" or "name" in the default namespace).
// NotFound when the table dir does not exist.
Result<Target> ResolveTableTarget(const std::string& root, const std::string& table);

// True when `path` is an HBase root dir (has data/ and is not itself a table dir).
bool IsRootDir(const std::string& path);

// Takes a target from the front of `args`: one directory, or a root dir followed by a table name
// (and, if `allow_region` and the next word names a region dir of the table, its encoded name).
// `*used` is set to how many words it took.
Result<Target> ResolveTargetArgs(const std::vector<std::string>& args, bool allow_region,
                                 size_t* used);

}  // namespace hfile::region

#endif  // REGION_TARGET_H_
