// Shared by hfilekit-compat-gen (tests/hbase/compat_gen.cc) and the byte-level fixture test
// (tests/hfile/writer_fixture_test.cc): canonical cell records <-> cells, and the harness's
// `gen` options -> WriterOptions, so that our writer writes what `harness.sh gen` wrote.
#ifndef HFILE_TESTS_HBASE_COMPAT_GEN_H_
#define HFILE_TESTS_HBASE_COMPAT_GEN_H_

#include <nlohmann/json.hpp>

#include <cstdint>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "hfile/cell.h"
#include "hfile/escape.h"
#include "hfile/types.h"
#include "hfile/writer.h"

namespace hfile::compat {

// HBase's GenCommand pins hfile.CREATE_TIME_TS to this.
inline constexpr int64_t kHarnessCreateTime = 1700000000000;

// A cell that owns its bytes.
struct OwnedCell {
  std::string key, value, tags;
  uint64_t seqid = 0;
  Cell view() const { return Cell{Slice(key), Slice(value), Slice(tags), seqid}; }
};

inline std::string Unbinary(const std::string& s) {
  auto b = FromStringBinary(s);
  if (!b) throw std::runtime_error("not a toStringBinary string: " + s);
  return *b;
}

inline uint8_t TypeByName(const std::string& n) {
  static const std::map<std::string, KeyType> kTypes = {
      {"Minimum", KeyType::kMinimum}, {"Put", KeyType::kPut},
      {"Delete", KeyType::kDelete},   {"DeleteFamilyVersion", KeyType::kDeleteFamilyVersion},
      {"DeleteColumn", KeyType::kDeleteColumn}, {"DeleteFamily", KeyType::kDeleteFamily},
      {"Maximum", KeyType::kMaximum}};
  auto it = kTypes.find(n);
  if (it == kTypes.end()) throw std::runtime_error("unknown cell type " + n);
  return static_cast<uint8_t>(it->second);
}

// An integer field by hfile-json(7)'s rule: a number, or a string of digits beyond 2^53 - 1.
inline int64_t JsonInteger(const nlohmann::json& v) {
  return v.is_string() ? std::stoll(v.get<std::string>()) : v.get<int64_t>();
}

// A canonical "cell" record (tests/hbase/README.md) -> cell.
inline OwnedCell CellFromJson(const nlohmann::json& j) {
  OwnedCell c;
  AppendKey(&c.key, Unbinary(j.at("row")), Unbinary(j.at("family")), Unbinary(j.at("qualifier")),
            JsonInteger(j.at("timestamp")), TypeByName(j.at("type")));
  c.value = Unbinary(j.at("value"));
  for (const auto& t : j.at("tags")) {
    std::string v = Unbinary(t.at("value"));
    size_t len = v.size() + 1;
    c.tags.push_back(static_cast<char>(len >> 8));
    c.tags.push_back(static_cast<char>(len));
    c.tags.push_back(static_cast<char>(t.at("type").get<int>()));
    c.tags += v;
  }
  c.seqid = static_cast<uint64_t>(JsonInteger(j.at("seqid")));
  return c;
}

inline std::vector<OwnedCell> LoadCells(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::vector<OwnedCell> out;
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    auto j = nlohmann::json::parse(line);
    if (j.value("kind", "") == "cell") out.push_back(CellFromJson(j));
  }
  return out;
}

// toStringBinary in a JSON string (only '"' and '\' need escaping).
inline void AppendJsonBinary(std::string* dst, const Slice& b) {
  dst->push_back('"');
  for (char ch : ToStringBinary(b)) {
    if (ch == '"' || ch == '\\') dst->push_back('\\');
    dst->push_back(ch);
  }
  dst->push_back('"');
}

