// hfile-bench: one measurement per process, printed as one JSON line, so that the driver
// (scripts/bench.sh) can take each process's peak RSS and pair hfilekit with a peer run by run.
//
//   hfile-bench gen --dir DIR --bytes N [--seed S] [--gets N] [--max-value N]
//   hfile-bench run --impl hfilekit|rocksdb|floor --op OP --codec C [--level L]
//                   [--encoding E] --dir DIR --file PATH [--inputs A,B,..] [--out PATH]
//                   [--to-codec C] [--threads N]
//
// Operations (cell bytes = key + value bytes of the cells in cells.bin):
//   write       cells.bin -> --file (hfilekit: hfile::Writer; rocksdb: SstFileWriter;
//               floor: the data blocks of --file recompressed + checksummed + written to --out)
//   scan        full scan of --file (or of --inputs with --threads N), checksums verified
//   get         the rows of gets.bin, each Seek + read of the whole row, no bloom consulted
//   get-bloom   the same, asking the row bloom first
//   verify      hfile::VerifyFile (--threads 2: with read-ahead) / rocksdb
//               SstFileReader::VerifyChecksum
//   compact     --inputs (4 files) merged, major-compaction filtered, written to --out; with
//               --threads 2 (hfilekit) through the store rewrite `hfile compact` runs
//               (region::RewriteStore: the reading thread and the writing thread, the output
//               verified on the writer's worker, the inputs' cheap checks as --trust-inputs)
//   rewrite     --file rewritten with --to-codec into --out
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "bench_data.h"
#include "block_header.h"
#include "checksum.h"
#include "compression.h"
#include "file.h"
#include "hfile/reader.h"
#include "hfile/verify.h"

#if __has_include("hfile/writer.h") && __has_include("region/compaction.h")
#define HFILE_BENCH_HAVE_WRITER 1
#include "hfile/rewrite.h"
#include "hfile/writer.h"
#include "region/compaction.h"
#include "region/merging_iterator.h"
#include "region/store_rewrite.h"
#include "region/tool_threads.h"
#else
#define HFILE_BENCH_HAVE_WRITER 0
#endif

#ifdef HFILE_BENCH_HAVE_ROCKSDB
#include <rocksdb/db.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/iterator.h>
#include <rocksdb/options.h>
#include <rocksdb/slice_transform.h>
#include <rocksdb/sst_file_reader.h>
#include <rocksdb/sst_file_writer.h>
#include <rocksdb/table.h>
#endif

namespace hfile::bench {
namespace {

using Clock = std::chrono::steady_clock;

double Since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

struct Args {
  std::map<std::string, std::string> kv;
  std::string Get(const std::string& k, const std::string& def = "") const {
    auto it = kv.find(k);
    return it == kv.end() ? def : it->second;
  }
};

struct Setting {
  Compression codec = Compression::kNone;
  int level = 0;
  DataBlockEncoding encoding = DataBlockEncoding::kNone;
};

struct Measurement {
  double seconds = 0;
  uint64_t cells = 0;   // cells processed (for gets: cells returned)
  uint64_t bytes = 0;   // cell bytes processed
  uint64_t items = 0;   // gets issued (get ops), files (multi-file ops)
  uint64_t found = 0;   // gets that found their row
  uint64_t file_size = 0;
  std::string note;
};

std::vector<std::string> SplitList(const std::string& s) {
  std::vector<std::string> out;
  size_t p = 0;
  while (p <= s.size() && !s.empty()) {
    size_t q = s.find(',', p);
    if (q == std::string::npos) q = s.size();
    out.push_back(s.substr(p, q - p));
    p = q + 1;
  }
  return out;
}

uint64_t FileSize(const std::string& path) {
  FILE* f = fopen(path.c_str(), "rb");
  if (!f) return 0;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fclose(f);
  return n < 0 ? 0 : static_cast<uint64_t>(n);
}

// ---------------------------------------------------------------------------------------------
// The floor: the data blocks of an HFile through the codec and the checksum alone.

struct RawBlock {
  uint64_t offset;
  BlockHeader header;
};

// The data blocks of `path`, in file order.
Result<std::vector<RawBlock>> DataBlocks(const RandomAccessFile& file, const Reader& reader) {
  std::vector<RawBlock> blocks;
  uint64_t end = reader.trailer().load_on_open_data_offset;
  char hdr[kBlockHeaderSizeWithChecksum];
  for (uint64_t off = 0; off < end;) {
    HFILE_RETURN_IF_ERROR(file.Read(off, sizeof hdr, hdr));
    RawBlock b{off, {}};
    HFILE_RETURN_IF_ERROR(b.header.DecodeFrom(Slice(hdr, sizeof hdr), sizeof hdr));
    if (b.header.type == BlockType::kData || b.header.type == BlockType::kEncodedData)
      blocks.push_back(b);
    off += b.header.on_disk_size_with_header();
  }
  return blocks;
}

// A growable buffer that never zero-fills (std::string::resize would, on every larger block).
class Buf {
 public:
  char* Get(size_t n) {
    if (n > cap_) {
      cap_ = std::max(n, cap_ * 2);
      p_.reset(new char[cap_]);
    }
    return p_.get();
  }

