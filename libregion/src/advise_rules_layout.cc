// The advisor's layout rules: family size/row imbalance and what it costs a scan, hot and cold
// families, region sizes and count, store files per store and files per directory.
#include <fmt/format.h>

#include <algorithm>

#include "advise_finding.h"
#include "region/advise.h"

namespace hfile::region {

namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

double Avg(uint64_t total, uint64_t n) { return n ? static_cast<double>(total) / n : 0; }

}  // namespace

void ApplyLayoutRules(const TableDescriptor& d, const Advice& a, std::vector<Finding>* out) {
  (void)d;
  const AdviseOptions& o = a.options;
  const auto& fams = a.families;
  // Cardinality of column families (the book: 1 M vs 1 B rows): regions split on the biggest
  // store, so a family with few rows is spread thin over every region a scan of it must open.
  // Sizes alone are not the rule: families with the same rows and very different value sizes
  // (the design guide's `docs`: small metadata beside large bodies) are what families are for.
  // A sampled family's rows are estimated from the sample's cells per row.
  const auto rows_of = [](const FamilyMeasure& m) -> double {
    if (!m.sampled) return static_cast<double>(m.rows);
    return m.cells ? static_cast<double>(m.rows) * m.trailer_cells / m.cells : 0;
  };
  const FamilyMeasure* many = nullptr;
  for (const auto& m : fams)
    if (!many || rows_of(m) > rows_of(*many)) many = &m;
  for (const auto& m : fams) {
    if (!many || &m == many || m.bytes == 0 || rows_of(m) <= 0) continue;
    const double rows = rows_of(m), many_rows = rows_of(*many);
    const double row_ratio = many_rows / rows;
    if (row_ratio <= 10) continue;
    const auto rows_text = [](const FamilyMeasure& f, double r) {
      return f.sampled ? fmt::format("about {:.0f} rows (estimated from a sample)", r)
                       : fmt::format("{:.0f} rows", r);
    };
    // What its size would need: regions of the table's target size, files one per region.
    const uint64_t need =
        std::max<uint64_t>(1, (m.bytes + o.large_region_bytes / 2 - 1) /
                                  std::max<uint64_t>(1, o.large_region_bytes / 2));
    Finding f = MakeFinding(
        "family-imbalance", AdviceSeverity::kWarn, m.name,
        fmt::format("family {} has {} ({} bytes) against {}'s {} ({} bytes), {:.0f}x the rows: a "
                    "full scan of {} opens {} regions and {} store files where its size would "
                    "need {} region(s)",
                    m.name, rows_text(m, rows), m.bytes, many->name, rows_text(*many, many_rows),
                    many->bytes, row_ratio, m.name, m.regions_with_files, m.store_files, need),
        fmt::format("move to a new table: family {} (its own regions, sized for its data)",
                    m.name));
    f.figures["bytes"] = static_cast<double>(m.bytes);
    f.figures["rows"] = rows;
    f.figures["most_rows_family_rows"] = many_rows;
    f.figures["most_rows_family_bytes"] = static_cast<double>(many->bytes);
    f.figures["row_ratio"] = row_ratio;
    f.figures["rows_estimated"] = (m.sampled || many->sampled) ? 1 : 0;
    f.figures["regions_touched"] = static_cast<double>(m.regions_with_files);
    f.figures["store_files_touched"] = static_cast<double>(m.store_files);
    f.figures["regions_needed"] = static_cast<double>(need);
    out->push_back(std::move(f));
  }
  // Hot and cold: flushes are per region, so a quiet family is flushed with the busy one into
  // many small files.
  const FamilyMeasure* hot = nullptr;
  for (const auto& m : fams)
    if (m.store_files && (!hot || Avg(m.bytes, m.store_files) > Avg(hot->bytes, hot->store_files)))
      hot = &m;
  for (const auto& m : fams) {
    if (!hot || &m == hot || m.store_files == 0) continue;
    const double per_store = Avg(m.store_files, m.regions_with_files);
    const double avg = Avg(m.bytes, m.store_files), hot_avg = Avg(hot->bytes, hot->store_files);
    if (per_store < 2 || avg * 10 > hot_avg) continue;
    Finding f = MakeFinding(
        "cold-family-small-flushes", AdviceSeverity::kInfo, m.name,
        fmt::format("family {}: {} files averaging {:.0f} bytes ({:.1f} per store, time range "
                    "{}..{}) next to {}'s files of {:.0f} bytes: flushed with the busy family into "
                    "small files that compactions then rewrite",
                    m.name, m.store_files, avg, per_store, m.min_ts, m.max_ts, hot->name, hot_avg),
        fmt::format("move to a new table: family {} (flushed on its own schedule)", m.name));
    f.figures["store_files"] = static_cast<double>(m.store_files);
    f.figures["avg_file_bytes"] = avg;
    f.figures["files_per_store"] = per_store;
    f.figures["hot_avg_file_bytes"] = hot_avg;
    out->push_back(std::move(f));
  }
  // Region sizes: the HBase book says 5-20 GB (10-20 GB maximum, 5-10 GB optimal); the design
  // guide (the project's seeds) says 10-50 GB.
  uint64_t small = 0, large = 0;
  for (size_t i = 0; i < a.regions.size(); ++i) {
    const uint64_t b = a.region_bytes[i];
    if (b > o.large_region_bytes) {
      ++large;
      const uint64_t into = (b + o.large_region_bytes / 2 - 1) / (o.large_region_bytes / 2);
      Finding f = MakeFinding(
          "region-too-large", AdviceSeverity::kWarn, "",
          fmt::format("region {} holds {:.2f} GB: above the HBase book's 5-20 GB (the design "
                      "guide says 10-50 GB)",
                      a.regions[i], b / kGiB),
          fmt::format("hfile split {} --into {}", ShellWord(a.table_dir + "/" + a.regions[i]),
                      std::max<uint64_t>(2, into)));
      f.region = a.regions[i];
      f.figures["bytes"] = static_cast<double>(b);
      out->push_back(std::move(f));
    } else if (b < o.small_region_bytes) {
      ++small;
    }
  }
  if (a.regions.size() > 1 && small == a.regions.size()) {
    uint64_t total = 0;
    for (uint64_t b : a.region_bytes) total += b;
    Finding f = MakeFinding(
        "regions-small", AdviceSeverity::kInfo, "",
        fmt::format("all {} regions are below {:.2f} GB ({} bytes in all): the HBase book's "
                    "5-20 GB and the design guide's 10-50 GB would hold this table in one region",
                    a.regions.size(), o.small_region_bytes / kGiB, total),
        "merge regions online (HBase's merge_region; no offline tool merges them)");
    f.figures["regions"] = static_cast<double>(a.regions.size());
    f.figures["table_bytes"] = static_cast<double>(total);
    out->push_back(std::move(f));
  }
  if (fams.size() <= 2 && a.regions.size() > o.many_regions) {
    Finding f = MakeFinding("many-regions", AdviceSeverity::kInfo, "",
                            fmt::format("{} regions for {} families: the book's guidance is 50-100 "
                                        "regions (per server) with 1-2 families",
                                        a.regions.size(), fams.size()),
                            "merge regions online (HBase's merge_region)");
    f.figures["regions"] = static_cast<double>(a.regions.size());
    out->push_back(std::move(f));
  }
  // Files: per store against blockingStoreFiles, per directory against HDFS's limit.
  uint64_t total_files = 0, max_dir = 0;
  std::string max_dir_name;
  for (const auto& m : fams) {
    total_files += m.store_files;
    for (size_t i = 0; i < m.region_files.size(); ++i) {
      const uint64_t n = m.region_files[i];
      if (n > max_dir) {
        max_dir = n;
        max_dir_name = a.regions[i] + "/" + m.name;
      }
      if (n >= o.blocking_store_files) {
        Finding f = MakeFinding(
            "store-files-blocking", AdviceSeverity::kWarn, m.name,
            fmt::format("store {}/{} has {} files: at hbase.hstore.blockingStoreFiles ({}) "
                        "HBase blocks the region's writes until a compaction catches up",
                        a.regions[i], m.name, n, o.blocking_store_files),
            fmt::format("hfile compact {} --family {}", ShellWord(a.table_dir + "/" + a.regions[i]),
                        ShellWord(m.name)));
        f.region = a.regions[i];
        f.figures["files"] = static_cast<double>(n);
        out->push_back(std::move(f));
      }
    }
  }
  if (a.regions.size() > max_dir) {
    max_dir = a.regions.size();
    max_dir_name = "the table dir (regions)";
  }
  if (max_dir * 10 > o.max_directory_items) {
    Finding f = MakeFinding(
        "directory-items", AdviceSeverity::kWarn, "",
        fmt::format("{} holds {} entries, over 10% of dfs.namenode.fs-limits.max-directory-items "
                    "({}); the table has {} families x {} regions, {} store files in all",
                    max_dir_name, max_dir, o.max_directory_items, fams.size(), a.regions.size(),
                    total_files),
        "hfile compact " + ShellWord(a.table_dir));
    f.figures["entries"] = static_cast<double>(max_dir);
    f.figures["store_files"] = static_cast<double>(total_files);
    out->push_back(std::move(f));
  }
}

}  // namespace hfile::region
