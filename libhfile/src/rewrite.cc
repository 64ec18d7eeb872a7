// RewriteFile: check the input; input settings + overrides -> Writer into a staging name; copy
// cells and meta blocks; read back and compare; VerifyFile; only then rename to the output path.
#include <fmt/format.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <random>

#include "hfile/input_check.h"
#include "hfile/rewrite.h"
#include "hfile/temp_files.h"
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

Status CompareFileContents(const Reader& a, const Reader& b,
                           const std::function<void(uint64_t, uint64_t)>& progress) {
  auto ia = a.NewIterator(), ib = b.NewIterator();
  const uint64_t total = a.trailer().entry_count;
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
    if (progress && (n & 0xFFFF) == 0) progress(n, total);
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

namespace {

// True when `a` and `b` are one file (same device and inode): a path, a hard link, a symlink.
bool SameFile(const std::string& a, const std::string& b) {
  struct stat x, y;
  return ::stat(a.c_str(), &x) == 0 && ::stat(b.c_str(), &y) == 0 && x.st_dev == y.st_dev &&
         x.st_ino == y.st_ino;
}

bool Cancelled(const RewriteOptions& o) {
  return o.cancel && o.cancel->load(std::memory_order_relaxed);
}

Status Interrupted(const std::string& out_path) {
  return Status::IOError("interrupted: nothing was written to", out_path);
}

// Removes the staging file unless released (every early return of RewriteFile).
class StagingGuard {
 public:
  explicit StagingGuard(std::string path) : path_(std::move(path)) {}
  ~StagingGuard() {
    if (!path_.empty()) ::unlink(path_.c_str());
  }
  void Release() { path_.clear(); }

 private:
  std::string path_;
};

Status SyncParentDir(const std::string& path) {
  auto slash = path.rfind('/');
  std::string dir = slash == std::string::npos ? "." : (slash == 0 ? "/" : path.substr(0, slash));
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return Status::IOError("cannot open the output directory " + dir, std::strerror(errno));
  int rc = ::fsync(fd);
  const int err = errno;
  ::close(fd);
  if (rc != 0) return Status::IOError("cannot fsync the output directory " + dir, std::strerror(err));
  return Status::OK();
}

}  // namespace

Status RewriteFile(const std::string& in_path, const std::string& out_path,
                   const RewriteOptions& options, RewriteResult* result) {
  RewriteResult local;
  RewriteResult* res = result ? result : &local;
  if (!options.in_place && SameFile(in_path, out_path)) {
    return Status::InvalidArgument(
        fmt::format("the output {} is the input {} itself (same file); give another output, or "
                    "--in-place to replace the input once the new file is verified",
                    out_path, in_path));
  }
  HFILE_ASSIGN_OR_RETURN(auto in, Reader::Open(in_path));
  const uint64_t total = in->trailer().entry_count;
  // VerifyFile reports no progress of its own: count the cells it walks.
  auto counting = [&options, total](VerifyOptions* vo) {
    if (!options.progress) return;
    vo->on_cell = [&options, total, n = uint64_t{0}](const Cell&) mutable {
      if ((++n & 0xFFFF) == 0) options.progress(n, total);
    };
  };
  InputCheckOptions check;
  check.full = options.verify_input;
  if (check.full && options.phase) options.phase("checking input");
  counting(&check.verify);
  InputCheckReport checked;
  HFILE_RETURN_IF_ERROR(CheckInput(*in, check, &checked));
  res->input_warnings = checked.warnings;
  HFILE_ASSIGN_OR_RETURN(WriterOptions o, WriterOptionsFromFile(*in));
  if (options.block_size) {
    o.block_size = *options.block_size;
  } else {
    HFILE_ASSIGN_OR_RETURN(o.block_size, InferBlockSize(*in));
  }
  HFILE_RETURN_IF_ERROR(ApplyOverrides(options, &o));
  res->settings = o;
  res->input_size = in->file_size();
  HFILE_RETURN_IF_ERROR(RemoveStaleTempFiles(out_path, &res->stale_removed));

  const std::string staging = TempPathFor(out_path, "rewrite", ::getpid());
  StagingGuard guard(staging);
  if (options.phase) options.phase("writing");
  const auto t0 = std::chrono::steady_clock::now();
  WriterStats stats;
  {
    HFILE_ASSIGN_OR_RETURN(auto w, Writer::Create(staging, o));
    auto it = in->NewIterator();
    uint64_t n = 0;
    CellBatch batch;  // a data block's cells at a time
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      it->ReadBatch(&batch);
      if (Status s = w->AppendBatch(batch); !s.ok()) {
        // The Writer refuses a cell only when it breaks the order (the input is damaged);
        // anything else is the output's file system.
        if (s.IsInvalidArgument()) return Status::Corruption(in_path, s.message());
        return s.WithContext("writing " + out_path);
      }
      const uint64_t before = n;
      n += batch.size();
      if ((n >> 12) != (before >> 12)) {
        if (Cancelled(options)) return Interrupted(out_path);
        if (options.progress && (n >> 16) != (before >> 16)) options.progress(n, total);
      }
    }
    HFILE_RETURN_IF_ERROR(it->status().WithContext(in_path));
    HFILE_RETURN_IF_ERROR(CheckCellsRead(*in, n));
    for (const auto& name : in->MetaBlockNames()) {
      HFILE_ASSIGN_OR_RETURN(std::string bytes, in->ReadMetaBlock(name));
      HFILE_RETURN_IF_ERROR(w->AppendMetaBlock(name, bytes));
      ++res->meta_blocks;
    }
    if (Cancelled(options)) return Interrupted(out_path);
    if (Status s = w->Finish(&stats); !s.ok()) return s.WithContext("writing " + out_path);
    if (options.progress) options.progress(total, total);
  }
  res->write_seconds = SecondsSince(t0);
  res->cells = stats.entries;
  res->output_size = stats.file_size;
  res->output_data_blocks = stats.data_blocks;

  if (options.verify) {
    if (options.verifying) options.verifying();
    const auto t1 = std::chrono::steady_clock::now();
    // A read error on the new file is the output's I/O problem; a difference is corruption.
    auto fail = [&](const Status& s) {
      if (s.IsIOError() || s.IsNotFound()) return s.WithContext("verifying " + out_path);
      return Status::Corruption(
          fmt::format("verification of {} failed: {}", out_path, s.ToString()));
    };
    auto out = Reader::Open(staging);
    if (!out.ok()) return fail(out.status());
    if (options.phase) options.phase("comparing");
    if (Status s = CompareFileContents(*in, **out, options.progress); !s.ok()) return fail(s);
    if (Cancelled(options)) return Interrupted(out_path);
    if (options.phase) options.phase("verifying output");
    VerifyOptions verify_out;
    counting(&verify_out);
    VerifyReport rep = VerifyFile(staging, verify_out);
    if (!rep.open_status.ok()) return fail(rep.open_status);
    if (!rep.io_error.ok()) return fail(rep.io_error);
    // Warnings the input already had may carry over, and HBase's own bloom misses in
    // hbase:meta-ordered files are what HBase's writer writes, not a defect.
    const uint64_t allowed_warnings =
        std::max<uint64_t>(checked.verified ? checked.warnings : 0, rep.hbase_bloom_denials);
    if (rep.problem_count > 0 || rep.warning_count > allowed_warnings) {
      return fail(Status::Corruption(fmt::format(
          "{} errors, {} warnings; first: {}", rep.problem_count, rep.warning_count,
          rep.problems.empty() ? std::string("-") : rep.problems[0].what)));
    }
    res->output_data_blocks = rep.data_blocks;
    res->verify_seconds = SecondsSince(t1);
  }
  if (Cancelled(options)) return Interrupted(out_path);
  if (::rename(staging.c_str(), out_path.c_str()) != 0) {
    return Status::IOError(fmt::format("cannot rename {} to {}", staging, out_path),
                           std::strerror(errno));
  }
  guard.Release();
  return SyncParentDir(out_path);
}

}  // namespace hfile