 private:
  std::unique_ptr<char[]> p_;
  size_t cap_ = 0;
};

// Reads one block's on-disk bytes, verifies its checksums and decompresses its body: what any
// reader must do per block, whatever the format. Returns the uncompressed body.
Result<Slice> FloorReadBlock(const RandomAccessFile& file, Compression codec, const RawBlock& b,
                             Buf* raw, Buf* body) {
  const BlockHeader& h = b.header;
  char* r = raw->Get(h.on_disk_size_with_header());
  HFILE_RETURN_IF_ERROR(file.Read(b.offset, h.on_disk_size_with_header(), r));
  Slice data(r, h.on_disk_data_size_with_header);
  Slice sums(r + h.on_disk_data_size_with_header, h.checksum_bytes());
  HFILE_RETURN_IF_ERROR(VerifyChecksums(h.checksum_type, h.bytes_per_checksum, data, sums));
  Slice on_disk(r + h.header_size, h.on_disk_body_size());
  if (codec == Compression::kNone) return on_disk;
  char* u = body->Get(h.uncompressed_size_without_header);
  HFILE_RETURN_IF_ERROR(Decompress(codec, on_disk, u, h.uncompressed_size_without_header));
  return Slice(u, h.uncompressed_size_without_header);
}

// Where the data blocks of one file are: known before the clock starts (a reader learns it
// from the index, which the floor does not read).
struct FloorInput {
  std::unique_ptr<RandomAccessFile> file;
  Compression codec;
  std::vector<RawBlock> blocks;
};

Result<FloorInput> FloorOpen(const std::string& path) {
  FloorInput in;
  HFILE_ASSIGN_OR_RETURN(auto reader, Reader::Open(path));
  HFILE_ASSIGN_OR_RETURN(in.file, RandomAccessFile::Open(path));
  HFILE_ASSIGN_OR_RETURN(in.blocks, DataBlocks(*in.file, *reader));
  in.codec = *CompressionFromOrdinal(reader->trailer().compression_ordinal);
  return in;
}

// Reads + verifies + decompresses every data block of `inputs`; returns the seconds it took.
Result<double> FloorScan(const std::vector<std::string>& paths, uint64_t* blocks_out) {
  std::vector<FloorInput> inputs;
  for (const std::string& p : paths) {
    HFILE_ASSIGN_OR_RETURN(FloorInput in, FloorOpen(p));
    inputs.push_back(std::move(in));
  }
  Buf raw, body;
  auto t = Clock::now();
  for (const FloorInput& in : inputs) {
    in.file->AdviseSequential();
    for (const RawBlock& b : in.blocks) {
      HFILE_ASSIGN_OR_RETURN(Slice s, FloorReadBlock(*in.file, in.codec, b, &raw, &body));
      (void)s;
    }
    *blocks_out += in.blocks.size();
  }
  return Since(t);
}

// Reads `path` through to its end in 1 MiB freads, as CellFileReader does, into one reused
// buffer: the input side every writer's measured time includes.
Status FloorReadCells(const std::string& path) {
  FILE* f = fopen(path.c_str(), "rb");
  if (!f) return Status::IOError("cannot open", path);
  std::vector<char> buf(1 << 20);
  while (fread(buf.data(), 1, buf.size(), f) == buf.size()) {
  }
  const bool failed = ferror(f) != 0;
  fclose(f);
  return failed ? Status::IOError("read failed", path) : Status::OK();
}

// Compresses + checksums + writes the data blocks of `in` with `codec`; only that is timed
// (reading and decompressing the input blocks is not), and, when `cells` is not empty, reading
// the cells file whole before, which every writer measured against this floor does as it goes
// (hfilekit, RocksDB and HBase all read their cells from it). Returns the timed seconds.
Result<double> FloorWrite(const std::string& in, Compression codec, int level,
                          const std::string& out, const std::string& cells = "") {
  HFILE_ASSIGN_OR_RETURN(FloorInput input, FloorOpen(in));
  Buf raw, ubody;
  std::string block;
  CompressOptions copts;
  copts.level = level;
  double timed = 0;
  auto t = Clock::now();
  if (!cells.empty()) HFILE_RETURN_IF_ERROR(FloorReadCells(cells));
  HFILE_ASSIGN_OR_RETURN(auto w, WritableFile::Create(out));
  timed += Since(t);
  for (const RawBlock& b : input.blocks) {
    HFILE_ASSIGN_OR_RETURN(Slice body, FloorReadBlock(*input.file, input.codec, b, &raw, &ubody));
    t = Clock::now();
    block.assign(kBlockHeaderSizeWithChecksum, '\0');  // header bytes (contents immaterial)
    if (codec == Compression::kNone) {
      block.append(body.data(), body.size());
    } else {
      HFILE_RETURN_IF_ERROR(Compress(codec, body, copts, &block));
    }
    AppendChecksums(ChecksumType::kCrc32c, 16384, block, &block);
    HFILE_RETURN_IF_ERROR(w->Append(block));
    timed += Since(t);
  }
  t = Clock::now();
  HFILE_RETURN_IF_ERROR(w->Commit());
  timed += Since(t);
  return timed;
}

// ---------------------------------------------------------------------------------------------
// hfilekit

Status ScanFile(const std::string& path, Measurement* m) {
  HFILE_ASSIGN_OR_RETURN(auto reader, Reader::Open(path));
  auto it = reader->NewIterator();
  uint64_t cells = 0, bytes = 0;
  CellBatch batch;  // a data block's cells at a time
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    it->ReadBatch(&batch);
    cells += batch.size();
    for (const Cell& c : batch) bytes += c.key.size() + c.value.size();
  }
  HFILE_RETURN_IF_ERROR(it->status());
  m->cells += cells;
  m->bytes += bytes;
  return Status::OK();
}

// Scans `paths` with `threads` threads, each taking the next file.
Status ScanFiles(const std::vector<std::string>& paths, int threads,
                 const std::function<Status(const std::string&, Measurement*)>& scan_one,
                 Measurement* m) {
  std::atomic<size_t> next{0};
  std::vector<Measurement> parts(threads);
  std::vector<Status> errors(threads);
  auto work = [&](int t) {
    for (size_t i; (i = next.fetch_add(1)) < paths.size();) {
      Status s = scan_one(paths[i], &parts[t]);
      if (!s.ok()) { errors[t] = std::move(s); return; }
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(work, t);
  work(0);
  for (auto& th : pool) th.join();
  for (int t = 0; t < threads; ++t) {
    HFILE_RETURN_IF_ERROR(errors[t]);
    m->cells += parts[t].cells;
    m->bytes += parts[t].bytes;
  }
  m->items = paths.size();
  return Status::OK();
}

Status HfilekitGets(const std::string& path, const std::vector<std::string>& rows, bool bloom,
                    Measurement* m) {
  HFILE_ASSIGN_OR_RETURN(auto reader, Reader::Open(path));
  auto it = reader->NewIterator();
  for (const std::string& row : rows) {
    m->items++;
    if (bloom) {
      HFILE_ASSIGN_OR_RETURN(bool maybe, reader->BloomMightContainRow(row));
      if (!maybe) continue;
    }
    it->Seek(FirstOnRowKey(row));
    bool found = false;
    for (; it->Valid() && it->cell().row() == Slice(row); it->Next()) {
      m->cells++;
      m->bytes += it->cell().key.size() + it->cell().value.size();
      found = true;
    }
    HFILE_RETURN_IF_ERROR(it->status());
    m->found += found;
  }
  return Status::OK();
}

#if HFILE_BENCH_HAVE_WRITER
WriterOptions HfilekitWriterOptions(const Setting& s) {
  WriterOptions o;
  o.block_size = 65536;
  o.compression = s.codec;
  o.compression_level = s.level;
  o.encoding = s.encoding;
  o.include_tags = false;
  o.compress_tags = false;
  o.bloom_type = BloomType::kRow;
  o.create_time_ms = 1700000000000;
  return o;
}

Status HfilekitWrite(const std::string& cells, const Setting& s, const std::string& out,
                     Measurement* m) {
  HFILE_ASSIGN_OR_RETURN(auto in, CellFileReader::Open(cells));
  HFILE_ASSIGN_OR_RETURN(auto w, Writer::Create(out, HfilekitWriterOptions(s)));
  // A buffer's worth of cells at a time, as a file's iterator hands on a data block.
  CellBatch batch;
  while (in->NextBatch(&batch)) {
    for (const Cell& c : batch) m->bytes += c.key.size() + c.value.size();
    m->cells += batch.size();
    HFILE_RETURN_IF_ERROR(w->AppendBatch(batch));
  }
  HFILE_RETURN_IF_ERROR(in->status());
  return w->Finish();
}

// The major compaction both compaction runs apply: one version kept, a fixed clock.
region::CompactionOptions BenchCompactionOptions() {
  region::CompactionOptions o;
  o.kind = region::CompactionKind::kMajor;
  o.max_versions = 1;
  o.now_ms = 1800000000000;
  return o;
}

Status HfilekitCompact(const std::vector<std::string>& inputs, const Setting& s,
                       const std::string& out, Measurement* m) {
  std::vector<std::unique_ptr<Reader>> readers;
  std::vector<std::unique_ptr<CellIterator>> its;
  for (const std::string& p : inputs) {
    HFILE_ASSIGN_OR_RETURN(auto r, Reader::Open(p));
    its.push_back(r->NewIterator());
    readers.push_back(std::move(r));
  }
  const region::CompactionOptions copts = BenchCompactionOptions();
  region::CompactionStats stats;
  auto it = region::NewCompactionIterator(region::NewMergingIterator(std::move(its)), copts, &stats);
  HFILE_ASSIGN_OR_RETURN(auto w, Writer::Create(out, HfilekitWriterOptions(s)));
  uint64_t written = 0;
  KeyField d;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    // The merge's first difference from the previous cell stands for the writer's compare.
    HFILE_RETURN_IF_ERROR(it->KeyDifference(&d) ? w->AppendAfter(it->cell(), d)
                                                : w->Append(it->cell()));
    written++;
  }
  HFILE_RETURN_IF_ERROR(it->status());
  HFILE_RETURN_IF_ERROR(w->Finish());
  m->cells = stats.input_cells;
  m->items = written;
  return Status::OK();
}

// The same compaction through the engine every writing tool shares: its threads, its output
// verification, and the cheap input checks `hfile compact --trust-inputs` keeps.
Status HfilekitCompactEngine(const std::vector<std::string>& inputs, const Setting& s,
                             const std::string& out, Measurement* m) {
  std::vector<region::StoreFile> files;
  for (const std::string& p : inputs) {
    region::StoreFile f;
    f.path = f.target_path = p;
    f.name.name = p.substr(p.find_last_of('/') + 1);
    f.size = FileSize(p);
    files.push_back(std::move(f));
  }
  const std::string stage = out + ".stage";
  std::error_code ec;
  std::filesystem::remove_all(stage, ec);
  std::filesystem::create_directories(stage, ec);
  if (ec) return Status::IOError("cannot create " + stage + ": " + ec.message());
  const region::CompactionOptions copts = BenchCompactionOptions();
  region::CompactionStats stats;
  region::StoreRewriteOptions ro;
  ro.family = "f";  // the generated cells' family (bench_data.cc)
  ro.verify_inputs = false;
  ro.transform = [&](std::unique_ptr<CellIterator> in) {
    return region::NewCompactionIterator(std::move(in), copts, &stats);
  };
  ro.writer.dir = stage;
  ro.writer.writer = HfilekitWriterOptions(s);
  ro.writer.write_empty = true;
  region::SetToolThreads(2);
  region::StoreRewriteResult rr;
  HFILE_RETURN_IF_ERROR(region::RewriteStore(files, ro, &rr));
  if (rr.outputs.size() != 1) return Status::Corruption("the compaction left no single file");
  std::filesystem::rename(rr.outputs[0].path, out, ec);
  if (ec) return Status::IOError("cannot rename the output to " + out + ": " + ec.message());
  std::filesystem::remove_all(stage, ec);
  m->cells = rr.cells_read;
  m->items = rr.cells_written;
  return Status::OK();
}
#endif

// ---------------------------------------------------------------------------------------------
// RocksDB: the same cells as RocksDB keys that sort as HBase orders them:
//   row 0x00 family 0x00 qualifier 0x00 BE64(~timestamp) (0xff - type)
// (the generated rows and qualifiers hold no 0x00 byte). The prefix extractor cuts the row + 0x00,
// so RocksDB's prefix bloom answers the same question as HBase's ROW bloom.

#ifdef HFILE_BENCH_HAVE_ROCKSDB
class RowPrefix : public rocksdb::SliceTransform {
 public:
  const char* Name() const override { return "hfkbench.RowPrefix"; }
  rocksdb::Slice Transform(const rocksdb::Slice& key) const override {
    const void* z = memchr(key.data(), 0, key.size());
    return rocksdb::Slice(key.data(), static_cast<const char*>(z) - key.data() + 1);
  }
  bool InDomain(const rocksdb::Slice& key) const override {
    return memchr(key.data(), 0, key.size()) != nullptr;
  }
};

void RocksKey(const Cell& c, std::string* k) {
  k->clear();
  Slice row = c.row(), fam = c.family(), q = c.qualifier();
  k->append(row.data(), row.size());
  k->push_back('\0');
  k->append(fam.data(), fam.size());
  k->push_back('\0');
  k->append(q.data(), q.size());
  k->push_back('\0');
  uint64_t ts = ~static_cast<uint64_t>(c.timestamp());
  for (int i = 7; i >= 0; --i) k->push_back(static_cast<char>(ts >> (8 * i)));
  k->push_back(static_cast<char>(0xff - c.type()));
}

rocksdb::Options RocksOptions(const Setting& s) {
  rocksdb::Options o;
  switch (s.codec) {
    case Compression::kNone: o.compression = rocksdb::kNoCompression; break;
    case Compression::kSnappy: o.compression = rocksdb::kSnappyCompression; break;
    case Compression::kLz4: o.compression = rocksdb::kLZ4Compression; break;
    case Compression::kZstd: o.compression = rocksdb::kZSTD; break;
    case Compression::kGz: o.compression = rocksdb::kZlibCompression; break;
    default: o.compression = rocksdb::kNoCompression; break;
  }
  if (s.level != 0) o.compression_opts.level = s.level;
  rocksdb::BlockBasedTableOptions t;
  t.block_size = 65536;
  t.checksum = rocksdb::kCRC32c;
  t.no_block_cache = true;  // every get and scan reads and decompresses, as hfilekit does
  t.filter_policy.reset(rocksdb::NewBloomFilterPolicy(10));
  t.whole_key_filtering = false;
  o.table_factory.reset(rocksdb::NewBlockBasedTableFactory(t));
  o.prefix_extractor = std::make_shared<RowPrefix>();
  return o;
}

Status FromRocks(const rocksdb::Status& s) {
  return s.ok() ? Status::OK() : Status::IOError("rocksdb", s.ToString());
}

Status RocksWrite(const std::string& cells, const Setting& s, const std::string& out,
                  Measurement* m) {
  HFILE_ASSIGN_OR_RETURN(auto in, CellFileReader::Open(cells));
  rocksdb::Options o = RocksOptions(s);
  rocksdb::SstFileWriter w(rocksdb::EnvOptions(), o);
  HFILE_RETURN_IF_ERROR(FromRocks(w.Open(out)));
  Cell c;
  std::string k;
  while (in->Next(&c)) {
    RocksKey(c, &k);
    HFILE_RETURN_IF_ERROR(FromRocks(w.Put(k, rocksdb::Slice(c.value.data(), c.value.size()))));
    m->cells++;
    m->bytes += c.key.size() + c.value.size();
  }
  HFILE_RETURN_IF_ERROR(in->status());
  return FromRocks(w.Finish());
}

// The peer of hfilekit's compaction: the four part SSTs (SstFileWriter, untimed) ingested into a
// fresh DB at `db_dir` (each lands in its own level, as they overlap), then merged into one file
// by CompactFiles, which runs on this thread; only that is timed. Every cell is its own RocksDB
// key, so RocksDB drops nothing (the HBase rules have no counterpart): its merge, its per-key
// work and its writer, over every input cell. Returns the timed seconds.
Result<double> RocksCompact(const std::vector<std::string>& inputs, const Setting& s,
                            const std::string& db_dir, Measurement* m) {
  rocksdb::Options o = RocksOptions(s);
  o.create_if_missing = true;
  o.disable_auto_compactions = true;
  o.max_subcompactions = 1;
  HFILE_RETURN_IF_ERROR(FromRocks(rocksdb::DestroyDB(db_dir, o)));
  rocksdb::DB* raw = nullptr;
  HFILE_RETURN_IF_ERROR(FromRocks(rocksdb::DB::Open(o, db_dir, &raw)));
  std::unique_ptr<rocksdb::DB> db(raw);
  for (const std::string& p : inputs) {
    HFILE_RETURN_IF_ERROR(FromRocks(db->IngestExternalFile({p}, {})));  // copied: p stays
  }
  auto files = [&db](int* deepest) {
    rocksdb::ColumnFamilyMetaData meta;
    db->GetColumnFamilyMetaData(&meta);
    std::vector<rocksdb::SstFileMetaData> out;
    for (const auto& level : meta.levels) {
      for (const auto& f : level.files) {
        out.push_back(f);
        *deepest = level.level;
      }
    }
    return out;
  };
  int deepest = 0;
  std::vector<std::string> names;
  for (const auto& f : files(&deepest)) {
    names.push_back(f.name);
    m->cells += f.num_entries;
  }
  if (names.size() != inputs.size())
    return Status::Corruption(std::to_string(inputs.size()) + " files ingested, " +
                              std::to_string(names.size()) + " in the DB");
  rocksdb::CompactionOptions co;
  co.compression = o.compression;
  co.max_subcompactions = 1;
  auto t = Clock::now();
  HFILE_RETURN_IF_ERROR(FromRocks(db->CompactFiles(co, names, deepest)));
  const double seconds = Since(t);
  const auto out = files(&deepest);
  for (const auto& f : out) {
    m->items += f.num_entries;
    m->file_size += f.size;
  }
  if (out.size() != 1 || m->items != m->cells)
    return Status::Corruption("compaction left " + std::to_string(out.size()) + " files, " +
                              std::to_string(m->items) + " of " + std::to_string(m->cells) +
                              " entries");
  HFILE_RETURN_IF_ERROR(FromRocks(db->Close()));
  return seconds;
}

Status RocksScan(const std::string& path, const Setting& s, Measurement* m) {
  rocksdb::SstFileReader r(RocksOptions(s));
  HFILE_RETURN_IF_ERROR(FromRocks(r.Open(path)));
  rocksdb::ReadOptions ro;
  ro.verify_checksums = true;
  ro.fill_cache = false;
  ro.total_order_seek = true;
  ro.readahead_size = 2 << 20;
  std::unique_ptr<rocksdb::Iterator> it(r.NewIterator(ro));
  uint64_t cells = 0, bytes = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    cells++;
    // This key is as long as the HBase key (3 separators + 1 type byte for rowlen, famlen and
    // type): the cell bytes are the same as the HFile readers count.
    bytes += it->key().size() + it->value().size();
  }
  HFILE_RETURN_IF_ERROR(FromRocks(it->status()));
  m->cells += cells;
  m->bytes += bytes;
  return Status::OK();
}

Status RocksGets(const std::string& path, const Setting& s, const std::vector<std::string>& rows,
                 bool bloom, Measurement* m) {
  rocksdb::SstFileReader r(RocksOptions(s));
  HFILE_RETURN_IF_ERROR(FromRocks(r.Open(path)));
  rocksdb::ReadOptions ro;
  ro.verify_checksums = true;
  ro.fill_cache = false;
  ro.total_order_seek = !bloom;
  ro.prefix_same_as_start = bloom;
  std::unique_ptr<rocksdb::Iterator> it(r.NewIterator(ro));
  std::string prefix;
  for (const std::string& row : rows) {
    m->items++;
    prefix = row;
    prefix.push_back('\0');
    bool found = false;
    for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix); it->Next()) {
      m->cells++;
      m->bytes += it->key().size() + it->value().size();
      found = true;
    }
    HFILE_RETURN_IF_ERROR(FromRocks(it->status()));
    m->found += found;
  }
  return Status::OK();
}

