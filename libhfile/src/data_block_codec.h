// Data block cell codecs: the cells of one uncompressed data block body, for every data block
// encoding (NONE, PREFIX, DIFF, FAST_DIFF, ROW_INDEX_V1).
//
// A DATABLK* body is a run of plain KeyValues:
//   int32 klen | int32 vlen | key | value | [u16 tagslen | tags] | [vlong memstoreTS]
// A DATABLKE body starts with the int16 BE encoding id; what follows is per encoding
// (data_block_*.cc hold the layouts).
#ifndef HFILE_SRC_DATA_BLOCK_CODEC_H_
#define HFILE_SRC_DATA_BLOCK_CODEC_H_

#include <cstdint>
#include <memory>
#include <string>

#include "hfile/cell.h"
#include "hfile/cell_batch.h"
#include "hfile/slice.h"
#include "hfile/status.h"
#include "hfile/types.h"

namespace hfile {

// What every cell of a file carries, from its file info.
struct CellFormat {
  bool include_tags = false;     // hfile.MAX_TAGS_LEN present
  bool tags_compressed = false;  // hfile.TAGS_COMPRESSED true (PREFIX/DIFF/FAST_DIFF only)
  bool include_mvcc = false;     // KEY_VALUE_VERSION == 1
};

// Iterates the cells of one block body, in order. Cells it returns point into the body or into
// buffers the decoder owns; they stay valid until the next call to Reset or Next.
// Decoding is bounds-checked: malformed input ends the iteration with a Corruption status that
// names the cell ordinal and byte offset within the body, never reads out of bounds, and never
// allocates more than a small multiple of the body size.
class DataBlockDecoder {
 public:
  virtual ~DataBlockDecoder() = default;

  // Starts over on `body`: the whole uncompressed block body (for encoded blocks including the
  // 2-byte id). The body must stay alive while the decoder uses it.
  virtual Status Reset(const Slice& body) = 0;

  // Decodes the next cell. Returns false at the end of the block or on error; then status()
  // tells which.
  virtual bool Next(Cell* cell) = 0;

  virtual const Status& status() const = 0;

  // Appends the cells after the last one Next returned to *batch, as views that stay valid until
  // the batch is cleared (while the body lives), and returns true; false, with nothing read,
  // where the decoder leaves that to its caller's Next loop. Stops at the end of the block or at
  // the first malformed cell (status() tells).
  virtual bool ReadAll(CellBatch* /*batch*/) { return false; }
};

// The decoder for blocks of `encoding` (kNone for DATABLK* blocks). NotSupported for PREFIX_TREE.
Result<std::unique_ptr<DataBlockDecoder>> NewDataBlockDecoder(DataBlockEncoding encoding,
                                                              const CellFormat& format);

// Builds the body of one data block from cells added in order.
class DataBlockEncoder {
 public:
  virtual ~DataBlockEncoder() = default;

  // Starts a new, empty block.
  virtual void Reset() = 0;
  // Appends a cell. REQUIRES: cells arrive in file order; cell.key is valid.
  virtual void Add(const Cell& cell) = 0;
  // Bytes the cells added since Reset would take unencoded (klen+vlen+8 [+2+tags] [+vlong]):
  // what HBase compares with the block size to close a block.
  size_t UnencodedSize() const { return unencoded_; }
  // Bytes the encoded body would take now (approximately, for the encoded size limit).
  size_t EncodedSize() const { return encoded_; }
  size_t cell_count() const { return count_; }
  // The key of the last cell added since Reset, where the encoder keeps it anyway (the block's
  // bytes, or a delta encoder's previous key): the writer's previous key, without a copy per
  // cell. Valid until the next Add, Reset or Finish; empty after Reset.
  Slice last_key() const { return last_key_; }
  // Appends the finished body (for encoded blocks starting with the 2-byte id) to *body.
  virtual void Finish(std::string* body) = 0;
  // The finished body as a view, valid until the next Reset or Add; `scratch` may hold it. The
  // default is Finish into the cleared scratch; NONE returns its own buffer, which keeps its
  // size across blocks so that it is zero-filled once per file, not once per block.
  virtual Slice FinishBlock(std::string* scratch) {
    scratch->clear();
    Finish(scratch);
    return Slice(*scratch);
  }

 protected:
  // The three sizes above, set by each encoder's Reset and Add (and kept by Finish), so that the
  // writer's per-cell test of whether the block is full makes no virtual call.
  size_t unencoded_ = 0;
  size_t encoded_ = 0;
  size_t count_ = 0;
  Slice last_key_;  // last_key(), set by each encoder's Add and Reset
};

// nullptr for PREFIX_TREE (and ids the format does not define).
std::unique_ptr<DataBlockEncoder> NewDataBlockEncoder(DataBlockEncoding encoding,
                                                      const CellFormat& format);

// Appends one cell in the plain KeyValue layout above (DATABLK* and ROW_INDEX_V1 cells).
void AppendKeyValue(std::string* dst, const Cell& cell, const CellFormat& format);
// Size AppendKeyValue would append.
size_t KeyValueSize(const Cell& cell, const CellFormat& format);
// Writes the KeyValue at dst, which has room for KeyValueSize + kMaxVLongSize bytes (the
// memstoreTS is stored as one 8-byte word); returns the bytes written (KeyValueSize).
size_t EncodeKeyValue(char* dst, const Cell& cell, const CellFormat& format);

}  // namespace hfile

#endif  // HFILE_SRC_DATA_BLOCK_CODEC_H_
