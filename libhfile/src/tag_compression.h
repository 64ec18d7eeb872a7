// Tag dictionary compression inside PREFIX / DIFF / FAST_DIFF data blocks (hfile.TAGS_COMPRESSED).
//
// A cell's tags are a run of { u16 BE length | payload (u8 type + value) }. Compressed, each tag
// becomes one of:
//
//   +------+--------------------+---------+
//   | 0xFF | varint32 length    | payload |   payload not in the dictionary (then added to it)
//   +------+--------------------+---------+
//   +------------------+
//   | int16 BE index   |                      payload found in the dictionary (index < 127)
//   +------------------+
//
// The dictionary is HBase's LRUDictionary with capacity Byte.MAX_VALUE (127), cleared at the start
// of every block on both sides. Indexes are assigned 0, 1, 2, ... as entries are added; once full,
// the least recently used slot is overwritten and keeps its index. A hit (encoder) or a lookup by
// index (decoder) makes the entry most recently used, as does adding it.
//
// Facts from hbase-common/src/main/java/org/apache/hadoop/hbase/io/TagCompressionContext.java and
// .../io/util/LRUDictionary.java:
//  * The encoder's findEntry *adds* on a miss, so both sides add exactly the payloads written with
//    0xFF, in the same order.
//  * Entries of length 0 are never added (addEntryInternal returns NOT_IN_DICTIONARY), so an empty
//    payload is always written as FF 00.
//  * The decoder produces tags until it has at least tagsLength bytes (the compressed-int
//    tagsLength written before the tags, uncompressed). Java never checks that it lands exactly on
//    tagsLength; we do, and call an overshoot corruption.
#ifndef HFILE_SRC_TAG_COMPRESSION_H_
#define HFILE_SRC_TAG_COMPRESSION_H_

#include <cstdint>
#include <string>

#include "hfile/slice.h"

namespace hfile {

class TagDictionary {
 public:
  static constexpr int kCapacity = 127;  // Byte.MAX_VALUE
  static constexpr uint8_t kNotInDictionary = 0xFF;

  TagDictionary() { Clear(); }

  void Clear();
  int size() const { return size_; }

  // Encoder side: the index of the entry equal to `payload`, made most recently used; or -1, after
  // adding `payload` (unless empty).
  int FindOrAdd(const Slice& payload);
  // Decoder side: adds `payload` (unless empty) as the most recently used entry.
  void Add(const Slice& payload);
  // Decoder side: entry `index`, made most recently used; false if there is no such entry.
  bool Get(int index, Slice* entry);

 private:
  void Unlink(int i);
  void PushFront(int i);

  std::string entries_[kCapacity];
  int prev_[kCapacity];  // towards the most recently used end
  int next_[kCapacity];  // towards the least recently used end
  int head_ = -1;        // most recently used
  int tail_ = -1;        // least recently used
  int size_ = 0;
};

// Appends the compressed form of `tags` to *dst. REQUIRES: `tags` is a well-formed run of tags
// (a malformed tail is clamped, never read past).
void CompressTags(const Slice& tags, TagDictionary* dict, std::string* dst);

// Decodes compressed tags from the front of *in until `tags_length` uncompressed bytes have been
// produced into *out (replaced). On malformed input returns false and sets *why.
bool UncompressTags(Slice* in, size_t tags_length, TagDictionary* dict, std::string* out,
                    const char** why);

}  // namespace hfile

#endif  // HFILE_SRC_TAG_COMPRESSION_H_
