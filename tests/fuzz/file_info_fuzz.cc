// FileInfo::DecodeFrom (protobuf and Writable forms), the typed getters and the describers; a
// decoded file info must re-encode to something that decodes.
#include "fuzz_util.h"
#include "hfile/file_info.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  hfile::FileInfo fi;
  if (!fi.DecodeFrom(hfile::Slice(reinterpret_cast<const char*>(data), size)).ok()) return 0;
  size_t n = 0;
  for (const auto& [k, v] : fi.entries()) {
    for (auto kind : {hfile::ComparatorKind::kDefault, hfile::ComparatorKind::kMeta,
                      hfile::ComparatorKind::kRawBytes}) {
      n += hfile::DescribeFileInfoValue(k, v, kind).size();
    }
    (void)fi.GetInt32(k);
    (void)fi.GetInt64(k);
    (void)fi.GetBool(k);
    (void)hfile::DecodeTimeRange(v);
  }
  std::string again;
  fi.EncodeTo(&again);
  hfile::FileInfo fi2;
  HFILE_FUZZ_CHECK(fi2.DecodeFrom(again).ok());
  return static_cast<int>(n & 0);
}
