#include "test_hfile.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include "hfile/cell.h"
#include "hfile/writer.h"
#include "testutil.h"

namespace hfile::test {

std::string BuildTestHFile(const TestHFileOptions& o) {
  WriterOptions w;
  w.block_size = static_cast<uint32_t>(o.block_size);
  w.compression = o.compression;
  w.encoding = o.encoding;
  w.checksum_type = o.checksum;
  w.bytes_per_checksum = o.bytes_per_checksum;
  w.include_tags = o.tags;
  w.include_mvcc = o.mvcc;
  w.bloom_type = o.bloom ? BloomType::kRow : BloomType::kNone;
  w.bloom_chunk_size = 64;  // several chunks, so chunk defects have somewhere to land
  w.create_time_ms = 1700000000000;
  w.max_seq_id = o.rows;
  w.major_compaction = false;

  char dir_template[] = "/tmp/hfilekit-test-XXXXXX";
  const char* dir = ::mkdtemp(dir_template);
  if (dir == nullptr) std::abort();
  const std::string path = std::string(dir) + "/test.hfile";
  auto writer = Writer::Create(path, w);
  if (!writer.ok()) std::abort();
  std::string key, value, tags;
  for (int r = 0; r < o.rows; ++r) {
    for (int q = 0; q < o.cells_per_row; ++q) {
      key.clear();
      AppendKey(&key, fmt::format("row{:04d}", r), "f", fmt::format("q{}", q), 1000 + r * 10 + q,
                static_cast<uint8_t>(KeyType::kPut));
      value = fmt::format("value-{}-{}-{}", r, q, std::string(static_cast<size_t>(r % 7), 'v'));
      tags = o.tags ? std::string("\x00\x02\x01", 3) + std::to_string(q % 10) : std::string();
      Cell c{key, value, tags, o.mvcc ? static_cast<uint64_t>(r + 1) : 0};
      if (!(*writer)->Append(c).ok()) std::abort();
    }
  }
  if (o.meta_block && !(*writer)->AppendMetaBlock("TESTMETA", "hello from the test meta block").ok())
    std::abort();
  if (!(*writer)->Finish().ok()) std::abort();
  std::string bytes = ReadFileOrDie(path);
  std::filesystem::remove_all(dir);
  return bytes;
}

}  // namespace hfile::test
