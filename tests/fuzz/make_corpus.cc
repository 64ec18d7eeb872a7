// Writes the committed seed corpora, tests/fuzz/corpus/<target>/, from synthetic inputs built
// with the library's own encoders (nothing is copied from real files):
//
//   make_corpus OUT_DIR     (then commit what changed under tests/fuzz/corpus/)
//
// Crashers found by fuzzing are added to the corpora by hand, named crash-<defect>.
#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "block_header.h"
#include "block_index.h"
#include "bloom.h"
#include "hfile/coding.h"
#include "compression.h"
#include "data_block_codec.h"
#include "hfile/cell.h"
#include "hfile/file_info.h"
#include "hfile/trailer.h"
#include "test_hfile.h"

namespace fs = std::filesystem;
using namespace hfile;

namespace {

std::string g_out;

void Write(const std::string& target, const std::string& name, const std::string& bytes) {
  fs::create_directories(g_out + "/" + target);
  std::ofstream f(g_out + "/" + target + "/" + name, std::ios::binary | std::ios::trunc);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

struct OwnedCell {
  std::string key, value, tags;
  uint64_t seq;
};

std::vector<OwnedCell> Cells(bool tags, int n) {
  std::vector<OwnedCell> cells;
  for (int i = 0; i < n; ++i) {
    OwnedCell c;
    AppendKey(&c.key, fmt::format("row{:02d}", i / 2), "cf", fmt::format("q{}", i % 2), 100 + i,
              static_cast<uint8_t>(i % 5 == 4 ? KeyType::kDeleteColumn : KeyType::kPut));
    c.value = std::string(static_cast<size_t>(i % 4), 'v');
    if (tags && i % 2 == 0) c.tags = std::string("\x00\x03\x01t", 4) + std::to_string(i % 3);
    c.seq = static_cast<uint64_t>(i * 300);
    cells.push_back(c);
  }
  return cells;
}

void DataBlocks() {
  const DataBlockEncoding encodings[] = {DataBlockEncoding::kNone, DataBlockEncoding::kPrefix,
                                         DataBlockEncoding::kDiff, DataBlockEncoding::kFastDiff,
                                         DataBlockEncoding::kRowIndexV1};
  for (size_t e = 0; e < std::size(encodings); ++e) {
    for (uint8_t flags : {0, 1, 3, 4, 5, 7}) {
      CellFormat f;
      f.include_tags = flags & 1;
      f.tags_compressed = flags & 2;
      f.include_mvcc = flags & 4;
      if (f.tags_compressed && (encodings[e] == DataBlockEncoding::kNone ||
                                encodings[e] == DataBlockEncoding::kRowIndexV1))
        continue;
      auto enc = NewDataBlockEncoder(encodings[e], f);
      enc->Reset();
      for (const auto& c : Cells(f.include_tags, 9)) {
        enc->Add(Cell{Slice(c.key), Slice(c.value), Slice(c.tags), c.seq});
      }
      std::string body;
      enc->Finish(&body);
      std::string seed{static_cast<char>(e), static_cast<char>(flags)};
      Write("data_block_fuzz",
            fmt::format("{}-{}", DataBlockEncodingName(encodings[e]), flags), seed + body);
    }
  }
}

void Decompress() {
  std::string text;
  for (int i = 0; i < 40; ++i) text += fmt::format("row{:03d}cfq{} value {} ", i, i % 3, i * i);
  for (int c = 0; c < kNumCompressions; ++c) {
    std::string out;
    if (!Compress(static_cast<Compression>(c), text, {}, &out).ok()) continue;
    std::string seed{static_cast<char>(c), 0, static_cast<char>(text.size() >> 8),
                     static_cast<char>(text.size() & 0xff)};
    Write("decompress_fuzz", std::string(CompressionName(static_cast<Compression>(c))), seed + out);
  }
}

void Headers() {
  for (int t = 0; t <= static_cast<int>(BlockType::kDeleteFamilyBloomMeta); ++t) {
    BlockHeader h;
    h.type = static_cast<BlockType>(t);
    h.on_disk_size_without_header = 120;
    h.uncompressed_size_without_header = 200;
    h.prev_block_offset = t == 0 ? -1 : 4096;
    h.checksum_type = static_cast<ChecksumType>(t % 3);
    h.bytes_per_checksum = 512;
    h.on_disk_data_size_with_header = 33 + 116;
    std::string bytes;
    h.EncodeTo(&bytes);
    Write("block_header_fuzz", std::string(BlockTypeName(h.type)), bytes);
  }
}

void Indexes() {
  std::vector<std::string> keys;
  for (int i = 0; i < 5; ++i) {
    std::string k;
    AppendKey(&k, fmt::format("row{}", i * 7), "cf", "q", 5, 4);
    keys.push_back(k);
  }
  std::string root;
  for (size_t i = 0; i < keys.size(); ++i) AppendRootIndexEntry(&root, i * 1000, 1000, keys[i]);
  auto prefixed = [](uint8_t mode, uint32_t count, const std::string& body) {
    std::string s(1, static_cast<char>(mode));
    PutFixed32BE(&s, count);
    return s + body;
  };
  Write("block_index_fuzz", "root", prefixed(0, 5, root));
  std::string mid = root;
  PutFixed64BE(&mid, 5000);
  PutFixed32BE(&mid, 300);
  PutFixed32BE(&mid, 2);
  Write("block_index_fuzz", "root-midkey", prefixed(2, 5, mid));
  std::vector<IndexEntry> entries;
  for (size_t i = 0; i < keys.size(); ++i) entries.push_back({i * 1000, 1000, Slice(keys[i])});
  std::string leaf;
  EncodeNonRootIndex(entries, &leaf);
  Write("block_index_fuzz", "nonroot", prefixed(1, 0, leaf));
}

void FileInfos() {
  FileInfo fi;
  std::string key;
  AppendKey(&key, "lastrow", "cf", "q", 77, 4);
  fi.Set(fileinfo::kLastKey, key);
  fi.SetInt32(fileinfo::kAvgKeyLen, 30);
  fi.SetInt32(fileinfo::kMaxTagsLen, 8);
  fi.SetInt64(fileinfo::kMaxMemstoreTs, 1234);
  fi.Set(fileinfo::kDataBlockEncoding, "FAST_DIFF");
  fi.Set(fileinfo::kBloomFilterType, "ROWCOL");
  fi.SetBool(fileinfo::kMajorCompaction, true);
  std::string tr;
  EncodeTimeRange(TimeRange{5, 77}, &tr);
  fi.Set(fileinfo::kTimeRange, tr);
  std::string pb;
  fi.EncodeTo(&pb);
  Write("file_info_fuzz", "protobuf", pb);
  // The Writable form of HBase 0.92-0.94: int32 count, then (byte array, type byte, byte array).
  std::string w;
  PutFixed32BE(&w, static_cast<uint32_t>(fi.entries().size()));
  for (const auto& [k, v] : fi.entries()) {
    PutByteArray(&w, k);
    PutFixed8(&w, 1);
    PutByteArray(&w, v);
  }
  Write("file_info_fuzz", "writable", w);
}

void Blooms() {
  for (BloomType type : {BloomType::kRow, BloomType::kRowCol}) {
    BloomWriter::Options o;
    o.type = type;
    o.chunk_byte_size = 32;
    BloomWriter w(o);
    uint64_t off = 0;
    std::string chunk;
    for (int i = 0; i < 30; ++i) {
      std::string row = fmt::format("row{:02d}", i), index = row;
      if (type == BloomType::kRowCol) {
        index.clear();
        AppendKey(&index, row, "cf", "q", kLatestTimestamp, 255);
      }
      w.Add(row + (type == BloomType::kRowCol ? "q" : ""), index);
      while (w.HasReadyChunk()) {
        chunk = w.ReadyChunk().ToString();
        w.ChunkWritten(off, static_cast<uint32_t>(chunk.size() + 33));
        off += chunk.size() + 33;
      }
    }
    w.FinishChunks();
    while (w.HasReadyChunk()) {
      chunk = w.ReadyChunk().ToString();
      w.ChunkWritten(off, static_cast<uint32_t>(chunk.size() + 33));
      off += chunk.size() + 33;
    }
    std::string meta;
    w.EncodeMeta(&meta);
    Write("bloom_meta_fuzz", std::string(BloomTypeName(type)), meta + chunk);
  }
}

void Trailers() {
  for (int minor : {0, 3}) {
    for (int major : {2, 3}) {
      if (major == 3 && minor == 0) continue;
      Trailer t;
      t.major_version = major;
      t.minor_version = minor;
      t.file_info_offset = 40;
      t.load_on_open_data_offset = 20;
      t.data_index_count = 2;
      t.meta_index_count = 1;
      t.entry_count = 9;
      t.first_data_block_offset = 0;
      t.last_data_block_offset = 10;
      t.comparator_class_name = "org.apache.hadoop.hbase.CellComparatorImpl";
      t.compression_ordinal = static_cast<uint32_t>(Compression::kGz);
      std::string bytes(64, '\0');
      if (t.EncodeTo(&bytes).ok()) {
        Write("trailer_fuzz", fmt::format("v{}.{}", major, minor), bytes);
        continue;
      }
      // v2.0: the fixed Writable layout.
      bytes.append(kTrailerMagic, 8);
      PutFixed64BE(&bytes, t.file_info_offset);
      PutFixed64BE(&bytes, t.load_on_open_data_offset);
      PutFixed32BE(&bytes, t.data_index_count);
      PutFixed64BE(&bytes, 0);
      PutFixed32BE(&bytes, t.meta_index_count);
      PutFixed64BE(&bytes, 1000);
      PutFixed64BE(&bytes, t.entry_count);
      PutFixed32BE(&bytes, t.compression_ordinal);
      PutFixed32BE(&bytes, 1);
      PutFixed64BE(&bytes, 0);
      PutFixed64BE(&bytes, 10);
      std::string name = "org.apache.hadoop.hbase.KeyValue$KVComparator";
      name.resize(128, '\0');
      bytes += name;
      bytes.resize(64 + 212 - 4, '\0');
      PutFixed32BE(&bytes, 2);
      Write("trailer_fuzz", "v2.0", bytes);
    }
  }
}

void Files() {
  struct Variant {
    const char* name;
    DataBlockEncoding encoding;
    Compression compression;
    ChecksumType checksum;
    bool tags;
  };
  const Variant variants[] = {
      {"none-crc32c", DataBlockEncoding::kNone, Compression::kNone, ChecksumType::kCrc32c, false},
      {"fastdiff-zstd", DataBlockEncoding::kFastDiff, Compression::kZstd, ChecksumType::kCrc32, true},
      {"prefix-gz-nullsum", DataBlockEncoding::kPrefix, Compression::kGz, ChecksumType::kNull, false},
      {"diff-snappy", DataBlockEncoding::kDiff, Compression::kSnappy, ChecksumType::kCrc32c, true},
      {"rowindex-lz4", DataBlockEncoding::kRowIndexV1, Compression::kLz4, ChecksumType::kCrc32c, false},
  };
  for (const auto& v : variants) {
    test::TestHFileOptions o;
    o.encoding = v.encoding;
    o.compression = v.compression;
    o.checksum = v.checksum;
    o.tags = v.tags;
    o.rows = 8;
    o.block_size = 160;
    Write("reader_fuzz", v.name, test::BuildTestHFile(o));
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUT_DIR\n", argv[0]);
    return 1;
  }
  g_out = argv[1];
  DataBlocks();
  Decompress();
  Headers();
  Indexes();
  FileInfos();
  Blooms();
  Trailers();
  Files();
  return 0;
}
