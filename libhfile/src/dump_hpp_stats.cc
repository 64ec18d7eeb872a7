// `hfile dump --hpp -s` / `-d`: HFilePrettyPrinter's KeyValueStatsCollector and its
// SimpleReporter over Dropwizard (metrics-core 3.2) histograms with a UniformReservoir.
//
// The reservoir keeps every value up to 1028 of them, so up to there its snapshot (mean,
// stddev, quantiles) is exact and reproduced here: values sorted, quantile q at position
// q * (n + 1) interpolated between neighbours, sample stddev. Past 1028 values HBase keeps a
// random sample and its figures vary from run to run; we keep computing them over all values.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <ostream>
#include <vector>

#include "dump_hpp.h"
#include "hfile/escape.h"

namespace hfile {

namespace {

// HFilePrettyPrinter.RANGES: the -d size ranges (value <= range).
constexpr int64_t kRanges[] = {1,         3,         10,         50,         100,      500,
                               1000,      5000,      10000,      50000,      100000,   500000,
                               750000,    1000000,   5000000,    10000000,   50000000, 100000000};
constexpr size_t kNumRanges = sizeof(kRanges) / sizeof(kRanges[0]);

struct Stat {
  explicit Stat(const char* n) : name(n) {}
  const char* name;
  std::vector<int64_t> values;
  int64_t min = INT64_MAX, max = INT64_MIN;
  uint64_t range_counts[kNumRanges + 1] = {};  // the last: above every range

  void Update(int64_t v) {
    values.push_back(v);
    min = std::min(min, v);
    max = std::max(max, v);
    const auto i =
        static_cast<size_t>(std::lower_bound(kRanges, kRanges + kNumRanges, v) - kRanges);
    ++range_counts[i];
  }

  // UniformSnapshot.getValue.
  static double Quantile(const std::vector<int64_t>& sorted, double q) {
    if (sorted.empty()) return 0.0;
    const double pos = q * static_cast<double>(sorted.size() + 1);
    const auto index = static_cast<int64_t>(pos);
    if (index < 1) return static_cast<double>(sorted.front());
    if (index >= static_cast<int64_t>(sorted.size())) return static_cast<double>(sorted.back());
    const double lower = static_cast<double>(sorted[index - 1]);
    const double upper = static_cast<double>(sorted[index]);
    return lower + (pos - std::floor(pos)) * (upper - lower);
  }

  void Print(bool ranges, std::string* s) const {
    std::vector<int64_t> sorted = values;
    std::sort(sorted.begin(), sorted.end());
    double mean = 0, stddev = 0;
    if (!sorted.empty()) {
      double sum = 0;
      for (int64_t v : sorted) sum += static_cast<double>(v);
      mean = sum / static_cast<double>(sorted.size());
    }
    if (sorted.size() > 1) {
      double sum = 0;
      for (int64_t v : sorted) {
        const double d = static_cast<double>(v) - mean;
        sum += d * d;
      }
      stddev = std::sqrt(sum / static_cast<double>(sorted.size() - 1));
    }
    using hpp::JavaFixed;
    *s += fmt::format("   {}:\n", name);
    *s += fmt::format("               min = {}\n               max = {}\n", min, max);
    *s += fmt::format("              mean = {}\n            stddev = {}\n", JavaFixed(mean, 2),
                      JavaFixed(stddev, 2));
    *s += fmt::format("            median = {}\n", JavaFixed(Quantile(sorted, 0.5), 2));
    for (auto [label, q] : {std::pair{"75%", 0.75}, {"95%", 0.95}, {"98%", 0.98}, {"99%", 0.99},
                            {"99.9%", 0.999}}) {
      *s += fmt::format("{:>17} <= {}\n", label, JavaFixed(Quantile(sorted, q), 2));
    }
    *s += fmt::format("             count = {}\n", values.size());
    if (!ranges) return;
    // Each range with values, and the empty range just before the first of them.
    *s += "           (range <= count):\n";
    uint64_t last_val = 0, cumulative = 0;
    int64_t last_range = 0;
    for (size_t i = 0; i < kNumRanges; ++i) {
      cumulative += range_counts[i];
      if (cumulative - last_val > 0) {
        if (last_val == 0 && last_range != 0) *s += fmt::format("{:>17} <= {}\n", last_range, 0);
        *s += fmt::format("{:>17} <= {}\n", kRanges[i], cumulative - last_val);
      }
      last_val = cumulative;
      last_range = kRanges[i];
    }
    if (values.size() > last_val) {
      *s += fmt::format("{:>17} <= {}\n", "inf", values.size() - last_val);
    }
  }
};

}  // namespace

struct HppStatsCollector::Rep {
  bool ranges;
  Stat key_len{"Key length"}, val_len{"Val length"}, row_bytes{"Row size (bytes)"},
      row_cols{"Row size (columns)"};
  std::string prev_row, biggest_row;
  bool have_prev = false;
  int64_t cur_row_bytes = 0, cur_row_cols = 0, cur_row_key_len = 0, max_row_bytes = 0;

  void CollectRow() {
    row_bytes.Update(cur_row_bytes);
    row_cols.Update(cur_row_cols);
    key_len.Update(cur_row_key_len);
    if (cur_row_bytes > max_row_bytes && have_prev) {
      biggest_row = prev_row;
      max_row_bytes = cur_row_bytes;
    }
    cur_row_bytes = cur_row_cols = 0;
  }
};

HppStatsCollector::HppStatsCollector(bool ranges) : rep_(std::make_unique<Rep>()) {
  rep_->ranges = ranges;
}
HppStatsCollector::~HppStatsCollector() = default;

void HppStatsCollector::Add(const Cell& cell, ComparatorKind kind) {
  Rep& r = *rep_;
  r.val_len.Update(static_cast<int64_t>(cell.value.size()));
  Slice row = kind == ComparatorKind::kRawBytes || !IsValidKey(cell.key) ? cell.key : cell.row();
  if (r.have_prev && row != Slice(r.prev_row)) r.CollectRow();
  // Cell.getSerializedSize(): lengths, key, value, and tags with their length when present.
  r.cur_row_bytes += static_cast<int64_t>(8 + cell.key.size() + cell.value.size() +
                                          (cell.tags.empty() ? 0 : 2 + cell.tags.size()));
  r.cur_row_key_len = static_cast<int64_t>(cell.key.size());
  ++r.cur_row_cols;
  if (!r.have_prev || row != Slice(r.prev_row)) r.prev_row.assign(row.data(), row.size());
  r.have_prev = true;
}

void HppStatsCollector::Print(std::ostream& out) {
  Rep& r = *rep_;
  if (r.cur_row_cols > 0) r.CollectRow();
  std::string s = "Stats:\n";
  if (!r.have_prev) {
    out << s << "no data available for statistics\n";
    return;
  }
  for (const Stat* st : {&r.key_len, &r.val_len, &r.row_bytes, &r.row_cols}) {
    st->Print(r.ranges, &s);
  }
  s += "\n\nKey of biggest row: " + ToStringBinary(r.biggest_row) + "\n";
  out << s;
}

}  // namespace hfile
