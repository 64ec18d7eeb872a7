// Pieces of DumpFile, one per section of its output.
#ifndef HFILE_SRC_DUMP_INTERNAL_H_
#define HFILE_SRC_DUMP_INTERNAL_H_

#include <memory>
#include <ostream>
#include <string>

#include "hfile/dump.h"
#include "hfile/reader.h"
#include "reader_internal.h"

namespace hfile {

// Renders bytes and JSON the way the options ask.
class DumpFormat {
 public:
  DumpFormat(const DumpOptions& o, std::string path) : options_(o), path_(std::move(path)) {}
  const DumpOptions& options() const { return options_; }
  // {"kind":KIND,"path":... (and table, region): every JSON record opens with it.
  std::string JsonHead(const char* kind) const {
    std::string s;
    AppendJsonRecordHead(&s, kind, path_, options_);
    return s;
  }
  void AppendBytes(std::string* dst, const Slice& b) const;
  std::string Bytes(const Slice& b) const {
    std::string s;
    AppendBytes(&s, b);
    return s;
  }
  // "key": "<bytes>" for JSON lines.
  void AppendJsonBytes(std::string* dst, const char* name, const Slice& b) const;
  // HBase's KeyValue.keyToString: row/family:qualifier/timestamp/Type.
  void AppendKey(std::string* dst, const Slice& key, ComparatorKind kind) const;
  // A cell as one JSON object (the canonical "cell" record).
  void AppendCellJson(std::string* dst, const Cell& cell, ComparatorKind kind) const;
  // A cell as HFilePrettyPrinter prints it: "K: <key>/vlen=N/seqid=N[ V: value[ T[i]: tag]]".
  void AppendCellText(std::string* dst, const Cell& cell, ComparatorKind kind, bool value) const;

 private:
  const DumpOptions& options_;
  const std::string path_;
};

void DumpMeta(const Reader& reader, const DumpFormat& fmt, std::ostream& out);
Status DumpBlockIndex(const Reader& reader, const DumpFormat& fmt, std::ostream& out);
Status DumpBlockHeaders(const Reader& reader, const DumpFormat& fmt, std::ostream& out);

// Collects the -s statistics over the cells of one file.
class StatsCollector {
 public:
  StatsCollector();
  ~StatsCollector();
  void Add(const Cell& cell, ComparatorKind kind);
  void Print(const DumpFormat& fmt, std::ostream& out);

 private:
  struct Rep;
  std::unique_ptr<Rep> rep_;
};

}  // namespace hfile

#endif  // HFILE_SRC_DUMP_INTERNAL_H_