Status RocksVerify(const std::string& path, const Setting& s) {
  rocksdb::SstFileReader r(RocksOptions(s));
  HFILE_RETURN_IF_ERROR(FromRocks(r.Open(path)));
  rocksdb::ReadOptions ro;
  ro.fill_cache = false;
  ro.readahead_size = 2 << 20;
  return FromRocks(r.VerifyChecksum(ro));
}
#endif

// ---------------------------------------------------------------------------------------------

Status ParseSetting(const Args& a, Setting* s) {
  auto c = ParseCompression(a.Get("codec", "none"));
  if (!c) return Status::InvalidArgument("unknown codec", a.Get("codec"));
  s->codec = *c;
  s->level = std::stoi(a.Get("level", "0"));
  auto e = ParseDataBlockEncoding(a.Get("encoding", "none"));
  if (!e) return Status::InvalidArgument("unknown encoding", a.Get("encoding"));
  s->encoding = *e;
  return Status::OK();
}

Status Run(const Args& a, Measurement* m) {
  Setting s;
  HFILE_RETURN_IF_ERROR(ParseSetting(a, &s));
  const std::string impl = a.Get("impl"), op = a.Get("op"), dir = a.Get("dir");
  const std::string file = a.Get("file"), out = a.Get("out");
  const std::vector<std::string> inputs = SplitList(a.Get("inputs"));
  const int threads = std::stoi(a.Get("threads", "1"));
  std::vector<std::string> rows;
  if (op == "get" || op == "get-bloom") {
    HFILE_ASSIGN_OR_RETURN(rows, ReadGetsFile(dir + "/gets.bin"));
  }
  const std::vector<std::string> scan_paths = inputs.empty() ? std::vector<std::string>{file} : inputs;

  auto t = Clock::now();
  if (impl == "hfilekit") {
    if (op == "scan") {
      HFILE_RETURN_IF_ERROR(ScanFiles(scan_paths, threads, ScanFile, m));
    } else if (op == "get" || op == "get-bloom") {
      HFILE_RETURN_IF_ERROR(HfilekitGets(file, rows, op == "get-bloom", m));
    } else if (op == "verify") {
      VerifyOptions vo;
      vo.read_ahead = threads > 1;  // the blocks read on a second thread
      VerifyReport rep = VerifyFile(file, vo);
      if (!rep.clean()) return Status::Corruption("verify found problems", file);
      m->cells = rep.cells;
#if HFILE_BENCH_HAVE_WRITER
    } else if (op == "write") {
      HFILE_RETURN_IF_ERROR(HfilekitWrite(a.Get("cells", dir + "/cells.bin"), s, file, m));
      m->file_size = FileSize(file);
    } else if (op == "compact") {
      HFILE_RETURN_IF_ERROR(threads > 1 ? HfilekitCompactEngine(inputs, s, out, m)
                                        : HfilekitCompact(inputs, s, out, m));
      m->file_size = FileSize(out);
    } else if (op == "rewrite") {
      RewriteOptions ro;
      ro.compression = *ParseCompression(a.Get("to-codec", "lz4"));
      ro.compression_level = std::stoi(a.Get("to-level", "0"));
      // The rewrite proper, as the floor measures it: no full check of the input before, no
      // read-back after (the cheap trailer/block walk and cell count still run).
      ro.verify = false;
      ro.verify_input = false;
      RewriteResult rr;
      HFILE_RETURN_IF_ERROR(RewriteFile(file, out, ro, &rr));
      m->cells = rr.cells;
      m->file_size = rr.output_size;
#else
    } else if (op == "write" || op == "compact" || op == "rewrite") {
      return Unavailable(m, "hfilekit built without hfile/writer.h");
#endif
    } else {
      return Status::InvalidArgument("unknown op", op);
    }
  } else if (impl == "rocksdb") {
#ifdef HFILE_BENCH_HAVE_ROCKSDB
    if (op == "write") {
      HFILE_RETURN_IF_ERROR(RocksWrite(a.Get("cells", dir + "/cells.bin"), s, file, m));
      m->file_size = FileSize(file);
    } else if (op == "scan") {
      HFILE_RETURN_IF_ERROR(ScanFiles(
          scan_paths, threads,
          [&](const std::string& p, Measurement* mm) { return RocksScan(p, s, mm); }, m));
    } else if (op == "get" || op == "get-bloom") {
      HFILE_RETURN_IF_ERROR(RocksGets(file, s, rows, op == "get-bloom", m));
    } else if (op == "compact") {
      HFILE_ASSIGN_OR_RETURN(double seconds, RocksCompact(inputs, s, out, m));
      m->seconds = seconds;  // the DB's set-up is not the compaction's time
      return Status::OK();
    } else if (op == "verify") {
      HFILE_RETURN_IF_ERROR(RocksVerify(file, s));
    } else {
      return Status::InvalidArgument("unknown op", op);
    }
#else
    return Status::NotSupported("hfile-bench was built without RocksDB (-DHFILE_WITH_ROCKSDB=OFF or librocksdb-dev absent)");
#endif
  } else if (impl == "floor") {
    // The floor's time is only the codec + checksum (+ the file I/O) part of the work.
    uint64_t blocks = 0;
    if (op == "scan") {
      HFILE_ASSIGN_OR_RETURN(m->seconds, FloorScan(scan_paths, &blocks));
    } else if (op == "write") {
      HFILE_ASSIGN_OR_RETURN(m->seconds, FloorWrite(file, s.codec, s.level, out,
                                                    a.Get("cells", dir + "/cells.bin")));
      m->file_size = FileSize(out);
    } else if (op == "compact") {
      HFILE_ASSIGN_OR_RETURN(double read, FloorScan(inputs, &blocks));
      HFILE_ASSIGN_OR_RETURN(double write, FloorWrite(file, s.codec, s.level, out));
      m->seconds = read + write;
    } else if (op == "rewrite") {
      HFILE_ASSIGN_OR_RETURN(double read, FloorScan({file}, &blocks));
      HFILE_ASSIGN_OR_RETURN(double write,
                             FloorWrite(file, *ParseCompression(a.Get("to-codec", "lz4")),
                                        std::stoi(a.Get("to-level", "0")), out));
      m->seconds = read + write;
    } else {
      return Status::InvalidArgument("unknown op", op);
    }
    m->items = blocks;
    return Status::OK();
  } else {
    return Status::InvalidArgument("unknown impl", impl);
  }
  m->seconds = Since(t);
  return Status::OK();
}

