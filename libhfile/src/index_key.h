// The key HBase stores in the data block index for a data block (HFileWriterImpl.getMidpoint):
// a short key K with lastKeyOfPreviousBlock < K <= firstKeyOfBlock.
//
//   first block:            its first key, exactly
//   hbase:meta (kMeta):     the block's first key, exactly
//   rows differ:            (sep(leftRow, rightRow), "", "", LATEST_TIMESTAMP, Maximum)
//   families differ:        (rightRow, sep(leftFam, rightFam), "", LATEST_TIMESTAMP, Maximum)
//   qualifiers differ:      (rightRow, rightFam, sep(leftQual, rightQual), LATEST, Maximum)
//   otherwise:              the block's first key
//
// sep(L, R), L < R, d = length of the common prefix:
//   L[d] exists:            L[0..d) + (L[d] + 1)                     (both flavors, see below)
//   L is a prefix of R:     HBase 2.6: R[0..d) + 0x00;  HBase <= 2.5: R[0..d]
// (HBase <= 2.5 returns R[0..d] instead of L[0..d) + (L[d] + 1) when L[d] + 1 == R[d], which
// is the same bytes.)
#ifndef HFILE_SRC_INDEX_KEY_H_
#define HFILE_SRC_INDEX_KEY_H_

#include <string>

#include "hfile/slice.h"
#include "hfile/types.h"
#include "hfile/writer.h"

namespace hfile {

// Replaces *dst with the index key for a block whose first key is `right`, preceded by a block
// whose last key is `left` (nullptr for the first block). REQUIRES: left < right, both valid
// KeyValue keys (kRawBytes files get `right`).
void MakeIndexKey(ComparatorKind kind, HBaseFlavor flavor, const Slice* left, const Slice& right,
                  std::string* dst);

}  // namespace hfile

#endif  // HFILE_SRC_INDEX_KEY_H_
