// Root and non-root index blocks. Byte 0 picks the kind (bit 0: non-root; bit 1: expect the
// mid-key metadata), bytes 1..4 the root entry count; the rest is the block body. Every entry is
// read and searched for with both key orders.
#include "block_index.h"
#include "hfile/coding.h"
#include "fuzz_util.h"
#include "hfile/cell.h"

namespace {

int RawCompare(const hfile::Slice& a, const hfile::Slice& b) { return a.compare(b); }
int KeyCompare(const hfile::Slice& a, const hfile::Slice& b) {
  return hfile::CompareKeys(hfile::ComparatorKind::kDefault, a, b);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace hfile;
  if (size < 5) return 0;
  const uint8_t mode = data[0];
  const uint32_t count = DecodeFixed32BE(reinterpret_cast<const char*>(data) + 1);
  Slice body(reinterpret_cast<const char*>(data) + 5, size - 5);
  uint32_t h = 0;
  if (mode & 1) {
    NonRootIndexView view;
    if (!view.Init(body).ok()) return 0;
    for (uint32_t i = 0; i < view.size(); ++i) {
      IndexEntry e = view.entry(i);
      h += fuzz::Touch(e.key);
      const int j = view.FindLastLE(e.key, RawCompare);
      HFILE_FUZZ_CHECK(j >= -1 && j < static_cast<int>(view.size()));
      (void)view.FindLastLE(e.key, KeyCompare);
    }
  } else {
    RootIndex root;
    if (!root.DecodeFrom(body, count, (mode & 2) != 0).ok()) return 0;
    HFILE_FUZZ_CHECK(root.size() == count);
    for (const auto& e : root.entries()) {
      h += fuzz::Touch(e.key);
      // Hostile keys need not be sorted, so a key may not be found; the answer stays in range.
      const int i = root.FindLastLE(e.key, RawCompare);
      HFILE_FUZZ_CHECK(i >= -1 && i < static_cast<int>(root.size()));
      (void)root.FindLastLE(e.key, KeyCompare);
    }
  }
  return static_cast<int>(h & 0);
}