std::string JsonEscape(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '"' || c == '\\') o.push_back('\\');
    if (static_cast<unsigned char>(c) < 0x20) { o += ' '; continue; }
    o.push_back(c);
  }
  return o;
}

constexpr char kUsage[] =
    "usage: hfile-bench gen --dir DIR --bytes N [--seed S] [--gets N] [--max-value N]\n"
    "       hfile-bench run --impl hfilekit|rocksdb|floor --op OP --codec C [--level L]\n"
    "                       [--encoding E] --dir DIR --file PATH [--inputs A,B,..] [--out PATH]\n"
    "                       [--to-codec C] [--threads N]\n"
    "OP: write scan get get-bloom verify compact rewrite. One JSON line per run.\n";

int Main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      fputs(kUsage, stdout);
      return 0;
    }
  }
  if (argc < 2) {
    fputs(kUsage, stderr);
    return 2;
  }
  std::string cmd = argv[1];
  Args a;
  for (int i = 2; i < argc; i += 2) {
    if (strncmp(argv[i], "--", 2) != 0 || i + 1 == argc) {
      fprintf(stderr, "hfile-bench: expected --key value, got %s\n%s", argv[i], kUsage);
      return 2;
    }
    a.kv[argv[i] + 2] = argv[i + 1];
  }
  if (cmd == "gen") {
    if (a.kv.count("dir") == 0) {  // it writes several files: never into "." by default
      fprintf(stderr, "hfile-bench gen: --dir is required\n%s", kUsage);
      return 2;
    }
    DataSpec spec;
    spec.target_bytes = std::stoull(a.Get("bytes", "67108864"));
    spec.seed = std::stoull(a.Get("seed", "1"));
    spec.gets = std::stoull(a.Get("gets", "20000"));
    spec.max_value = std::stoull(a.Get("max-value", "0"));
    DataSummary sum;
    Status st = GenerateData(spec, a.Get("dir", "."), &sum);
    if (!st.ok()) {
      fprintf(stderr, "hfile-bench gen: %s\n", st.ToString().c_str());
      return 1;
    }
    printf("{\"cells\":%llu,\"rows\":%llu,\"bytes\":%llu,\"deletes\":%llu,"
           "\"extra_versions\":%llu,\"random_values\":%llu}\n",
           (unsigned long long)sum.cells, (unsigned long long)sum.rows,
           (unsigned long long)sum.bytes, (unsigned long long)sum.deletes,
           (unsigned long long)sum.extra_versions, (unsigned long long)sum.random_values);
    return 0;
  }
  if (cmd != "run") {
    fprintf(stderr, "hfile-bench: unknown command %s\n", cmd.c_str());
    return 2;
  }
  Measurement m;
  Status st = Run(a, &m);
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  printf("{\"impl\":\"%s\",\"op\":\"%s\",\"ok\":%s,\"seconds\":%.6f,\"cells\":%llu,"
         "\"bytes\":%llu,\"items\":%llu,\"found\":%llu,\"file_size\":%llu,\"maxrss_kb\":%ld,"
         "\"cpu_seconds\":%.6f,\"error\":\"%s\"}\n",
         a.Get("impl").c_str(), a.Get("op").c_str(), st.ok() ? "true" : "false", m.seconds,
         (unsigned long long)m.cells, (unsigned long long)m.bytes, (unsigned long long)m.items,
         (unsigned long long)m.found, (unsigned long long)m.file_size, ru.ru_maxrss,
         ru.ru_utime.tv_sec + ru.ru_stime.tv_sec + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6,
         JsonEscape(st.ok() ? m.note : st.ToString()).c_str());
  return st.ok() ? 0 : (st.IsNotSupported() ? 3 : 1);
}

}  // namespace
}  // namespace hfile::bench

int main(int argc, char** argv) { return hfile::bench::Main(argc, argv); }
