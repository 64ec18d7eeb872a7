// Trailer::DecodeFrom over the input as a file's tail; a decoded protobuf trailer must survive
// an encode/decode round trip.
#include "fuzz_util.h"
#include "hfile/trailer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using hfile::Slice;
  const size_t tail_len = size < 4096 ? size : 4096;
  Slice tail(reinterpret_cast<const char*>(data) + size - tail_len, tail_len);
  hfile::Trailer t;
  if (!t.DecodeFrom(tail, size).ok()) return 0;
  std::string again;
  if (!t.EncodeTo(&again).ok()) return 0;  // Writable form, or a name too long to fit
  hfile::Trailer u;
  HFILE_FUZZ_CHECK(u.DecodeFrom(again, size).ok());
  HFILE_FUZZ_CHECK(u.file_info_offset == t.file_info_offset &&
                   u.load_on_open_data_offset == t.load_on_open_data_offset &&
                   u.entry_count == t.entry_count && u.compression_ordinal == t.compression_ordinal &&
                   u.comparator_class_name == t.comparator_class_name);
  return 0;
}
