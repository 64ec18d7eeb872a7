// Writer throughput per codec vs. the floor: compressing + checksumming the same 64 KiB NONE
// blocks without the writer. HFILE_BENCH_MB (default 256) MiB of cells per codec; files go to
// /dev/shm when it exists (so the disk does not dominate), else /tmp.
//
//   ./writer_bench                      # all codecs
//   HFILE_BENCH_MB=64 ./writer_bench --benchmark_filter=ZSTD
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "checksum.h"
#include "compression.h"
#include "data_block_codec.h"
#include "hfile/writer.h"

namespace hfile {
namespace {

uint64_t BenchBytes() {
  const char* e = std::getenv("HFILE_BENCH_MB");
  return (e ? std::strtoull(e, nullptr, 10) : 256) << 20;
}

std::string ScratchPath() {
  const std::string dir = std::filesystem::is_directory("/dev/shm") ? "/dev/shm" : "/tmp";
  return dir + "/hfile-writer-bench-" + std::to_string(::getpid());
}

// A deterministic stream of cells: increasing rows, 4 columns, ~100-byte semi-compressible
// values; everything lives in reused buffers (no per-cell allocation).
class CellStream {
 public:
  CellStream() {
    uint64_t x = 88172645463325252ull;
    for (int i = 0; i < (1 << 16); ++i) {
      x ^= x << 13; x ^= x >> 7; x ^= x << 17;
      pool_.push_back(static_cast<char>('a' + (x % 16)));  // 4 bits of entropy per byte
    }
  }
  const Cell& Next() {
    const uint64_t row = n_ / 4, col = n_ % 4;
    char rowbuf[24], qual[4] = {'c', 'o', 'l', static_cast<char>('0' + col)};
    std::snprintf(rowbuf, sizeof(rowbuf), "user%016llu", static_cast<unsigned long long>(row));
    key_.clear();
    AppendKey(&key_, Slice(rowbuf, 20), "cf", Slice(qual, 4), 1700000000000 + (n_ % 1000), 4);
    const size_t off = (n_ * 131) % (pool_.size() - 128);
    cell_ = Cell{key_, Slice(pool_.data() + off, 100), Slice(), n_ % 7};
    ++n_;
    return cell_;
  }
  static size_t CellBytes(const Cell& c) { return 8 + c.key.size() + c.value.size() + 2 + 1; }

 private:
  std::string pool_, key_;
  Cell cell_;
  uint64_t n_ = 1;
};

const Compression kCodecs[] = {Compression::kNone,  Compression::kGz,   Compression::kSnappy,
                               Compression::kLz4,   Compression::kZstd, Compression::kBzip2,
                               Compression::kLzo,   Compression::kLzma, Compression::kBrotli};

void BM_Writer(benchmark::State& state) {
  const Compression codec = kCodecs[state.range(0)];
  if (!CompressionAvailable(codec)) return state.SkipWithError("codec not built in");
  state.SetLabel(std::string(CompressionName(codec)));
  const uint64_t target = BenchBytes();
  const std::string path = ScratchPath();
  for (auto _ : state) {
    WriterOptions o;
    o.compression = codec;
    auto w = Writer::Create(path, o);
    if (!w.ok()) return state.SkipWithError(w.status().ToString().c_str());
    CellStream cells;
    uint64_t bytes = 0;
    while (bytes < target) {
      const Cell& c = cells.Next();
      bytes += CellStream::CellBytes(c);
      if (!(*w)->Append(c).ok()) return state.SkipWithError("append failed");
    }
    WriterStats st;
    if (!(*w)->Finish(&st).ok()) return state.SkipWithError("finish failed");
    state.SetBytesProcessed(static_cast<int64_t>(bytes));
    state.counters["ratio"] = static_cast<double>(bytes) / st.file_size;
  }
  std::filesystem::remove(path);
}

// The floor: the same cells laid out as 64 KiB NONE blocks, compressed and checksummed.
void BM_CodecFloor(benchmark::State& state) {
  const Compression codec = kCodecs[state.range(0)];
  if (!CompressionAvailable(codec)) return state.SkipWithError("codec not built in");
  state.SetLabel(std::string(CompressionName(codec)));
  const uint64_t target = BenchBytes();
  CellFormat format{true, false, true};
  for (auto _ : state) {
    CellStream cells;
    std::string block, out, sums;
    uint64_t bytes = 0;
    while (bytes < target) {
      block.clear();
      while (block.size() < 65536) {
        const Cell& c = cells.Next();
        bytes += CellStream::CellBytes(c);
        AppendKeyValue(&block, c, format);
      }
      out.assign(33, '\0');
      if (codec == Compression::kNone) out.append(block);
      else if (!Compress(codec, block, CompressOptions(), &out).ok()) return state.SkipWithError("compress");
      sums.clear();
      AppendChecksums(ChecksumType::kCrc32c, 16384, out, &sums);
      benchmark::DoNotOptimize(sums.data());
    }
    state.SetBytesProcessed(static_cast<int64_t>(bytes));
  }
}

BENCHMARK(BM_Writer)->DenseRange(0, 8)->Iterations(1)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_CodecFloor)->DenseRange(0, 8)->Iterations(1)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace hfile

BENCHMARK_MAIN();
