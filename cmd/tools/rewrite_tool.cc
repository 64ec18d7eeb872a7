// `hfile rewrite`: flags -> RewriteOptions -> RewriteFile per input (or CompareRewrites with
// --compare). All format logic lives in libhfile (hfile/rewrite.h).
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <charconv>
#include <cstdint>
#include <filesystem>
#include <ostream>

#include "cli_common.h"
#include "json_error.h"
#include "progress.h"
#include "hfile/escape.h"
#include "hfile/rewrite.h"
#include "hfile/temp_files.h"

namespace hfile::cli {

namespace {

struct RewriteFlags {
  std::vector<std::string> files;
  std::string out_dir, compression, encoding, bloom, checksum;
  std::optional<int> level;
  std::optional<uint32_t> block_size;
  // As given: one value each, or with --compare comma-separated lists (their cross product).
  std::vector<std::string> compressions, encodings;
  std::vector<int> levels;
  std::vector<uint32_t> block_sizes;
  bool json = false, compare = false, in_place = false, trust_inputs = false;
  uint64_t sample_blocks = 0;
  ProgressFlags progress;
};

constexpr const char* kTool = "hfile-rewrite";

// The levels each codec takes, as HBase's codecs and our writer accept them (0 is not one: the
// writer reads it as "the codec's default"); nullopt: the codec has no level.
std::optional<std::pair<int, int>> LevelRange(Compression c) {
  switch (c) {
    case Compression::kGz:
    case Compression::kBzip2:
    case Compression::kLzma: return std::pair{1, 9};
    case Compression::kZstd: return std::pair{1, 22};
    case Compression::kLz4: return std::pair{1, 12};  // 1: LZ4 fast, 2..12: LZ4HC
    case Compression::kBrotli: return std::pair{1, 11};
    default: return std::nullopt;
  }
}

// --blocksize values: bytes, or with a K or M suffix (16K, 1M), in 1024..16777216.
CLI::Validator BlockSize() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        std::string digits = text;
        uint64_t unit = 1;
        if (!digits.empty() && (digits.back() == 'K' || digits.back() == 'k')) unit = 1024;
        if (!digits.empty() && (digits.back() == 'M' || digits.back() == 'm')) unit = 1 << 20;
        if (unit > 1) digits.pop_back();
        uint64_t v = 0;
        const char* end = digits.data() + digits.size();
        auto [p, ec] = std::from_chars(digits.data(), end, v);
        if (digits.empty() || ec != std::errc() || p != end || v > (16 << 20) || v * unit < 1024 ||
            v * unit > (16 << 20)) {
          return text + " is not an integer in 1024..16777216";
        }
        text = std::to_string(v * unit);
        return "";
      },
      "");
}

// Flag values -> RewriteOptions. InvalidArgument (a usage error) names the flag and what is
// valid.
Status ParseOptions(const RewriteFlags& f, RewriteOptions* o) {
  if (!f.compression.empty()) {
    auto c = ParseCompression(f.compression);
    if (!c) {
      return Status::InvalidArgument(fmt::format(
          "--compression {}: unknown codec; valid: NONE, GZ, SNAPPY, LZ4, ZSTD, BZIP2, LZO, LZMA, "
          "BROTLI", f.compression));
    }
    o->compression = *c;
  }
  if (f.level) {
    if (!o->compression) {
      return Status::InvalidArgument(
          "--level needs --compression (each codec has its own levels)");
    }
    auto range = LevelRange(*o->compression);
    if (!range) {
      return Status::InvalidArgument(fmt::format("--level {}: {} has no compression levels",
                                                 *f.level, CompressionName(*o->compression)));
    }
    if (*f.level < range->first || *f.level > range->second) {
      return Status::InvalidArgument(fmt::format("--level {}: {} levels are {}..{}", *f.level,
                                                 CompressionName(*o->compression), range->first,
                                                 range->second));
    }
  }
  if (!f.encoding.empty()) {
    auto e = ParseDataBlockEncoding(f.encoding);
    if (!e || *e == DataBlockEncoding::kPrefixTree) {
      return Status::InvalidArgument(fmt::format(
          "--encoding {}: unknown encoding; valid: NONE, PREFIX, DIFF, FAST_DIFF, ROW_INDEX_V1",
          f.encoding));
    }
    o->encoding = *e;
  }
  if (!f.bloom.empty()) {
    std::string name = f.bloom, len;
    if (auto colon = name.find(':'); colon != std::string::npos) {
      len = name.substr(colon + 1);
      name.resize(colon);
    }
    auto b = ParseBloomType(name);
    if (!b) {
      return Status::InvalidArgument(fmt::format(
          "--bloom {}: unknown bloom type; valid: NONE, ROW, ROWCOL, ROWPREFIX_FIXED_LENGTH:LEN",
          f.bloom));
    }
    o->bloom_type = *b;
    if (!len.empty()) {
      int n = 0;
      auto [p, ec] = std::from_chars(len.data(), len.data() + len.size(), n);
      if (ec != std::errc() || p != len.data() + len.size() || n < 1) {
        return Status::InvalidArgument(fmt::format(
            "--bloom {}: the prefix length {} is not an integer >= 1", f.bloom, len));
      }
      o->bloom_prefix_length = n;
    }
  }
  if (!f.checksum.empty()) {
    auto c = ParseChecksumType(f.checksum);
    if (!c) {
      return Status::InvalidArgument(fmt::format(
          "--checksum {}: unknown checksum type; valid: NULL, CRC32, CRC32C", f.checksum));
    }
    o->checksum_type = *c;
  }
  o->compression_level = f.level;
  if (f.block_size) o->block_size = *f.block_size;  // range checked by the flag
  return Status::OK();
}

