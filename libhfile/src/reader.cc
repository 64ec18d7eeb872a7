#include "hfile/reader.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>

#include "hfile/coding.h"
#include "compression.h"
#include "hfile/block_type.h"
#include "hfile/escape.h"
#include "reader_internal.h"
#include "webhdfs_file.h"

namespace hfile {

std::string FirstOnRowKey(const Slice& row) {
  std::string k;
  AppendKey(&k, row, Slice(), Slice(), kLatestTimestamp, static_cast<uint8_t>(KeyType::kMaximum));
  return k;
}

namespace {

// Whether `tail` (a file's last bytes) ends with an HFile trailer's frame: a known major version
// in the last 4 bytes and the trailer magic where that version's trailer starts.
bool HasTrailerFrame(const std::string& tail) {
  if (tail.size() < 4) return false;
  int major, minor;
  DecodeVersion(DecodeFixed32BE(tail.data() + tail.size() - 4), &major, &minor);
  if (major < 1 || major > 3 || tail.size() < TrailerSize(major)) return false;
  return tail.compare(tail.size() - TrailerSize(major), 8, kTrailerMagic, 8) == 0;
}

// A file with no trailer frame at its end and no block magic at its start is not an HFile at
// all (another kind of file, empty, random bytes): NotSupported, which the tools report as
// unreadable. With either one it is an HFile, and a damaged trailer stays Corruption.
Status ClassifyTrailerError(Reader::Rep* r, const std::string& tail, Status s) {
  if (s.ok() || HasTrailerFrame(tail)) return s;
  char head[8];
  if (r->file->size() >= sizeof(head)) {
    HFILE_RETURN_IF_ERROR(r->file->Read(0, sizeof(head), head));
    if (BlockTypeFromMagic(Slice(head, sizeof(head)))) return s;
  }
  return Status::NotSupported(fmt::format(
      "not an HFile: no HFile block at its start and no HFile trailer at its end ({})",
      s.message()));
}

Status OpenTrailer(Reader::Rep* r) {
  const uint64_t size = r->file->size();
  const size_t tail_len = static_cast<size_t>(std::min<uint64_t>(size, 4096));
  std::string tail(tail_len, '\0');
  HFILE_RETURN_IF_ERROR(r->file->Read(size - tail_len, tail_len, tail.data()));
  r->io.AddBlock(BlockType::kTrailer, tail_len);
  HFILE_RETURN_IF_ERROR(ClassifyTrailerError(r, tail, r->trailer.DecodeFrom(tail, size)));
  const Trailer& t = r->trailer;
  if (!t.encryption_key.empty()) {
    return Status::NotSupported("encrypted HFile (the trailer carries a wrapped data key)");
  }
  if (!CompressionAvailable(t.compression())) {
    return Status::NotSupported(fmt::format("compression codec {} is not built into this hfilekit",
                                            CompressionName(t.compression())));
  }
  auto kind = ComparatorKindFromClassName(t.comparator_class_name);
  if (!kind) {
    return Status::NotSupported(
        fmt::format("unknown comparator class \"{}\"", ToStringBinary(t.comparator_class_name)));
  }
  r->comparator = *kind;
  r->block_options.header_size = BlockHeaderSize(t.major_version, t.minor_version);
  r->block_options.compression = t.compression();
  r->block_options.section_end = size - t.size();
  r->block_options.verify_checksums = r->options.verify_checksums;
  r->block_options.max_block_size = r->options.max_block_size;
  // A total smaller than the trailer it includes was not recorded by the writer.
  if (t.total_uncompressed_bytes >= t.size()) {
    r->block_options.total_uncompressed_bytes = t.total_uncompressed_bytes;
    r->block_options.uncompressed_data_index_size = t.uncompressed_data_index_size;
  }
  return Status::OK();
}

Status ExpectType(const Block& b, BlockType want, const char* what) {
  if (b.header.type != want) {
    return Status::Corruption(fmt::format("{} at offset {} is a {} block, expected {}", what,
                                          b.offset, BlockTypeName(b.header.type),
                                          BlockTypeName(want)));
  }
  return Status::OK();
}

Status DeriveCellFormat(Reader::Rep* r) {
  const FileInfo& fi = r->file_info;
  r->cell_format.include_tags =
      MajorVersionHasTags(r->trailer.major_version) && fi.Get(fileinfo::kMaxTagsLen).has_value();
  r->cell_format.tags_compressed =
      r->cell_format.include_tags && fi.GetBool(fileinfo::kTagsCompressed).value_or(false);
  auto kv_version = fi.GetInt32(fileinfo::kKeyValueVersion);
  r->cell_format.include_mvcc = kv_version && *kv_version == fileinfo::kKeyValueVersionWithMvcc;
  if (auto enc = fi.Get(fileinfo::kDataBlockEncoding)) {
    auto e = ParseDataBlockEncoding(enc->view());
    if (!e) {
      return Status::Corruption(
          fmt::format("file info names unknown DATA_BLOCK_ENCODING \"{}\"", ToStringBinary(*enc)));
    }
    r->encoding = *e;
  }
  if (auto bt = fi.Get(fileinfo::kBloomFilterType)) {
    auto b = ParseBloomType(bt->view());
    if (!b) {
      return Status::NotSupported(
          fmt::format("unknown BLOOM_FILTER_TYPE \"{}\"", ToStringBinary(*bt)));
    }
    r->bloom_type = *b;
    r->bloom_prefix_length = fi.GetInt32(fileinfo::kBloomFilterParam).value_or(0);
  }
  if (auto lbk = fi.Get(fileinfo::kLastBloomKey)) r->last_bloom_key = lbk->ToString();
  return Status::OK();
}

// Reads the load-on-open section: data root index, meta root index, file info, bloom metas.
Status OpenLoadOnOpen(Reader::Rep* r) {
  const Trailer& t = r->trailer;
  BlockReader br = r->NewBlockReader();
  Block b;
  uint64_t offset = t.load_on_open_data_offset;
  int ordinal = 0;
  while (offset < r->block_options.section_end) {
    HFILE_RETURN_IF_ERROR(br.ReadBlock(offset, 0, &b));
    r->load_on_open.push_back({offset, b.header});
    switch (ordinal++) {
      case 0:
        HFILE_RETURN_IF_ERROR(ExpectType(b, BlockType::kRootIndex, "data root index"));
        HFILE_RETURN_IF_ERROR(
            // Like HBase's readMultiLevelIndexRoot, whatever the level count: 16 bytes left
            // after the entries are the mid-key metadata.
            r->data_index.DecodeFrom(b.body, t.data_index_count, /*expect_mid_key=*/true)
                .WithContext(fmt::format("data root index at offset {}", offset)));
        break;
      case 1:
        HFILE_RETURN_IF_ERROR(ExpectType(b, BlockType::kRootIndex, "meta root index"));
        HFILE_RETURN_IF_ERROR(r->meta_index.DecodeFrom(b.body, t.meta_index_count, false)
                                  .WithContext(fmt::format("meta root index at offset {}", offset)));
        break;
      case 2:
        HFILE_RETURN_IF_ERROR(ExpectType(b, BlockType::kFileInfo, "file info"));
        if (offset != t.file_info_offset) {
          return Status::Corruption(fmt::format(
              "file info block is at offset {}, the trailer says {}", offset, t.file_info_offset));
        }
        HFILE_RETURN_IF_ERROR(r->file_info.DecodeFrom(b.body).WithContext(
            fmt::format("file info block at offset {}", offset)));
        break;
      default:
        if (b.header.type == BlockType::kGeneralBloomMeta ||
            b.header.type == BlockType::kDeleteFamilyBloomMeta) {
          BloomMeta meta;
          Slice in = b.body;
          HFILE_RETURN_IF_ERROR(meta.DecodeFrom(&in).WithContext(
              fmt::format("{} block at offset {}", BlockTypeName(b.header.type), offset)));
          (b.header.type == BlockType::kGeneralBloomMeta ? r->general_bloom
                                                         : r->delete_family_bloom) = std::move(meta);
        }
        break;
    }
    offset += b.header.on_disk_size_with_header();
  }
  if (ordinal < 3) {
    return Status::Corruption(fmt::format(
        "load-on-open section at offset {} holds {} of the 3 required blocks (data index, meta "
        "index, file info)",
        t.load_on_open_data_offset, ordinal));
  }
  return DeriveCellFormat(r);
}

}  // namespace

Result<std::unique_ptr<RandomAccessFile>> OpenReaderFile(const std::string& path,
                                                         const ReaderOptions& options) {
  if (!IsHdfsUri(path)) return RandomAccessFile::Open(path);
  auto file = WebHdfsFile::Open(path, options.webhdfs);
  if (!file.ok()) return file.status();
  return std::unique_ptr<RandomAccessFile>(std::move(file).value());
}

Result<std::unique_ptr<Reader>> Reader::Open(const std::string& path, const ReaderOptions& options) {
  auto rep = std::make_unique<Rep>();
  rep->path = path;
  rep->options = options;
  auto file = OpenReaderFile(path, options);
  if (!file.ok()) return file.status();
  rep->file = std::move(file).value();
  rep->file->set_counters(&rep->io);
  rep->io.set_opening(true);
  Status s = OpenTrailer(rep.get());
  if (s.ok()) s = OpenLoadOnOpen(rep.get());
  rep->io.set_opening(false);
  if (!s.ok()) return s.WithContext(path);
  return std::unique_ptr<Reader>(new Reader(std::move(rep)));
}

Reader::Reader(std::unique_ptr<Rep> rep) : rep_(std::move(rep)) {}
Reader::~Reader() = default;

const std::string& Reader::path() const { return rep_->path; }
uint64_t Reader::file_size() const { return rep_->file->size(); }
const Trailer& Reader::trailer() const { return rep_->trailer; }
const FileInfo& Reader::file_info() const { return rep_->file_info; }
ComparatorKind Reader::comparator() const { return rep_->comparator; }
DataBlockEncoding Reader::data_block_encoding() const { return rep_->encoding; }
bool Reader::includes_tags() const { return rep_->cell_format.include_tags; }
bool Reader::tags_compressed() const { return rep_->cell_format.tags_compressed; }
bool Reader::includes_mvcc() const { return rep_->cell_format.include_mvcc; }
BloomType Reader::bloom_type() const { return rep_->general_bloom ? rep_->bloom_type : BloomType::kNone; }
bool Reader::has_delete_family_bloom() const { return rep_->delete_family_bloom.has_value(); }
IoStats Reader::io_stats() const { return rep_->io.Snapshot(); }

std::optional<std::string> Reader::first_key() const {
  if (rep_->data_index.size() == 0) return std::nullopt;
  return rep_->data_index.entry(0).key.ToString();
}

std::optional<std::string> Reader::last_key() const {
  auto k = rep_->file_info.Get(fileinfo::kLastKey);
  if (!k) return std::nullopt;
  return k->ToString();
}

Result<std::optional<std::string>> Reader::MidKey() const {
  const RootIndex& root = rep_->data_index;
  if (root.size() == 0) return std::optional<std::string>();
  // HBase's BlockIndexReader.midkey: the leaf entry the mid-key metadata names when the root
  // index has it with a non-negative leaf offset (HBase's writer stores it for 2+ levels only),
  // else the root entry count / 2.
  const auto& mid = root.mid_key_metadata();
  if (!mid || static_cast<int64_t>(mid->leaf_offset) < 0) {
    return std::optional<std::string>(root.entry(root.size() / 2).key.ToString());
  }
  BlockReader br = rep_->NewBlockReader();
  Block b;
  HFILE_RETURN_IF_ERROR(br.ReadBlock(mid->leaf_offset, mid->leaf_on_disk_size, &b));
  HFILE_RETURN_IF_ERROR(ExpectType(b, BlockType::kLeafIndex, "mid-key leaf index block"));
  NonRootIndexView leaf;
  HFILE_RETURN_IF_ERROR(leaf.Init(b.body));
  if (mid->entry_index >= leaf.size()) {
    return Status::Corruption(fmt::format("mid-key entry {} is past the {} entries of its leaf",
                                          mid->entry_index, leaf.size()));
  }
  return std::optional<std::string>(leaf.entry(mid->entry_index).key.ToString());
}

Result<std::vector<DataBlockEntry>> Reader::DataBlockIndex() const {
  std::vector<DataBlockEntry> out;
  const uint32_t levels = rep_->trailer.num_data_index_levels;
  BlockReader br = rep_->NewBlockReader();
  // Depth first, so the leaves' entries come out in file order; one block per level is held.
  std::function<Status(const IndexEntry&, uint32_t)> descend = [&](const IndexEntry& e,
                                                                  uint32_t level) -> Status {
    if (level >= levels) {
      out.push_back({e.key.ToString(), e.offset, e.on_disk_size});
      return Status::OK();
    }
    Block b;
    HFILE_RETURN_IF_ERROR(br.ReadBlock(e.offset, e.on_disk_size, &b));
    const BlockType want =
        level + 1 == levels ? BlockType::kLeafIndex : BlockType::kIntermediateIndex;
    HFILE_RETURN_IF_ERROR(ExpectType(b, want, "data index block"));
    NonRootIndexView view;
    HFILE_RETURN_IF_ERROR(view.Init(b.body).WithContext(
        fmt::format("{} block at offset {}", BlockTypeName(want), e.offset)));
    for (uint32_t i = 0; i < view.size(); ++i)
      HFILE_RETURN_IF_ERROR(descend(view.entry(i), level + 1));
    return Status::OK();
  };
  for (const IndexEntry& e : rep_->data_index.entries())
    HFILE_RETURN_IF_ERROR(descend(e, 1));
  return out;
}

Result<std::optional<std::pair<uint64_t, uint32_t>>> Reader::Rep::LocateDataBlock(
    BlockReader* br, Block* scratch, const Slice& key,
    std::optional<std::string>* next_above_leaf) const {
  using Located = std::optional<std::pair<uint64_t, uint32_t>>;
  int i = data_index.FindLastLE(key, KeyCompare());
  if (i < 0) return Located();
  uint64_t offset = data_index.entry(i).offset;
  uint32_t size = data_index.entry(i).on_disk_size;
  const uint32_t levels = trailer.num_data_index_levels;
  if (next_above_leaf) {
    next_above_leaf->reset();
    if (levels > 1 && static_cast<size_t>(i) + 1 < data_index.size())
      *next_above_leaf = data_index.entry(i + 1).key.ToString();
  }
  for (uint32_t level = 1; level < levels; ++level) {
    HFILE_RETURN_IF_ERROR(br->ReadBlock(offset, size, scratch));
    BlockType want = level + 1 == levels ? BlockType::kLeafIndex : BlockType::kIntermediateIndex;
    HFILE_RETURN_IF_ERROR(ExpectType(*scratch, want, "data index block"));
    NonRootIndexView view;
    HFILE_RETURN_IF_ERROR(view.Init(scratch->body).WithContext(
        fmt::format("{} block at offset {}", BlockTypeName(want), offset)));
    if (view.size() == 0) {
      return Status::Corruption(fmt::format("empty {} block at offset {}", BlockTypeName(want), offset));
    }
    // A parent key is its child's first key, so -1 only happens in a damaged file; the child's
    // first entry is then the best place to look.
    int j = std::max(view.FindLastLE(key, KeyCompare()), 0);
    IndexEntry e = view.entry(static_cast<uint32_t>(j));
    if (next_above_leaf && level + 1 < levels && static_cast<uint32_t>(j) + 1 < view.size())
      *next_above_leaf = view.entry(static_cast<uint32_t>(j) + 1).key.ToString();
    offset = e.offset;
    size = e.on_disk_size;
  }
  return Located(std::make_pair(offset, size));
}

std::vector<std::string> Reader::MetaBlockNames() const {
  std::vector<std::string> names;
  for (const auto& e : rep_->meta_index.entries()) names.push_back(e.key.ToString());
  return names;
}

Result<std::string> Reader::ReadMetaBlock(const std::string& name) const {
  for (const auto& e : rep_->meta_index.entries()) {
    if (e.key != Slice(name)) continue;
    BlockReader br = rep_->NewBlockReader();
    Block b;
    HFILE_RETURN_IF_ERROR(br.ReadBlock(e.offset, e.on_disk_size, &b).WithContext(rep_->path));
    HFILE_RETURN_IF_ERROR(ExpectType(b, BlockType::kMeta, "meta block").WithContext(rep_->path));
    return b.body.ToString();
  }
  return Status::NotFound(fmt::format("{}: no meta block named \"{}\"", rep_->path,
                                      ToStringBinary(name)));
}

Result<bool> Reader::Rep::BloomCheck(const BloomMeta& meta, const Slice& hash_key,
                                     const Slice& index_key) const {
  // HBase's lookup, its binary search included: ROW chunk keys compare as raw bytes, ROWCOL ones
  // with the comparator the bloom meta names (the default cell order, even in hbase:meta files,
  // whose chunks are therefore not sorted for it and miss some keys the file holds, as HBase's
  // do).
  const int chunk = meta.FindChunk(index_key);
  if (chunk < 0) return false;
  const auto& c = meta.chunks[chunk];
  BlockReader br = NewBlockReader();
  Block b;
  HFILE_RETURN_IF_ERROR(br.ReadBlock(c.offset, c.on_disk_size, &b).WithContext(path));
  if (b.header.type != BlockType::kBloomChunk) {
    return Status::Corruption(fmt::format("{}: bloom chunk {} at offset {} is a {} block", path,
                                          chunk, c.offset, BlockTypeName(b.header.type)));
  }
  return BloomChunkMightContain(b.body, hash_key, meta.hash_count, meta.hash_type);
}

namespace {
enum class BloomQuery { kRow, kColumn };
}  // namespace

// As HBase's StoreFileReader.passesBloomFilter / checkGeneralBloomFilter: no bloom passes
// everything, an empty file nothing; a key past LAST_BLOOM_KEY is absent; a ROWCOL bloom cannot
// answer for a whole row, and for a column also passes on a hit of the first-on-row key (so
// that a row-wide delete still finds the file).
static Result<bool> GeneralBloomCheck(const Reader::Rep& r, BloomQuery query, const Slice& row,
                                      const Slice& qualifier) {
  if (!r.general_bloom) return true;
  if (r.trailer.entry_count == 0) return false;
  std::string hash_key, index_key;
  if (r.bloom_type != BloomType::kRowCol) {
    AppendBloomHashKey(r.bloom_type, r.bloom_prefix_length, row, Slice(), &hash_key);
    if (r.last_bloom_key && Slice(hash_key).compare(*r.last_bloom_key) > 0) return false;
    return r.BloomCheck(*r.general_bloom, hash_key, hash_key);
  }
  if (query == BloomQuery::kRow) return true;
  AppendBloomHashKey(BloomType::kRowCol, 0, row, qualifier, &hash_key);
  AppendBloomIndexKey(BloomType::kRowCol, 0, row, Slice(), qualifier, &index_key);
  // StoreFileReader compares with CellComparator.getInstance(), the default order.
  auto cmp = [](const Slice& a, const Slice& b) {
    return hfile::CompareKeys(ComparatorKind::kDefault, a, b);
  };
  const std::string row_key = FirstOnRowKey(row);
  bool after_last = r.last_bloom_key && cmp(index_key, *r.last_bloom_key) > 0;
  if (after_last && cmp(row_key, *r.last_bloom_key) > 0) return false;
  HFILE_ASSIGN_OR_RETURN(bool hit, r.BloomCheck(*r.general_bloom, hash_key, index_key));
  if (hit) return true;
  std::string row_hash_key;
  AppendBloomHashKey(BloomType::kRowCol, 0, row, Slice(), &row_hash_key);
  return r.BloomCheck(*r.general_bloom, row_hash_key, row_key);
}

Result<bool> Reader::BloomMightContainRow(const Slice& row) const {
  return GeneralBloomCheck(*rep_, BloomQuery::kRow, row, Slice());
}

Result<bool> Reader::BloomMightContainColumn(const Slice& row, const Slice& family,
                                             const Slice& qualifier) const {
  return GeneralBloomCheck(*rep_, BloomQuery::kColumn, row, qualifier);
}

Result<bool> Reader::DeleteFamilyBloomMightContain(const Slice& row) const {
  // StoreFileReader.passesDeleteFamilyBloomFilter: an empty file, or one that counted no
  // delete-family markers, has none.
  const Rep& r = *rep_;
  if (r.trailer.entry_count == 0) return false;
  if (r.file_info.GetInt64(fileinfo::kDeleteFamilyCount).value_or(-1) == 0) return false;
  if (!r.delete_family_bloom) return true;
  return r.BloomCheck(*r.delete_family_bloom, row, row);
}

}  // namespace hfile
