// Key heads (libregion/src/key_head.h): whenever two heads decide an order, it is CompareKeys'
// order; keys that compare equal have equal heads; the cases the heads must leave to the keys
// do.
#include "key_head.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

namespace hfile::region {
namespace {

std::string Key(const std::string& row, const std::string& family, const std::string& qualifier,
                int64_t ts, KeyType type) {
  std::string k;
  AppendKey(&k, row, family, qualifier, ts, static_cast<uint8_t>(type));
  return k;
}

int Sign(int c) { return (c > 0) - (c < 0); }

// Bytes from a small alphabet with NUL and 0xff, so that prefixes, zero padding and high bytes
// all meet.
std::string Bytes(std::mt19937_64& rng, size_t max_len) {
  static const char kAlphabet[] = {'\0', '\x01', 'a', 'b', '\x7f', '\xff'};
  std::string s(rng() % (max_len + 1), 'a');
  for (char& c : s) c = kAlphabet[rng() % sizeof(kAlphabet)];
  return s;
}

TEST(KeyHead, DecidedOrderIsTheKeysOrder) {
  std::mt19937_64 rng(20261207);
  std::vector<std::string> keys;
  const std::vector<std::string> families = {"d", "f", "fa", "fam", "abcd", "abcde", "ab\x01", ""};
  const KeyType types[] = {KeyType::kMinimum, KeyType::kPut, KeyType::kDelete,
                           KeyType::kDeleteFamily, KeyType::kMaximum};
  for (int i = 0; i < 3000; ++i) {
    // Rows around the 16-byte prefix: shorter, exactly 16, longer, sharing their first bytes.
    std::string row = std::string(rng() % 3 == 0 ? 14 : 0, 'r') + Bytes(rng, 5);
    std::string qual = rng() % 4 == 0 ? "" : Bytes(rng, 5);
    const std::string& fam = families[rng() % families.size()];
    keys.push_back(Key(row, fam, qual, static_cast<int64_t>(rng() % 3), types[rng() % 5]));
  }
  keys.push_back(Key("r", "", "", 5, KeyType::kMinimum));  // last on row "r"
  keys.push_back(Key("r", "d", "", 5, KeyType::kPut));
  size_t decided = 0;
  for (size_t i = 0; i < keys.size(); ++i) {
    const KeyHead hi = HeadOf(ComparatorKind::kDefault, keys[i]);
    for (size_t j = 0; j < keys.size(); j += 1 + i % 7) {
      const KeyHead hj = HeadOf(ComparatorKind::kDefault, keys[j]);
      const int expected = Sign(CompareKeys(ComparatorKind::kDefault, keys[i], keys[j]));
      const int got = CompareHeads(hi, hj);
      if (got != 0) {
        ++decided;
        ASSERT_EQ(got, expected) << "keys " << i << " and " << j;
      }
      if (expected == 0) {
        EXPECT_TRUE(hi == hj) << "keys " << i << " and " << j;
      }
    }
  }
  EXPECT_GT(decided, keys.size() * 10);  // the heads do decide most
}

TEST(KeyHead, SameRowDecidedByFamilyAndQualifier) {
  auto cmp = [](const std::string& a, const std::string& b) {
    return CompareHeads(HeadOf(ComparatorKind::kDefault, a), HeadOf(ComparatorKind::kDefault, b));
  };
  EXPECT_EQ(cmp(Key("row1", "d", "c1", 1, KeyType::kPut), Key("row1", "d", "c2", 1, KeyType::kPut)),
            -1);
  EXPECT_EQ(cmp(Key("row1", "d", "c", 1, KeyType::kPut), Key("row1", "d", "c1", 1, KeyType::kPut)),
            -1);
  EXPECT_EQ(cmp(Key("row1", "e", "a", 1, KeyType::kPut), Key("row1", "d", "z", 1, KeyType::kPut)),
            1);
  // A shorter row first, whatever follows it.
  EXPECT_EQ(cmp(Key("row", "z", "z", 1, KeyType::kPut), Key("row1", "a", "a", 1, KeyType::kPut)),
            -1);
  EXPECT_EQ(cmp(Key("row", "z", "z", 1, KeyType::kPut), Key(std::string("row\0", 4), "a", "a", 1,
                                                              KeyType::kPut)),
            -1);
}

TEST(KeyHead, LeavesToTheKeysWhatItCannotHold) {
  auto cmp = [](const std::string& a, const std::string& b) {
    return CompareHeads(HeadOf(ComparatorKind::kDefault, a), HeadOf(ComparatorKind::kDefault, b));
  };
  const std::string long_row(20, 'x');
  // Rows longer than 16 bytes that share their first 16.
  EXPECT_EQ(cmp(Key(long_row + "a", "d", "q", 1, KeyType::kPut),
                Key(long_row + "b", "d", "q", 1, KeyType::kPut)),
            0);
  // Same column: timestamps and types are not in the head.
  EXPECT_EQ(cmp(Key("r", "d", "q", 1, KeyType::kPut), Key("r", "d", "q", 2, KeyType::kPut)), 0);
  // Qualifiers equal in their first three bytes.
  EXPECT_EQ(cmp(Key("r", "d", "qqqa", 1, KeyType::kPut), Key("r", "d", "qqqb", 1, KeyType::kPut)),
            0);
  // Families over four bytes, and the empty family of "last on row" (type Minimum).
  EXPECT_EQ(cmp(Key("r", "abcde", "a", 1, KeyType::kPut), Key("r", "abcdf", "a", 1, KeyType::kPut)),
            0);
  EXPECT_EQ(cmp(Key("r", "", "", 1, KeyType::kMinimum), Key("r", "d", "a", 1, KeyType::kPut)), 0);
  // Other comparators: never decided by the head.
  EXPECT_EQ(CompareHeads(HeadOf(ComparatorKind::kMeta, Key("a", "d", "q", 1, KeyType::kPut)),
                         HeadOf(ComparatorKind::kMeta, Key("b", "d", "q", 1, KeyType::kPut))),
            0);
}

}  // namespace
}  // namespace hfile::region
