// Block types and their 8-byte magics.
#ifndef HFILE_BLOCK_TYPE_H_
#define HFILE_BLOCK_TYPE_H_

#include <cstdint>
#include <optional>
#include <string_view>

#include "hfile/slice.h"

namespace hfile {

enum class BlockType : uint8_t {
  kData,                   // DATABLK*
  kEncodedData,            // DATABLKE
  kLeafIndex,              // IDXLEAF2
  kBloomChunk,             // BLMFBLK2
  kMeta,                   // METABLKc
  kIntermediateIndex,      // IDXINTE2
  kRootIndex,              // IDXROOT2
  kFileInfo,               // FILEINF2
  kGeneralBloomMeta,       // BLMFMET2
  kDeleteFamilyBloomMeta,  // DFBLMET2
  kTrailer,                // TRABLK"$
  kIndexV1,                // IDXBLK)+
};

std::string_view BlockMagic(BlockType t);
std::optional<BlockType> BlockTypeFromMagic(const Slice& magic8);
// "DATA", "LEAF_INDEX", ... as HBase's BlockType enum names them.
std::string_view BlockTypeName(BlockType t);
// DATA and ENCODED_DATA share one prevBlockOffset chain.
inline BlockType BlockTypeChainId(BlockType t) {
  return t == BlockType::kEncodedData ? BlockType::kData : t;
}
inline bool IsDataBlock(BlockType t) { return t == BlockType::kData || t == BlockType::kEncodedData; }

}  // namespace hfile

#endif  // HFILE_BLOCK_TYPE_H_
