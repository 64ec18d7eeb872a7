// IoStats: what reading one HFile cost, counted by its Reader: blocks by kind with their on-disk
// bytes, the read calls that fetched them, how many of those were seeks, and the blocks served
// without a read. Per-block counters, never per cell, so counting costs nothing measurable.
#ifndef HFILE_IO_STATS_H_
#define HFILE_IO_STATS_H_

#include <cstdint>

namespace hfile {

struct IoStats {
  // Blocks read and their on-disk bytes: header, (compressed) body and checksums.
  struct Blocks {
    uint64_t count = 0;
    uint64_t bytes = 0;
    Blocks& operator+=(const Blocks& o) {
      count += o.count;
      bytes += o.bytes;
      return *this;
    }
  };
  // What Reader::Open reads, and what a region server holds in memory once a store file is
  // open: the trailer and the load-on-open section (root indexes, file info, bloom metas).
  Blocks open;
  Blocks data;   // DATA / ENCODED_DATA
  Blocks index;  // LEAF_INDEX / INTERMEDIATE_INDEX, read by a seek's index descent
  Blocks bloom;  // BLOOM_CHUNK (general and delete-family blooms)
  Blocks meta;   // META
  Blocks other;  // any other block, e.g. one a -h dump reads the header of only
  // Every pread(2) of the file and the bytes they returned (a block comes with the next block's
  // header, as HBase reads them, so this exceeds the sum of the block figures).
  uint64_t read_calls = 0;
  uint64_t bytes_read = 0;
  // Reads that neither continue nor overlap the file's previous read: where a disk would seek.
  // The first read of a file counts as one.
  uint64_t seeks = 0;
  // Blocks served without reading them again: an iterator's seek into the data block it holds.
  uint64_t cache_hits = 0;

  // Every block read after Open (what a read costs once the file is open).
  Blocks AfterOpen() const {
    Blocks b = data;
    b += index;
    b += bloom;
    b += meta;
    b += other;
    return b;
  }
  IoStats& operator+=(const IoStats& o) {
    open += o.open;
    data += o.data;
    index += o.index;
    bloom += o.bloom;
    meta += o.meta;
    other += o.other;
    read_calls += o.read_calls;
    bytes_read += o.bytes_read;
    seeks += o.seeks;
    cache_hits += o.cache_hits;
    return *this;
  }
};

}  // namespace hfile

#endif  // HFILE_IO_STATS_H_
