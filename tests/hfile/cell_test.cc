#include "hfile/cell.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

namespace hfile {
namespace {

struct Parts {
  std::string row, family, qualifier;
  int64_t ts;
  uint8_t type;
};

std::string MakeKey(const Parts& p) {
  std::string k;
  AppendKey(&k, p.row, p.family, p.qualifier, p.ts, p.type);
  return k;
}

int Sign(int v) { return (v > 0) - (v < 0); }

int Bytes(const std::string& a, const std::string& b) {
  return Sign(Slice(a).compare(Slice(b)));
}

// HBase's CellComparatorImpl.compare written out field by field, the slow obvious way.
int Reference(const Parts& a, const Parts& b, KeyField* differs) {
  *differs = KeyField::kRow;
  if (int r = Bytes(a.row, b.row)) return r;
  *differs = KeyField::kFamily;
  const bool last_a = a.family.empty() && a.qualifier.empty() && a.type == 0;
  const bool last_b = b.family.empty() && b.qualifier.empty() && b.type == 0;
  if (last_a && last_b) {
    *differs = KeyField::kNone;
    return 0;
  }
  if (last_a) return 1;
  if (last_b) return -1;
  if (int r = Bytes(a.family, b.family)) return r;
  *differs = KeyField::kQualifier;
  if (int r = Bytes(a.qualifier, b.qualifier)) return r;
  *differs = KeyField::kTimestamp;
  if (a.ts != b.ts) return a.ts > b.ts ? -1 : 1;
  *differs = KeyField::kType;
  if (a.type != b.type) return a.type > b.type ? -1 : 1;
  *differs = KeyField::kNone;
  return 0;
}

// Short strings over a tiny alphabet (incl. bytes >= 0x80), so that random pairs often share
// prefixes, are prefixes of each other, or are equal: the cases a field-aligned compare gets wrong.
std::string RandomBytes(std::mt19937_64& rng, size_t max_len) {
  static const char kAlphabet[] = {'a', 'b', '\0', '\xff', '\x80'};
  std::string s(rng() % (max_len + 1), 'a');
  for (char& c : s) c = kAlphabet[rng() % sizeof kAlphabet];
  return s;
}

Parts RandomParts(std::mt19937_64& rng) {
  Parts p;
  p.row = RandomBytes(rng, rng() % 2 ? 3 : 20);
  p.family = RandomBytes(rng, 2);
  p.qualifier = RandomBytes(rng, rng() % 2 ? 3 : 12);
  static const int64_t kTs[] = {0, 1, -1, INT64_MAX, INT64_MIN, 1700000000000};
  p.ts = kTs[rng() % 6];
  static const uint8_t kTypes[] = {0, 4, 8, 12, 14, 255};
  p.type = kTypes[rng() % 6];
  return p;
}

TEST(CompareKeys, MatchesFieldByFieldReference) {
  std::mt19937_64 rng(20261129);
  for (int i = 0; i < 200000; ++i) {
    Parts a = RandomParts(rng), b = RandomParts(rng);
    // Make the pair share leading fields often.
    switch (rng() % 4) {
      case 0: break;
      case 1: b.row = a.row; break;
      case 2: b.row = a.row, b.family = a.family; break;
      case 3: b.row = a.row, b.family = a.family, b.qualifier = a.qualifier; break;
    }
    const std::string ka = MakeKey(a), kb = MakeKey(b);
    KeyField want_field, got_field;
    const int want = Reference(a, b, &want_field);
    ASSERT_EQ(Sign(CompareKeys(ComparatorKind::kDefault, ka, kb)), want)
        << Slice(ka).ToString() << " vs " << Slice(kb).ToString();
    ASSERT_EQ(Sign(CompareKeys(ComparatorKind::kDefault, ka, kb, &got_field)), want);
    ASSERT_EQ(got_field, want_field) << "case " << i;
    ASSERT_EQ(Sign(CompareKeys(ComparatorKind::kDefault, kb, ka)), -want);
    // The checked compare (writer, merge) is the same order and field, default and meta.
    ASSERT_EQ(Sign(CompareCheckedKeys(ComparatorKind::kDefault, ka, kb, &got_field)), want);
    ASSERT_EQ(got_field, want_field) << "case " << i;
    KeyField meta_field, checked_meta_field;
    ASSERT_EQ(Sign(CompareCheckedKeys(ComparatorKind::kMeta, ka, kb, &checked_meta_field)),
              Sign(CompareKeys(ComparatorKind::kMeta, ka, kb, &meta_field)));
    ASSERT_EQ(checked_meta_field, meta_field);
  }
}

TEST(CompareKeys, LastOnRowSortsAfterTheRowsCells) {
  const std::string cell = MakeKey({"r", "f", "q", 5, 4});
  const std::string last = MakeKey({"r", "", "", kLatestTimestamp, 0});
  const std::string next_row = MakeKey({"r\x01", "", "", kLatestTimestamp, 4});
  KeyField field;
  EXPECT_LT(CompareKeys(ComparatorKind::kDefault, cell, last, &field), 0);
  EXPECT_EQ(field, KeyField::kFamily);
  EXPECT_LT(CompareKeys(ComparatorKind::kDefault, last, next_row, &field), 0);
  EXPECT_EQ(field, KeyField::kRow);
  EXPECT_EQ(CompareKeys(ComparatorKind::kDefault, last, last, &field), 0);
  EXPECT_EQ(field, KeyField::kNone);
}

TEST(CompareKeys, MetaComparatorReportsTheDecidingField) {
  // hbase:meta rows are "table,startkey,regionid": the meta order compares them by section.
  const std::string a = MakeKey({"t1,,1", "info", "server", 1, 4});
  const std::string b = MakeKey({"t1,,2", "info", "server", 1, 4});
  KeyField field;
  EXPECT_LT(CompareKeys(ComparatorKind::kMeta, a, b, &field), 0);
  EXPECT_EQ(field, KeyField::kRow);
  EXPECT_EQ(CompareKeys(ComparatorKind::kMeta, a, a, &field), 0);
  EXPECT_EQ(field, KeyField::kNone);
}

TEST(CompareKeys, MalformedAndRawKeysOrderAsBytes) {
  const std::string good = MakeKey({"r", "f", "q", 1, 4});
  const std::string bad("\x00\x40zz", 4);  // row length past the end
  KeyField field = KeyField::kNone;
  EXPECT_EQ(Sign(CompareKeys(ComparatorKind::kDefault, bad, good, &field)),
            Bytes(bad, good));
  EXPECT_EQ(field, KeyField::kRow);
  EXPECT_EQ(Sign(CompareKeys(ComparatorKind::kRawBytes, good, bad)), Bytes(good, bad));
}

TEST(Slice, CommonPrefixLengthMatchesAByteLoop) {
  std::mt19937_64 rng(11);
  for (int i = 0; i < 100000; ++i) {
    // RandomBytes(rng, 40) is 0..40 bytes long: n is what it gave (b is written at [0, n)).
    const std::string a = RandomBytes(rng, 40);
    const size_t n = a.size();
    std::string b = a;
    if (n > 0 && rng() % 4 != 0) b[rng() % n] ^= static_cast<char>(1 + rng() % 255);
    size_t want = 0;
    while (want < n && a[want] == b[want]) ++want;
    ASSERT_EQ(CommonPrefixLength(a.data(), b.data(), n), want) << "n " << n;
  }
}

TEST(Slice, EqualityFindsEveryDifferingByte) {
  // Every length the loads distinguish (0-3, 4-7, 8-16, longer), every byte position changed,
  // at every alignment, and lengths that differ.
  std::mt19937_64 rng(5);
  for (size_t n = 0; n <= 40; ++n) {
    for (size_t shift = 0; shift < 8; ++shift) {
      std::string a(shift, 'x'), b(7 - shift, 'y');
      a += std::string(n, '\0');
      for (size_t i = 0; i < n; ++i) a[shift + i] = static_cast<char>(rng());
      b += a.substr(shift, n);
      const Slice x(a.data() + shift, n), y(b.data() + 7 - shift, n);
      ASSERT_TRUE(x == y) << "n " << n;
      for (size_t p = 0; p < n; ++p) {
        std::string c = b;
        c[7 - shift + p] ^= static_cast<char>(1 + rng() % 255);
        ASSERT_FALSE(x == Slice(c.data() + 7 - shift, n)) << "n " << n << " byte " << p;
      }
      if (n > 0) {
        ASSERT_FALSE(x == Slice(b.data() + 7 - shift, n - 1)) << "n " << n;
      }
    }
  }
}

TEST(Slice, CompareIsUnsignedLexicographic) {
  std::mt19937_64 rng(7);
  for (int i = 0; i < 100000; ++i) {
    std::string a = RandomBytes(rng, 24), b = rng() % 3 ? a.substr(0, rng() % (a.size() + 1)) : "";
    if (rng() % 2) b += RandomBytes(rng, 24);
    const int want = a == b ? 0 : (std::lexicographical_compare(
                                       a.begin(), a.end(), b.begin(), b.end(),
                                       [](char x, char y) {
                                         return static_cast<unsigned char>(x) <
                                                static_cast<unsigned char>(y);
                                       })
                                       ? -1
                                       : 1);
    ASSERT_EQ(Sign(Slice(a).compare(Slice(b))), want);
  }
}

}  // namespace
}  // namespace hfile