std::string Json(const std::string& s) {
  std::string out;
  AppendJsonString(&out, s);
  return out;
}

void PrintResult(const std::string& in, const std::string& out_path, const RewriteResult& r,
                 bool json, std::ostream& out) {
  const WriterOptions& s = r.settings;
  if (json) {
    out << fmt::format(
        "{{\"kind\":\"rewrite\",\"v\":1,\"path\":{},\"input\":{},\"output\":{},\"cells\":{},\"meta_"
        "blocks\":{},\"input_bytes\":{},"
        "\"output_bytes\":{},\"data_blocks\":{},\"compression\":{},\"encoding\":{},\"bloom\":{},"
        "\"block_size\":{},\"checksum\":{},\"write_seconds\":{:.3f},\"verify_seconds\":{:.3f},"
        "\"verified\":true}}\n",
        Json(in), Json(in), Json(out_path), r.cells, r.meta_blocks, r.input_size, r.output_size,
        r.output_data_blocks, Json(std::string(CompressionName(s.compression))),
        Json(std::string(DataBlockEncodingName(s.encoding))),
        Json(std::string(BloomTypeName(s.bloom_type))), s.block_size,
        Json(std::string(ChecksumTypeName(s.checksum_type))), r.write_seconds, r.verify_seconds);
  } else {
    out << fmt::format(
        "{} -> {}: {} cells, {} -> {} bytes ({:.1f}%), {} data blocks, {} {} bloom={} "
        "blocksize={} checksum={}; verified\n",
        in, out_path, r.cells, r.input_size, r.output_size,
        r.input_size ? 100.0 * r.output_size / r.input_size : 0.0, r.output_data_blocks,
        CompressionName(s.compression), DataBlockEncodingName(s.encoding),
        BloomTypeName(s.bloom_type), s.block_size, ChecksumTypeName(s.checksum_type));
  }
}

// --compare's lists, parsed; empty: the input's own (or, all empty, the library's default set).
struct CompareLists {
  std::vector<Compression> codecs;
  std::vector<int> levels;
  std::vector<DataBlockEncoding> encodings;
  std::vector<uint32_t> block_sizes;
  bool empty() const {
    return codecs.empty() && levels.empty() && encodings.empty() && block_sizes.empty();
  }
};

std::string LevelsText(Compression c) {
  auto r = LevelRange(c);
  return fmt::format("{} levels are {}..{}", CompressionName(c), r->first, r->second);
}

