#include "region/vector_iterator.h"

#include <algorithm>

#include "hfile/coding.h"

namespace hfile::region {

CellData CellData::Make(const Slice& row, const Slice& family, const Slice& qualifier,
                        int64_t timestamp, KeyType type, const Slice& value,
                        uint64_t sequence_id, const Slice& tags) {
  CellData c;
  AppendKey(&c.key, row, family, qualifier, timestamp, static_cast<uint8_t>(type));
  c.value = value.ToString();
  c.tags = tags.ToString();
  c.sequence_id = sequence_id;
  return c;
}

void AppendTag(std::string* tags, uint8_t type, const Slice& value) {
  PutFixed16BE(tags, static_cast<uint16_t>(value.size() + 1));
  PutFixed8(tags, type);
  tags->append(value.data(), value.size());
}

std::string TtlTag(int64_t ttl_ms) {
  std::string v, tags;
  PutFixed64BE(&v, static_cast<uint64_t>(ttl_ms));
  AppendTag(&tags, 8, v);
  return tags;
}

namespace {

class VectorCellIterator : public CellIterator {
 public:
  VectorCellIterator(std::vector<CellData> cells, ComparatorKind kind)
      : cells_(std::move(cells)), kind_(kind), pos_(cells_.size()) {}

  bool Valid() const override { return pos_ < cells_.size(); }
  void SeekToFirst() override { Position(0); }
  void Seek(const Slice& key) override {
    auto it = std::lower_bound(cells_.begin(), cells_.end(), key,
                               [&](const CellData& c, const Slice& k) {
                                 return CompareKeys(kind_, c.key, k) < 0;
                               });
    Position(static_cast<size_t>(it - cells_.begin()));
  }
  void Next() override { Position(pos_ + 1); }
  const Cell& cell() const override { return current_; }
  Status status() const override { return Status::OK(); }

 private:
  void Position(size_t pos) {
    pos_ = pos;
    if (pos_ < cells_.size()) current_ = cells_[pos_].view();
  }

  std::vector<CellData> cells_;
  ComparatorKind kind_;
  size_t pos_;
  Cell current_;
};

}  // namespace

std::unique_ptr<CellIterator> NewVectorCellIterator(std::vector<CellData> cells,
                                                    ComparatorKind kind) {
  return std::make_unique<VectorCellIterator>(std::move(cells), kind);
}

}  // namespace hfile::region
