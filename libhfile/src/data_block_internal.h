// Pieces shared by the data block codecs (data_block_*.cc); not part of the library's interface.
#ifndef HFILE_SRC_DATA_BLOCK_INTERNAL_H_
#define HFILE_SRC_DATA_BLOCK_INTERNAL_H_

#include <memory>
#include <string>

#include "data_block_codec.h"

namespace hfile {

// The HBase value length limit we accept for tags: KeyValue stores tagsLength as a u16.
inline constexpr size_t kMaxTagsLength = 0xFFFF;

// Corruption naming the cell ordinal (0-based) and the byte offset within the body.
Status CellCorruption(size_t ordinal, size_t offset, const char* what);

// Unencoded size of one cell as HBase counts it (NoneEncoder.write, afterEncodingKeyValue):
// klen + vlen + 8 [+ 2 + tagsLength] [+ vlong size of the sequence id].
size_t UnencodedCellSize(const Cell& cell, const CellFormat& format);

// Parses one plain KeyValue (NONE / ROW_INDEX_V1 layout) from the front of *in. On malformed
// input returns false and sets *why; *in is then unspecified.
bool ParseKeyValue(Slice* in, const CellFormat& format, Cell* cell, const char** why);

std::unique_ptr<DataBlockDecoder> NewNoneDecoder(const CellFormat& format);
std::unique_ptr<DataBlockDecoder> NewPrefixDecoder(const CellFormat& format);
std::unique_ptr<DataBlockDecoder> NewDiffDecoder(const CellFormat& format);
std::unique_ptr<DataBlockDecoder> NewFastDiffDecoder(const CellFormat& format);
std::unique_ptr<DataBlockDecoder> NewRowIndexDecoder(const CellFormat& format);

std::unique_ptr<DataBlockEncoder> NewNoneEncoder(const CellFormat& format);
std::unique_ptr<DataBlockEncoder> NewPrefixEncoder(const CellFormat& format);
std::unique_ptr<DataBlockEncoder> NewDiffEncoder(const CellFormat& format);
std::unique_ptr<DataBlockEncoder> NewFastDiffEncoder(const CellFormat& format);
std::unique_ptr<DataBlockEncoder> NewRowIndexEncoder(const CellFormat& format);

}  // namespace hfile

#endif  // HFILE_SRC_DATA_BLOCK_INTERNAL_H_
