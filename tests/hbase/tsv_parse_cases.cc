// tsv_parse_cases CASES: parses each case line of a case file (tests/hbase/tsv_cases.txt; format
// in TsvParseCommand.java) with hfilekit's delimited_parser (TSV, ImportTsv's options) and
// prints the harness's `tsvparse` JSON form, plus our bad-line reason:
//   {"n":LINE,"ok":true,"row":R,"ts":N,"ttl":N,"vis":V|null,"cells":[[F,Q,V],...]}
//   {"n":LINE,"ok":false,"reason":REASON,"error":MESSAGE}
// check_tsv_parse.py compares it with HBase's ImportTsv.TsvParser on the same lines.
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "hfile/escape.h"
#include "region/delimited_parser.h"

using namespace hfile;
using namespace hfile::region;

namespace {
std::string J(std::string_view bytes) {
  std::string s;
  AppendJsonString(&s, Slice(ToStringBinary(Slice(bytes.data(), bytes.size()))));
  return s;
}
}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: tsv_parse_cases CASES\n";
    return 2;
  }
  std::ifstream in(argv[1]);
  std::string columns, sep = "\t";
  bool skip_empty = false;
  long long ts = 1000;
  std::string l;
  int n = 0;
  std::unique_ptr<ImportOptions> opt;
  std::unique_ptr<LineParser> parser;
  while (std::getline(in, l)) {
    ++n;
    std::istringstream ws(l);
    std::string w, arg;
    ws >> w >> arg;
    if (w.empty() || w[0] == '#') continue;
    if (w == "columns") { columns = arg; parser.reset(); continue; }
    if (w == "separator") { sep = *FromHex(arg); parser.reset(); continue; }
    if (w == "skip-empty") { skip_empty = arg == "true"; parser.reset(); continue; }
    if (w == "timestamp") { ts = std::stoll(arg); parser.reset(); continue; }
    if (w != "same" && w != "diff") {
      std::cerr << "line " << n << ": unknown directive " << w << "\n";
      return 2;
    }
    if (!parser) {
      std::vector<std::string> args = {"-Dimporttsv.columns=" + columns,
                                       "-Dimporttsv.separator=" + sep,
                                       "-Dimporttsv.skip.empty.columns=" +
                                           std::string(skip_empty ? "true" : "false")};
      auto r = ParseImportArgs(args);
      if (!r.ok()) {
        std::cerr << "line " << n << ": " << r.status().ToString() << "\n";
        return 2;
      }
      opt = std::make_unique<ImportOptions>(std::move(r).value());
      parser = std::make_unique<LineParser>(*opt, ts);
    }
    std::string line = arg == "-" || arg.empty() ? std::string() : *FromHex(arg);
    ParsedRecord rec;
    BadLine bad;
    std::string out = "{\"n\":" + std::to_string(n);
    if (parser->ParseTsv(line, &rec, &bad)) {
      out += ",\"ok\":true,\"row\":" + J(rec.row) + ",\"ts\":" + std::to_string(rec.timestamp) +
             ",\"ttl\":" + std::to_string(rec.ttl_ms) + ",\"vis\":" +
             (rec.has_visibility ? J(rec.visibility) : std::string("null")) + ",\"cells\":[";
      for (size_t i = 0; i < rec.cells.size(); ++i) {
        if (i) out += ",";
        out += "[" + J(rec.cells[i].family) + "," + J(rec.cells[i].qualifier) + "," +
               J(rec.cells[i].value) + "]";
      }
      out += "]}";
    } else {
      out += ",\"ok\":false,\"reason\":\"" + std::string(BadLineReasonName(bad.reason)) +
             "\",\"error\":";
      AppendJsonString(&out, Slice(bad.message));
      out += "}";
    }
    std::cout << out << "\n";
  }
  return 0;
}
