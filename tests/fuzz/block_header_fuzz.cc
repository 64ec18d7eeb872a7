// BlockHeader::DecodeFrom with and without checksum fields; a decoded header's derived sizes
// must be consistent (no underflow in checksum_bytes / on_disk_body_size).
#include "block_header.h"
#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  hfile::Slice in(reinterpret_cast<const char*>(data), size);
  for (size_t hdr : {hfile::kBlockHeaderSizeWithChecksum, hfile::kBlockHeaderSizeNoChecksum}) {
    hfile::BlockHeader h;
    if (!h.DecodeFrom(in, hdr).ok()) continue;
    HFILE_FUZZ_CHECK(h.on_disk_data_size_with_header <= h.on_disk_size_with_header());
    HFILE_FUZZ_CHECK(h.checksum_bytes() <= h.on_disk_size_with_header());
    HFILE_FUZZ_CHECK(h.on_disk_body_size() <= h.on_disk_size_without_header);
    std::string again;
    h.EncodeTo(&again);
    HFILE_FUZZ_CHECK(again.size() == hdr);
  }
  return 0;
}
