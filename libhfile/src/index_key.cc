#include "index_key.h"

#include "hfile/cell.h"

namespace hfile {

namespace {

// The separator of L < R, or false when L == R.
bool Separator(HBaseFlavor flavor, const Slice& l, const Slice& r, std::string* out) {
  const size_t min_len = l.size() < r.size() ? l.size() : r.size();
  size_t d = 0;
  while (d < min_len && l[d] == r[d]) ++d;
  if (d == min_len) {
    if (l.size() >= r.size()) return false;  // equal (or out of order: give up)
    out->assign(r.data(), d + 1);
    if (flavor == HBaseFlavor::k2_6) (*out)[d] = '\0';
    return true;
  }
  if (l.byte(d) > r.byte(d)) return false;  // out of order: give up
  out->assign(l.data(), d + 1);
  (*out)[d] = static_cast<char>(l.byte(d) + 1);
  return true;
}

}  // namespace

void MakeIndexKey(ComparatorKind kind, HBaseFlavor flavor, const Slice* left, const Slice& right,
                  std::string* dst) {
  if (left == nullptr || kind != ComparatorKind::kDefault || !IsValidKey(*left) ||
      !IsValidKey(right)) {
    dst->assign(right.data(), right.size());
    return;
  }
  std::string sep;
  const uint8_t kMax = static_cast<uint8_t>(KeyType::kMaximum);
  if (Separator(flavor, KeyRow(*left), KeyRow(right), &sep)) {
    dst->clear();
    AppendKey(dst, sep, Slice(), Slice(), kLatestTimestamp, kMax);
  } else if (Separator(flavor, KeyFamily(*left), KeyFamily(right), &sep)) {
    dst->clear();
    AppendKey(dst, KeyRow(right), sep, Slice(), kLatestTimestamp, kMax);
  } else if (Separator(flavor, KeyQualifier(*left), KeyQualifier(right), &sep)) {
    dst->clear();
    AppendKey(dst, KeyRow(right), KeyFamily(right), sep, kLatestTimestamp, kMax);
  } else {
    dst->assign(right.data(), right.size());
  }
}

}  // namespace hfile