// A cell -> canonical "cell" record, exactly as the harness prints it.
inline std::string CellJson(const Cell& c) {
  std::string s = "{\"kind\":\"cell\",\"row\":";
  AppendJsonBinary(&s, c.row());
  s += ",\"family\":";
  AppendJsonBinary(&s, c.family());
  s += ",\"qualifier\":";
  AppendJsonBinary(&s, c.qualifier());
  s += ",\"timestamp\":" + JsonInt(c.timestamp());  // hfile-json(7)'s large-integer rule
  s += ",\"type\":\"" + KeyTypeName(c.type()) + "\"";
  s += ",\"value\":";
  AppendJsonBinary(&s, c.value);
  s += ",\"tags\":[";
  const Slice& t = c.tags;
  for (size_t off = 0, i = 0; off + 3 <= t.size(); ++i) {
    size_t len = (t.byte(off) << 8) | t.byte(off + 1);
    if (i > 0) s += ",";
    s += "{\"type\":" + std::to_string(t.byte(off + 2)) + ",\"value\":";
    AppendJsonBinary(&s, Slice(t.data() + off + 3, len - 1));
    s += "}";
    off += 2 + len;
  }
  s += "],\"seqid\":" + JsonUInt(c.sequence_id) + "}";
  return s;
}

// What the harness's `gen` options (fixtures.tsv's second column) ask of a writer. Like the
// harness's Args, a repeated option takes its last value.
struct GenSettings {
  WriterOptions options;
  int cells = 200;
  bool tags = true;
};

inline GenSettings ParseGenArgs(const std::string& args) {
  std::map<std::string, std::string> o;
  std::istringstream in(args);
  for (std::string name, value; in >> name;) {
    if (name.rfind("--", 0) != 0 || !(in >> value)) throw std::runtime_error("bad gen args: " + args);
    o[name.substr(2)] = value;
  }
  auto get = [&](const char* k, const char* d) {
    auto it = o.find(k);
    std::string v = it == o.end() ? d : it->second;
    o.erase(k);
    return v;
  };
  GenSettings g;
  WriterOptions& w = g.options;
  auto need = [&](auto opt, const std::string& what) {
    if (!opt) throw std::runtime_error("gen args: bad " + what);
    return *opt;
  };
  w.compression = need(ParseCompression(get("compression", "none")), "compression");
  std::string codec_class = get("codec-class", "");
  // Hadoop's ZStandardCodec writes bare zstd frames; every other class here is framed alike.
  w.zstd_hadoop_framing = codec_class.find("ZStandardCodec") == std::string::npos;
  w.encoding = need(ParseDataBlockEncoding(get("encoding", "NONE")), "encoding");
  w.bloom_type = need(ParseBloomType(get("bloom", "NONE")), "bloom");
  w.bloom_prefix_length = std::stoi(get("bloom-prefix-length", "7"));
  w.bloom_chunk_size = std::stoi(get("bloom-block-size", "131072"));
  w.checksum_type = need(ParseChecksumType(get("checksum", "CRC32C")), "checksum");
  w.bytes_per_checksum = static_cast<uint32_t>(std::stoul(get("bytes-per-checksum", "16384")));
  w.block_size = static_cast<uint32_t>(std::stoul(get("block-size", "65536")));
  g.tags = get("tags", "true") == "true";
  w.include_tags = g.tags;
  w.compress_tags = get("compress-tags", "true") == "true";
  w.index_block_max_size = static_cast<uint32_t>(std::stoul(get("index-max-size", "131072")));
  w.index_min_entries = static_cast<uint32_t>(std::stoul(get("index-min-entries", "16")));
  g.cells = std::stoi(get("cells", "200"));
  // Generator-only options: they shape the cells, which we take from .cells.jsonl.
  for (const char* k : {"seed", "value-max", "large-value", "family", "out", "name", "cells-from"}) o.erase(k);
  if (!o.empty()) throw std::runtime_error("gen args: unknown option --" + o.begin()->first);
  // The rest is what GenCommand always does: a RegionServer flush's context and metadata.
  w.include_mvcc = true;
  w.store_file = true;
  w.track_timestamps = true;
  w.create_time_ms = kHarnessCreateTime;
  w.major_compaction = false;
  w.compaction_event = std::vector<std::string>{};
  w.flavor = HBaseFlavor::k2_6;
  return g;
}

// appendMetadata(maxSeqId, false): MAX_SEQ_ID_KEY is the largest sequence id appended.
inline void SetMaxSeqId(const std::vector<OwnedCell>& cells, WriterOptions* w) {
  uint64_t m = 0;
  for (const auto& c : cells) m = std::max(m, c.seqid);
  w->max_seq_id = static_cast<int64_t>(m);
}

}  // namespace hfile::compat

#endif  // HFILE_TESTS_HBASE_COMPAT_GEN_H_
