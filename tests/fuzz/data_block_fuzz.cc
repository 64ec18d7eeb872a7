// Data block decoders. Byte 0 picks the encoding (NONE, PREFIX, DIFF, FAST_DIFF, ROW_INDEX_V1),
// byte 1 the CellFormat flags (bit 0 tags, bit 1 compressed tags, bit 2 mvcc); the rest is the
// uncompressed block body (for encoded blocks starting with the 2-byte encoding id). Decodes
// every cell, reads every byte it points at and compares consecutive keys; then decodes the block
// again as a file's iterator does (the first cell by Next, the rest by ReadAll) and checks that
// it gives the same cells and the same error.
#include <string>
#include <vector>

#include "data_block_codec.h"
#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace hfile;
  static constexpr DataBlockEncoding kEncodings[] = {
      DataBlockEncoding::kNone, DataBlockEncoding::kPrefix, DataBlockEncoding::kDiff,
      DataBlockEncoding::kFastDiff, DataBlockEncoding::kRowIndexV1};
  if (size < 2) return 0;
  const DataBlockEncoding encoding = kEncodings[data[0] % std::size(kEncodings)];
  CellFormat format;
  format.include_tags = (data[1] & 1) != 0;
  format.tags_compressed = format.include_tags && (data[1] & 2) != 0;
  format.include_mvcc = (data[1] & 4) != 0;
  // A copy of exactly the body's size, so that ASan sees any read past it.
  std::string body(reinterpret_cast<const char*>(data) + 2, size - 2);
  auto decoder = NewDataBlockDecoder(encoding, format);
  HFILE_FUZZ_CHECK(decoder.ok());
  if (!(*decoder)->Reset(body).ok()) return 0;
  Cell cell;
  std::string prev_key;
  uint32_t h = 0;
  std::vector<std::string> seen;  // each cell's key, value and tags, for the batched pass
  for (size_t n = 0; (*decoder)->Next(&cell); ++n) {
    HFILE_FUZZ_CHECK(n <= body.size());  // every cell takes at least one byte
    HFILE_FUZZ_CHECK(IsValidKey(cell.key));
    h += fuzz::Touch(cell.key) + fuzz::Touch(cell.value) + fuzz::Touch(cell.tags);
    h += fuzz::Touch(cell.row()) + fuzz::Touch(cell.family()) + fuzz::Touch(cell.qualifier());
    h += static_cast<uint32_t>(cell.timestamp()) + cell.type();
    if (!prev_key.empty()) h += static_cast<uint32_t>(CompareKeys(ComparatorKind::kDefault, prev_key, cell.key));
    prev_key = cell.key.ToString();
    seen.push_back(cell.key.ToString() + '|' + cell.value.ToString() + '|' + cell.tags.ToString());
  }
  const std::string status = (*decoder)->status().ToString();

  // Again as a file's iterator reads a block: the first cell by Next, the rest by ReadAll (where
  // the decoder has it). The same cells and the same end.
  HFILE_FUZZ_CHECK((*decoder)->Reset(body).ok());
  if (!(*decoder)->Next(&cell)) return static_cast<int>(h & 0);
  CellBatch batch;
  Cell* first = batch.Add();  // copied, as the file iterator does: its key or its decompressed
  first->key = batch.Copy(cell.key);  // tags may be in the decoder's buffers, which ReadAll reuses
  first->value = batch.Copy(cell.value);
  first->tags = batch.Copy(cell.tags);
  if ((*decoder)->ReadAll(&batch)) {
    HFILE_FUZZ_CHECK(batch.size() == seen.size());
    for (size_t i = 0; i < batch.size(); ++i) {
      const Cell& c = batch[i];
      HFILE_FUZZ_CHECK(c.key.ToString() + '|' + c.value.ToString() + '|' + c.tags.ToString() ==
                       seen[i]);
    }
    HFILE_FUZZ_CHECK((*decoder)->status().ToString() == status);
  }
  return static_cast<int>(h & 0);
}
