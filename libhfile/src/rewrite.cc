// RewriteFile: input settings + overrides -> Writer; copy cells and meta blocks; read back and
// compare; VerifyFile. Nothing stays at the output path unless every check passed.
#include <fmt/format.h>

#include <chrono>
#include <filesystem>
#include <random>

#include "hfile/rewrite.h"
#include "hfile/verify.h"

namespace hfile {

namespace {

double SecondsSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

Status ApplyOverrides(const RewriteOptions& ro, WriterOptions* o) {
  if (ro.compression) o->compression = *ro.compression;
  if (ro.compression_level) o->compression_level = *ro.compression_level;
  if (ro.encoding) o->encoding = *ro.encoding;
  if (ro.bloom_type) o->bloom_type = *ro.bloom_type;
  if (ro.bloom_prefix_length) o->bloom_prefix_length = *ro.bloom_prefix_length;
  if (ro.checksum_type) o->checksum_type = *ro.checksum_type;
  if (ro.index_block_max_size) o->index_block_max_size = *ro.index_block_max_size;
  if (ro.index_min_entries) o->index_min_entries = *ro.index_min_entries;
  if (ro.bloom_type && *ro.bloom_type != BloomType::kNone && !o->store_file &&
      o->comparator != ComparatorKind::kRawBytes) {
    o->store_file = true;  // a bloom is a store-file feature
  }
  if (o->bloom_type == BloomType::kRowPrefixFixedLength && o->bloom_prefix_length <= 0) {
    return Status::InvalidArgument("ROWPREFIX_FIXED_LENGTH needs a prefix length (ROWPREFIX_FIXED_LENGTH:LEN)");
  }
  return Status::OK();
}

}  // namespace

std::string NewStoreFileName() {
  std::random_device rd;
  std::mt19937_64 rng((uint64_t{rd()} << 32) ^ rd());
  uint8_t b[16];
  for (int i = 0; i < 16; i += 8) {
    uint64_t v = rng();
    for (int j = 0; j < 8; ++j) b[i + j] = static_cast<uint8_t>(v >> (8 * j));
  }
  b[6] = static_cast<uint8_t>((b[6] & 0x0F) | 0x40);  // version 4
  b[8] = static_cast<uint8_t>((b[8] & 0x3F) | 0x80);  // IETF variant
  std::string s;
  for (uint8_t x : b) s += fmt::format("{:02x}", x);
  return s;
}

Status CompareFileContents(const Reader& a, const Reader& b) {
  auto ia = a.NewIterator(), ib = b.NewIterator();
  uint64_t n = 0;
  for (ia->SeekToFirst(), ib->SeekToFirst(); ia->Valid() && ib->Valid(); ia->Next(), ib->Next()) {
    const Cell &x = ia->cell(), &y = ib->cell();
    if (x.key != y.key || x.value != y.value || x.tags != y.tags ||
        x.sequence_id != y.sequence_id) {
      return Status::Corruption(fmt::format("cell #{} differs: {} vs {}", n,
                                            DescribeKey(x.key, a.comparator()),
                                            DescribeKey(y.key, b.comparator())));
    }
    ++n;
  }
  HFILE_RETURN_IF_ERROR(ia->status().WithContext(a.path()));
  HFILE_RETURN_IF_ERROR(ib->status().WithContext(b.path()));
  if (ia->Valid() || ib->Valid()) {
    return Status::Corruption(fmt::format("cell counts differ after {} equal cells", n));
  }
  if (a.MetaBlockNames() != b.MetaBlockNames()) return Status::Corruption("meta blocks differ");
  for (const auto& name : a.MetaBlockNames()) {
    HFILE_ASSIGN_OR_RETURN(std::string x, a.ReadMetaBlock(name));
    HFILE_ASSIGN_OR_RETURN(std::string y, b.ReadMetaBlock(name));
    if (x != y) return Status::Corruption(fmt::format("meta block '{}' differs", name));
  }
  return Status::OK();
}

Status RewriteFile(const std::string& in_path, const std::string& out_path,
                   const RewriteOptions& options, RewriteResult* result) {
  RewriteResult local;
  RewriteResult* res = result ? result : &local;
  HFILE_ASSIGN_OR_RETURN(auto in, Reader::Open(in_path));
  HFILE_ASSIGN_OR_RETURN(WriterOptions o, WriterOptionsFromFile(*in));
  if (options.block_size) {
    o.block_size = *options.block_size;
  } else {
    HFILE_ASSIGN_OR_RETURN(o.block_size, InferBlockSize(*in));
  }
  HFILE_RETURN_IF_ERROR(ApplyOverrides(options, &o));
  res->settings = o;
  res->input_size = in->file_size();

  const auto t0 = std::chrono::steady_clock::now();
  const uint64_t total = in->trailer().entry_count;
  WriterStats stats;
  {
    HFILE_ASSIGN_OR_RETURN(auto w, Writer::Create(out_path, o));
    auto it = in->NewIterator();
    uint64_t n = 0;
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      Status s = w->Append(it->cell());
      if (!s.ok()) {  // the input breaks the cell order: it is damaged
        return Status::Corruption(fmt::format("{}: {}", in_path, s.message()));
      }
      if (options.progress && (++n & 0xFFFF) == 0) options.progress(n, total);
    }
    HFILE_RETURN_IF_ERROR(it->status().WithContext(in_path));
    for (const auto& name : in->MetaBlockNames()) {
      HFILE_ASSIGN_OR_RETURN(std::string bytes, in->ReadMetaBlock(name));
      HFILE_RETURN_IF_ERROR(w->AppendMetaBlock(name, bytes));
      ++res->meta_blocks;
    }
    HFILE_RETURN_IF_ERROR(w->Finish(&stats));
    if (options.progress) options.progress(total, total);
  }
  res->write_seconds = SecondsSince(t0);
  res->cells = stats.entries;
  res->output_size = stats.file_size;
  res->output_data_blocks = stats.data_blocks;
  if (!options.verify) return Status::OK();

  const auto t1 = std::chrono::steady_clock::now();
  auto fail = [&](Status s) {
    std::error_code ec;
    std::filesystem::remove(out_path, ec);
    return Status::Corruption(fmt::format("verification of {} failed: {}", out_path, s.ToString()));
  };
  auto out = Reader::Open(out_path);
  if (!out.ok()) return fail(out.status());
  Status s = CompareFileContents(*in, **out);
  if (!s.ok()) return fail(s);
  VerifyReport rep = VerifyFile(out_path, VerifyOptions());
  // HBase's own bloom misses in hbase:meta files are what HBase's writer writes, not a defect.
  if (!rep.clean() || rep.warning_count > rep.hbase_bloom_denials) {
    return fail(Status::Corruption(fmt::format(
        "{} errors, {} warnings; first: {}", rep.problem_count, rep.warning_count,
        rep.problems.empty() ? rep.open_status.ToString() : rep.problems[0].what)));
  }
  res->output_data_blocks = rep.data_blocks;
  res->verify_seconds = SecondsSince(t1);
  return Status::OK();
}

}  // namespace hfile
