// MergingIterator: a k-way merge of CellIterators in HBase's scan order (KeyValueHeap):
//   CompareKeys (row, family, qualifier, timestamp desc, type desc), then sequence id desc,
//   then the input's scanner order desc (a later input in the vector is newer and wins ties).
// Inputs should be ordered as HBase orders store files for a scan: by (max sequence id asc,
// file length desc, bulk-load time asc, name asc); see REGION_LAYOUT §6.2.
#ifndef REGION_MERGING_ITERATOR_H_
#define REGION_MERGING_ITERATOR_H_

#include <cstddef>
#include <memory>
#include <vector>

#include "hfile/iterator.h"
#include "hfile/types.h"

namespace hfile::region {

// Takes ownership of `inputs`. The first error of any input makes the merge invalid, and
// status() reports it.
std::unique_ptr<CellIterator> NewMergingIterator(
    std::vector<std::unique_ptr<CellIterator>> inputs,
    ComparatorKind kind = ComparatorKind::kDefault);

// The input (its index in `inputs`) a merge's current cell comes from; SIZE_MAX when `it` is not
// a NewMergingIterator (or NewStoreFilesIterator: the index in its readers) or not Valid().
size_t MergingIteratorSource(const CellIterator& it);

// The full merge order of two cells from inputs with scanner orders `order_a`, `order_b`:
// <0 if `a` comes first.
int CompareForMerge(ComparatorKind kind, const Cell& a, size_t order_a, const Cell& b,
                    size_t order_b);

}  // namespace hfile::region

#endif  // REGION_MERGING_ITERATOR_H_
