// Every v2/v3 HFile of the shared real corpus, rewritten into every codec and every data block
// encoding, reads back cell for cell.
#include <gtest/gtest.h>

#include <filesystem>
#include <iostream>

#include "hfile/coding.h"
#include "hfile/reader.h"
#include "hfile/rewrite.h"
#include "hfile/trailer.h"
#include "testutil.h"

namespace hfile {
namespace {

namespace fs = std::filesystem;

// The v2/v3 HFiles of the corpus, loose and inside its archives, whose cells are KeyValues.
std::vector<std::string> RealHFiles() {
  std::vector<std::string> out, paths = test::ListFilesRecursive(test::RealDataDir());
  for (const auto& p : test::ListFilesRecursive(test::ExtractRealArchives())) paths.push_back(p);
  for (const auto& path : paths) {
    std::string data = test::ReadFileOrDie(path);
    if (data.size() < 4) continue;
    int major, minor;
    DecodeVersion(DecodeFixed32BE(data.data() + data.size() - 4), &major, &minor);
    if (!IsSupportedMajorVersion(major) || data.size() < TrailerSize(major) ||
        data.compare(data.size() - TrailerSize(major), 8, kTrailerMagic) != 0)
      continue;
    auto r = Reader::Open(path);
    if (r.ok() && (*r)->comparator() != ComparatorKind::kRawBytes) out.push_back(path);
  }
  return out;
}

void ExpectSameCells(const std::string& a_path, const std::string& b_path) {
  auto a = Reader::Open(a_path);
  auto b = Reader::Open(b_path);
  ASSERT_TRUE(a.ok() && b.ok());
  auto ia = (*a)->NewIterator(), ib = (*b)->NewIterator();
  uint64_t n = 0;
  for (ia->SeekToFirst(), ib->SeekToFirst(); ia->Valid(); ia->Next(), ib->Next(), ++n) {
    ASSERT_TRUE(ib->Valid()) << "output ends after " << n << " cells";
    ASSERT_EQ(ia->cell().key, ib->cell().key) << n;
    ASSERT_EQ(ia->cell().value, ib->cell().value) << n;
    ASSERT_EQ(ia->cell().tags, ib->cell().tags) << n;
    ASSERT_EQ(ia->cell().sequence_id, ib->cell().sequence_id) << n;
  }
  EXPECT_FALSE(ib->Valid());
  EXPECT_TRUE(ia->status().ok() && ib->status().ok());
  EXPECT_EQ(n, (*a)->trailer().entry_count);
}

TEST(RewriteRealCorpus, EveryFileIntoEveryCodecAndEncoding) {
  HFILE_REQUIRE_REAL_DATA();
  const std::vector<std::string> files = RealHFiles();
  ASSERT_GE(files.size(), 120u);
  const std::string dir = test::NewTempDir("rewrite-real");
  const DataBlockEncoding encodings[] = {DataBlockEncoding::kNone, DataBlockEncoding::kPrefix,
                                         DataBlockEncoding::kDiff, DataBlockEncoding::kFastDiff,
                                         DataBlockEncoding::kRowIndexV1};
  uint64_t rewrites = 0;
  for (size_t f = 0; f < files.size(); ++f) {
    SCOPED_TRACE(files[f]);
    // Every codec (encodings rotating) and every encoding (codecs rotating) for every file.
    std::vector<std::pair<Compression, DataBlockEncoding>> combos;
    for (int c = 0; c < kNumCompressions; ++c)
      combos.emplace_back(static_cast<Compression>(c), encodings[(f + c) % 5]);
    for (int e = 0; e < 5; ++e)
      combos.emplace_back(static_cast<Compression>((f + e) % kNumCompressions), encodings[e]);
    for (const auto& [codec, encoding] : combos) {
      SCOPED_TRACE(std::string(CompressionName(codec)) + "/" +
                   std::string(DataBlockEncodingName(encoding)));
      RewriteOptions o;
      o.compression = codec;
      o.encoding = encoding;
      o.block_size = 4096;  // several blocks even for the small files
      const std::string out = dir + "/out.hfile";
      RewriteResult result;
      Status s = RewriteFile(files[f], out, o, &result);
      ASSERT_TRUE(s.ok()) << s.ToString();
      ExpectSameCells(files[f], out);
      fs::remove(out);
      ++rewrites;
    }
  }
  std::cout << files.size() << " real files, " << rewrites << " rewrites read back equal\n";
}

}  // namespace
}  // namespace hfile
