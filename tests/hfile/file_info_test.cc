// File info decoding against hostile input.
#include "hfile/file_info.h"

#include <gtest/gtest.h>

#include <chrono>

#include "hfile/coding.h"
#include "hfile_format.pb.h"

namespace hfile {
namespace {

constexpr int kManyEntries = 200000;

// Regression (fuzz): entries were inserted one by one into a sorted vector, so a file info
// block holding many keys in descending order took quadratic time (minutes for 2 MB).
TEST(FileInfo, QuadraticDecodeOfManyDescendingEntries) {
  pb::FileInfoProto p;
  for (int i = kManyEntries; i > 0; --i) {
    std::string k;
    PutFixed32BE(&k, static_cast<uint32_t>(i));
    auto* e = p.add_map_entry();
    e->set_first(k);
    e->set_second("v");
  }
  std::string msg;
  p.SerializeToString(&msg);
  std::string pbuf = "PBUF";
  PutVarint32(&pbuf, static_cast<uint32_t>(msg.size()));
  pbuf += msg;

  std::string writable;
  PutFixed32BE(&writable, kManyEntries);
  for (int i = kManyEntries; i > 0; --i) {
    std::string k;
    PutFixed32BE(&k, static_cast<uint32_t>(i));
    PutByteArray(&writable, k);
    PutFixed8(&writable, 1);
    PutByteArray(&writable, "v");
  }

  for (const std::string* body : {&pbuf, &writable}) {
    const auto start = std::chrono::steady_clock::now();
    FileInfo fi;
    ASSERT_TRUE(fi.DecodeFrom(*body).ok());
    const auto took = std::chrono::steady_clock::now() - start;
    EXPECT_LT(took, std::chrono::seconds(10));  // was > 2 minutes
    ASSERT_EQ(fi.entries().size(), static_cast<size_t>(kManyEntries));
    for (size_t i = 1; i < fi.entries().size(); ++i) {
      ASSERT_LT(fi.entries()[i - 1].first, fi.entries()[i].first);
    }
  }
}

// Decoding must keep what Set would: the last value of a repeated key.
TEST(FileInfo, RepeatedKeyKeepsLastValue) {
  std::string writable;
  PutFixed32BE(&writable, 3);
  for (const char* v : {"first", "other", "last"}) {
    PutByteArray(&writable, std::string(v) == "other" ? "b" : "a");
    PutFixed8(&writable, 1);
    PutByteArray(&writable, v);
  }
  FileInfo fi;
  ASSERT_TRUE(fi.DecodeFrom(writable).ok());
  ASSERT_EQ(fi.entries().size(), 2u);
  EXPECT_EQ(fi.Get("a")->ToString(), "last");
  EXPECT_EQ(fi.Get("b")->ToString(), "other");
}

}  // namespace
}  // namespace hfile
