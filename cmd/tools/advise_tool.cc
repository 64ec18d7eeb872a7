// `hfile advise`: TABLE_DIR or ROOT [ns:]TABLE -> AdviseTable; prints the findings as text or
// JSON, optionally writes the HTML page. Read-only. The logic lives in region/advise.h.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <filesystem>
#include <fstream>
#include <ostream>

#include "cli_common.h"
#include "progress.h"
#include "region/advise.h"
#include "region/target.h"

namespace hfile::cli {

namespace {

constexpr const char* kTool = "hfile-advise";

}  // namespace

int RunAdviseTool(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  CLI::App app{
      "Measure a table's column families against the family-design rules, from its "
      "own files, and print each finding with its figures and the command that fixes "
      "it. Read-only.",
      kTool};
  AddStandardFlags(app);
  std::vector<std::string> args;
  bool json = false, fail_on_warn = false, quiet = false;
  std::string html;
  uint64_t sample_blocks = 256, trial_blocks = 16;
  std::optional<int64_t> now;
  app.add_option("args", args, "TABLE_DIR, or ROOT [ns:]TABLE")->required();
  app.add_flag("--json", json, "Print one JSON object instead of text");
  app.add_option("--html", html, "Also write a self-contained HTML page with the figures to FILE");
  app.add_option("--sample-blocks", sample_blocks,
                 "Cells read per family: about this many blocks (of the family's BLOCKSIZE) over "
                 "all its files; 0 reads every cell (default 256)")
      ->check(IntegerIn(0, INT64_MAX));
  app.add_option("--trial-blocks", trial_blocks,
                 "Blocks of the family's largest file re-encoded per codec, encoding and family "
                 "name in the trials; 0 skips the trials (default 16)")
      ->check(IntegerIn(0, 1 << 20));
  app.add_option("--now", now,
                 "Current time in ms since the epoch for TTL decisions "
                 "(default: the wall clock)")
      ->check(IntegerIn(1, INT64_MAX));
  app.add_flag("--fail-on-warn", fail_on_warn,
               "Exit 4 when there is a warn or error finding (default: 0 whatever is found)");
  app.add_flag("-q,--quiet", quiet, "No progress or notes on stderr");
  ProgressFlags progress_flags;
  AddProgressFlags(app, &progress_flags, /*add_quiet=*/false);
  if (auto code = ParseArgs(app, argc, argv, out, err)) return *code;
  progress_flags.quiet = quiet;
  if (std::error_code ec; !std::filesystem::is_directory(args[0], ec))
    return ReportError(err, kTool, Status::NotFound(args[0], "no such directory"));
  size_t used = 0;
  auto target = region::ResolveTargetArgs(args, /*allow_region=*/false, &used);
  if (!target.ok()) return ReportError(err, kTool, target.status());
  if (used != args.size()) return UsageError(err, kTool, "give one table: TABLE_DIR or ROOT TABLE");
  if (target->kind != region::Target::Kind::kTable)
    return UsageError(err, kTool, target->path() + " is not a table dir; advise takes a table");

  region::AdviseOptions o;
  o.table_dir = target->table_dir;
  o.sample_blocks = sample_blocks;
  o.trial_blocks = trial_blocks;
  if (now) o.now_ms = *now;
  // The shared progress line (cmd/progress.h): each step the library reports is a phase of
  // unknown size, named by what it measures.
  Progress progress(err, kTool, progress_flags);
  if (progress.enabled())
    o.progress = [&progress](const std::string& what) { progress.Phase("measuring", 0, 0, what); };
  auto advice = region::AdviseTable(o);
  progress.Clear();
  if (!advice.ok()) return ReportError(err, kTool, advice.status());
  out << (json ? region::AdviceJson(*advice) : region::AdviceText(*advice));
  if (!html.empty()) {
    std::ofstream f(html, std::ios::binary | std::ios::trunc);
    f << region::AdviceHtml(*advice);
    f.close();
    if (!f) return ReportError(err, kTool, Status::IOError(html, "cannot write the HTML page"));
    if (!quiet) err << kTool << ": wrote " << html << "\n";
  }
  if (fail_on_warn)
    for (const auto& finding : advice->findings)
      if (finding.severity != region::AdviceSeverity::kInfo) return kExitFindings;
  return kExitOk;
}

}  // namespace hfile::cli
