#include "region/import_options.h"

#include <gtest/gtest.h>

namespace hfile::region {
namespace {

Result<ImportOptions> P(std::vector<std::string> args) { return ParseImportArgs(args); }

std::string Err(std::vector<std::string> args) {
  auto r = P(std::move(args));
  return r.ok() ? "ok" : r.status().message();
}

bool Has(const std::string& s, const std::string& needle) {
  return s.find(needle) != std::string::npos;
}

TEST(ImportOptions, ImportTsvPropertiesVerbatim) {
  auto r = P({"-Dimporttsv.columns=HBASE_ROW_KEY,m:title,m:body", "-Dimporttsv.separator=,",
              "-Dimporttsv.bulk.output=/tmp/out", "-Dimporttsv.skip.bad.lines=true",
              "-Dimporttsv.timestamp=1700000000000", "-Dimporttsv.skip.empty.columns=TRUE",
              "docs", "in1.tsv", "-"});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->separator, ',');
  EXPECT_EQ(r->bulk_output, "/tmp/out");
  EXPECT_TRUE(r->skip_bad_lines);
  EXPECT_TRUE(r->skip_empty_columns);
  EXPECT_EQ(*r->timestamp, 1700000000000);
  EXPECT_EQ(r->DefaultTimestamp(5), 1700000000000);
  EXPECT_EQ(r->positional, (std::vector<std::string>{"docs", "in1.tsv", "-"}));
  ASSERT_TRUE(r->layout);
  EXPECT_EQ(r->layout->row_key, 0);
  EXPECT_EQ(r->layout->cell_columns, 2u);
  EXPECT_EQ(r->layout->columns[1].family, "m");
  EXPECT_EQ(r->layout->columns[1].qualifier, "title");
}

TEST(ImportOptions, PlainFlagsGiveTheSameStruct) {
  auto a = P({"-Dimporttsv.columns=HBASE_ROW_KEY,m:a", "-Dimporttsv.separator=|",
              "-Dimporttsv.skip.bad.lines", "-Dimporttsv.timestamp=7"});
  auto b = P({"--columns", "HBASE_ROW_KEY,m:a", "--separator=|", "--skip-bad-lines",
              "--timestamp", "7"});
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->separator, b->separator);
  EXPECT_EQ(a->skip_bad_lines, b->skip_bad_lines);
  EXPECT_EQ(a->timestamp, b->timestamp);
  EXPECT_EQ(a->columns_spec, b->columns_spec);
  auto c = P({"-D", "importtsv.columns=HBASE_ROW_KEY,m:a"});  // Hadoop's "-D key=value"
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->columns_spec, "HBASE_ROW_KEY,m:a");
}

TEST(ImportOptions, DefaultsDifferFromImportTsvOnlyInSkipBadLines) {
  auto r = P({"--columns=HBASE_ROW_KEY,m:a"});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->separator, '\t');
  EXPECT_FALSE(r->skip_bad_lines);  // ImportTsv: true
  EXPECT_FALSE(r->skip_empty_columns);
  EXPECT_FALSE(r->timestamp);
  EXPECT_EQ(r->DefaultTimestamp(123), 123);  // one clock reading for the whole run
  EXPECT_EQ(r->attributes_separator, "=>");
}

TEST(ImportOptions, ColumnSpecRules) {
  EXPECT_TRUE(Has(Err({"--columns=m:a,m:b"}), "exactly one column as HBASE_ROW_KEY (found 0)"));
  EXPECT_TRUE(Has(Err({"--columns=HBASE_ROW_KEY,HBASE_ROW_KEY,m:a"}), "(found 2)"));
  EXPECT_TRUE(Has(Err({"--columns=HBASE_ROW_KEY,HBASE_TS_KEY,HBASE_TS_KEY,m:a"}),
                  "at most one column may be HBASE_TS_KEY (columns 2 and 3)"));
  EXPECT_TRUE(Has(Err({"--columns=HBASE_ROW_KEY,HBASE_ATTRIBUTES_KEY,m:a,HBASE_ATTRIBUTES_KEY"}),
                  "HBASE_ATTRIBUTES_KEY"));
  EXPECT_TRUE(Has(Err({"--columns=HBASE_ROW_KEY,HBASE_CELL_TTL,HBASE_CELL_TTL,m:a"}),
                  "HBASE_CELL_TTL"));
  EXPECT_TRUE(Has(Err({"--columns=HBASE_ROW_KEY"}), "One or more columns in addition"));
  EXPECT_TRUE(Has(Err({"--columns=HBASE_ROW_KEY,HBASE_TS_KEY"}), "One or more columns"));
  // ImportTsv counts TTL/visibility as data columns; such a spec makes no cell, so we refuse it.
  EXPECT_TRUE(Has(Err({"--columns=HBASE_ROW_KEY,HBASE_CELL_TTL"}), "One or more columns"));
  EXPECT_TRUE(Has(Err({"--columns=HBASE_ROW_KEY,m:a,,m:b"}), "column 3 is empty"));
  EXPECT_TRUE(Has(Err({"--columns=HBASE_ROW_KEY,m:a,"}), "column 3 is empty"));
  EXPECT_TRUE(Has(Err({"--columns=HBASE_ROW_KEY,m:a,m:a"}), "repeats an earlier column"));
  EXPECT_TRUE(Has(Err({"--columns=HBASE_ROW_KEY,:a"}), "family name is empty"));
  EXPECT_TRUE(Has(Err({"--columns=HBASE_ROW_KEY,.m:a"}), "cannot start with '.'"));
  EXPECT_TRUE(Has(Err({"--columns=HBASE_ROW_KEY,a/b:c"}), "illegal character"));
  EXPECT_TRUE(Has(Err({"--columns=HBASE_ROW_KEY," + std::string(128, 'f') + ":q"}), "127"));
  EXPECT_TRUE(Has(Err({"--columns=HBASE_ROW_KEY,m:\xC3\x28"}), "not valid UTF-8 (at byte 2)"));
  EXPECT_TRUE(Has(Err({"--columns=HBASE_ROW_KEY,\xFF:q"}), "not valid UTF-8"));
  // Special tokens are case-sensitive: hbase_row_key is a family.
  EXPECT_TRUE(Has(Err({"--columns=hbase_row_key,m:a"}), "exactly one column as HBASE_ROW_KEY"));
}

