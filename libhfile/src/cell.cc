#include "hfile/cell.h"

#include <algorithm>
#include <cstring>

#include "hfile/coding.h"

namespace hfile {

bool IsDefinedKeyType(uint8_t type) {
  switch (static_cast<KeyType>(type)) {
    case KeyType::kMinimum:
    case KeyType::kPut:
    case KeyType::kDelete:
    case KeyType::kDeleteFamilyVersion:
    case KeyType::kDeleteColumn:
    case KeyType::kDeleteFamily:
    case KeyType::kMaximum:
      return true;
  }
  return false;
}

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

void AppendKey(std::string* dst, const Slice& row, const Slice& family, const Slice& qualifier,
               int64_t timestamp, uint8_t type) {
  // One resize, then the fields in place: once per cell of a bulk load (seven appends cost
  // about three times as much).
  const size_t start = dst->size();
  dst->resize(start + kKeyInfrastructureSize + row.size() + family.size() + qualifier.size());
  char* p = dst->data() + start;
  EncodeFixed16BE(p, static_cast<uint16_t>(row.size()));
  p += 2;
  if (!row.empty()) std::memcpy(p, row.data(), row.size());
  p += row.size();
  *p++ = static_cast<char>(family.size());
  if (!family.empty()) std::memcpy(p, family.data(), family.size());
  p += family.size();
  if (!qualifier.empty()) std::memcpy(p, qualifier.data(), qualifier.size());
  p += qualifier.size();
  EncodeFixed64BE(p, static_cast<uint64_t>(timestamp));
  p[8] = static_cast<char>(type);
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

namespace {

// Two full KeyValue keys (IsValidKey), field by field without building KeyParts: the writer's
// order check and every merge compare come here once per cell.
int CompareValidKeys(ComparatorKind kind, const Slice& a, const Slice& b, KeyField* differs) {
  const size_t ra = KeyRowLength(a), rb = KeyRowLength(b);
  const char* pa = a.data();
  const char* pb = b.data();
  const Slice row_a(pa + 2, ra), row_b(pb + 2, rb);
  *differs = KeyField::kRow;
  int r;
  bool same_row = true;
  if (kind == ComparatorKind::kMeta) {
    r = CompareMetaRows(row_a, row_b);
    if (r != 0) return r;
    same_row = row_a == row_b;  // the meta order may tie rows whose bytes differ
  } else {
    r = row_a.compare(row_b);
    if (r != 0) return r;
  }
  // From here on a column field is reported only when the rows are the same bytes.
  KeyField ignored;
  if (!same_row) differs = &ignored;
  *differs = KeyField::kFamily;
  const size_t fa = static_cast<uint8_t>(pa[2 + ra]), fb = static_cast<uint8_t>(pb[2 + rb]);
  const size_t col_a = a.size() - 9 - (3 + ra), col_b = b.size() - 9 - (3 + rb);  // fam + qual
  const uint8_t ta = static_cast<uint8_t>(pa[a.size() - 1]);
  const uint8_t tb = static_cast<uint8_t>(pb[b.size() - 1]);
  // "Last on row": empty column with type Minimum sorts after every other cell of the row.
  const bool last_a = col_a == 0 && ta == 0, last_b = col_b == 0 && tb == 0;
  if (last_a || last_b) {
    if (last_a && last_b) {
      *differs = KeyField::kNone;
      return 0;
    }
    return last_a ? 1 : -1;
  }
  r = Slice(pa + 3 + ra, fa).compare(Slice(pb + 3 + rb, fb));
  if (r != 0) return r;
  *differs = KeyField::kQualifier;
  r = Slice(pa + 3 + ra + fa, col_a - fa).compare(Slice(pb + 3 + rb + fb, col_b - fb));
  if (r != 0) return r;
  *differs = KeyField::kTimestamp;
  const int64_t tsa = static_cast<int64_t>(DecodeFixed64BE(pa + a.size() - 9));
  const int64_t tsb = static_cast<int64_t>(DecodeFixed64BE(pb + b.size() - 9));
  if (tsa != tsb) return tsa > tsb ? -1 : 1;  // newer first
  *differs = KeyField::kType;
  if (ta != tb) return ta > tb ? -1 : 1;  // higher type code first
  *differs = KeyField::kNone;
  return 0;
}

inline int ByteOrder(const char* a, const char* b, size_t i) {
  return static_cast<uint8_t>(a[i]) < static_cast<uint8_t>(b[i]) ? -1 : 1;
}

// CompareValidKeys for the default comparator, from one scan for the first differing byte:
// keys with rows of equal length and families of equal length line up field by field, so the
// field that byte falls in decides. This is the compare of every merge step and every write.
int CompareDefaultKeys(const Slice& a, const Slice& b, KeyField* differs) {
  const size_t ra = KeyRowLength(a), rb = KeyRowLength(b);
  const char* pa = a.data();
  const char* pb = b.data();
  if (ra != rb || pa[2 + ra] != pb[2 + rb]) {
    return CompareValidKeys(ComparatorKind::kDefault, a, b, differs);  // fields do not line up
  }
  const size_t r = ra, f = static_cast<uint8_t>(pa[2 + r]);
  const size_t m = CommonPrefixLength(pa, pb, std::min(a.size(), b.size()));
  if (m < 2 + r) {
    *differs = KeyField::kRow;
    return ByteOrder(pa, pb, m);
  }
  *differs = KeyField::kFamily;
  const size_t qa = a.size() - kKeyInfrastructureSize - r - f;
  const size_t qb = b.size() - kKeyInfrastructureSize - r - f;
  const uint8_t ta = static_cast<uint8_t>(pa[a.size() - 1]);
  const uint8_t tb = static_cast<uint8_t>(pb[b.size() - 1]);
  // "Last on row": empty column with type Minimum sorts after every other cell of the row.
  const bool last_a = f + qa == 0 && ta == 0, last_b = f + qb == 0 && tb == 0;
  if (last_a || last_b) {
    if (last_a && last_b) {
      *differs = KeyField::kNone;
      return 0;
    }
    return last_a ? 1 : -1;
  }
  if (m < 3 + r + f) return ByteOrder(pa, pb, m);
  *differs = KeyField::kQualifier;
  if (m < 3 + r + f + std::min(qa, qb)) return ByteOrder(pa, pb, m);
  if (qa != qb) return qa < qb ? -1 : 1;
  *differs = KeyField::kTimestamp;
  const int64_t tsa = static_cast<int64_t>(DecodeFixed64BE(pa + a.size() - 9));
  const int64_t tsb = static_cast<int64_t>(DecodeFixed64BE(pb + b.size() - 9));
  if (tsa != tsb) return tsa > tsb ? -1 : 1;  // newer first
  *differs = KeyField::kType;
  if (ta != tb) return ta > tb ? -1 : 1;  // higher type code first
  *differs = KeyField::kNone;
  return 0;
}

}  // namespace

int CompareKeys(ComparatorKind kind, const Slice& a, const Slice& b, KeyField* first_difference) {
  if (kind == ComparatorKind::kDefault && IsValidKey(a) && IsValidKey(b)) {
    return CompareDefaultKeys(a, b, first_difference);
  }
  if (kind != ComparatorKind::kRawBytes && IsValidKey(a) && IsValidKey(b)) {
    return CompareValidKeys(kind, a, b, first_difference);
  }
  *first_difference = KeyField::kRow;
  return CompareKeys(kind, a, b);
}

int CompareCheckedKeys(ComparatorKind kind, const Slice& a, const Slice& b,
                       KeyField* first_difference) {
  if (kind == ComparatorKind::kDefault) return CompareDefaultKeys(a, b, first_difference);
  return CompareValidKeys(kind, a, b, first_difference);
}

int CompareKeys(ComparatorKind kind, const Slice& a, const Slice& b) {
  KeyField unused;
  if (kind == ComparatorKind::kDefault && IsValidKey(a) && IsValidKey(b)) {
    return CompareDefaultKeys(a, b, &unused);
  }
  if (kind != ComparatorKind::kRawBytes && IsValidKey(a) && IsValidKey(b)) {
    return CompareValidKeys(kind, a, b, &unused);
  }
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
