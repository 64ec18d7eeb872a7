#include "region/line_source.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <boost/iostreams/copy.hpp>
#include <boost/iostreams/device/back_inserter.hpp>
#include <boost/iostreams/filter/bzip2.hpp>
#include <boost/iostreams/filter/gzip.hpp>
#include <boost/iostreams/filter/lzma.hpp>
#include <boost/iostreams/filter/zstd.hpp>
#include <boost/iostreams/filtering_stream.hpp>
#include <fstream>

#include <zstd.h>

#include "../testutil.h"

namespace hfile::region {
namespace {

namespace io = boost::iostreams;
using test::NewTempDir;

std::string Compress(const std::string& data, Compression c) {
  std::string out;
  io::filtering_ostream os;
  switch (c) {
    case Compression::kGzip: os.push(io::gzip_compressor()); break;
    case Compression::kBzip2: os.push(io::bzip2_compressor()); break;
    case Compression::kXz: os.push(io::lzma_compressor()); break;
    case Compression::kZstd: os.push(io::zstd_compressor()); break;
    case Compression::kNone: break;
  }
  os.push(io::back_inserter(out));
  os.write(data.data(), static_cast<std::streamsize>(data.size()));
  os.reset();
  return out;
}

std::string WriteFile(const std::string& dir, const std::string& name, const std::string& data) {
  std::string path = dir + "/" + name;
  std::ofstream f(path, std::ios::binary);
  f.write(data.data(), static_cast<std::streamsize>(data.size()));
  return path;
}

struct Got {
  std::vector<std::string> lines, terms, inputs;
  std::vector<uint64_t> numbers, offsets;
  Status status;
};

Got ReadAll(std::vector<std::string> inputs, LineSourceOptions opt = {}) {
  LineSource src(std::move(inputs), opt);
  Got g;
  Line line;
  while (true) {
    auto r = src.Next(&line);
    if (!r.ok()) { g.status = r.status(); break; }
    if (!*r) break;
    g.lines.emplace_back(line.text);
    g.terms.emplace_back(line.terminator);
    g.inputs.push_back(*line.input);
    g.numbers.push_back(line.line_number);
    g.offsets.push_back(line.offset);
  }
  return g;
}

using V = std::vector<std::string>;

TEST(LineSource, HadoopLineTerminators) {
  std::string dir = NewTempDir("line_source_terms");
  // \n, \r\n, lone \r, an empty line, and a last line without terminator.
  std::string p = WriteFile(dir, "a.tsv", "a\tb\nc\r\nd\re\n\nlast");
  Got g = ReadAll({p});
  ASSERT_TRUE(g.status.ok()) << g.status.ToString();
  EXPECT_EQ(g.lines, (V{"a\tb", "c", "d", "e", "", "last"}));
  EXPECT_EQ(g.terms, (V{"\n", "\r\n", "\r", "\n", "\n", ""}));
  EXPECT_EQ(g.numbers, (std::vector<uint64_t>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(g.offsets, (std::vector<uint64_t>{0, 4, 7, 9, 11, 12}));
}

TEST(LineSource, TrailingNewlineMakesNoEmptyLineAndEmptyFileNoLine) {
  std::string dir = NewTempDir("line_source_trailing");
  EXPECT_EQ(ReadAll({WriteFile(dir, "a", "x\n")}).lines, (V{"x"}));
  EXPECT_EQ(ReadAll({WriteFile(dir, "b", "x\r\n")}).lines, (V{"x"}));
  EXPECT_EQ(ReadAll({WriteFile(dir, "c", "")}).lines, V{});
  EXPECT_EQ(ReadAll({WriteFile(dir, "d", "\n")}).lines, (V{""}));
}

TEST(LineSource, CrLfSplitAcrossBufferRefills) {
  std::string dir = NewTempDir("line_source_crlf");
  std::string data;
  for (int i = 0; i < 3000; ++i) data += "row" + std::to_string(i) + "\r\n";
  LineSourceOptions opt;
  opt.buffer_bytes = 4096;  // many refills, some between \r and \n
  Got g = ReadAll({WriteFile(dir, "a", data)}, opt);
  ASSERT_TRUE(g.status.ok());
  ASSERT_EQ(g.lines.size(), 3000u);
  for (int i = 0; i < 3000; ++i) {
    EXPECT_EQ(g.lines[i], "row" + std::to_string(i));
    EXPECT_EQ(g.terms[i], "\r\n");
  }
}

TEST(LineSource, LongLinesGrowTheBufferAndTheLimitIsAnError) {
  std::string dir = NewTempDir("line_source_long");
  std::string big(100000, 'x');
  LineSourceOptions opt;
  opt.buffer_bytes = 4096;
  Got g = ReadAll({WriteFile(dir, "a", "s\n" + big + "\nt")}, opt);
  ASSERT_TRUE(g.status.ok());
  EXPECT_EQ(g.lines, (V{"s", big, "t"}));
  opt.max_line_bytes = 50000;
  g = ReadAll({dir + "/a"}, opt);
  EXPECT_EQ(g.lines, (V{"s"}));
  ASSERT_FALSE(g.status.ok());
  EXPECT_NE(g.status.message().find("line 2 is longer than 50000"), std::string::npos)
      << g.status.ToString();
}

TEST(LineSource, Utf8BomSkippedAtInputStartOnly) {
  std::string dir = NewTempDir("line_source_bom");
  Got g = ReadAll({WriteFile(dir, "a", "\xEF\xBB\xBFr1\tv\n\xEF\xBB\xBFr2\n")});
  EXPECT_EQ(g.lines, (V{"r1\tv", "\xEF\xBB\xBFr2"}));
  EXPECT_EQ(g.offsets[0], 3u);
}

TEST(LineSource, SeveralInputsKeepTheirOwnNamesAndLineNumbers) {
  std::string dir = NewTempDir("line_source_multi");
  std::string a = WriteFile(dir, "a.tsv", "1\n2");  // no final newline: still ends a line
  std::string b = WriteFile(dir, "b.tsv.gz", Compress("3\n4\n", Compression::kGzip));
  Got g = ReadAll({a, b});
  ASSERT_TRUE(g.status.ok()) << g.status.ToString();
  EXPECT_EQ(g.lines, (V{"1", "2", "3", "4"}));
  EXPECT_EQ(g.inputs, (V{a, a, b, b}));
  EXPECT_EQ(g.numbers, (std::vector<uint64_t>{1, 2, 1, 2}));
}

class Codecs : public ::testing::TestWithParam<Compression> {};

std::string Ext(Compression c) {
  switch (c) {
    case Compression::kGzip: return ".gz";
    case Compression::kBzip2: return ".bz2";
    case Compression::kXz: return ".xz";
    case Compression::kZstd: return ".zst";
    default: return "";
  }
}

std::string ManyLines(int n) {
  std::string s;
  for (int i = 0; i < n; ++i) s += "row" + std::to_string(i) + "\tvalue " + std::to_string(i * 7) + "\n";
  return s;
}

TEST_P(Codecs, ByExtensionAndByMagicAlone) {
  Compression c = GetParam();
  std::string dir = NewTempDir("line_source_codec_" + std::string(CompressionName(c)));
  std::string plain = ManyLines(20000);
  std::string z = Compress(plain, c);
  EXPECT_EQ(DetectCompression(z.substr(0, 16)), c);
  for (std::string name : {"in" + Ext(c), std::string("in_noext")}) {
    Got g = ReadAll({WriteFile(dir, name, z)});
    ASSERT_TRUE(g.status.ok()) << name << ": " << g.status.ToString();
    ASSERT_EQ(g.lines.size(), 20000u) << name;
    EXPECT_EQ(g.lines[19999], "row19999\tvalue 139993");
  }
}

TEST_P(Codecs, ConcatenatedStreamsReadWhole) {
  Compression c = GetParam();
  std::string dir = NewTempDir("line_source_concat_" + std::string(CompressionName(c)));
  std::string z = Compress("a\nb\n", c) + Compress("c\nd\n", c);
  Got g = ReadAll({WriteFile(dir, "in" + Ext(c), z)});
  ASSERT_TRUE(g.status.ok()) << g.status.ToString();
  EXPECT_EQ(g.lines, (V{"a", "b", "c", "d"}));
}

TEST_P(Codecs, TruncatedStreamIsAnErrorNotAShortRead) {
  Compression c = GetParam();
  std::string dir = NewTempDir("line_source_trunc_" + std::string(CompressionName(c)));
  std::string z = Compress(ManyLines(20000), c);
  for (size_t cut : {z.size() - 1, z.size() - 5, z.size() / 2}) {
    Got g = ReadAll({WriteFile(dir, "in" + Ext(c), z.substr(0, cut))});
    EXPECT_FALSE(g.status.ok()) << CompressionName(c) << " cut at " << cut << " of " << z.size()
                                << " read " << g.lines.size() << " lines silently";
    if (!g.status.ok()) {
      EXPECT_NE(g.status.message().find("corrupt or truncated"), std::string::npos)
          << g.status.ToString();
      EXPECT_NE(g.status.message().find("in" + Ext(c)), std::string::npos);
    }
  }
}

// As the zstd tool writes it: with a content checksum (Boost's compressor writes none, and a
// frame without one cannot reveal every flipped byte).
std::string ZstdWithChecksum(const std::string& data) {
  ZSTD_CCtx* cctx = ZSTD_createCCtx();
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1);
  std::string out(ZSTD_compressBound(data.size()), '\0');
  size_t n = ZSTD_compress2(cctx, out.data(), out.size(), data.data(), data.size());
  ZSTD_freeCCtx(cctx);
  out.resize(n);
  return out;
}

TEST_P(Codecs, CorruptBytesAreAnError) {
  Compression c = GetParam();
  std::string dir = NewTempDir("line_source_corrupt_" + std::string(CompressionName(c)));
  std::string z = c == Compression::kZstd ? ZstdWithChecksum(ManyLines(20000))
                                          : Compress(ManyLines(20000), c);
  for (size_t i = z.size() / 3; i < z.size() / 3 + 64; ++i) z[i] = static_cast<char>(z[i] ^ 0x5A);
  Got g = ReadAll({WriteFile(dir, "in" + Ext(c), z)});
  EXPECT_FALSE(g.status.ok()) << CompressionName(c) << " read " << g.lines.size() << " lines";
}

INSTANTIATE_TEST_SUITE_P(All, Codecs,
                         ::testing::Values(Compression::kGzip, Compression::kBzip2,
                                           Compression::kXz, Compression::kZstd),
                         [](const auto& info) { return std::string(CompressionName(info.param)); });

TEST(LineSource, ZstdFramesFromTheZstdToolShapeReadWhole) {
  std::string dir = NewTempDir("line_source_zstd_tool");
  std::string z = ZstdWithChecksum("a\nb\n") + ZstdWithChecksum(ManyLines(50000));
  Got g = ReadAll({WriteFile(dir, "in.zst", z)});
  ASSERT_TRUE(g.status.ok()) << g.status.ToString();
  EXPECT_EQ(g.lines.size(), 50002u);
}

TEST(LineSource, MislabelledCompressedNameIsAnError) {
  std::string dir = NewTempDir("line_source_mislabel");
  Got g = ReadAll({WriteFile(dir, "plain.gz", "r\tv\n")});
  ASSERT_FALSE(g.status.ok());
  EXPECT_NE(g.status.message().find("named as gzip but its data is not gzip"), std::string::npos)
      << g.status.ToString();
  g = ReadAll({WriteFile(dir, "empty.zst", "")});
  ASSERT_FALSE(g.status.ok());
  EXPECT_NE(g.status.message().find("empty"), std::string::npos);
  g = ReadAll({WriteFile(dir, "other.xz", Compress("x\n", Compression::kGzip))});
  EXPECT_FALSE(g.status.ok());
}

TEST(LineSource, TextThatLooksLikeBzip2MagicStaysText) {
  std::string dir = NewTempDir("line_source_bzh");
  Got g = ReadAll({WriteFile(dir, "a.tsv", "BZh9row\tvalue\n")});
  ASSERT_TRUE(g.status.ok());
  EXPECT_EQ(g.lines, (V{"BZh9row\tvalue"}));
}

TEST(LineSource, MissingInputNamesIt) {
  std::string dir = NewTempDir("line_source_missing");
  std::string a = WriteFile(dir, "a", "1\n");
  Got g = ReadAll({a, dir + "/nope.tsv"});
  EXPECT_EQ(g.lines, (V{"1"}));  // what came before is delivered
  ASSERT_FALSE(g.status.ok());
  EXPECT_NE(g.status.message().find("nope.tsv"), std::string::npos);
}

TEST(LineSource, StdinAsDashIncludingCompressed) {
  std::string dir = NewTempDir("line_source_stdin");
  std::string p = WriteFile(dir, "in.zst", Compress("s1\ns2\n", Compression::kZstd));
  int saved = dup(0);
  int fd = open(p.c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  dup2(fd, 0);
  close(fd);
  std::string a = WriteFile(dir, "a", "f1\n");
  Got g = ReadAll({a, "-"});
  dup2(saved, 0);
  close(saved);
  ASSERT_TRUE(g.status.ok()) << g.status.ToString();
  EXPECT_EQ(g.lines, (V{"f1", "s1", "s2"}));
  EXPECT_EQ(g.inputs, (V{a, "-", "-"}));
}

TEST(LineSource, NamesFromExtension) {
  EXPECT_EQ(CompressionFromName("x.tsv.gz"), Compression::kGzip);
  EXPECT_EQ(CompressionFromName("x.bz2"), Compression::kBzip2);
  EXPECT_EQ(CompressionFromName("x.xz"), Compression::kXz);
  EXPECT_EQ(CompressionFromName("x.zst"), Compression::kZstd);
  EXPECT_EQ(CompressionFromName("x.tsv"), Compression::kNone);
}

}  // namespace
}  // namespace hfile::region
