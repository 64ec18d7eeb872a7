#include "corrupt_gen.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <set>

#include "block_header.h"
#include "checksum.h"
#include "hfile/coding.h"
#include "hfile/block_type.h"
#include "hfile/trailer.h"

namespace hfile::test {
namespace {

struct MappedBlock {
  uint64_t offset;
  BlockHeader header;
};

struct FileMap {
  Trailer trailer;
  uint64_t trailer_offset = 0;
  size_t header_size = 0;
  std::vector<MappedBlock> blocks;
  bool compressed() const { return trailer.compression() != Compression::kNone; }
};

bool Map(const std::string& bytes, FileMap* m) {
  const size_t tail = std::min<size_t>(bytes.size(), 4096);
  if (!m->trailer.DecodeFrom(Slice(bytes.data() + bytes.size() - tail, tail), bytes.size()).ok())
    return false;
  m->trailer_offset = bytes.size() - m->trailer.size();
  m->header_size = BlockHeaderSize(m->trailer.major_version, m->trailer.minor_version);
  for (uint64_t off = 0; off < m->trailer_offset;) {
    MappedBlock b{off, {}};
    if (m->trailer_offset - off < m->header_size ||
        !b.header.DecodeFrom(Slice(bytes.data() + off, m->header_size), m->header_size).ok())
      return false;
    m->blocks.push_back(b);
    off += b.header.on_disk_size_with_header();
  }
  return true;
}

bool Checksummed(const FileMap& m, const MappedBlock& b) {
  return m.header_size == kBlockHeaderSizeWithChecksum && b.header.checksum_type != ChecksumType::kNull;
}

// Recomputes the checksums of the block at b.offset after an edit of its bytes.
void Reseal(const FileMap& m, const MappedBlock& b, std::string* bytes) {
  if (!Checksummed(m, b)) return;
  BlockHeader h;
  if (!h.DecodeFrom(Slice(bytes->data() + b.offset, m.header_size), m.header_size).ok()) return;
  const size_t data_len = b.header.on_disk_data_size_with_header;
  std::string sums;
  AppendChecksums(b.header.checksum_type, b.header.bytes_per_checksum,
                  Slice(bytes->data() + b.offset, data_len), &sums);
  std::memcpy(bytes->data() + b.offset + data_len, sums.data(),
              std::min<size_t>(sums.size(), b.header.checksum_bytes()));
}

void Put32(std::string* bytes, uint64_t at, uint32_t v) {
  char buf[4];
  EncodeFixed32BE(buf, v);
  std::memcpy(bytes->data() + at, buf, 4);
}

std::string TypeName(BlockType t) { return std::string(BlockTypeName(t)); }

class Generator {
 public:
  Generator(const std::string& intact, const FileMap& m) : in_(intact), m_(m) {}

  std::vector<Defect> Run() {
    Flips();
    Truncations();
    Versions();
    AbsurdLengths();
    Codecs();
    EncodingId();
    Swaps();
    return std::move(out_);
  }

 private:
  bool InLoadOnOpen(const MappedBlock& b) const { return b.offset >= m_.trailer.load_on_open_data_offset; }
  const MappedBlock* First(BlockType t) const {
    for (const auto& b : m_.blocks)
      if (b.header.type == t) return &b;
    return nullptr;
  }
  void Add(std::string name, std::string bytes, std::string expect, int64_t offset, bool at_open) {
    out_.push_back({std::move(name), std::move(bytes), std::move(expect), offset, at_open});
  }
  // A trailer with one field changed, re-encoded (protobuf trailers only).
  template <typename F>
  void TrailerEdit(const std::string& name, F edit, const std::string& expect) {
    if (!TrailerIsProtobuf(m_.trailer.major_version, m_.trailer.minor_version)) return;
    Trailer t = m_.trailer;
    edit(&t);
    std::string bytes = in_.substr(0, m_.trailer_offset);
    if (!t.EncodeTo(&bytes).ok()) return;
    Add(name, std::move(bytes), expect, -1, true);
  }

