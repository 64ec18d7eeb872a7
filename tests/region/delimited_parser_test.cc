#include "region/delimited_parser.h"

#include <gtest/gtest.h>

#include <zlib.h>

#include <fstream>

#include "../testutil.h"
#include "hfile/escape.h"

namespace hfile::region {
namespace {

using test::NewTempDir;

ImportOptions Opts(std::vector<std::string> args) {
  auto r = ParseImportArgs(args);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? std::move(r).value() : ImportOptions{};
}

// A record or a bad line, flattened for comparisons: "row|ts|ttl|vis|f:q=v;f:q=v" or "BAD:reason:msg".
std::string Flat(const ParsedRecord& r) {
  std::string s = ToStringBinary(r.row) + "|" + std::to_string(r.timestamp) + "|" +
                  std::to_string(r.ttl_ms) + "|" + (r.has_visibility ? std::string(r.visibility) : "-");
  s += "|";
  for (size_t i = 0; i < r.cells.size(); ++i) {
    if (i) s += ";";
    s += ToStringBinary(r.cells[i].family) + ":" + ToStringBinary(r.cells[i].qualifier) + "=" +
         ToStringBinary(r.cells[i].value);
  }
  return s;
}

struct Tsv {
  ImportOptions opt;
  LineParser parser;
  explicit Tsv(std::vector<std::string> args, int64_t ts = 1000)
      : opt(Opts(std::move(args))), parser(opt, ts) {}
  std::string operator()(std::string_view line) {
    ParsedRecord r;
    BadLine b;
    bool ok = opt.format == InputFormat::kJsonLines ? parser.ParseJson(line, &r, &b)
                                                    : parser.ParseTsv(line, &r, &b);
    if (!ok) return "BAD:" + std::string(BadLineReasonName(b.reason)) + ":" + b.message;
    return Flat(r);
  }
  std::string Reason(std::string_view line) {
    std::string s = (*this)(line);
    if (s.rfind("BAD:", 0) != 0) return "ok";
    return s.substr(4, s.find(':', 4) - 4);
  }
};

TEST(TsvParser, BasicLineWithDefaultTimestamp) {
  Tsv p({"-Dimporttsv.columns=HBASE_ROW_KEY,m:title,m:body,t"});
  EXPECT_EQ(p("r1\thello\tworld\tx"), "r1|1000|0|-|m:title=hello;m:body=world;t:=x");
}

TEST(TsvParser, ImportTsvBadLineRulesInOrder) {
  Tsv p({"-Dimporttsv.columns=m:a,HBASE_ROW_KEY,m:b"});
  EXPECT_EQ(p.Reason("no separator at all"), "no-delimiter");
  EXPECT_EQ(p.Reason(""), "no-delimiter");  // an empty line is a bad line, as in ImportTsv
  EXPECT_EQ(p.Reason("a\tr\tb\textra"), "excessive-columns");
  EXPECT_EQ(p("a\tr\tb\textra").substr(0, 27), "BAD:excessive-columns:Exces");
  // 2 fields: the row key is the empty second field, and new Put(empty) throws.
  EXPECT_EQ(p("a\t"), "BAD:empty-row-key:Row length is 0");
  // Fewer fields than data columns: the trailing column gives no cell.
  EXPECT_EQ(p("a\tr"), "r|1000|0|-|m:a=a");
  Tsv q({"-Dimporttsv.columns=m:a,m:b,HBASE_ROW_KEY"});
  EXPECT_EQ(q.Reason("a\tb"), "no-row-key");
}

TEST(TsvParser, SpecialColumnsMissingFieldsEachHaveTheirReason) {
  EXPECT_EQ(Tsv({"--columns=HBASE_ROW_KEY,m:a,HBASE_TS_KEY"}).Reason("r\tv"), "no-timestamp");
  EXPECT_EQ(Tsv({"--columns=HBASE_ROW_KEY,m:a,HBASE_ATTRIBUTES_KEY"}).Reason("r\tv"), "no-attributes");
  EXPECT_EQ(Tsv({"--columns=HBASE_ROW_KEY,m:a,HBASE_CELL_VISIBILITY"}).Reason("r\tv"), "no-visibility");
  EXPECT_EQ(Tsv({"--columns=HBASE_ROW_KEY,m:a,HBASE_CELL_TTL"}).Reason("r\tv"), "no-ttl");
}

TEST(TsvParser, TimestampKeyPerLine) {
  Tsv p({"-Dimporttsv.columns=HBASE_ROW_KEY,HBASE_TS_KEY,m:a", "-Dimporttsv.timestamp=5"});
  EXPECT_EQ(p("r\t1234\tv"), "r|1234|0|-|m:a=v");
  EXPECT_EQ(p("r\t+7\tv"), "r|7|0|-|m:a=v");  // Long.parseLong takes a '+'
  EXPECT_EQ(p.Reason("r\t\tv"), "invalid-timestamp");  // blank
  EXPECT_EQ(p.Reason("r\t12x\tv"), "invalid-timestamp");
  EXPECT_EQ(p.Reason("r\t 12\tv"), "invalid-timestamp");  // parseLong does not trim
  EXPECT_EQ(p.Reason("r\t99999999999999999999\tv"), "invalid-timestamp");  // overflow
  EXPECT_EQ(p.Reason("r\t-5\tv"), "invalid-timestamp");  // ours: negative refused
  EXPECT_EQ(p("r\t9223372036854775807\tv"), "r|9223372036854775807|0|-|m:a=v");
  EXPECT_NE(p("r\t12x\tv").find("Invalid timestamp 12x"), std::string::npos);
}

TEST(TsvParser, OneTimestampForTheRunWithoutTsKey) {
  Tsv p({"-Dimporttsv.columns=HBASE_ROW_KEY,m:a", "-Dimporttsv.timestamp=42"}, 42);
  EXPECT_EQ(p("r\tv"), "r|42|0|-|m:a=v");
  EXPECT_EQ(p("s\tw"), "s|42|0|-|m:a=w");
}

TEST(TsvParser, CellTtlRawEightBytesAndDecimal) {
  Tsv p({"-Dimporttsv.columns=HBASE_ROW_KEY,HBASE_CELL_TTL,m:a"});
  std::string raw("\0\0\0\0\0\0\x03\xE8", 8);  // 1000 as Bytes.toBytes(long)
  EXPECT_EQ(p("r\t" + raw + "\tv"), "r|1000|1000|-|m:a=v");
  EXPECT_EQ(p("r\t86400000\tv"), "r|1000|86400000|-|m:a=v");  // 8 digits: decimal in auto
  EXPECT_EQ(p("r\t1000000\tv"), "r|1000|1000000|-|m:a=v");    // ImportTsv: bad line (7 bytes)
  EXPECT_EQ(p.Reason("r\tabc\tv"), "invalid-ttl");
  EXPECT_EQ(p.Reason("r\t\tv"), "invalid-ttl");
  EXPECT_NE(p("r\tabc\tv").find("Wrong length: 3, expected 8"), std::string::npos);
  // <= 0 is not applied (ImportTsv: only ttl > 0).
  std::string neg("\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF", 8);
  EXPECT_EQ(p("r\t" + neg + "\tv"), "r|1000|0|-|m:a=v");
  EXPECT_EQ(p("r\t0\tv"), "r|1000|0|-|m:a=v");

  Tsv raw_only({"--columns=HBASE_ROW_KEY,HBASE_CELL_TTL,m:a", "--ttl-format=raw"});
  EXPECT_EQ(raw_only.Reason("r\t1000000\tv"), "invalid-ttl");  // exactly ImportTsv
  EXPECT_EQ(raw_only("r\t12345678\tv"), "r|1000|3544952156018063160|-|m:a=v");
  Tsv dec({"--columns=HBASE_ROW_KEY,HBASE_CELL_TTL,m:a", "--ttl-format=decimal"});
  EXPECT_EQ(dec.Reason("r\t" + raw + "\tv"), "invalid-ttl");
}

TEST(TsvParser, VisibilityAndAttributesAreNotCells) {
  Tsv p({"-Dimporttsv.columns=HBASE_ATTRIBUTES_KEY,HBASE_ROW_KEY,HBASE_CELL_VISIBILITY,m:a"});
  ParsedRecord r;
  BadLine b;
  ASSERT_TRUE(p.parser.ParseTsv("k=>v,k2=>v2\trow\tsecret&!probe\tval", &r, &b));
  EXPECT_EQ(Flat(r), "row|1000|0|secret&!probe|m:a=val");
  ASSERT_TRUE(r.has_attributes);
  std::vector<std::pair<std::string_view, std::string_view>> attrs;
  ASSERT_TRUE(SplitAttributes(r.attributes, p.opt.attributes_separator, &attrs));
  ASSERT_EQ(attrs.size(), 2u);
  EXPECT_EQ(attrs[1].first, "k2");
  EXPECT_EQ(attrs[1].second, "v2");
  EXPECT_FALSE(SplitAttributes("novalue", "=>", &attrs));
}

TEST(TsvParser, EmptyFieldsAreEmptyCellsUnlessSkipped) {
  Tsv p({"-Dimporttsv.columns=HBASE_ROW_KEY,m:a,m:b,m:c"});
  EXPECT_EQ(p("r\t\tx\t"), "r|1000|0|-|m:a=;m:b=x;m:c=");
  Tsv s({"-Dimporttsv.columns=HBASE_ROW_KEY,m:a,m:b,m:c", "-Dimporttsv.skip.empty.columns=true"});
  EXPECT_EQ(s("r\t\tx\t"), "r|1000|0|-|m:b=x");
  EXPECT_EQ(s.parser.empty_fields_skipped(), 2u);
}

TEST(TsvParser, NoQuotingNoEscapingFieldsAreRawBytes) {
  Tsv p({"-Dimporttsv.columns=HBASE_ROW_KEY,m:a"});
  EXPECT_EQ(p("\"r\"\t\"a,b\"\\n"), "\"r\"|1000|0|-|m:a=\"a,b\"\\x5Cn");
  EXPECT_EQ(p(std::string("r\xff\x00", 3) + "\tv"), "r\\xFF\\x00|1000|0|-|m:a=v");
}

TEST(TsvParser, OtherSeparator) {
  Tsv p({"-Dimporttsv.columns=HBASE_ROW_KEY,m:a", "-Dimporttsv.separator=|"});
  EXPECT_EQ(p("r|a\tb"), "r|1000|0|-|m:a=a\\x09b");
  EXPECT_EQ(p.Reason("r\ta"), "no-delimiter");
}

TEST(TsvParser, RowKeyLimits) {
  Tsv p({"-Dimporttsv.columns=HBASE_ROW_KEY,m:a"});
  EXPECT_EQ(p.Reason(std::string(32767, 'k') + "\tv"), "ok");
  EXPECT_EQ(p(std::string(32768, 'k') + "\tv"), "BAD:row-key-too-long:Row length 32768 is > 32767");
}

TEST(TsvParser, EscapedAndHexRowKeysQualifiersValues) {
  Tsv e({"--columns=HBASE_ROW_KEY,m:q\\x00x", "--row-encoding=escaped",
         "--qualifier-encoding=escaped", "--value-encoding=hex"});
  EXPECT_EQ(e("row\\x00\\xFF\\x5C\tdeadBEEF"), "row\\x00\\xFF\\x5C|1000|0|-|m:q\\x00x=\\xDE\\xAD\\xBE\\xEF");
  EXPECT_EQ(e.Reason("row\\xZZ\tab"), "bad-encoding");
  EXPECT_EQ(e.Reason("row\\x0\tab"), "bad-encoding");
  EXPECT_EQ(e.Reason("row\tabc"), "bad-encoding");  // odd hex
  // A backslash not followed by x stands for itself (Bytes.toBytesBinary).
  EXPECT_EQ(e("a\\b\t00"), "a\\x5Cb|1000|0|-|m:q\\x00x=\\x00");
  Tsv h({"--columns=HBASE_ROW_KEY,m:a", "--row-encoding=hex"});
  EXPECT_EQ(h("00ff\tv"), "\\x00\\xFF|1000|0|-|m:a=v");
  EXPECT_EQ(h.Reason("\tv"), "empty-row-key");
}

TEST(TsvParser, EscapedDecodingMatchesHfileDumpRoundTrip) {
  std::string all;
  for (int i = 0; i < 256; ++i) all.push_back(static_cast<char>(i));
  std::string printed = ToStringBinary(all);  // what hfile dump prints
  std::string back;
  ASSERT_TRUE(DecodeBytes(printed, ByteEncoding::kEscaped, &back));
  EXPECT_EQ(back, all);
  EXPECT_EQ(*FromStringBinary(printed), back);
  back.clear();
  ASSERT_TRUE(DecodeBytes(ToHex(all), ByteEncoding::kHex, &back));
  EXPECT_EQ(back, all);
  for (std::string bad : {"\\x", "\\x1", "\\xg0", "a\\x0"}) {
    std::string out;
    EXPECT_FALSE(DecodeBytes(bad, ByteEncoding::kEscaped, &out)) << bad;
    EXPECT_FALSE(FromStringBinary(bad).has_value()) << bad;
  }
}

TEST(JsonLines, WithoutColumnsKeysAreTheSpec) {
  Tsv p({"--format=json"});
  EXPECT_EQ(p(R"({"HBASE_ROW_KEY":"r1","m:title":"Hi \"you\"","m:n":12.5e1,"m:b":true,"m:z":null})"),
            "r1|1000|0|-|m:title=Hi \"you\";m:n=12.5e1;m:b=true");
  EXPECT_EQ(p(R"({"HBASE_ROW_KEY":"r","HBASE_TS_KEY":77,"HBASE_CELL_TTL":5000,"m:a":"\u00e9\ud83d\ude00"})"),
            "r|77|5000|-|m:a=\\xC3\\xA9\\xF0\\x9F\\x98\\x80");
  EXPECT_EQ(p.Reason(R"({"m:a":"x"})"), "unknown-column");  // no HBASE_ROW_KEY
  EXPECT_EQ(p.Reason(R"({"HBASE_ROW_KEY":"r","bad/fam:a":"x"})"), "unknown-column");
  EXPECT_EQ(p.Reason(R"({"HBASE_ROW_KEY":"r","m:a":"x","m:a":"y"})"), "bad-json");
  EXPECT_EQ(p.Reason(R"({"HBASE_ROW_KEY":"r","m:a":{"x":1}})"), "bad-json");
  EXPECT_EQ(p.Reason(R"({"HBASE_ROW_KEY":"r","m:a":"x"} trailing)"), "bad-json");
  EXPECT_EQ(p.Reason(R"({"HBASE_ROW_KEY":"r","m:a":"x")"), "bad-json");  // truncated
  EXPECT_EQ(p.Reason(R"(["r","x"])"), "bad-json");
  EXPECT_EQ(p.Reason(R"({"HBASE_ROW_KEY":"r","m:a":"\ud800"})"), "bad-json");
  EXPECT_EQ(p.Reason("{\"HBASE_ROW_KEY\":\"r\",\"m:\xC3\x28\":\"x\"}"), "invalid-utf8");
  EXPECT_EQ(p.Reason(R"({"HBASE_ROW_KEY":"","m:a":"x"})"), "empty-row-key");
}

TEST(JsonLines, WithColumnsKeysMustBeInTheSpec) {
  Tsv p({"--format=json", "--columns=HBASE_ROW_KEY,HBASE_TS_KEY,m:a,m:b"});
  EXPECT_EQ(p(R"({"m:b":"2","HBASE_TS_KEY":5,"HBASE_ROW_KEY":"r"})"), "r|5|0|-|m:b=2");
  EXPECT_EQ(p.Reason(R"({"HBASE_ROW_KEY":"r","HBASE_TS_KEY":5,"m:c":"x"})"), "unknown-column");
  EXPECT_EQ(p.Reason(R"({"HBASE_ROW_KEY":"r","m:a":"x"})"), "no-timestamp");
  EXPECT_EQ(p.Reason(R"({"HBASE_ROW_KEY":"r","HBASE_TS_KEY":"x5","m:a":"x"})"), "invalid-timestamp");
}

// ---- RecordReader over files: CSV, bad-line positions, several inputs.

std::string WriteFile(const std::string& dir, const std::string& name, const std::string& data) {
  std::string path = dir + "/" + name;
  std::ofstream f(path, std::ios::binary);
  f.write(data.data(), static_cast<std::streamsize>(data.size()));
  return path;
}

struct Outcome {
  std::vector<std::string> records, bad;
  Status status;
  ParseStats stats;
};

Outcome ReadAll(const ImportOptions& opt, std::vector<std::string> inputs) {
  LineSource src(std::move(inputs));
  RecordReader reader(opt, &src, 1000);
  Outcome run;
  ParsedRecord r;
  BadLine b;
  while (true) {
    auto ev = reader.Next(&r, &b);
    if (!ev.ok()) { run.status = ev.status(); break; }
    if (*ev == RecordReader::Event::kEnd) break;
    if (*ev == RecordReader::Event::kRecord) {
      run.records.push_back(std::to_string(r.line_number) + "#" + std::to_string(r.ordinal) + " " + Flat(r));
    } else {
      std::string name = b.input.substr(b.input.rfind('/') + 1);
      run.bad.push_back(name + ":" + std::to_string(b.line_number) + "@" + std::to_string(b.offset) +
                        " " + std::string(BadLineReasonName(b.reason)));
    }
  }
  run.stats = reader.stats();
  return run;
}

using V = std::vector<std::string>;

TEST(RecordReader, TsvBadLinesCarryFileLineAndOffsetAndCounts) {
  std::string dir = NewTempDir("parser_tsv_bad");
  std::string a = WriteFile(dir, "a.tsv", "r1\tv1\nbroken\nr2\tv2\tv3\n\nr3\tv3\r\n");
  ImportOptions opt = Opts({"--columns=HBASE_ROW_KEY,m:a"});
  Outcome run = ReadAll(opt, {a});
  ASSERT_TRUE(run.status.ok()) << run.status.ToString();
  EXPECT_EQ(run.records, (V{"1#0 r1|1000|0|-|m:a=v1", "5#1 r3|1000|0|-|m:a=v3"}));
  EXPECT_EQ(run.bad, (V{"a.tsv:2@6 no-delimiter", "a.tsv:3@13 excessive-columns",
                        "a.tsv:4@22 no-delimiter"}));
  EXPECT_EQ(run.stats.lines, 5u);
  EXPECT_EQ(run.stats.bad_lines, 3u);
  EXPECT_EQ(run.stats.ToString(),
            "5 lines, 2 records, 2 cells, 3 bad lines (no-delimiter: 2, excessive-columns: 1)");
}

TEST(RecordReader, BadLineMessageNamesFileAndLine) {
  std::string dir = NewTempDir("parser_msg");
  std::string a = WriteFile(dir, "in.tsv", "r\tv\nr\t\x01x\textra\n");
  ImportOptions opt = Opts({"--columns=HBASE_ROW_KEY,m:a"});
  LineSource src({a});
  RecordReader reader(opt, &src, 1);
  ParsedRecord r;
  BadLine b;
  ASSERT_EQ(*reader.Next(&r, &b), RecordReader::Event::kRecord);
  ASSERT_EQ(*reader.Next(&r, &b), RecordReader::Event::kBadLine);
  EXPECT_EQ(b.ToString(), a + ":2: Excessive columns: 3 fields, the column spec has 2 (byte offset 4)");
  EXPECT_EQ(b.text, "r\\x09\\x01x\\x09extra");
}

TEST(RecordReader, CsvHeaderQuotingAndMultiLineRecords) {
  std::string dir = NewTempDir("parser_csv");
  std::string a = WriteFile(dir, "a.csv",
                            "HBASE_ROW_KEY,\"m:title\",m:body\r\n"
                            "r1,\"Hello, world\",\"say \"\"hi\"\"\"\r\n"
                            "r2,,\"line one\r\nline two\"\r\n"
                            "r3,plain,\"\"\n"
                            "r4,\"unterminated\n"
                            "r5,x,y\n");
  ImportOptions opt = Opts({"--format=csv"});
  Outcome run = ReadAll(opt, {a});
  ASSERT_TRUE(run.status.ok()) << run.status.ToString();
  EXPECT_EQ(run.records, (V{"2#0 r1|1000|0|-|m:title=Hello, world;m:body=say \"hi\"",
                            "3#1 r2|1000|0|-|m:title=;m:body=line one\\x0D\\x0Aline two",
                            "5#2 r3|1000|0|-|m:title=plain;m:body="}));
  // The unterminated quote swallows the rest of the input: one bad record, nothing else lost
  // silently (it is reported and counted).
  ASSERT_EQ(run.bad.size(), 1u);
  EXPECT_EQ(run.bad[0], "a.csv:6@102 bad-quoting");
  EXPECT_EQ(run.stats.header_lines, 1u);
  EXPECT_EQ(run.stats.lines, 7u);
}

TEST(RecordReader, CsvBadRecords) {
  std::string dir = NewTempDir("parser_csv_bad");
  std::string a = WriteFile(dir, "a.csv",
                            "HBASE_ROW_KEY,m:a\n"
                            "r1,a\"b\n"       // quote inside an unquoted field
                            "r2,\"a\"b\n"     // text after the closing quote
                            "r3,a,b\n"        // too many fields
                            "r4\n"            // too few
                            "r5,\"ok\"\n");
  Outcome run = ReadAll(Opts({"--format=csv"}), {a});
  ASSERT_TRUE(run.status.ok());
  EXPECT_EQ(run.records, (V{"6#0 r5|1000|0|-|m:a=ok"}));
  ASSERT_EQ(run.bad.size(), 4u);
  EXPECT_NE(run.bad[0].find(":2@18 bad-quoting"), std::string::npos) << run.bad[0];
  EXPECT_NE(run.bad[1].find(":3@25 bad-quoting"), std::string::npos) << run.bad[1];
  EXPECT_NE(run.bad[2].find(":4@33 column-count"), std::string::npos) << run.bad[2];
  EXPECT_NE(run.bad[3].find(":5@40 column-count"), std::string::npos) << run.bad[3];
}

TEST(RecordReader, CsvHeaderPerInputAndBadHeadersStop) {
  std::string dir = NewTempDir("parser_csv_headers");
  std::string a = WriteFile(dir, "a.csv", "HBASE_ROW_KEY,m:a\nr1,x\n");
  std::string b = WriteFile(dir, "b.csv", "m:b,HBASE_ROW_KEY\ny,r2\n");
  Outcome run = ReadAll(Opts({"--format=csv"}), {a, b});
  ASSERT_TRUE(run.status.ok()) << run.status.ToString();
  EXPECT_EQ(run.records, (V{"2#0 r1|1000|0|-|m:a=x", "2#1 r2|1000|0|-|m:b=y"}));

  std::string c = WriteFile(dir, "c.csv", "HBASE_ROW_KEY,m:\xC3\x28\nr1,x\n");
  run = ReadAll(Opts({"--format=csv"}), {c});
  ASSERT_FALSE(run.status.ok());
  EXPECT_NE(run.status.message().find("header of " + c), std::string::npos);
  EXPECT_NE(run.status.message().find("not valid UTF-8"), std::string::npos);
  std::string d = WriteFile(dir, "d.csv", "id,title\nr1,x\n");
  run = ReadAll(Opts({"--format=csv"}), {d});
  ASSERT_FALSE(run.status.ok());
  EXPECT_NE(run.status.message().find("HBASE_ROW_KEY"), std::string::npos) << run.status.ToString();
}

TEST(RecordReader, CsvWithColumnsAndSkippedHeader) {
  std::string dir = NewTempDir("parser_csv_skip");
  std::string a = WriteFile(dir, "a.csv", "id;title\nr1;x\n");
  Outcome run = ReadAll(Opts({"--format=csv", "--columns=HBASE_ROW_KEY,m:t", "--csv-header=skip",
                          "--separator=;"}), {a});
  ASSERT_TRUE(run.status.ok());
  EXPECT_EQ(run.records, (V{"2#0 r1|1000|0|-|m:t=x"}));
  run = ReadAll(Opts({"--format=csv", "--columns=HBASE_ROW_KEY,m:t", "--separator=;"}), {a});
  EXPECT_EQ(run.records.size(), 2u);  // no header with --columns by default: id;title is data
}

TEST(RecordReader, OrdinalsRunAcrossInputsForLastLineWins) {
  std::string dir = NewTempDir("parser_ordinals");
  std::string a = WriteFile(dir, "a.tsv", "k\told\n");
  std::string b = WriteFile(dir, "b.tsv", "k\tnew\n");
  Outcome run = ReadAll(Opts({"--columns=HBASE_ROW_KEY,m:a"}), {a, b});
  EXPECT_EQ(run.records, (V{"1#0 k|1000|0|-|m:a=old", "1#1 k|1000|0|-|m:a=new"}));
}

TEST(RecordReader, JsonLinesFile) {
  std::string dir = NewTempDir("parser_json");
  std::string a = WriteFile(dir, "a.jsonl",
                            "{\"HBASE_ROW_KEY\":\"r1\",\"m:a\":\"x\"}\n"
                            "{\"HBASE_ROW_KEY\":\"r2\",\"m:a\":\n"
                            "  {\"HBASE_ROW_KEY\":\"r3\",\"m:b\":\"y\"}  \n");
  Outcome run = ReadAll(Opts({"--format=json"}), {a});
  ASSERT_TRUE(run.status.ok());
  EXPECT_EQ(run.records, (V{"1#0 r1|1000|0|-|m:a=x", "3#1 r3|1000|0|-|m:b=y"}));
  EXPECT_EQ(run.bad, (V{"a.jsonl:2@33 bad-json"}));
}

TEST(RecordReader, CompressedCsvInputAndATruncatedOne) {
  std::string dir = NewTempDir("parser_gz");
  std::string csv = "HBASE_ROW_KEY,m:a\n\"r\\x001\",\"multi\nline\"\nr2,x\n";
  std::string path = dir + "/a.csv.gz";
  gzFile gz = gzopen(path.c_str(), "wb");
  ASSERT_NE(gz, nullptr);
  gzwrite(gz, csv.data(), static_cast<unsigned>(csv.size()));
  gzclose(gz);
  Outcome run = ReadAll(Opts({"--format=csv", "--row-encoding=escaped"}), {path});
  ASSERT_TRUE(run.status.ok()) << run.status.ToString();
  EXPECT_EQ(run.records, (V{"2#0 r\\x001|1000|0|-|m:a=multi\\x0Aline", "4#1 r2|1000|0|-|m:a=x"}));
  // A truncated .gz stops the run with its name; the records before the damage were delivered.
  std::string big = "HBASE_ROW_KEY,m:a\n";
  for (int i = 0; i < 50000; ++i) big += "r" + std::to_string(i) + ",v" + std::to_string(i * 31) + "\n";
  std::string full = dir + "/big.csv.gz";
  gz = gzopen(full.c_str(), "wb");
  gzwrite(gz, big.data(), static_cast<unsigned>(big.size()));
  gzclose(gz);
  std::ifstream f(full, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  std::string cut = WriteFile(dir, "cut.csv.gz", bytes.substr(0, bytes.size() / 2));
  run = ReadAll(Opts({"--format=csv"}), {cut});
  ASSERT_FALSE(run.status.ok());
  EXPECT_NE(run.status.message().find("cut.csv.gz: gzip data is corrupt or truncated"),
            std::string::npos) << run.status.ToString();
  EXPECT_GT(run.records.size(), 0u);
  EXPECT_LT(run.records.size(), 50000u);
}

TEST(RecordReader, IoErrorsStopWithTheInputName) {
  std::string dir = NewTempDir("parser_io");
  Outcome run = ReadAll(Opts({"--columns=HBASE_ROW_KEY,m:a"}), {dir + "/missing.tsv"});
  ASSERT_FALSE(run.status.ok());
  EXPECT_NE(run.status.message().find("missing.tsv"), std::string::npos);
}

}  // namespace
}  // namespace hfile::region
