// hfilekit-schema-gen: writes table descriptors with OUR schema writer for HBase to read
// (tests/hbase/check_tabledesc.sh runs the harness's `tabledesc` on each and compares).
//
//   hfilekit-schema-gen --src REAL_TABLE_DIR --out ROOT
//
// Writes under ROOT/data/ (one line per table dir on stdout: "<table dir>\t<our json file>"):
//   hbase/namespace  the real descriptor copied as .tableinfo.0000000001, then altered
//                    (VERSIONS/TTL/COMPRESSION changed, a family added with configuration and
//                    binary values, table attributes set) and written as 2.6 names it
//                    (.tableinfo.0000000002.<length>; the copy is removed)
//   default/created  a new table (sequence 1) without the length in the name, then altered
//                    once more (sequence 2)
//   killed-before-rename/..., killed-after-rename/...  the namespace alteration SIGKILLed with
//                    the new file complete in .tabledesc/.tmp/, and after its rename (the old
//                    file still there): HBase must load the old and the new descriptor
// and for each ROOT/<name>.ours.json: the descriptor as OUR reader loads it, in the harness's
// canonical JSON. Family values include the builder defaults HBase adds on parse when a file
// lacks them (ColumnFamilyDescriptorBuilder pre-populates them; FamilyDescriptor::WithDefaults
// has the same set).
#include <fmt/format.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "hfile/escape.h"
#include "region/schema_writer.h"
#include "region/table_descriptor.h"