  void Flips() {
    std::set<BlockType> seen;
    for (const auto& b : m_.blocks) {
      if (!seen.insert(b.header.type).second) continue;
      const std::string type = TypeName(b.header.type);
      std::string bytes = in_;
      bytes[b.offset] ^= 0x20;  // 'D' -> 'd'
      Add("flip-magic-" + type, bytes, "magic", static_cast<int64_t>(b.offset), InLoadOnOpen(b));
      const uint64_t body = b.header.on_disk_data_size_with_header - m_.header_size;
      if (b.header.header_size != kBlockHeaderSizeWithChecksum)
        continue;  // v2.0: the body size is on_disk_size_without_header
      if (body == 0) continue;
      bytes = in_;
      bytes[b.offset + m_.header_size + body / 2] ^= 0x01;
      if (Checksummed(m_, b)) {
        Add("flip-sum-" + type, bytes, "checksum", static_cast<int64_t>(b.offset), InLoadOnOpen(b));
      } else {
        Add("flip-raw-" + type, bytes, "", -1, false);
      }
    }
    if (const MappedBlock* fi = First(BlockType::kFileInfo); fi && !m_.compressed()) {
      std::string bytes = in_;
      bytes[fi->offset + m_.header_size] ^= 0x01;  // "PBUF" -> "QBUF": no longer protobuf
      Reseal(m_, *fi, &bytes);
      Add("fileinfo-not-pbuf", bytes, "file info", static_cast<int64_t>(fi->offset), true);
    }
  }

  void Truncations() {
    std::set<uint64_t> cuts;
    for (const auto& b : m_.blocks) {
      for (int64_t d : {-1, 0, 1}) {
        int64_t c = static_cast<int64_t>(b.offset) + d;
        if (c >= 0 && static_cast<uint64_t>(c) < in_.size()) cuts.insert(static_cast<uint64_t>(c));
      }
    }
    const uint64_t t = m_.trailer_offset;
    for (uint64_t c : {t - 1, t, t + 1, t + 8, t + m_.trailer.size() / 2, in_.size() - 4,
                       in_.size() - 1}) {
      cuts.insert(c);
    }
    for (uint64_t c : cuts) {
      Add(fmt::format("truncate-{}", c), in_.substr(0, c), "trailer", -1, true);
    }
  }

  void Versions() {
    const uint64_t v = in_.size() - 4;
    auto with = [&](uint32_t version) {
      std::string bytes = in_;
      Put32(&bytes, v, version);
      return bytes;
    };
    Add("version-major-4", with(4), "trailer", -1, true);
    Add("version-major-0", with(0x00000000), "trailer", -1, true);
    Add("version-minor-9", with((9u << 24) | static_cast<uint32_t>(m_.trailer.major_version)),
        "trailer", -1, true);
    Add("version-claims-v1", with(1), "trailer", -1, true);
    if (m_.trailer.major_version == 3) Add("version-claims-v2.0", with(2), "trailer", -1, true);
  }

  void AbsurdLengths() {
    const uint32_t kAbsurd = 0x7fffffff;
    const MappedBlock* data = First(BlockType::kData);
    if (!data) data = First(BlockType::kEncodedData);
    auto header_field = [&](const MappedBlock& b, int field_at, const char* field,
                            const char* expect) {
      std::string bytes = in_;
      Put32(&bytes, b.offset + field_at, kAbsurd);
      Reseal(m_, b, &bytes);
      Add(fmt::format("absurd-{}-{}", field, TypeName(b.header.type)), std::move(bytes), expect,
          static_cast<int64_t>(b.offset), InLoadOnOpen(b));
    };
    for (const MappedBlock* b : {data, First(BlockType::kRootIndex), First(BlockType::kFileInfo)}) {
      if (!b) continue;
      header_field(*b, 8, "onDiskSize", "size");
      header_field(*b, 12, "uncompressedSize", "uncompressed");
    }
    TrailerEdit("absurd-trailer-data-index-count", [&](Trailer* t) { t->data_index_count = kAbsurd; },
                "root index");
    TrailerEdit("absurd-trailer-meta-index-count", [&](Trailer* t) { t->meta_index_count = kAbsurd; },
                "root index");
    TrailerEdit("absurd-trailer-levels", [&](Trailer* t) { t->num_data_index_levels = kAbsurd; },
                "num_data_index_levels");
    if (TrailerIsProtobuf(m_.trailer.major_version, m_.trailer.minor_version)) {
      Trailer t = m_.trailer;
      t.entry_count = kAbsurd;
      std::string bytes = in_.substr(0, m_.trailer_offset);
      if (t.EncodeTo(&bytes).ok()) {
        Add("absurd-trailer-entry-count", std::move(bytes), "entry_count",
            static_cast<int64_t>(m_.trailer.file_info_offset), false);
      }
    }
    if (m_.compressed()) return;
    // Fields inside uncompressed bodies, re-sealed so that the parser must catch them.
    const MappedBlock* plain = First(BlockType::kData);
    if (plain && plain->header.uncompressed_size_without_header >= 8) {
      std::string bytes = in_;
      Put32(&bytes, plain->offset + m_.header_size, kAbsurd);  // the first cell's key length
      Reseal(m_, *plain, &bytes);
      Add("absurd-key-length", std::move(bytes), "key", static_cast<int64_t>(plain->offset), false);
    }
    if (const MappedBlock* leaf = First(BlockType::kLeafIndex)) {
      std::string bytes = in_;
      Put32(&bytes, leaf->offset + m_.header_size, kAbsurd);  // the entry count
      Reseal(m_, *leaf, &bytes);
      Add("absurd-leaf-entry-count", std::move(bytes), "non-root index",
          static_cast<int64_t>(leaf->offset), false);
    }
    if (const MappedBlock* bm = First(BlockType::kGeneralBloomMeta);
        bm && bm->header.uncompressed_size_without_header >= 40) {
      std::string bytes = in_;
      Put32(&bytes, bm->offset + m_.header_size + 36, kAbsurd);  // the chunk count
      Reseal(m_, *bm, &bytes);
      Add("absurd-bloom-chunk-count", std::move(bytes), "bloom meta",
          static_cast<int64_t>(bm->offset), true);
    }
  }

