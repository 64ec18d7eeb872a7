// The advice as text (one block per finding) and as one JSON object.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>

#include "hfile/escape.h"
#include "region/advise.h"

namespace hfile::region {

namespace {

std::string J(const std::string& s) {
  std::string out;
  AppendJsonString(&out, s);
  return out;
}

std::string Num(double v) {
  if (!std::isfinite(v)) return "null";
  if (v == std::floor(v) && std::fabs(v) < 9e15) return fmt::format("{}", static_cast<int64_t>(v));
  return fmt::format("{:.6g}", v);
}

}  // namespace

std::string AdviceText(const Advice& a) {
  std::string s = fmt::format("table {} ({}): {} regions, {} families\n", a.table, a.table_dir,
                              a.regions.size(), a.families.size());
  for (const auto& m : a.families)
    s += fmt::format(
        "  family {}: {} store files, {} bytes, {} cells (trailers); {} cells read{}\n", m.name,
        m.store_files, m.bytes, m.trailer_cells, m.cells, m.sampled ? " (sampled)" : "");
  for (const auto& m : a.families) {
    if (m.trials.empty()) continue;
    s += fmt::format("  trials of family {} ({} cell bytes): size, ratio, read MB/s:", m.name,
                     m.trial_cell_bytes);
    for (const auto& t : m.trials)
      s += fmt::format(" {}+{}@{} {} {:.2f} {:.0f};", CompressionName(t.compression),
                       DataBlockEncodingName(t.encoding), t.block_size, t.size, t.ratio,
                       t.read_mb_s);
    s += "\n";
  }
  for (const auto& w : a.sampling) s += "  sample: " + w + "\n";
  if (a.findings.empty()) s += "no findings\n";
  for (const auto& f : a.findings) {
    s += fmt::format("\n{} {}{}{}: {}\n", AdviceSeverityName(f.severity), f.code,
                     f.family.empty() ? "" : " family " + f.family,
                     f.region.empty() ? "" : " region " + f.region, f.message);
    if (!f.fix.empty()) s += "  fix: " + f.fix + "\n";
  }
  size_t warn = 0, err = 0;
  for (const auto& f : a.findings) {
    warn += f.severity == AdviceSeverity::kWarn;
    err += f.severity == AdviceSeverity::kError;
  }
  s += fmt::format("\n{} findings: {} error, {} warn, {} info\n", a.findings.size(), err, warn,
                   a.findings.size() - warn - err);
  return s;
}

std::string AdviceJson(const Advice& a) {
  std::string regions;
  for (size_t i = 0; i < a.regions.size(); ++i)
    regions += fmt::format("{}{{\"name\":{},\"bytes\":{}}}", i ? "," : "", J(a.regions[i]),
                           a.region_bytes[i]);
  std::string s = fmt::format(
      "{{\"kind\":\"advise\",\"v\":1,\"table\":{},\"table_dir\":{},\"now_ms\":{},\"regions\":[{}],"
      "\"sampling\":[",
      J(a.table), J(a.table_dir), a.now_ms, regions);
  for (size_t i = 0; i < a.sampling.size(); ++i) s += (i ? "," : "") + J(a.sampling[i]);
  s += "],\"families\":[";
  for (size_t i = 0; i < a.families.size(); ++i) {
    const auto& m = a.families[i];
    std::string trials;
    for (const auto& t : m.trials)
      trials += fmt::format(
          "{}{{\"compression\":{},\"encoding\":{},\"block_size\":{},"
          "\"size\":{},\"ratio\":{},\"write_mb_s\":{},\"read_mb_s\":{}}}",
          trials.empty() ? "" : ",", J(std::string(CompressionName(t.compression))),
          J(std::string(DataBlockEncodingName(t.encoding))), t.block_size, t.size, Num(t.ratio),
          Num(t.write_mb_s), Num(t.read_mb_s));
    s += fmt::format(
        "{}{{\"name\":{},\"store_files\":{},\"bytes\":{},\"trailer_cells\":{},"
        "\"cells_read\":{},\"sampled\":{},\"rows_read\":{},\"max_cell\":{},"
        "\"regions_with_files\":{},\"region_bytes\":[{}],\"region_files\":[{}],"
        "\"trial_cell_bytes\":{},\"trials\":[{}]}}",
        i ? "," : "", J(m.name), m.store_files, m.bytes, m.trailer_cells, m.cells, m.sampled,
        m.rows, m.max_cell, m.regions_with_files, fmt::join(m.region_bytes, ","),
        fmt::join(m.region_files, ","), m.trial_cell_bytes, trials);
  }
  s += "],\"findings\":[";
  for (size_t i = 0; i < a.findings.size(); ++i) {
    const auto& f = a.findings[i];
    std::string figs;
    for (const auto& [k, v] : f.figures) figs += (figs.empty() ? "" : ",") + J(k) + ":" + Num(v);
    s += fmt::format(
        "{}{{\"code\":{},\"severity\":{},\"family\":{},\"region\":{},"
        "\"message\":{},\"figures\":{{{}}},\"fix\":{}}}",
        i ? "," : "", J(f.code), J(std::string(AdviceSeverityName(f.severity))),
        f.family.empty() ? "null" : J(f.family), f.region.empty() ? "null" : J(f.region),
        J(f.message), figs, J(f.fix));
  }
  return s + "]}\n";
}

}  // namespace hfile::region
