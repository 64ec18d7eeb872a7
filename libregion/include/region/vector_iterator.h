// VectorCellIterator: a CellIterator over cells held in memory (tests, small tools).
#ifndef REGION_VECTOR_ITERATOR_H_
#define REGION_VECTOR_ITERATOR_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "hfile/cell.h"
#include "hfile/iterator.h"

namespace hfile::region {

// An owned cell.
struct CellData {
  std::string key;  // serialized KeyValue key
  std::string value;
  std::string tags;
  uint64_t sequence_id = 0;

  static CellData Make(const Slice& row, const Slice& family, const Slice& qualifier,
                       int64_t timestamp, KeyType type, const Slice& value = Slice(),
                       uint64_t sequence_id = 0, const Slice& tags = Slice());
  Cell view() const { return Cell{key, value, tags, sequence_id}; }
};

// Appends one tag (u16 BE length of type+value, u8 type, value) to `tags`.
void AppendTag(std::string* tags, uint8_t type, const Slice& value);
// A TTL tag (type 8) holding `ttl_ms` as an 8-byte big-endian long.
std::string TtlTag(int64_t ttl_ms);

// Iterates `cells` in the given order, which must already be sorted for Seek() to be
// meaningful (by CompareKeys of `kind`, then sequence id descending).
std::unique_ptr<CellIterator> NewVectorCellIterator(std::vector<CellData> cells,
                                                    ComparatorKind kind = ComparatorKind::kDefault);

}  // namespace hfile::region

#endif  // REGION_VECTOR_ITERATOR_H_
