// Reader: opens one HFile (v2, v3) and gives its metadata, cells, meta blocks and blooms.
//
// Memory is bounded by a few blocks whatever the file size: Open reads only the trailer and the
// load-on-open section; iterators read one data block at a time.
#ifndef HFILE_READER_H_
#define HFILE_READER_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "hfile/file_info.h"
#include "hfile/io_stats.h"
#include "hfile/iterator.h"
#include "hfile/status.h"
#include "hfile/trailer.h"
#include "hfile/types.h"
#include "hfile/webhdfs.h"

namespace hfile {

struct ReaderOptions {
  bool verify_checksums = true;
  // Blocks whose body would exceed this are reported as corrupt instead of allocated. A block
  // claiming more than the trailer's totalUncompressedBytes (and uncompressedDataIndexSize) is
  // refused the same way, so memory follows the file's own figures, not its headers' claims.
  uint64_t max_block_size = uint64_t{1} << 30;
  // How hdfs:// and webhdfs:// paths are read (hfile/webhdfs.h); local paths ignore it.
  WebHdfsOptions webhdfs;
};

// One entry of the data index's lowest level: a data block's index key (for every block but
// the first a shortened separator, as with MidKey), where it is and its on-disk size.
struct DataBlockEntry {
  std::string key;
  uint64_t offset = 0;
  uint32_t on_disk_size = 0;  // with header
};

struct IteratorOptions {
  // A key no cell the caller wants sorts at or after (exclusive): the iterator does not read a
  // data block whose index key is at or past it (HBase's scanner stops where the next indexed
  // key says no wanted row can follow). Cells past it may still come from the block already
  // read. nullopt: read to the end.
  std::optional<std::string> upper_bound;
};

class Reader {
 public:
  // Opens `path`. Errors name the path and, for format errors, the offset and block:
  // NotFound / IOError (cannot read), Corruption (damaged), NotSupported (v1, encrypted, a codec
  // or comparator this build lacks).
  static Result<std::unique_ptr<Reader>> Open(const std::string& path,
                                              const ReaderOptions& options = {});
  ~Reader();
  Reader(const Reader&) = delete;
  Reader& operator=(const Reader&) = delete;

  const std::string& path() const;
  uint64_t file_size() const;
  const Trailer& trailer() const;
  const FileInfo& file_info() const;
  ComparatorKind comparator() const;
  DataBlockEncoding data_block_encoding() const;
  bool includes_tags() const;
  bool tags_compressed() const;
  bool includes_mvcc() const;
  BloomType bloom_type() const;
  bool has_delete_family_bloom() const;

  // Root-index key 0 (what HBase calls the file's first key) and hfile.LASTKEY; nullopt for an
  // empty file.
  std::optional<std::string> first_key() const;
  std::optional<std::string> last_key() const;
  // HFileReaderImpl.midKey(): the data index's mid key, the key of the block in the middle of
  // the file (an index key: for every block but the first a shortened separator, not
  // necessarily a cell's key). One index level: root entry count / 2; more: the leaf entry named
  // by the mid-key metadata after the root entries. nullopt for an empty file (HBase throws
  // "HFile empty").
  Result<std::optional<std::string>> MidKey() const;

  // Every data block's index entry, in file order: descends every level of the data index
  // (reads the intermediate and leaf index blocks, never a data block). Quantile cuts of a
  // file by size (hfile split --into) are taken from these.
  Result<std::vector<DataBlockEntry>> DataBlockIndex() const;

  // A new iterator over the cells, in file order. The Reader must outlive it. Iterators are
  // independent of each other and may be used from different threads.
  std::unique_ptr<CellIterator> NewIterator() const;
  std::unique_ptr<CellIterator> NewIterator(const IteratorOptions& options) const;

  // What reading this file has cost so far, Open included (IoStats::open), by every iterator,
  // bloom check and metadata read of this Reader.
  IoStats io_stats() const;

  // Meta blocks by name.
  std::vector<std::string> MetaBlockNames() const;
  // NotFound if there is no meta block of that name.
  Result<std::string> ReadMetaBlock(const std::string& name) const;

  // The general bloom's answer for a Get, as HBase's StoreFileReader decides it: false only
  // when the file certainly holds no cell the Get asks for. A whole-row (or whole-family) Get:
  Result<bool> BloomMightContainRow(const Slice& row) const;
  // A Get of one column (ROWCOL blooms use the qualifier; ROW and ROWPREFIX only the row):
  Result<bool> BloomMightContainColumn(const Slice& row, const Slice& family,
                                       const Slice& qualifier) const;
  // The delete-family bloom: false only when the row certainly has no DeleteFamily or
  // DeleteFamilyVersion marker in this file.
  Result<bool> DeleteFamilyBloomMightContain(const Slice& row) const;

  struct Rep;
  const Rep& rep() const { return *rep_; }

 private:
  explicit Reader(std::unique_ptr<Rep> rep);
  std::unique_ptr<Rep> rep_;
};

// The key that sorts before every cell of `row`: (row, "", "", LATEST_TIMESTAMP, Maximum).
// Seek(FirstOnRowKey(row)) positions an iterator at the row's first cell.
std::string FirstOnRowKey(const Slice& row);

}  // namespace hfile

#endif  // HFILE_READER_H_
