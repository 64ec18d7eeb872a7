// Factories and the plain KeyValue layout shared by NONE and ROW_INDEX_V1:
//
//   +---------+---------+-----+-------+--------------------------+------------------+
//   | int32BE | int32BE | key | value | [u16 BE tagsLen | tags]  | [vlong memstore] |
//   | klen    | vlen    |     |       |  iff include_tags        |  iff include_mvcc|
//   +---------+---------+-----+-------+--------------------------+------------------+
//
// Notes (hbase-common/src/main/java/org/apache/hadoop/hbase/io/encoding/NoneEncoder.java):
//  * The tags length is written for every cell once the file includes tags, even when it is 0.
//  * The size HBase adds to the block's unencoded size per cell is klen + vlen + 8
//    [+ 2 + tagsLength] [+ WritableUtils.getVIntSize(seqId)]: exactly the serialized size.
#include <cstring>

#include <fmt/format.h>

#include "hfile/coding.h"
#include "data_block_internal.h"

namespace hfile {

Status CellCorruption(size_t ordinal, size_t offset, const char* what) {
  return Status::Corruption(
      fmt::format("data block cell {} at body offset {}: {}", ordinal, offset, what));
}

size_t UnencodedCellSize(const Cell& cell, const CellFormat& format) {
  size_t n = 8 + cell.key.size() + cell.value.size();
  if (format.include_tags) n += 2 + cell.tags.size();
  if (format.include_mvcc) n += VLongSize(static_cast<int64_t>(cell.sequence_id));
  return n;
}

size_t KeyValueSize(const Cell& cell, const CellFormat& format) {
  return UnencodedCellSize(cell, format);
}

size_t EncodeKeyValue(char* dst, const Cell& cell, const CellFormat& format) {
  if (format.include_tags) {
    return format.include_mvcc ? EncodeKeyValueAs<true, true>(dst, cell)
                               : EncodeKeyValueAs<true, false>(dst, cell);
  }
  return format.include_mvcc ? EncodeKeyValueAs<false, true>(dst, cell)
                             : EncodeKeyValueAs<false, false>(dst, cell);
}

void AppendKeyValue(std::string* dst, const Cell& cell, const CellFormat& format) {
  const size_t old = dst->size();
  dst->resize(old + KeyValueSize(cell, format) + kMaxVLongSize);
  dst->resize(old + EncodeKeyValue(dst->data() + old, cell, format));
}

Result<std::unique_ptr<DataBlockDecoder>> NewDataBlockDecoder(DataBlockEncoding encoding,
                                                              const CellFormat& format) {
  switch (encoding) {
    case DataBlockEncoding::kNone: return NewNoneDecoder(format);
    case DataBlockEncoding::kPrefix: return NewPrefixDecoder(format);
    case DataBlockEncoding::kDiff: return NewDiffDecoder(format);
    case DataBlockEncoding::kFastDiff: return NewFastDiffDecoder(format);
    case DataBlockEncoding::kRowIndexV1: return NewRowIndexDecoder(format);
    case DataBlockEncoding::kPrefixTree:
      return Status::NotSupported(
          "PREFIX_TREE encoding was removed in HBase 2.0; HBase 2.x cannot read such blocks "
          "either. Rewrite the file with HBase 1.x (major compaction after changing the family's "
          "DATA_BLOCK_ENCODING)");
  }
  return Status::NotSupported(
      fmt::format("unknown data block encoding id {}", static_cast<unsigned>(encoding)));
}

std::unique_ptr<DataBlockEncoder> NewDataBlockEncoder(DataBlockEncoding encoding,
                                                      const CellFormat& format) {
  switch (encoding) {
    case DataBlockEncoding::kPrefix: return NewPrefixEncoder(format);
    case DataBlockEncoding::kDiff: return NewDiffEncoder(format);
    case DataBlockEncoding::kFastDiff: return NewFastDiffEncoder(format);
    case DataBlockEncoding::kRowIndexV1: return NewRowIndexEncoder(format);
    case DataBlockEncoding::kNone: return NewNoneEncoder(format);
    case DataBlockEncoding::kPrefixTree: break;  // removed in HBase 2.0: never written
  }
  return nullptr;
}

}  // namespace hfile
