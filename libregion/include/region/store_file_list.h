// The FILE store-file tracker's list (HBase 2.5+): <family>/.filelist/f1|f2[.<ts>].
//
//   file = int32 BE payload length (1..16 MiB) | StoreFileList { 1 timestamp uint64,
//          2 repeated { 1 name string, 2 size uint64 }, 3 version uint64 = 1 } |
//          int32 BE CRC32 of the payload
// Of all files, the highest ".<ts>" suffix group wins (no suffix = 0), and within it the one
// whose message has the larger timestamp.
#ifndef REGION_STORE_FILE_LIST_H_
#define REGION_STORE_FILE_LIST_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "hfile/slice.h"
#include "hfile/status.h"

namespace hfile::region {

struct StoreFileList {
  struct Entry {
    std::string name;
    uint64_t size = 0;
  };
  uint64_t timestamp = 0;
  uint64_t version = 1;
  std::vector<Entry> files;

  // Corruption on a bad length, CRC or message; NotSupported for version > 1.
  Status DecodeFrom(const Slice& contents);
  void EncodeTo(std::string* dst) const;
};

// "f1" / "f2" with an optional ".<digits>" suffix: which (1 or 2) and the suffix (0 if none).
struct StoreFileListName {
  int which = 0;
  uint64_t suffix = 0;
};
std::optional<StoreFileListName> ParseStoreFileListName(std::string_view name);

// Reads the current list from `<family dir>/.filelist`. NotFound if there is no tracker file.
Result<StoreFileList> ReadStoreFileList(const std::string& family_dir);

}  // namespace hfile::region

#endif  // REGION_STORE_FILE_LIST_H_