namespace {

namespace fs = std::filesystem;
using namespace hfile;
using namespace hfile::region;

std::string JsonStr(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20) {
      out += fmt::format("\\u{:04x}", c);
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

std::string JsonMap(const std::map<std::string, std::string>& m) {
  std::string out = "{";
  for (const auto& [k, v] : m) {
    if (out.size() > 1) out += ",";
    out += JsonStr(k) + ":" + JsonStr(v);
  }
  return out + "}";
}

std::string Json(const TableDescriptor& d) {
  std::map<std::string, std::string> values;
  for (const auto& [k, v] : d.values()) values[ToStringBinary(k)] = ToStringBinary(v);
  std::string out = "{\"table\":" + JsonStr(d.name().ToString()) + ",\"values\":" +
                    JsonMap(values) + ",\"families\":[";
  bool first = true;
  for (const auto& f : d.families()) {
    std::map<std::string, std::string> fv, fc;
    const FamilyDescriptor defaults = FamilyDescriptor::WithDefaults(f.name());
    for (const auto& [k, v] : defaults.values()) fv[ToStringBinary(k)] = ToStringBinary(v);
    for (const auto& [k, v] : f.values()) fv[ToStringBinary(k)] = ToStringBinary(v);
    for (const auto& [k, v] : f.configuration()) fc[ToStringBinary(k)] = ToStringBinary(v);
    out += std::string(first ? "" : ",") + "{\"name\":" + JsonStr(ToStringBinary(f.name())) +
           ",\"values\":" + JsonMap(fv) + ",\"configuration\":" + JsonMap(fc) + "}";
    first = false;
  }
  return out + "]}";
}

int Fail(const std::string& what, const Status& s) {
  std::fprintf(stderr, "hfilekit-schema-gen: %s: %s\n", what.c_str(), s.ToString().c_str());
  return 1;
}

// Reads the table back with our reader and writes ROOT/<name>.ours.json. `clean`: the write
// finished, so .tabledesc/ must hold only the file read.
int Emit(const std::string& root, const std::string& name, const std::string& table_dir,
         bool clean = true) {
  auto loaded = ReadTableDescriptor(table_dir);
  if (!loaded.ok()) return Fail("reading back " + table_dir, loaded.status());
  const std::string json_path = root + "/" + name + ".ours.json";
  std::ofstream(json_path) << Json(loaded->descriptor) << "\n";
  std::printf("%s\t%s\t%s\t%d\n", table_dir.c_str(), json_path.c_str(), loaded->path.c_str(),
              clean ? 1 : 0);
  return 0;
}

// Writes `desc` over a copy of the real descriptor at `src_file` in a child process that is
// SIGKILLed at checkpoint `step`: the states a crash leaves, for HBase to read.
int WriteKilledAt(const std::string& src_file, const std::string& table_dir,
                  const TableDescriptor& desc, const std::string& step) {
  fs::create_directories(table_dir + "/.tabledesc");
  fs::copy_file(src_file, table_dir + "/.tabledesc/" + TableInfoFileNameFor(1),
                fs::copy_options::overwrite_existing);
  std::fflush(stdout);
  pid_t pid = ::fork();
  if (pid == 0) {
    SchemaWriteOptions o;
    o.checkpoint = [&](const std::string& s) {
      if (s == step) ::raise(SIGKILL);
    };
    ::_exit(WriteTableDescriptor(table_dir, desc, o).ok() ? 0 : 1);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (!WIFSIGNALED(status)) {
    std::fprintf(stderr, "hfilekit-schema-gen: the write was not killed at %s\n", step.c_str());
    return 1;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::string src, out;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string a = argv[i];
    if (a == "--src") src = argv[i + 1];
    else if (a == "--out") out = argv[i + 1];
  }
  if (src.empty() || out.empty()) {
    std::fprintf(stderr, "usage: hfilekit-schema-gen --src REAL_TABLE_DIR --out ROOT\n");
    return 2;
  }
  auto real = ReadTableDescriptor(src);
  if (!real.ok()) return Fail("reading " + src, real.status());

  // 1. An altered copy of a real descriptor, over the copied original.
  const TableDescriptor& orig = real->descriptor;
  const std::string ns_dir =
      fmt::format("{}/data/{}/{}", out, orig.name().namespace_name, orig.name().qualifier);
  fs::create_directories(ns_dir + "/.tabledesc");
  fs::copy_file(real->path, ns_dir + "/.tabledesc/" + TableInfoFileNameFor(1),
                fs::copy_options::overwrite_existing);
  TableDescriptor altered = orig;
  FamilyDescriptor info = orig.families().front();
  info.SetValue("VERSIONS", "5");
  info.SetValue("TTL", "86400");
  info.SetValue("COMPRESSION", "GZ");
  info.SetConfiguration("hbase.hstore.blockingStoreFiles", "30");
  altered.AddFamily(info);
  FamilyDescriptor extra = FamilyDescriptor::WithDefaults("extra");
  extra.SetValue("BLOOMFILTER", "ROWCOL");
  extra.SetValue("DATA_BLOCK_ENCODING", "FAST_DIFF");
  extra.SetValue(std::string("bin\x00\xff", 5), std::string("\x01\x02\"\\", 4));
  extra.SetConfiguration("RowPrefixBloomFilter.prefix_length", "7");
  altered.AddFamily(extra);
  altered.SetValue("MAX_FILESIZE", "21474836480");
  altered.SetValue("hbase.store.file-tracker.impl", "DEFAULT");
  auto p1 = WriteTableDescriptor(ns_dir, altered);
  if (!p1.ok()) return Fail("writing " + ns_dir, p1.status());
  if (int rc = Emit(out, "altered", ns_dir)) return rc;

  // 2. A new table, 2.4-style names (no length), altered once more.
  const std::string created_dir = out + "/data/default/created";
  TableDescriptor created(TableName{"default", "created"});
  created.SetValue("IS_META", "false");
  created.AddFamily(FamilyDescriptor::WithDefaults("b"));
  created.AddFamily(FamilyDescriptor::WithDefaults("a"));
  SchemaWriteOptions no_length;
  no_length.length_in_name = false;
  auto p2 = WriteTableDescriptor(created_dir, created, no_length);
  if (!p2.ok()) return Fail("writing " + created_dir, p2.status());
  FamilyDescriptor b = *created.FindFamily("b");
  b.SetValue("KEEP_DELETED_CELLS", "TTL");
  b.SetValue("MIN_VERSIONS", "1");
  created.AddFamily(b);
  created.SetValue("DURABILITY", "ASYNC_WAL");
  auto p3 = WriteTableDescriptor(created_dir, created, no_length);
  if (!p3.ok()) return Fail("writing " + created_dir, p3.status());
  if (int rc = Emit(out, "created", created_dir)) return rc;

  // 3. Crash states: killed with the new file complete in .tabledesc/.tmp/ (HBase must load the
  // old one) and killed after the rename, before the old file went (HBase must load the new).
  const std::string rel = fmt::format("data/{}/{}", orig.name().namespace_name,
                                      orig.name().qualifier);
  for (const auto& [name, step] : {std::pair<std::string, std::string>{"killed-before-rename",
                                                                        "tmp-written"},
                                   {"killed-after-rename", "committed"}}) {
    const std::string dir = out + "/" + name + "/" + rel;
    if (int rc = WriteKilledAt(real->path, dir, altered, step)) return rc;
    if (int rc = Emit(out, name, dir, /*clean=*/false)) return rc;
  }
  return 0;
}
