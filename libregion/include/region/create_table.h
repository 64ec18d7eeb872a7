// Offline table creation: what HBase 2.6's CreateTableProcedure leaves on the filesystem for an
// HBase shell `create` statement, written into a root dir while HBase is down.
//
//   CreateTableOptions o;
//   o.root = "/hbase";
//   o.statement = "create 'docs', {NAME => 'm'}, {SPLITS => ['4', '8']}";
//   auto r = CreateTable(o);   // or o.dry_run: the plan only
//
// What is written (CreateTableProcedure.createFsLayout -> ModifyRegionUtils.createRegionInfos):
//   * the descriptor DescriptorForCreate computes, as .tabledesc/.tableinfo.0000000001.<len>;
//   * one region per range of SplitKeysForCreate's keys: region id = one timestamp in ms shared
//     by every region, start/end keys from the splits, encoded name = MD5 of the region name
//     (RegionInfo::EncodedName), its .regioninfo and one empty dir per family.
// A new or empty root dir is first laid out as HBase's master would before its first start
// (MasterFileSystem.checkRootDir / FSUtils.setVersion): hbase.version ("PBUF" +
// HBaseVersionFileContent{version "8"}) and data/default/. hbase.id, hbase:meta and the
// hbase:namespace data are left for HBase to bootstrap on its first start.
//
// Commit: the table is staged whole in <root>/data/<ns>/.hfile-create-<pid>-<n>/<ns>/<table>/
// (a name HBase never takes for a table) and put in place by one rename, through the
// namespace dir's journal (<root>/data/<ns>/.hfile-journal, region/commit.h): a crash leaves no
// table, or the whole table; a rerun rolls an interrupted create back or forward first.
//
// hbase:meta is not touched: the regions are unknown to HBase until an operator adds them
// (HBCK2 addFsRegionsMissingInMeta, then assigns; man/hfile-create.1.md).
#ifndef REGION_CREATE_TABLE_H_
#define REGION_CREATE_TABLE_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "hfile/status.h"
#include "region/region_info.h"
#include "region/shell_statement.h"
#include "region/table_descriptor.h"

namespace hfile::region {

struct CreateTableOptions {
  std::string root;            // HBase root dir; created when missing
  std::string statement;       // the shell's `create ...` text
  std::string statement_file;  // or a file holding it (used when `statement` is empty)
  // A namespace other than "default" must already have its dir (data/<ns>/); with this the dir
  // is created. HBase also keeps namespaces in hbase:meta's `ns` family (2.6; the
  // hbase:namespace table before): an operator must still run `create_namespace` after start.
  bool create_namespace = false;
  bool dry_run = false;
  int64_t now_ms = 0;  // the regions' id; 0: the clock
  // Test hook, called after every durable step ("root-initialised", "staged", and the
  // journal's names); tests SIGKILL here.
  std::function<void(const std::string&)> checkpoint;
  // Called as the table is staged, in two phases: `what` "regions" (`done` of `total` regions'
  // .regioninfo written), then "family dirs" (one per region and family). 1000 regions take
  // seconds: each file and dir is made durably.
  std::function<void(const char* what, uint64_t done, uint64_t total)> progress;
};

struct CreateTableResult {
  TableDescriptor descriptor;
  std::vector<std::string> split_keys;
  std::vector<RegionInfo> regions;  // in key order
  std::string table_dir;
  std::string descriptor_file;    // the .tableinfo name
  bool root_initialised = false;  // hbase.version / data/default were written now (or would be)
  bool namespace_created = false;
  // Set when the table was already there because this run finished an interrupted create of
  // it (the journal's roll forward): nothing else was written.
  bool finished_interrupted = false;
  std::vector<std::string> recovered;  // what recovery did first
};

// InvalidArgument for a statement HBase would reject, a table dir that exists, a namespace
// without its dir (unless create_namespace), the system namespace, and a root that is neither
// an HBase root dir nor empty; IOError for a filesystem failure (nothing is left half-made).
Result<CreateTableResult> CreateTable(const CreateTableOptions& options);

// The hbase.version file's bytes, as FSUtils.setVersion writes them.
std::string HBaseVersionFileBytes();

}  // namespace hfile::region

#endif  // REGION_CREATE_TABLE_H_
