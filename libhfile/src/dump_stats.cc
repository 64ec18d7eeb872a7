// `hfile dump -s`: exact min/max, means, percentiles and power-of-two histograms of key, value,
// row and cell sizes, and the largest rows by bytes.
#include <fmt/format.h>

#include <algorithm>
#include <ostream>
#include <queue>
#include <vector>

#include "dump_internal.h"
#include "histogram.h"

namespace hfile {

struct StatsCollector::Rep {
  static constexpr size_t kTopRows = 10;
  Histogram key_len, value_len, cell_size, row_bytes, row_cells;
  std::string current_row;
  uint64_t row_size = 0, row_count = 0;
  bool in_row = false;
  // Min-heap of the largest rows seen: (bytes, row).
  using RowSize = std::pair<uint64_t, std::string>;
  std::priority_queue<RowSize, std::vector<RowSize>, std::greater<>> top;

  void EndRow() {
    if (!in_row) return;
    row_bytes.Add(row_size);
    row_cells.Add(row_count);
    if (top.size() < kTopRows || row_size > top.top().first) {
      top.emplace(row_size, current_row);
      if (top.size() > kTopRows) top.pop();
    }
    in_row = false;
  }
};

StatsCollector::StatsCollector() : rep_(std::make_unique<Rep>()) {}
StatsCollector::~StatsCollector() = default;

void StatsCollector::Add(const Cell& cell, ComparatorKind kind) {
  Rep& r = *rep_;
  // Serialized size as HBase counts it: lengths, key, value, tags (with their length field).
  const uint64_t size = 8 + cell.key.size() + cell.value.size() +
                        (cell.tags.empty() ? 0 : 2 + cell.tags.size());
  r.key_len.Add(cell.key.size());
  r.value_len.Add(cell.value.size());
  r.cell_size.Add(size);
  Slice row = kind == ComparatorKind::kRawBytes || !IsValidKey(cell.key) ? cell.key : cell.row();
  if (!r.in_row || row != Slice(r.current_row)) {
    r.EndRow();
    r.current_row.assign(row.data(), row.size());
    r.row_size = r.row_count = 0;
    r.in_row = true;
  }
  r.row_size += size;
  ++r.row_count;
}

namespace {
void PrintHistogram(const char* name, const Histogram& h, const DumpFormat& fmt, std::string* s) {
  if (fmt.options().json) {
    const std::string head = fmt.JsonHead("stats");
    *s += fmt::format(
        "{},\"metric\":\"{}\",\"count\":{},\"min\":{},\"max\":{},"
        "\"mean\":{:.2f},\"p50\":{},\"p95\":{},\"p99\":{},\"buckets\":[",
        head, name, h.count(), h.min(), h.max(), h.mean(), h.PercentileUpperBound(50),
        h.PercentileUpperBound(95), h.PercentileUpperBound(99));
    bool first = true;
    for (int b = 0; b < Histogram::kNumBuckets; ++b) {
      if (!h.bucket_count(b)) continue;
      *s += fmt::format("{}{{\"low\":{},\"high\":{},\"count\":{}}}", first ? "" : ",",
                        Histogram::BucketLow(b), Histogram::BucketHigh(b), h.bucket_count(b));
      first = false;
    }
    *s += "]}\n";
    return;
  }
  *s += fmt::format(
      "{}:\n    count = {}\n    min = {}\n    max = {}\n    mean = {:.2f}\n"
      "    p50 <= {}\n    p95 <= {}\n    p99 <= {}\n",
      name, h.count(), h.min(), h.max(), h.mean(), h.PercentileUpperBound(50),
      h.PercentileUpperBound(95), h.PercentileUpperBound(99));
  for (int b = 0; b < Histogram::kNumBuckets; ++b) {
    if (!h.bucket_count(b)) continue;
    *s += fmt::format("    [{:>10}, {:>10}] {}\n", Histogram::BucketLow(b), Histogram::BucketHigh(b),
                      h.bucket_count(b));
  }
}
}  // namespace

void StatsCollector::Print(const DumpFormat& fmt, std::ostream& out) {
  Rep& r = *rep_;
  r.EndRow();
  const bool json = fmt.options().json;
  std::string s = json ? "" : "Stats:\n";
  PrintHistogram("Key length", r.key_len, fmt, &s);
  PrintHistogram("Val length", r.value_len, fmt, &s);
  PrintHistogram("Cell size (bytes)", r.cell_size, fmt, &s);
  PrintHistogram("Row size (bytes)", r.row_bytes, fmt, &s);
  PrintHistogram("Row size (columns)", r.row_cells, fmt, &s);
  std::vector<Rep::RowSize> rows;
  for (auto q = r.top; !q.empty(); q.pop()) rows.push_back(q.top());
  std::sort(rows.begin(), rows.end(), std::greater<>());
  if (!json) s += "Largest rows (bytes):\n";
  for (const auto& [bytes, row] : rows) {
    if (json) {
      s += fmt::format("{},\"bytes\":{},", fmt.JsonHead("largest_row"), bytes);
      fmt.AppendJsonBytes(&s, "row", row);
      s += "}\n";
    } else {
      s += fmt::format("    {:>12}  {}\n", bytes, fmt.Bytes(row));
    }
  }
  out << s;
}

}  // namespace hfile
