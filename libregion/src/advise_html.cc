// The advice as one self-contained XHTML page (no scripts, no external resources): the findings
// table and inline SVG bar charts of bytes and store files per family per region and of the
// cell-size histogram per family. Well-formed XML, so it can be checked without a browser.
#include <fmt/format.h>

#include <algorithm>

#include "region/advise.h"

namespace hfile::region {

namespace {

std::string X(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        // XML 1.0 has no control characters but tab and newlines.
        if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t')
          out += "?";
        else
          out += c;
    }
  }
  return out;
}

const char* const kColors[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2",
                               "#59a14f", "#edc948", "#b07aa1", "#ff9da7"};

// Grouped bars: one group per label, one bar per series; values[series][group].
std::string BarChart(const std::string& id, const std::string& title,
                     const std::vector<std::string>& labels, const std::vector<std::string>& series,
                     const std::vector<std::vector<double>>& values, const std::string& unit) {
  double max = 0;
  for (const auto& v : values)
    for (double x : v) max = std::max(max, x);
  const int bar = 14, gap = 10, left = 60, top = 30, height = 160;
  const int groups = static_cast<int>(labels.size());
  const int per = std::max<int>(1, static_cast<int>(series.size()));
  const int width = left + groups * (per * bar + gap) + 20 + 120;
  std::string s = fmt::format(
      "<figure id=\"{}\"><figcaption>{}</figcaption>\n<svg xmlns=\"http://www.w3.org/2000/svg\" "
      "width=\"{}\" height=\"{}\" role=\"img\" aria-label=\"{}\">\n",
      id, X(title), width, top + height + 60, X(title));
  s += fmt::format("<text x=\"4\" y=\"{}\" font-size=\"10\">{}</text>\n", top - 8,
                   X(fmt::format("max {:.0f} {}", max, unit)));
  s += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#000\"/>\n", left,
                   top + height, width - 130, top + height);
  for (int g = 0; g < groups; ++g) {
    const int x0 = left + g * (per * bar + gap);
    for (int k = 0; k < static_cast<int>(series.size()); ++k) {
      const double v = values[k][g];
      const int h = max > 0 ? static_cast<int>(v / max * height + 0.5) : 0;
      s += fmt::format(
          "<rect class=\"bar\" data-series=\"{}\" data-label=\"{}\" data-value=\"{:.0f}\" x=\"{}\" "
          "y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"><title>{}</title></rect>\n",
          X(series[k]), X(labels[g]), v, x0 + k * bar, top + height - h, bar - 2, h, kColors[k % 8],
          X(fmt::format("{} {}: {:.0f} {}", series[k], labels[g], v, unit)));
    }
    s += fmt::format(
        "<text x=\"{}\" y=\"{}\" font-size=\"9\" transform=\"rotate(45 {} {})\">{}"
        "</text>\n",
        x0, top + height + 12, x0, top + height + 12, X(labels[g]));
  }
  for (int k = 0; k < static_cast<int>(series.size()); ++k) {
    const int y = top + 14 * k;
    s += fmt::format(
        "<rect x=\"{}\" y=\"{}\" width=\"10\" height=\"10\" fill=\"{}\"/><text x=\"{}\" "
        "y=\"{}\" font-size=\"11\">{}</text>\n",
        width - 120, y, kColors[k % 8], width - 106, y + 9, X(series[k]));
  }
  return s + "</svg></figure>\n";
}

}  // namespace

std::string AdviceHtml(const Advice& a) {
  std::string s =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE html>\n"
      "<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\"><head><meta charset=\"UTF-8\"/>"
      "<title>" +
      X("hfile advise " + a.table) +
      "</title>\n<style>body{font-family:sans-serif;"
      "margin:1em}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 6px;"
      "vertical-align:top}.warn{background:#fff3cd}.error{background:#f8d7da}code{font-size:90%}"
      "</style></head><body>\n";
  s += "<h1>" + X("hfile advise: " + a.table) + "</h1>\n";
  s += "<p>" +
       X(fmt::format("{}: {} regions, {} families, {} findings", a.table_dir, a.regions.size(),
                     a.families.size(), a.findings.size())) +
       "</p>\n";
  if (!a.sampling.empty()) {
    s += "<ul id=\"sampling\">";
    for (const auto& w : a.sampling) s += "<li>" + X(w) + "</li>";
    s += "</ul>\n";
  }
  s += "<table id=\"findings\"><tr><th>severity</th><th>code</th><th>family</th><th>region</th>"
       "<th>finding</th><th>fix</th></tr>\n";
  for (const auto& f : a.findings) {
    const std::string sev(AdviceSeverityName(f.severity));
    s += fmt::format(
        "<tr class=\"{}\" data-code=\"{}\"><td>{}</td><td>{}</td><td>{}</td><td>{}"
        "</td><td>{}</td><td><code>{}</code></td></tr>\n",
        sev, X(f.code), sev, X(f.code), X(f.family), X(f.region), X(f.message), X(f.fix));
  }
  s += "</table>\n";
  // What was measured per family: the evidence behind the findings.
  s += "<table id=\"families\"><tr><th>family</th><th>store files</th><th>bytes</th>"
       "<th>cells (trailers)</th><th>cells read</th><th>rows read</th><th>largest cell</th>"
       "<th>time range (ms)</th><th>trials: codec+encoding@block size, ratio, read MB/s</th>"
       "</tr>\n";
  for (const auto& m : a.families) {
    std::string trials;
    for (const auto& t : m.trials)
      trials += fmt::format("{}{}+{}@{} {:.2f} {:.0f}", trials.empty() ? "" : "; ",
                            CompressionName(t.compression), DataBlockEncodingName(t.encoding),
                            t.block_size, t.ratio, t.read_mb_s);
    const std::string range =
        m.max_ts >= m.min_ts ? fmt::format("{}..{}", m.min_ts, m.max_ts) : std::string("-");
    s += fmt::format(
        "<tr data-family=\"{}\"><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}{}"
        "</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
        X(m.name), X(m.name), m.store_files, m.bytes, m.trailer_cells, m.cells,
        m.sampled ? " (sampled)" : "", m.rows, m.max_cell, range, X(trials));
  }
  s += "</table>\n";
  std::vector<std::string> names;
  std::vector<std::vector<double>> bytes, files;
  for (const auto& m : a.families) {
    names.push_back(m.name);
    bytes.emplace_back(m.region_bytes.begin(), m.region_bytes.end());
    files.emplace_back(m.region_files.begin(), m.region_files.end());
  }
  std::vector<std::string> regions;
  for (const auto& r : a.regions) regions.push_back(r.substr(0, 8));
  s += BarChart("bytes-per-region", "Bytes per family per region", regions, names, bytes, "bytes");
  s += BarChart("files-per-region", "Store files per family per region", regions, names, files,
                "files");
  size_t buckets = 0;
  for (const auto& m : a.families) buckets = std::max(buckets, m.size_histogram.size());
  std::vector<std::string> sizes;
  for (size_t i = 0; i < buckets; ++i) sizes.push_back(fmt::format("{}B", uint64_t{1} << i));
  std::vector<std::vector<double>> hist;
  for (const auto& m : a.families) {
    hist.emplace_back(buckets, 0.0);
    for (size_t i = 0; i < m.size_histogram.size(); ++i)
      hist.back()[i] = static_cast<double>(m.size_histogram[i]);
  }
  s += BarChart("cell-sizes", "Cells by size (KeyValue bytes, from 2^i) per family, cells read",
                sizes, names, hist, "cells");
  return s + "</body></html>\n";
}

}  // namespace hfile::region
