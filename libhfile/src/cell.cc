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

int CompareKeys(ComparatorKind kind, const Slice& a, const Slice& b) {
  if (kind == ComparatorKind::kRawBytes) return a.compare(b);
  int r = CompareRows(kind, KeyRow(a), KeyRow(b));
  if (r != 0) return r;
  // "Last on row": empty column with type Minimum sorts after every other cell of the row.
  Slice fa = KeyFamily(a), fb = KeyFamily(b);
  Slice qa = KeyQualifier(a), qb = KeyQualifier(b);
  uint8_t ta = KeyTypeByte(a), tb = KeyTypeByte(b);
  bool last_a = fa.empty() && qa.empty() && ta == 0;
  bool last_b = fb.empty() && qb.empty() && tb == 0;
  if (last_a || last_b) {
    if (last_a && last_b) return 0;
    return last_a ? 1 : -1;
  }
  r = fa.compare(fb);
  if (r != 0) return r;
  r = qa.compare(qb);
  if (r != 0) return r;
  int64_t tsa = KeyTimestamp(a), tsb = KeyTimestamp(b);
  if (tsa != tsb) return tsa > tsb ? -1 : 1;  // newer first
  if (ta != tb) return ta > tb ? -1 : 1;      // higher type code first
  return 0;
}

}  // namespace hfile
