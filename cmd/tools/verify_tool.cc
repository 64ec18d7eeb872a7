// `hfile verify`: checks every file named, reports each, exits with the worst finding.
#include <CLI/CLI.hpp>

#include <ostream>

#include "cli_common.h"
#include "hfile/verify.h"

namespace hfile::cli {

int RunVerifyTool(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  CLI::App app{"Check HFiles for corruption and format violations.", "hfile-verify"};
  app.set_help_flag("--help", "Print this help and exit");
  VerifyOptions o;
  std::vector<std::string> files, region_dirs;
  bool json = false, quiet = false, no_blooms = false;
  app.add_option("files", files, "HFiles to check");
  app.add_option("-r,--region", region_dirs, "A region directory: check all its store files");
  app.add_flag("--json", json, "One JSON object per file instead of text");
  app.add_flag("-q,--quiet", quiet, "Print only files with problems");
  app.add_flag("--no-blooms", no_blooms, "Skip the bloom filter checks");
  app.add_option("--max-problems", o.max_problems, "List at most this many problems per file");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) {
      out << app.help();
      return kExitOk;
    }
    err << e.what() << "\nRun with --help for usage.\n";
    return kExitUsage;
  }
  o.check_blooms = !no_blooms;
  int code = kExitOk;
  for (const auto& dir : region_dirs) {
    auto listed = ListRegionStoreFiles(dir);
    if (!listed.ok()) {
      PrintError(err, "hfile-verify", listed.status());
      code = WorseExitCode(code, ExitCodeFor(listed.status()));
      continue;
    }
    files.insert(files.end(), listed->begin(), listed->end());
  }
  if (files.empty()) {
    err << "hfile-verify: no input files\nRun with --help for usage.\n";
    return kExitUsage;
  }
  for (const auto& f : files) {
    VerifyReport report = VerifyFile(f, o);
    if (!quiet || !report.clean()) PrintVerifyReport(report, json, out);
    if (!report.open_status.ok()) {
      code = WorseExitCode(code, ExitCodeFor(report.open_status));
    } else if (!report.clean()) {
      code = WorseExitCode(code, kExitCorrupt);
    }
  }
  return code;
}

}  // namespace hfile::cli
