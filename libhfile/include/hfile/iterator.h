// CellIterator: the one scan interface, for a data block, a whole file and a merge of files.
#ifndef HFILE_ITERATOR_H_
#define HFILE_ITERATOR_H_

#include "hfile/cell.h"
#include "hfile/cell_batch.h"
#include "hfile/slice.h"
#include "hfile/status.h"

namespace hfile {

// Errors are sticky: on a read or decode error the iterator becomes invalid and status() says
// why. Not thread-safe; use one iterator per thread.
class CellIterator {
 public:
  virtual ~CellIterator() = default;

  virtual bool Valid() const = 0;
  virtual void SeekToFirst() = 0;
  // Positions at the first cell whose key is >= `key` (a serialized KeyValue key, or raw bytes
  // for raw-bytes files) in the source's order.
  virtual void Seek(const Slice& key) = 0;
  // REQUIRES: Valid()
  virtual void Next() = 0;
  // The current cell; its bytes stay valid until the iterator moves. REQUIRES: Valid()
  virtual const Cell& cell() const = 0;
  // Replaces *batch's cells with the current cell and the cells after it that the source holds
  // decoded together (a file: the rest of the current data block), and leaves the iterator on
  // the batch's last cell, so that Next() moves past the batch:
  //   for (it->SeekToFirst(); it->Valid(); it->Next()) { it->ReadBatch(&b); ... b ... }
  // The views stay valid until the iterator moves or the batch is cleared. The default hands on
  // the current cell alone. REQUIRES: Valid()
  virtual void ReadBatch(CellBatch* batch) {
    batch->Clear();
    *batch->Add() = cell();
  }
  virtual Status status() const = 0;
  // When the iterator knows it without comparing (a merge learns it from its own comparisons):
  // true, with (in *first_difference) the first field in which the current cell's key differs
  // from the previous cell's it produced (kNone: equal keys), the current key sorting after the
  // previous one. False when it does not know: the default, the first cell, and after a Seek.
  // REQUIRES: Valid()
  virtual bool KeyDifference(KeyField* /*first_difference*/) const { return false; }
};

}  // namespace hfile

#endif  // HFILE_ITERATOR_H_