TEST(ImportOptions, ColumnSpecParsingAsTsvParser) {
  auto r = P({"--columns= HBASE_ROW_KEY , m:a:b:c ,fam,HBASE_TS_KEY,HBASE_CELL_VISIBILITY"});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const ColumnLayout& l = *r->layout;
  EXPECT_EQ(l.row_key, 0);  // trimmed (ImportTsv's CLI check would reject " HBASE_ROW_KEY ")
  EXPECT_EQ(l.columns[1].family, "m");
  EXPECT_EQ(l.columns[1].qualifier, "a:b:c");  // split at the first ':'
  EXPECT_EQ(l.columns[2].family, "fam");
  EXPECT_EQ(l.columns[2].qualifier, "");  // bare family: empty qualifier
  EXPECT_EQ(l.timestamp, 3);
  EXPECT_EQ(l.visibility, 4);
  EXPECT_EQ(l.ttl, -1);
  EXPECT_EQ(l.IndexOf("m:a:b:c"), 1);
  // Encoded qualifiers.
  auto e = P({"--columns=HBASE_ROW_KEY,m:\\x00\\xFFq", "--qualifier-encoding=escaped"});
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(e->layout->columns[1].qualifier, std::string("\0\xFFq", 3));
  auto h = P({"--columns=HBASE_ROW_KEY,m:0aff", "--qualifier-encoding=hex"});
  ASSERT_TRUE(h.ok());
  EXPECT_EQ(h->layout->columns[1].qualifier, "\x0a\xff");
  EXPECT_TRUE(Has(Err({"--columns=HBASE_ROW_KEY,m:0af", "--qualifier-encoding=hex"}),
                  "odd number of hex digits"));
}

TEST(ImportOptions, TsvNeedsColumnsCsvAndJsonMayNot) {
  EXPECT_TRUE(Has(Err({"in.tsv"}), "No columns specified"));
  EXPECT_EQ(Err({"--format=csv", "in.csv"}), "ok");
  EXPECT_EQ(Err({"--format=json", "in.jsonl"}), "ok");
  EXPECT_TRUE(Has(Err({"--format=csv", "--csv-header=none"}), "needs --columns"));
  EXPECT_TRUE(Has(Err({"--format=csv", "--csv-header=use", "--columns=HBASE_ROW_KEY,m:a"}),
                  "drop --columns"));
  auto r = P({"--format=csv"});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->separator, ',');
  EXPECT_EQ(r->EffectiveCsvHeader(), CsvHeader::kUse);
  auto c = P({"--format=csv", "--columns=HBASE_ROW_KEY,m:a"});
  EXPECT_EQ(c->EffectiveCsvHeader(), CsvHeader::kNone);
}

TEST(ImportOptions, SeparatorRules) {
  // -D: verbatim, exactly one byte (ImportTsv: "TsvParser only supports single-byte separators").
  EXPECT_TRUE(Has(Err({"--columns=HBASE_ROW_KEY,m:a", "-Dimporttsv.separator=\\t"}),
                  "single-byte separators"));
  EXPECT_TRUE(Has(Err({"--columns=HBASE_ROW_KEY,m:a", "-Dimporttsv.separator=\xC2\xA7"}),
                  "is 2 bytes"));
  EXPECT_TRUE(Has(Err({"--columns=HBASE_ROW_KEY,m:a", "-Dimporttsv.separator="}), "is 0 bytes"));
  EXPECT_TRUE(Has(Err({"--columns=HBASE_ROW_KEY,m:a", "-Dimporttsv.separator=\n"}),
                  "line terminator"));
  EXPECT_TRUE(Has(Err({"--format=csv", "--separator=\""}), "quote character"));
  // Plain flag: escapes for the unprintable.
  for (auto [text, want] : std::vector<std::pair<std::string, char>>{
           {"\\t", '\t'}, {"tab", '\t'}, {"\\x01", '\x01'}, {"\\\\", '\\'}, {";", ';'}}) {
    auto r = P({"--columns=HBASE_ROW_KEY,m:a", "--separator=" + text});
    ASSERT_TRUE(r.ok()) << text << ": " << r.status().ToString();
    EXPECT_EQ(r->separator, want) << text;
  }
  auto tab = P({"--columns=HBASE_ROW_KEY,m:a", "-Dimporttsv.separator=\t"});
  ASSERT_TRUE(tab.ok());
  EXPECT_EQ(tab->separator, '\t');
}

