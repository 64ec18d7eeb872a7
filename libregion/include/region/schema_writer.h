// Schema writer: the on-disk half of HBase's create / alter table procedures, for offline use
// (`hfile create`, `hfile alter`). Every step is durable (temp file + fsync + rename + directory
// fsync) and ordered so that a crash at any point leaves a table HBase can open.
//
//   <table>/.tabledesc/.tableinfo.<seq>[.<length>]   WriteTableDescriptor
//   <table>/<region>/.regioninfo                     WriteRegionInfo
//   <table>/<region>/<family>/                       CreateFamilyDirs
//   <root>/archive/data/<ns>/<table>/<region>/<family>/...   ArchiveFamilyDirs
//
// Order for the callers (what HBase's procedures do, and what keeps a crash harmless):
//   add a family:    WriteTableDescriptor, then CreateFamilyDirs (HBase creates the dir lazily
//                    when a region opens; creating it here only makes the layout complete).
//   drop a family:   WriteTableDescriptor without it, then ArchiveFamilyDirs. A crash between
//                    or during the two leaves family dirs the descriptor does not name, which
//                    HBase ignores; running ArchiveFamilyDirs again finishes the job.
//
// The tools write while HBase is down (or the table disabled and the master restarted before the
// next DDL): the master caches descriptors and would overwrite an offline edit from its cache.
#ifndef REGION_SCHEMA_WRITER_H_
#define REGION_SCHEMA_WRITER_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "hfile/status.h"
#include "region/region_info.h"
#include "region/table_descriptor.h"

namespace hfile::region {

struct SchemaWriteOptions {
  // HBase 2.5+ names a descriptor ".tableinfo.<seq>.<content length>" (HBASE-26690) and 2.4
  // ".tableinfo.<seq>". 2.4 can read both, but its next alter fails to parse the 2.5+ form, so
  // pass false for tables that 2.4 will manage.
  bool length_in_name = true;
  // Archive start time for HBase's "<name>.<millis>" rename of an already archived name;
  // 0 = the clock. One value per call, as HFileArchiver uses one per archiving call.
  int64_t now_ms = 0;
  // Test hook, called after each step that changes the filesystem (names in schema_writer.cc).
  std::function<void(const std::string& step)> checkpoint;
};

// Writes `desc` as the table's next descriptor: sequence = highest sequence among the existing
// .tabledesc/.tableinfo* names + 1 (HBase: current + 1), written in .tabledesc/.tmp/, fsynced,
// renamed into .tabledesc/ (never over an existing name), directory fsynced; then every older
// .tableinfo* file is removed and .tmp/ too, as FSTableDescriptors does after a successful write.
// Creates the table dir and .tabledesc/ when missing. Returns the new file's path.
// InvalidArgument if the descriptor fails Validate() or names another table than `table_dir`
// (<...>/<ns>/<qualifier>); NotSupported past HBase's int sequence range.
Result<std::string> WriteTableDescriptor(const std::string& table_dir, const TableDescriptor& desc,
                                         const SchemaWriteOptions& o = {});

// The file WriteTableDescriptor would write next, for a caller that stages it and commits it
// through the journal (region/commit.h): its name in .tabledesc/, its bytes, and the older
// .tableinfo* names to remove once it is in place. Same validation as WriteTableDescriptor.
struct TableDescriptorFile {
  std::string name;
  std::string bytes;
  std::vector<std::string> older;
};
Result<TableDescriptorFile> NextTableDescriptorFile(const std::string& table_dir,
                                                    const TableDescriptor& desc,
                                                    const SchemaWriteOptions& o = {});

// Writes <region_dir>/.regioninfo as HRegionFileSystem does when it rewrites it: in
// <region_dir>/.tmp/ then renamed over the old one (here also fsynced); creates region_dir when
// missing. InvalidArgument for a replica (HBase writes none: replicas share the primary's dir) or
// when region_dir's name is not info.EncodedName().
Status WriteRegionInfo(const std::string& region_dir, const RegionInfo& info,
                       const SchemaWriteOptions& o = {});

// Creates <region>/<family>/ in every region dir ([0-9a-f]+) of the table, durably; existing
// dirs are fine. InvalidArgument for a name HBase would not accept as a family dir.
Status CreateFamilyDirs(const std::string& table_dir, const std::string& family,
                        const SchemaWriteOptions& o = {});

// What DeleteColumnFamilyProcedure does to the filesystem (MasterFileSystem.deleteFamilyFromFS ->
// HFileArchiver.archiveFamily): moves the contents of every region's <family>/ into
// <root>/archive/data/<ns>/<table>/<region>/<family>/, file by file and recursively for
// sub-directories (.filelist/), renaming an already archived file of the same name to
// "<name>.<now_ms>" first; then removes the emptied family dir. Also the MOB region's family dir
// (<root>/mobdir/data/<ns>/<table>/<mob region>/<family>/) when present. With `delete_instead`
// the files are removed instead of archived.
// Before moving anything, a region whose archive already holds a same-named file of another size
// fails the call (IOError, nothing of that region moved): HBase refuses that collision too.
// `table_dir` must be <root>/data/<ns>/<table>. Idempotent: rerun it to finish an interrupted run.
Status ArchiveFamilyDirs(const std::string& root, const std::string& table_dir,
                         const std::string& family, bool delete_instead,
                         const SchemaWriteOptions& o = {});

}  // namespace hfile::region

#endif  // REGION_SCHEMA_WRITER_H_
