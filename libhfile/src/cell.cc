#include "hfile/cell.h"

#include "coding.h"

namespace hfile {

std::string KeyTypeName(uint8_t type) {
  switch (static_cast<KeyType>(type)) {
    case KeyType::kMinimum: return "Minimum";
    case KeyType::kPut: return "Put";
    case KeyType::kDelete: return "Delete";
    case KeyType::kDeleteFamilyVersion: return "DeleteFamilyVersion";
    case KeyType::kDeleteColumn: return "DeleteColumn";
    case KeyType::kDeleteFamily: return "DeleteFamily";
    case KeyType::kMaximum: return "Maximum";
  }
  return "Unknown(" + std::to_string(type) + ")";
}

bool IsDeleteType(uint8_t type) {
  return type == 8 || type == 10 || type == 12 || type == 14;
}

bool IsValidKey(const Slice& key) {
  if (key.size() < kKeyInfrastructureSize) return false;
  size_t row_len = KeyRowLength(key);
  if (2 + row_len + 1 + 9 > key.size()) return false;
  size_t fam_len = key.byte(2 + row_len);
  return 2 + row_len + 1 + fam_len + 9 <= key.size();
}

int64_t KeyTimestamp(const Slice& key) {
  return static_cast<int64_t>(DecodeFixed64BE(key.data() + key.size() - 9));
}

void AppendKey(std::string* dst, const Slice& row, const Slice& family, const Slice& qualifier,
               int64_t timestamp, uint8_t type) {
  PutFixed16BE(dst, static_cast<uint16_t>(row.size()));
  dst->append(row.data(), row.size());
  PutFixed8(dst, static_cast<uint8_t>(family.size()));
  dst->append(family.data(), family.size());
  dst->append(qualifier.data(), qualifier.size());
  PutFixed64BE(dst, static_cast<uint64_t>(timestamp));
  PutFixed8(dst, type);
}

namespace {

// Compares one comma-delimited section of meta rows (MetaCellComparator). `a` and `b` are the
// remaining parts; `find_last` chooses the last comma instead of the first.
int CompareMetaRows(const Slice& a, const Slice& b) {
  auto find_first = [](const Slice& s) -> long {
    for (size_t i = 0; i < s.size(); ++i)
      if (s[i] == ',') return static_cast<long>(i);
    return -1;
  };
  auto find_last = [](const Slice& s) -> long {
    for (size_t i = s.size(); i > 0; --i)
      if (s[i - 1] == ',') return static_cast<long>(i - 1);
    return -1;
  };
  // Table name: up to the first comma.
  long la = find_first(a), lb = find_first(b);
  Slice ta = la < 0 ? a : a.sub(0, la), tb = lb < 0 ? b : b.sub(0, lb);
  int r = ta.compare(tb);
  if (r != 0) return r;
  if (la < 0 && lb >= 0) return -1;
  if (la >= 0 && lb < 0) return 1;
  if (la < 0 && lb < 0) return 0;
  Slice ra = a.sub(la + 1), rb = b.sub(lb + 1);
  // Start key: up to the last comma of the remainder.
  long ka = find_last(ra), kb = find_last(rb);
  Slice sa = ka < 0 ? ra : ra.sub(0, ka), sb = kb < 0 ? rb : rb.sub(0, kb);
  r = sa.compare(sb);
  if (r != 0) return r;
  if (ka < 0 && kb >= 0) return -1;
  if (ka >= 0 && kb < 0) return 1;
  if (ka < 0 && kb < 0) return 0;
  // Region id and the rest.
  return ra.sub(ka + 1).compare(rb.sub(kb + 1));
}

}  // namespace

int CompareRows(ComparatorKind kind, const Slice& a, const Slice& b) {
  if (kind == ComparatorKind::kMeta) return CompareMetaRows(a, b);
  return a.compare(b);
}

namespace {

struct KeyParts {
  Slice row, family, qualifier;
  int64_t timestamp;
  uint8_t type;
};

// Splits a key into its fields. Besides full KeyValue keys it accepts row-only keys
// (<int16 rowlen><row>, what Apache Hudi's writer stores in its index and LASTKEY), which order as
// the first key of their row. False for anything else.
bool SplitKey(const Slice& key, KeyParts* p) {
  if (IsValidKey(key)) {
    p->row = KeyRow(key);
    p->family = KeyFamily(key);
    p->qualifier = KeyQualifier(key);
    p->timestamp = KeyTimestamp(key);
    p->type = KeyTypeByte(key);
    return true;
  }
  if (key.size() >= 2 && size_t{2} + KeyRowLength(key) == key.size()) {
    p->row = KeyRow(key);
    p->family = p->qualifier = Slice();
    p->timestamp = kLatestTimestamp;
    p->type = static_cast<uint8_t>(KeyType::kMaximum);
    return true;
  }
  return false;
}

}  // namespace

int CompareKeys(ComparatorKind kind, const Slice& a, const Slice& b) {
  KeyParts pa, pb;
  // Raw-bytes files, and malformed keys in damaged files, order as plain bytes: a total order
  // that never reads outside the keys.
  if (kind == ComparatorKind::kRawBytes || !SplitKey(a, &pa) || !SplitKey(b, &pb)) {
    return a.compare(b);
  }
  int r = CompareRows(kind, pa.row, pb.row);
  if (r != 0) return r;
  // "Last on row": empty column with type Minimum sorts after every other cell of the row.
  bool last_a = pa.family.empty() && pa.qualifier.empty() && pa.type == 0;
  bool last_b = pb.family.empty() && pb.qualifier.empty() && pb.type == 0;
  if (last_a || last_b) {
    if (last_a && last_b) return 0;
    return last_a ? 1 : -1;
  }
  r = pa.family.compare(pb.family);
  if (r != 0) return r;
  r = pa.qualifier.compare(pb.qualifier);
  if (r != 0) return r;
  if (pa.timestamp != pb.timestamp) return pa.timestamp > pb.timestamp ? -1 : 1;  // newer first
  if (pa.type != pb.type) return pa.type > pb.type ? -1 : 1;  // higher type code first
  return 0;
}

}  // namespace hfile