  void Codecs() {
    TrailerEdit("codec-ordinal-42", [](Trailer* t) { t->compression_ordinal = 42; }, "codec");
    // A valid but wrong codec: the first load-on-open block no longer decodes.
    const uint32_t wrong = m_.compressed() ? static_cast<uint32_t>(Compression::kNone)
                                           : static_cast<uint32_t>(Compression::kGz);
    if (TrailerIsProtobuf(m_.trailer.major_version, m_.trailer.minor_version)) {
      Trailer t = m_.trailer;
      t.compression_ordinal = wrong;
      std::string bytes = in_.substr(0, m_.trailer_offset);
      if (t.EncodeTo(&bytes).ok()) {
        Add("codec-wrong", std::move(bytes), "root_index",
            static_cast<int64_t>(m_.trailer.load_on_open_data_offset), true);
      }
    }
  }

  void EncodingId() {
    if (const MappedBlock* e = First(BlockType::kEncodedData); e && !m_.compressed()) {
      std::string bytes = in_;
      bytes[e->offset + m_.header_size] = 0;
      bytes[e->offset + m_.header_size + 1] = 99;
      Reseal(m_, *e, &bytes);
      Add("encoding-id-99", std::move(bytes), "encoding id", static_cast<int64_t>(e->offset), false);
    }
    if (const MappedBlock* d = First(BlockType::kData)) {
      // DATABLK* -> DATABLKE: the body's first two bytes (the top of a key length: 0) become the
      // encoding id, which no encoded block may have.
      std::string bytes = in_;
      bytes[d->offset + 7] = 'E';
      Reseal(m_, *d, &bytes);
      Add("encoding-id-in-plain-block", std::move(bytes), "encoding id",
          static_cast<int64_t>(d->offset), false);
    }
  }

  void Swaps() {
    auto swap_at = [&](size_t i, const std::string& name, const std::string& expect, bool at_open) {
      const MappedBlock& a = m_.blocks[i];
      const MappedBlock& b = m_.blocks[i + 1];
      const uint64_t a_len = a.header.on_disk_size_with_header();
      const uint64_t b_len = b.header.on_disk_size_with_header();
      std::string bytes = in_.substr(0, a.offset) + in_.substr(b.offset, b_len) +
                          in_.substr(a.offset, a_len) + in_.substr(b.offset + b_len);
      Add(name, std::move(bytes), expect, static_cast<int64_t>(a.offset), at_open);
    };
    for (size_t i = 0; i + 1 < m_.blocks.size(); ++i) {
      if (IsDataBlock(m_.blocks[i].header.type) && IsDataBlock(m_.blocks[i + 1].header.type)) {
        swap_at(i, "swap-data-blocks", "", false);
        break;
      }
    }
    for (size_t i = 0; i + 1 < m_.blocks.size(); ++i) {
      if (m_.blocks[i].offset == m_.trailer.load_on_open_data_offset && i + 2 < m_.blocks.size()) {
        swap_at(i + 1, "swap-meta-index-and-file-info", "meta root index", true);
        break;
      }
    }
  }

  const std::string& in_;
  const FileMap& m_;
  std::vector<Defect> out_;
};

}  // namespace

std::vector<Defect> MakeDefects(const std::string& intact) {
  FileMap m;
  if (!Map(intact, &m)) return {};
  return Generator(intact, m).Run();
}

}  // namespace hfile::test