// The lists' names and levels, checked as a rewrite checks one value. A level that fits none of
// the listed codecs is a usage error; one that fits only some is skipped for the others.
Status ParseCompareLists(const RewriteFlags& f, CompareLists* l) {
  for (const auto& name : f.compressions) {
    auto c = ParseCompression(name);
    if (!c) {
      return Status::InvalidArgument(fmt::format(
          "--compression {}: unknown codec; valid: NONE, GZ, SNAPPY, LZ4, ZSTD, BZIP2, LZO, LZMA, "
          "BROTLI",
          name));
    }
    l->codecs.push_back(*c);
  }
  for (const auto& name : f.encodings) {
    auto e = ParseDataBlockEncoding(name);
    if (!e || *e == DataBlockEncoding::kPrefixTree) {
      return Status::InvalidArgument(fmt::format(
          "--encoding {}: unknown encoding; valid: NONE, PREFIX, DIFF, FAST_DIFF, ROW_INDEX_V1",
          name));
    }
    l->encodings.push_back(*e);
  }
  if (!f.levels.empty() && l->codecs.empty()) {
    return Status::InvalidArgument("--level needs --compression (each codec has its own levels)");
  }
  for (int level : f.levels) {
    std::string why;
    bool fits = false;
    for (Compression c : l->codecs) {
      auto r = LevelRange(c);
      if (r && level >= r->first && level <= r->second) fits = true;
      if (r) why += (why.empty() ? "" : ", ") + LevelsText(c);
    }
    if (!fits) {
      return Status::InvalidArgument(
          why.empty() ? fmt::format("--level {}: none of the codecs has compression levels", level)
                      : fmt::format("--level {}: {}", level, why));
    }
    l->levels.push_back(level);
  }
  l->block_sizes = f.block_sizes;
  return Status::OK();
}

// The cross product for one input; `notes` says which levels did not apply where.
std::vector<CompareCandidate> Candidates(const CompareLists& l, const Reader& in,
                                         std::vector<std::string>* notes) {
  std::vector<Compression> codecs = l.codecs;
  if (codecs.empty()) codecs.push_back(in.trailer().compression());
  std::vector<DataBlockEncoding> encodings = l.encodings;
  if (encodings.empty()) encodings.push_back(in.data_block_encoding());
  std::vector<uint32_t> sizes = l.block_sizes;
  if (sizes.empty()) {
    auto inferred = InferBlockSize(in);
    sizes.push_back(inferred.ok() ? *inferred : 65536);
  }
  std::vector<CompareCandidate> out;
  for (Compression c : codecs) {
    std::vector<int> levels;
    auto range = LevelRange(c);
    if (!range || l.levels.empty()) {
      if (range == std::nullopt && !l.levels.empty())
        notes->push_back(
            fmt::format("{} has no compression levels: one row, --level does not "
                        "apply",
                        CompressionName(c)));
      levels.push_back(0);
    } else {
      for (int level : l.levels) {
        if (level >= range->first && level <= range->second) {
          levels.push_back(level);
        } else {
          notes->push_back(fmt::format("level {} skipped for {} ({})", level, CompressionName(c),
                                       LevelsText(c)));
        }
      }
    }
    for (int level : levels)
      for (DataBlockEncoding e : encodings)
        for (uint32_t size : sizes) out.push_back({c, e, size, level});
  }
  return out;
}

// "3", "default" (0 on a codec with levels) or "-" (a codec without levels).
std::string LevelCell(const CompareCandidate& c) {
  if (!LevelRange(c.compression)) return "-";
  return c.level ? std::to_string(c.level) : "default";
}

int RunCompare(const RewriteFlags& f, const CompareLists& lists, std::ostream& out,
               std::ostream& err) {
  int code = kExitOk;
  Progress progress(err, kTool, f.progress);
  for (const auto& in : f.files) {
    CompareOptions co;
    co.sample_blocks = f.sample_blocks;
    if (progress.enabled()) {
      co.on_candidate = [&progress, &in](size_t i, size_t n, const CompareCandidate& c) {
        progress.Phase(fmt::format("trying {} of {}:", i + 1, n), 0, 0,
                       fmt::format("{} level {} {} {} ({})", CompressionName(c.compression),
                                   LevelCell(c), DataBlockEncodingName(c.encoding),
                                   c.block_size, in));
      };
    }
    std::vector<std::string> notes;
    if (!lists.empty()) {  // the combinations asked for
      auto reader = Reader::Open(in);
      if (!reader.ok()) {
        PrintError(err, "hfile-rewrite", reader.status());
        code = WorseExitCode(code, ExitCodeFor(reader.status()));
        continue;
      }
      co.candidates = Candidates(lists, **reader, &notes);
    }
    CompareReport rep;
    Status s = CompareRewrites(in, co, &rep);
    progress.Clear();
    if (!s.ok()) {
      PrintError(err, "hfile-rewrite", s);
      code = WorseExitCode(code, ExitCodeFor(s));
      continue;
    }
    if (!f.json) {
      out << fmt::format("{}: {} cells, {} unencoded bytes\n", in, rep.cells, rep.cell_bytes);
      for (const auto& n : notes) out << "note: " << n << "\n";
      out << fmt::format("{:<8} {:>7} {:<13} {:>9} {:>12} {:>7} {:>10} {:>10}\n", "codec", "level",
                         "encoding", "blocksize", "size", "ratio", "write MB/s", "read MB/s");
    }
    for (const auto& row : rep.rows) {
      const auto& c = row.candidate;
      if (f.json) {
        out << fmt::format(
            "{{\"kind\":\"compare\",\"v\":1,\"path\":{},\"input\":{},\"compression\":{},"
            "\"level\":{},\"encoding\":{},"
            "\"block_size\":{},\"size\":{},\"ratio\":{:.3f},\"write_mb_s\":{:.1f},"
            "\"read_mb_s\":{:.1f}}}\n",
            Json(in), Json(in), Json(std::string(CompressionName(c.compression))),
            c.level ? std::to_string(c.level) : "null",
            Json(std::string(DataBlockEncodingName(c.encoding))), c.block_size, row.output_size,
            row.ratio, row.write_mb_s, row.read_mb_s);
      } else {
        out << fmt::format("{:<8} {:>7} {:<13} {:>9} {:>12} {:>7.2f} {:>10.1f} {:>10.1f}\n",
                           CompressionName(c.compression), LevelCell(c),
                           DataBlockEncodingName(c.encoding), c.block_size, row.output_size,
                           row.ratio, row.write_mb_s, row.read_mb_s);
      }
    }
  }
  return code;
}

}  // namespace

