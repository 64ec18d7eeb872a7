// Reader internals shared by the reader, its iterator, dump and verify.
#ifndef HFILE_SRC_READER_INTERNAL_H_
#define HFILE_SRC_READER_INTERNAL_H_

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "block_index.h"
#include "block_reader.h"
#include "bloom.h"
#include "data_block_codec.h"
#include "data_block_internal.h"
#include "file.h"
#include "io_counters.h"
#include "hfile/reader.h"

namespace hfile {

// The file under `path` as the reader reads it: a local file, or an hdfs:// / webhdfs:// URI
// over WebHDFS with options.webhdfs. Whoever reads an HFile's bytes beside the Reader (the
// verifier telling a damaged trailer from damage behind it) opens it through this too.
Result<std::unique_ptr<RandomAccessFile>> OpenReaderFile(const std::string& path,
                                                         const ReaderOptions& options);

// A block of the load-on-open section, as found at open.
struct LoadOnOpenBlock {
  uint64_t offset;
  BlockHeader header;
};

struct Reader::Rep {
  std::string path;
  std::unique_ptr<RandomAccessFile> file;
  ReaderOptions options;
  Trailer trailer;
  FileInfo file_info;
  ComparatorKind comparator = ComparatorKind::kDefault;
  CellFormat cell_format;
  DataBlockEncoding encoding = DataBlockEncoding::kNone;
  BlockReaderOptions block_options;
  RootIndex data_index;
  RootIndex meta_index;
  std::vector<LoadOnOpenBlock> load_on_open;

  BloomType bloom_type = BloomType::kNone;
  int bloom_prefix_length = 0;
  std::optional<std::string> last_bloom_key;
  std::optional<BloomMeta> general_bloom;
  std::optional<BloomMeta> delete_family_bloom;

  mutable IoCounters io;  // every read of `file` (counted from const readers too)

  int CompareKeys(const Slice& a, const Slice& b) const { return hfile::CompareKeys(comparator, a, b); }
  IndexKeyCompare KeyCompare() const {
    ComparatorKind k = comparator;
    return [k](const Slice& a, const Slice& b) { return hfile::CompareKeys(k, a, b); };
  }
  BlockReader NewBlockReader() const { return BlockReader(file.get(), block_options); }

  // Descends the data index to the data block that may hold `key`: (offset, on-disk size);
  // nullopt when `key` precedes the first block. With `next_above_leaf`, it receives the key
  // of the entry after the one taken at the deepest level above the leaf that has one (the
  // first key of the data block after the leaf's last, as HBase's nextIndexedKey), or is
  // cleared when no level has one.
  Result<std::optional<std::pair<uint64_t, uint32_t>>> LocateDataBlock(
      BlockReader* br, Block* scratch, const Slice& key,
      std::optional<std::string>* next_above_leaf = nullptr) const;
  Result<bool> BloomCheck(const BloomMeta& meta, const Slice& hash_key,
                          const Slice& index_key) const;
};

// Decodes the cells of data blocks: picks the decoder for each block's type and encoding id.
class BlockCellDecoder {
 public:
  explicit BlockCellDecoder(const CellFormat& format) : format_(format), none_(format) {}
  // Starts decoding `block` (DATABLK* or DATABLKE). Corruption for other block types.
  Status Reset(const Block& block);
  // Unencoded blocks (the default, and most files) decode through the NoneDecoder held by
  // value, inlined; encoded ones through their decoder's virtual Next.
  bool Next(Cell* cell) { return current_ == nullptr ? none_.Next(cell) : current_->Next(cell); }
  const Status& status() const { return current_ == nullptr ? none_.status() : current_->status(); }
  // Appends `first` (the cell Next returned last) and the rest of the block to *batch; stops
  // early on a decode error, which status() then reports. Cells of unencoded blocks are views of
  // the body; the parts an encoded block's decoder rebuilt in its own buffers are copied into the
  // batch's arena, since decoding the next cell overwrites them.
  void ReadRest(const Cell& first, CellBatch* batch);

 private:
  CellFormat format_;
  NoneDecoder none_;
  std::unique_ptr<DataBlockDecoder> decoders_[8];
  DataBlockDecoder* current_ = nullptr;  // nullptr: none_
  Slice body_;                            // the block's body, for ReadRest
};

}  // namespace hfile

#endif  // HFILE_SRC_READER_INTERNAL_H_
