// `hfile rewrite`: flags -> RewriteOptions -> RewriteFile per input (or CompareRewrites with
// --compare). All format logic lives in libhfile (hfile/rewrite.h).
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <filesystem>
#include <ostream>

#include "cli_common.h"
#include "hfile/escape.h"
#include "hfile/rewrite.h"

namespace hfile::cli {

namespace {

struct RewriteFlags {
  std::vector<std::string> files;
  std::string out_dir, compression, encoding, bloom, checksum;
  std::optional<int> level;
  std::optional<uint32_t> block_size;
  bool json = false, compare = false, in_place = false, trust_inputs = false;
  uint64_t sample_blocks = 0;
};

Status ParseOptions(const RewriteFlags& f, RewriteOptions* o) {
  if (!f.compression.empty()) {
    auto c = ParseCompression(f.compression);
    if (!c) return Status::InvalidArgument("unknown --compression", f.compression);
    o->compression = *c;
  }
  if (!f.encoding.empty()) {
    auto e = ParseDataBlockEncoding(f.encoding);
    if (!e || *e == DataBlockEncoding::kPrefixTree) {
      return Status::InvalidArgument("unknown --encoding", f.encoding);
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
    if (!b) return Status::InvalidArgument("unknown --bloom", f.bloom);
    o->bloom_type = *b;
    if (!len.empty()) {
      try {
        o->bloom_prefix_length = std::stoi(len);
      } catch (...) {
        return Status::InvalidArgument("bad --bloom prefix length", len);
      }
    }
  }
  if (!f.checksum.empty()) {
    auto c = ParseChecksumType(f.checksum);
    if (!c) return Status::InvalidArgument("unknown --checksum", f.checksum);
    o->checksum_type = *c;
  }
  o->compression_level = f.level;
  if (f.block_size) {
    if (*f.block_size == 0) return Status::InvalidArgument("--blocksize must be > 0");
    o->block_size = *f.block_size;
  }
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
        "{{\"input\":{},\"output\":{},\"cells\":{},\"meta_blocks\":{},\"input_bytes\":{},"
        "\"output_bytes\":{},\"data_blocks\":{},\"compression\":{},\"encoding\":{},\"bloom\":{},"
        "\"block_size\":{},\"checksum\":{},\"write_seconds\":{:.3f},\"verify_seconds\":{:.3f},"
        "\"verified\":true}}\n",
        Json(in), Json(out_path), r.cells, r.meta_blocks, r.input_size, r.output_size,
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

int RunCompare(const RewriteFlags& f, const RewriteOptions& ro, std::ostream& out,
               std::ostream& err) {
  int code = kExitOk;
  for (const auto& in : f.files) {
    CompareOptions co;
    co.sample_blocks = f.sample_blocks;
    if (ro.compression || ro.encoding || ro.block_size) {  // one explicit combination
      CompareCandidate c;
      auto reader = Reader::Open(in);
      if (!reader.ok()) {
        PrintError(err, "hfile-rewrite", reader.status());
        code = WorseExitCode(code, ExitCodeFor(reader.status()));
        continue;
      }
      c.compression = ro.compression.value_or((*reader)->trailer().compression());
      c.encoding = ro.encoding.value_or((*reader)->data_block_encoding());
      c.block_size = ro.block_size.value_or(InferBlockSize(**reader).status().ok()
                                                ? *InferBlockSize(**reader)
                                                : 65536);
      co.candidates.push_back(c);
    }
    CompareReport rep;
    Status s = CompareRewrites(in, co, &rep);
    if (!s.ok()) {
      PrintError(err, "hfile-rewrite", s);
      code = WorseExitCode(code, ExitCodeFor(s));
      continue;
    }
    if (!f.json) {
      out << fmt::format("{}: {} cells, {} unencoded bytes\n", in, rep.cells, rep.cell_bytes);
      out << fmt::format("{:<8} {:<13} {:>9} {:>12} {:>7} {:>10} {:>10}\n", "codec", "encoding",
                         "blocksize", "size", "ratio", "write MB/s", "read MB/s");
    }
    for (const auto& row : rep.rows) {
      const auto& c = row.candidate;
      if (f.json) {
        out << fmt::format(
            "{{\"input\":{},\"compression\":{},\"encoding\":{},\"block_size\":{},\"size\":{},"
            "\"ratio\":{:.3f},\"write_mb_s\":{:.1f},\"read_mb_s\":{:.1f}}}\n",
            Json(in), Json(std::string(CompressionName(c.compression))),
            Json(std::string(DataBlockEncodingName(c.encoding))), c.block_size, row.output_size,
            row.ratio, row.write_mb_s, row.read_mb_s);
      } else {
        out << fmt::format("{:<8} {:<13} {:>9} {:>12} {:>7.2f} {:>10.1f} {:>10.1f}\n",
                           CompressionName(c.compression), DataBlockEncodingName(c.encoding),
                           c.block_size, row.output_size, row.ratio, row.write_mb_s,
                           row.read_mb_s);
      }
    }
  }
  return code;
}

}  // namespace

int RunRewriteTool(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  CLI::App app{"Rewrite HFiles with another codec, encoding, bloom, block size or checksum.",
               "hfile-rewrite"};
  app.set_help_flag("--help", "Print this help and exit");
  RewriteFlags f;
  app.add_option("files", f.files, "IN OUT, or IN... with --out-dir, or IN... with --compare");
  app.add_option("--out-dir", f.out_dir, "Write each input to DIR/<32 hex digits> (HBase naming)");
  app.add_option("--compression", f.compression,
                 "NONE|GZ|SNAPPY|LZ4|ZSTD|BZIP2|LZO|LZMA|BROTLI (default: keep)");
  app.add_option("--level", f.level, "Compression level (default: the codec's HBase default)");
  app.add_option("--encoding", f.encoding, "NONE|PREFIX|DIFF|FAST_DIFF|ROW_INDEX_V1 (default: keep)");
  app.add_option("--bloom", f.bloom, "NONE|ROW|ROWCOL|ROWPREFIX_FIXED_LENGTH[:LEN] (default: keep)");
  app.add_option("--blocksize", f.block_size, "Data block size in bytes (default: inferred)");
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
                 "With --compare: use only about N data blocks' worth of cells");
  if (auto code = ParseArgs(app, argc, argv, out, err)) return *code;
  RewriteOptions ro;
  if (Status s = ParseOptions(f, &ro); !s.ok()) {
    PrintError(err, "hfile-rewrite", s);
    return kExitUsage;
  }
  if (f.files.empty()) {
    err << "hfile-rewrite: no input files\nRun with --help for usage.\n";
    return kExitUsage;
  }
  if (f.compare) return RunCompare(f, ro, out, err);

  std::vector<std::pair<std::string, std::string>> jobs;
  if (!f.out_dir.empty()) {
    for (const auto& in : f.files) jobs.emplace_back(in, f.out_dir + "/" + NewStoreFileName());
  } else if (f.files.size() == 2) {
    jobs.emplace_back(f.files[0], f.files[1]);
  } else {
    err << "hfile-rewrite: give IN OUT, or inputs with --out-dir DIR\nRun with --help for usage.\n";
    return kExitUsage;
  }
  const bool progress = StderrIsTerminal() && !f.json;
  ro.in_place = f.in_place;
  ro.verify_input = !f.trust_inputs;
  ro.cancel = InstallInterruptHandlers();
  int code = kExitOk;
  for (const auto& [in, out_path] : jobs) {
    if (progress) {
      ro.progress = [&err, in = in](uint64_t n, uint64_t total) {
        err << fmt::format("\rrewriting {}: {}/{} cells ({:.0f}%)", in, n, total,
                           total ? 100.0 * n / total : 100.0)
            << std::flush;
      };
      ro.verifying = [&err, out_path = out_path] {
        err << fmt::format("\r\033[Kverifying {}", out_path) << std::flush;
      };
    }
    RewriteResult r;
    Status s = RewriteFile(in, out_path, ro, &r);
    if (progress) err << "\r\033[K" << std::flush;
    for (const auto& stale : r.stale_removed)
      err << "hfile-rewrite: removed " << stale << ", left by an earlier run that was killed\n";
    if (int sig = InterruptExitCode()) {
      err << "hfile-rewrite: interrupted; " << out_path << " was not written, " << in
          << " is untouched\n";
      return sig;
    }
    if (!s.ok()) {
      PrintError(err, "hfile-rewrite", s);
      code = WorseExitCode(code, ExitCodeFor(s));
      continue;
    }
    PrintResult(in, out_path, r, f.json, out);
  }
  return code;
}

}  // namespace hfile::cli