int RunRewriteTool(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  CLI::App app{"Rewrite HFiles with another codec, encoding, bloom, block size or checksum.",
               kTool};
  AddStandardFlags(app);
  RewriteFlags f;
  app.add_option("files", f.files, "IN OUT, or IN... with --out-dir, or IN... with --compare");
  app.add_option("--out-dir", f.out_dir, "Write each input to DIR/<32 hex digits> (HBase naming)");
  app.add_option("--compression", f.compressions,
                 "NONE|GZ|SNAPPY|LZ4|ZSTD|BZIP2|LZO|LZMA|BROTLI (default: keep); with --compare "
                 "a list, e.g. ZSTD,LZ4,GZ")
      ->delimiter(',')
      ->allow_extra_args(false);
  app.add_option("--level", f.levels,
                 "With --compression: its level (GZ, BZIP2, LZMA 1..9; ZSTD 1..22; LZ4 1..12; "
                 "BROTLI 1..11; default: the codec's HBase default); with --compare a list")
      ->delimiter(',')
      ->allow_extra_args(false);
  app.add_option("--encoding", f.encodings,
                 "NONE|PREFIX|DIFF|FAST_DIFF|ROW_INDEX_V1 (default: keep); with --compare a list")
      ->delimiter(',')
      ->allow_extra_args(false);
  app.add_option("--bloom", f.bloom, "NONE|ROW|ROWCOL|ROWPREFIX_FIXED_LENGTH[:LEN] (default: keep)");
  app.add_option("--blocksize", f.block_sizes,
                 "Data block size in bytes (or 16K, 1M), 1024..16777216 as HBase allows "
                 "(default: inferred); with --compare a list")
      ->delimiter(',')
      ->allow_extra_args(false)
      ->transform(BlockSize());
  app.add_option("--checksum", f.checksum, "NULL|CRC32|CRC32C (default: keep)");
  app.add_flag("--in-place", f.in_place,
               "Allow OUT to be IN itself: the new file replaces it only once written, fsynced "
               "and verified");
  app.add_flag("--trust-inputs", f.trust_inputs,
               "Skip the full verification of each input (the cheap trailer/block checks and the "
               "cell count still run)");
  app.add_flag("--json", f.json, "Print one JSON object per file (per combination with --compare)");
  app.add_flag("--compare", f.compare,
               "Try codec/encoding/block-size combinations and print a table; writes nothing");
  app.add_option("--sample-blocks", f.sample_blocks,
                 "With --compare: use only about N data blocks' worth of cells")
      ->check(IntegerIn(0, INT64_MAX));
  AddProgressFlags(app, &f.progress);
  if (auto code = ParseArgs(app, argc, argv, out, err)) return *code;
  if (!f.compare) {
    for (auto [flag, n] : {std::pair{"--compression", f.compressions.size()},
                           {"--level", f.levels.size()},
                           {"--encoding", f.encodings.size()},
                           {"--blocksize", f.block_sizes.size()}}) {
      if (n > 1)
        return UsageError(err, kTool,
                          fmt::format("{} takes one value (lists only with --compare)", flag));
    }
  }
  if (!f.compare || (f.compressions.size() <= 1 && f.levels.size() <= 1)) {
    // One codec and level: checked as a rewrite checks them.
    if (!f.compressions.empty()) f.compression = f.compressions[0];
    if (!f.levels.empty()) f.level = f.levels[0];
  }
  if (!f.compare || f.encodings.size() <= 1) {
    if (!f.encodings.empty()) f.encoding = f.encodings[0];
  }
  if (f.block_sizes.size() == 1) f.block_size = f.block_sizes[0];
  RewriteOptions ro;
  if (Status s = ParseOptions(f, &ro); !s.ok()) return UsageError(err, kTool, s.message());
  if (f.files.empty()) return UsageError(err, kTool, "no input files");
  if (f.compare && !f.out_dir.empty()) {
    return UsageError(err, kTool, "--compare writes nothing: --out-dir does not go with it");
  }
  if (!f.compare && app.count("--sample-blocks")) {
    return UsageError(err, kTool, "--sample-blocks needs --compare");
  }
  if (f.compare) {
    CompareLists lists;
    if (Status s = ParseCompareLists(f, &lists); !s.ok())
      return UsageError(err, kTool, s.message());
    return RunCompare(f, lists, out, err);
  }

  std::vector<std::pair<std::string, std::string>> jobs;
  if (!f.out_dir.empty()) {
    if (std::error_code ec; !std::filesystem::is_directory(f.out_dir, ec)) {
      if (std::filesystem::exists(f.out_dir, ec)) {
        return UsageError(err, kTool, "--out-dir " + f.out_dir + ": not a directory");
      }
      return ReportError(err, kTool, Status::NotFound(f.out_dir, "No such file or directory"));
    }
    // "IN OUT --out-dir DIR" mixes the two forms: refuse it before writing anything, rather
    // than rewrite IN into DIR and then fail on OUT as an input.
    std::error_code ec;
    if (f.files.size() == 2 && !std::filesystem::exists(f.files[1], ec)) {
      return UsageError(err, kTool,
                        fmt::format("with --out-dir every argument is an input, and {} does not "
                                    "exist; give IN OUT, or IN... --out-dir DIR",
                                    f.files[1]));
    }
    std::vector<std::string> stale;
    if (Status s = RemoveStaleStoreFileTemps(f.out_dir, &stale); !s.ok())
      return ReportError(err, kTool, s);
    for (const auto& p : stale)
      err << "hfile-rewrite: removed " << p << ", left by an earlier run that was killed\n";
    for (const auto& in : f.files) jobs.emplace_back(in, f.out_dir + "/" + NewStoreFileName());
  } else if (f.files.size() == 2) {
    jobs.emplace_back(f.files[0], f.files[1]);
  } else {
    return UsageError(err, kTool, "give IN OUT, or IN... --out-dir DIR");
  }
  Progress progress(err, kTool, f.progress);
  ro.in_place = f.in_place;
  ro.verify_input = !f.trust_inputs;
  ro.cancel = InstallInterruptHandlers();
  int code = kExitOk;
  for (const auto& [in, out_path] : jobs) {
    if (progress.enabled()) {
      // Each phase reads every cell once: bytes are the input's size in proportion.
      std::error_code ec;
      const uint64_t size = std::filesystem::file_size(in, ec);
      const uint64_t in_size = ec ? 0 : size;
      ro.phase = [&progress, in_size, label = in + " -> " + out_path](const char* phase) {
        progress.Phase(phase, in_size, 0, label);
      };
      ro.progress = [&progress, in_size](uint64_t n, uint64_t total) {
        progress.Update(
            total ? static_cast<uint64_t>(in_size * (static_cast<double>(n) / total)) : in_size, n);
      };
    }
    RewriteResult r;
    Status s = RewriteFile(in, out_path, ro, &r);
    progress.Clear();
    for (const auto& stale : r.stale_removed)
      err << "hfile-rewrite: removed " << stale << ", left by an earlier run that was killed\n";
    if (int sig = InterruptExitCode()) {
      err << "hfile-rewrite: interrupted; " << out_path << " was not written, " << in
          << " is untouched\n";
      return sig;
    }
    if (!s.ok()) {
      if (f.json) out << JsonErrorRecord(in, s);
      PrintError(err, "hfile-rewrite", s);
      code = WorseExitCode(code, ExitCodeFor(s));
      continue;
    }
    if (f.json || !f.progress.quiet) PrintResult(in, out_path, r, f.json, out);
  }
  return code;
}

}  // namespace hfile::cli
