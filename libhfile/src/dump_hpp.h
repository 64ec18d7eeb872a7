// `hfile dump --hpp`: -m, -s, -b and -h exactly as HBase 2.6's HFilePrettyPrinter prints them.
//
// HPP prints Java objects' toString(): the reader, the trailer with the comparator class HBase
// resolved at run time (not the stored name), the block index reader, every HFileBlock, the
// Dropwizard histograms of its KeyValueStatsCollector. These functions rebuild those strings
// from the file. What depends on the JVM is fixed as a 64-bit JVM with compressed oops (heap
// under 32 GB, HBase's usual) prints it; what cannot be reproduced (an identity hash code, the
// random sample of a histogram over more than 1028 values) is described in hfile-dump(1).
#ifndef HFILE_SRC_DUMP_HPP_H_
#define HFILE_SRC_DUMP_HPP_H_

#include <cstdint>
#include <memory>
#include <ostream>
#include <string>

#include "dump_internal.h"

namespace hfile {
namespace hpp {

// KeyValue.keyToString(key) + "/vlen=0/mvcc=0": KeyOnlyKeyValue.toString ("empty" for no bytes).
std::string KeyOnlyString(const Slice& key);
// CellUtil.getCellKeyAsString of a KeyOnlyKeyValue: "row/f:q/ts/Type/seqid=0".
std::string CellKeyString(const Slice& key);
// The comparator class FixedFileTrailer resolves from the stored name (what its toString
// prints): legacy KeyValue names map to InnerStoreCellComparator or MetaCellComparator; raw-bytes
// names leave its default, InnerStoreCellComparator.
std::string RuntimeComparatorClass(const std::string& stored);
// Java's String.format("%.Nf", v) (HALF_UP on the shortest decimal form of v).
std::string JavaFixed(double v, int decimals);

}  // namespace hpp

// `path`: the file's name as HPP prints it.
void DumpHppMeta(const Reader& reader, const std::string& path, std::ostream& out);
void DumpHppBlockIndex(const Reader& reader, std::ostream& out);
Status DumpHppBlockHeaders(const Reader& reader, std::ostream& out);

// KeyValueStatsCollector: per-cell value lengths, per-row key length (the row's last cell),
// bytes and cell count, the biggest row; `ranges` adds -d's counts per size range.
class HppStatsCollector {
 public:
  explicit HppStatsCollector(bool ranges);
  ~HppStatsCollector();
  void Add(const Cell& cell, ComparatorKind kind);
  void Print(std::ostream& out);

 private:
  struct Rep;
  std::unique_ptr<Rep> rep_;
};

}  // namespace hfile

#endif  // HFILE_SRC_DUMP_HPP_H_