TEST(ImportOptions, BooleansTimestampsAndUnknowns) {
  EXPECT_TRUE(Has(Err({"--columns=HBASE_ROW_KEY,m:a", "-Dimporttsv.skip.bad.lines=yes"}),
                  "not a boolean"));
  auto f = P({"--columns=HBASE_ROW_KEY,m:a", "-Dimporttsv.skip.bad.lines= False "});
  ASSERT_TRUE(f.ok());
  EXPECT_FALSE(f->skip_bad_lines);
  EXPECT_TRUE(Has(Err({"--columns=HBASE_ROW_KEY,m:a", "-Dimporttsv.timestamp=now"}),
                  "not a non-negative integer"));
  EXPECT_TRUE(Has(Err({"--columns=HBASE_ROW_KEY,m:a", "--timestamp=-1"}), "non-negative"));
  auto hex = P({"--columns=HBASE_ROW_KEY,m:a", "-Dimporttsv.timestamp=0x10"});  // Hadoop getLong
  ASSERT_TRUE(hex.ok());
  EXPECT_EQ(*hex->timestamp, 16);
  EXPECT_TRUE(Has(Err({"--columns=HBASE_ROW_KEY,m:a", "-Dimporttsv.colums=x"}),
                  "not an ImportTsv property"));
  EXPECT_TRUE(Has(Err({"--columns=HBASE_ROW_KEY,m:a", "--bogus"}), "unknown option --bogus"));
  EXPECT_TRUE(Has(Err({"--columns=HBASE_ROW_KEY,m:a", "-x"}), "unknown option -x"));
  auto r = P({"--columns=HBASE_ROW_KEY,m:a", "-Dimporttsv.mapper.class=x.Y"});
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.status().IsNotSupported());
  auto inert = P({"--columns=HBASE_ROW_KEY,m:a", "-Dcreate.table=no", "-Dhfile.compression=gz",
                  "-Dimporttsv.dry.run=true"});
  ASSERT_TRUE(inert.ok());
  EXPECT_EQ(inert->properties.at("hfile.compression"), "gz");
  EXPECT_EQ(inert->warnings.size(), 3u);
}

TEST(ImportOptions, TimestampKeyOverridesImporttsvTimestampWithAWarning) {
  auto r = P({"--columns=HBASE_ROW_KEY,HBASE_TS_KEY,m:a", "-Dimporttsv.timestamp=5"});
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_TRUE(Has(r->warnings[0], "importtsv.timestamp is ignored"));
}

TEST(ImportOptions, RepeatedSettingLastWinsWithWarning) {
  auto r = P({"--columns=HBASE_ROW_KEY,m:a", "-Dimporttsv.separator=,", "--separator=;"});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->separator, ';');
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_TRUE(Has(r->warnings[0], "given twice"));
}

TEST(ImportOptions, EncodingsAndFormats) {
  auto r = P({"--format", "json", "--row-encoding=escaped", "--value-encoding=hex",
              "--ttl-format=decimal", "--max-line-bytes=1024"});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->format, InputFormat::kJsonLines);
  EXPECT_EQ(r->row_encoding, ByteEncoding::kEscaped);
  EXPECT_EQ(r->value_encoding, ByteEncoding::kHex);
  EXPECT_EQ(r->ttl_format, TtlFormat::kDecimal);
  EXPECT_EQ(r->max_line_bytes, 1024u);
  EXPECT_TRUE(Has(Err({"--format=xml"}), "not one of tsv, csv, json"));
  EXPECT_TRUE(Has(Err({"--format=csv", "--row-encoding=b64"}), "not one of raw, escaped, hex"));
}

TEST(ImportOptions, Utf8Validation) {
  EXPECT_EQ(Utf8ValidPrefix("plain"), 5u);
  EXPECT_EQ(Utf8ValidPrefix("\xC3\xA9"), 2u);
  EXPECT_EQ(Utf8ValidPrefix("\xF0\x9F\x98\x80"), 4u);
  EXPECT_EQ(Utf8ValidPrefix("a\xC0\xAF"), 1u);       // overlong
  EXPECT_EQ(Utf8ValidPrefix("a\xED\xA0\x80"), 1u);   // surrogate
  EXPECT_EQ(Utf8ValidPrefix("ab\xE2\x82"), 2u);      // truncated sequence
  EXPECT_EQ(Utf8ValidPrefix("\xF4\x90\x80\x80"), 0u);  // > U+10FFFF
}

}  // namespace
}  // namespace hfile::region
