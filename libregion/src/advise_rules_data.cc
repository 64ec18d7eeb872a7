// The advisor's data rules: family-name bytes, big cells (MOB, outside HBase), encoding and
// compression from trial rewrites, block size against cell sizes, bloom type, BLOCKCACHE.
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>

#include "advise_finding.h"
#include "region/advise.h"

namespace hfile::region {

namespace {

// The KeyValue size below which `fraction` of the streamed cells lie (bucket upper bound).
uint64_t Quantile(const FamilyMeasure& m, double fraction) {
  uint64_t n = 0;
  for (size_t i = 0; i < m.size_histogram.size(); ++i) {
    n += m.size_histogram[i];
    if (static_cast<double>(n) >= fraction * static_cast<double>(m.cells)) return uint64_t{2} << i;
  }
  return 0;
}

const FamilyMeasure::Trial* FindTrial(const FamilyMeasure& m, Compression c, DataBlockEncoding e) {
  // The first: CompareRewrites lists every codec at the input's block size before the
  // 16 KiB / 256 KiB rows.
  for (const auto& t : m.trials)
    if (t.compression == c && t.encoding == e) return &t;
  return nullptr;
}

// A one-character name not used by another family: the first letter of the name, else a-z.
std::string ShortName(const TableDescriptor& d, const std::string& name) {
  std::string cands = name.substr(0, 1) + "abcdefghijklmnopqrstuvwxyz";
  for (char c : cands)
    if (!d.FindFamily(std::string(1, c))) return std::string(1, c);
  return name.substr(0, 1);
}

}  // namespace

void ApplyDataRules(const TableDescriptor& d, const Advice& a, std::vector<Finding>* out) {
  for (const auto& m : a.families) {
    const FamilyDescriptor* fd = d.FindFamily(m.name);
    if (!fd || m.cells == 0) continue;
    const double avg_cell = static_cast<double>(m.cell_bytes) / static_cast<double>(m.cells);
    const double avg_value = static_cast<double>(m.value_bytes) / static_cast<double>(m.cells);

    // keysize.cf: every KeyValue key repeats the family name.
    const uint64_t len = m.name.size();
    const double name_share = static_cast<double>(len) / avg_cell;
    const uint64_t cells = std::max(m.trailer_cells, m.cells);
    if (len > 1 && (cells >= 100000000 || name_share >= 0.05)) {
      const std::string to = ShortName(d, m.name);
      double disk_share = 0;
      if (m.name_trial_size > 0 && m.short_name_trial_size <= m.name_trial_size)
        disk_share = static_cast<double>(m.name_trial_size - m.short_name_trial_size) /
                     static_cast<double>(m.name_trial_size);
      Finding f = MakeFinding(
          "long-family-name", cells >= 100000000 ? AdviceSeverity::kWarn : AdviceSeverity::kInfo,
          m.name,
          fmt::format("family name '{}' ({} bytes) is in every cell's key: {} bytes x {} cells = "
                      "{} bytes uncompressed ({:.1f}% of the cells); after {} + {}: {:.1f}% of the "
                      "file ({} -> {} bytes for a trial of {} cell bytes renamed to '{}')",
                      m.name, len, len, cells, len * cells, 100 * name_share,
                      CompressionName(fd->compression()),
                      DataBlockEncodingName(fd->data_block_encoding()), 100 * disk_share,
                      m.name_trial_size, m.short_name_trial_size, m.trial_cell_bytes, to),
          fmt::format("hfile copy-family {} {} {} --drop-old", ShellWord(a.table_dir),
                      ShellWord(m.name), to));
      f.figures["name_bytes"] = static_cast<double>(len);
      f.figures["cells"] = static_cast<double>(cells);
      f.figures["uncompressed_bytes"] = static_cast<double>(len * cells);
      f.figures["uncompressed_share"] = name_share;
      f.figures["on_disk_share"] = disk_share;
      f.figures["on_disk_bytes_saved"] = disk_share * static_cast<double>(m.bytes);
      out->push_back(std::move(f));
    }

    // The MOB doc: the normal path is optimised for < 100 KB; MOB for 100 KB-10 MB; beyond
    // 10-50 MB a cell belongs outside HBase.
    if (m.cells_over_50mb > 0) {
      Finding f = MakeFinding(
          "cells-over-50mb", AdviceSeverity::kWarn, m.name,
          fmt::format("{} cells over 50 MB (largest {} bytes): too big for HBase, even as MOB",
                      m.cells_over_50mb, m.max_cell),
          "move the values to HDFS or an object store and keep a pointer (path, length, checksum) "
          "in the cell");
      f.figures["cells"] = static_cast<double>(m.cells_over_50mb);
      f.figures["max_cell"] = static_cast<double>(m.max_cell);
      out->push_back(std::move(f));
    }
    if (m.cells_over_10mb > m.cells_over_50mb && !fd->is_mob()) {
      Finding f =
          MakeFinding("mob-candidate", AdviceSeverity::kWarn, m.name,
                      fmt::format("{} cells over 10 MB (largest {} bytes): each fills its own "
                                  "block and is rewritten by every compaction; MOB keeps them "
                                  "in separate files",
                                  m.cells_over_10mb - m.cells_over_50mb, m.max_cell),
                      AlterFix(a, m.name, "IS_MOB => true, MOB_THRESHOLD => 102400"));
      f.figures["cells"] = static_cast<double>(m.cells_over_10mb - m.cells_over_50mb);
      f.figures["max_cell"] = static_cast<double>(m.max_cell);
      out->push_back(std::move(f));
    }

    // Encoding shares key prefixes; it cannot shrink large opaque values, and small cells with
    // repetitive keys want it. Judged from the trials at the family's codec.
    if (m.trial_cell_bytes >= kMinTrialCellBytes) {
      const auto* none = FindTrial(m, fd->compression(), DataBlockEncoding::kNone);
      const auto* fast = FindTrial(m, fd->compression(), DataBlockEncoding::kFastDiff);
      if (none && fast && none->size > 0) {
        const double gain = 1.0 - static_cast<double>(fast->size) / none->size;
        if (fd->data_block_encoding() != DataBlockEncoding::kNone && avg_value >= 1024 &&
            gain < 0.02) {
          Finding f = MakeFinding(
              "encoding-on-large-values", AdviceSeverity::kInfo, m.name,
              fmt::format("values average {:.0f} bytes and FAST_DIFF saves {:.1f}% over NONE in "
                          "the trial: {} only costs decoding time here",
                          avg_value, 100 * gain, DataBlockEncodingName(fd->data_block_encoding())),
              AlterFix(a, m.name, "DATA_BLOCK_ENCODING => 'NONE'"));
          f.figures["avg_value"] = avg_value;
          f.figures["fast_diff_gain"] = gain;
          out->push_back(std::move(f));
        }
        if (fd->data_block_encoding() == DataBlockEncoding::kNone && gain >= 0.10) {
          Finding f = MakeFinding(
              "encoding-recommended", AdviceSeverity::kInfo, m.name,
              fmt::format("cells average {:.0f} bytes with repetitive keys: FAST_DIFF makes the "
                          "trial {:.1f}% smaller ({} -> {} bytes) and blocks hold more cells",
                          avg_cell, 100 * gain, none->size, fast->size),
              AlterFix(a, m.name, "DATA_BLOCK_ENCODING => 'FAST_DIFF'"));
          f.figures["avg_cell"] = avg_cell;
          f.figures["fast_diff_gain"] = gain;
          out->push_back(std::move(f));
        }
      }
      // Compression: the smallest trial among those reading at least a quarter as fast as the
      // fastest, against the family's own setting.
      const auto* current = FindTrial(m, fd->compression(), fd->data_block_encoding());
      if (!current) current = FindTrial(m, fd->compression(), DataBlockEncoding::kNone);
      double fastest = 0;
      for (const auto& t : m.trials) fastest = std::max(fastest, t.read_mb_s);
      const FamilyMeasure::Trial* best = nullptr;
      for (const auto& t : m.trials) {
        if (t.block_size != (current ? current->block_size : t.block_size)) continue;
        if (t.read_mb_s < fastest / 4) continue;
        if (!best || t.size < best->size) best = &t;
      }
      // For data read rarely (a cold family, an archive): the smallest reading at least a
      // sixteenth as fast as the fastest (which leaves out BZIP2/LZMA-class codecs).
      const FamilyMeasure::Trial* smallest = nullptr;
      for (const auto& t : m.trials)
        if (t.block_size == (current ? current->block_size : t.block_size) &&
            t.read_mb_s >= fastest / 16 && (!smallest || t.size < smallest->size))
          smallest = &t;
      if (current && best && best->size < current->size * 0.9) {
        Finding f = MakeFinding(
            "compression-recommended", AdviceSeverity::kInfo, m.name,
            fmt::format("trial rewrites of {} cell bytes: {} + {} gives {} bytes (ratio {:.2f}, "
                        "reads {:.0f} MB/s), against {} bytes (ratio {:.2f}) for the family's "
                        "{} + {}{}",
                        m.trial_cell_bytes, CompressionName(best->compression),
                        DataBlockEncodingName(best->encoding), best->size, best->ratio,
                        best->read_mb_s, current->size, current->ratio,
                        CompressionName(fd->compression()),
                        DataBlockEncodingName(fd->data_block_encoding()),
                        smallest && smallest != best
                            ? fmt::format("; smallest: {} + {}, {} bytes (ratio {:.2f}, reads "
                                          "{:.0f} MB/s) for data read rarely",
                                          CompressionName(smallest->compression),
                                          DataBlockEncodingName(smallest->encoding), smallest->size,
                                          smallest->ratio, smallest->read_mb_s)
                            : ""),
            AlterFix(a, m.name,
                     fmt::format("COMPRESSION => '{}', DATA_BLOCK_ENCODING => '{}'",
                                 CompressionName(best->compression),
                                 DataBlockEncodingName(best->encoding))));
        for (const auto& t : m.trials)
          f.figures[fmt::format("ratio.{}.{}.{}", CompressionName(t.compression),
                                DataBlockEncodingName(t.encoding), t.block_size)] = t.ratio;
        f.figures["current_size"] = static_cast<double>(current->size);
        f.figures["best_size"] = static_cast<double>(best->size);
        out->push_back(std::move(f));
      }
    }

    // Block size: a block that holds less than one typical cell is one index entry per cell.
    const uint64_t p50 = Quantile(m, 0.5);
    if (p50 > static_cast<uint64_t>(fd->block_size()) && m.max_cell < (uint64_t{10} << 20)) {
      const uint64_t to = std::min<uint64_t>(uint64_t{16} << 20, std::bit_ceil(p50));
      Finding f = MakeFinding(
          "block-smaller-than-cells", AdviceSeverity::kInfo, m.name,
          fmt::format("the median cell is {}-{} bytes, BLOCKSIZE is {}: a block holds one "
                      "cell, and the index has an entry per cell",
                      p50 / 2, p50, fd->block_size()),
          AlterFix(a, m.name, fmt::format("BLOCKSIZE => {}", to)));
      f.figures["p50_cell_upper"] = static_cast<double>(p50);
      f.figures["block_size"] = fd->block_size();
      out->push_back(std::move(f));
    }

    // Blooms: ROWCOL pays per column; with one column per row ROW answers the same Gets.
    if (fd->bloom_type() == BloomType::kRowCol && m.distinct_qualifiers == 1) {
      Finding f =
          MakeFinding("rowcol-bloom-one-column", AdviceSeverity::kInfo, m.name,
                      "BLOOMFILTER ROWCOL with one column in every row read: ROW answers the "
                      "same Gets with a bloom no bigger",
                      AlterFix(a, m.name, "BLOOMFILTER => 'ROW'"));
      f.figures["distinct_qualifiers"] = 1;
      out->push_back(std::move(f));
    }
    if (fd->bloom_type() == BloomType::kNone) {
      Finding f =
          MakeFinding("no-bloom", AdviceSeverity::kInfo, m.name,
                      fmt::format("BLOOMFILTER NONE: a Get of a row must look into every one of "
                                  "the store's files ({} over {} regions)",
                                  m.store_files, m.regions_with_files),
                      AlterFix(a, m.name, "BLOOMFILTER => 'ROW'"));
      f.figures["store_files"] = static_cast<double>(m.store_files);
      out->push_back(std::move(f));
    }
    // Big values evict everything else from the block cache for one read each.
    if (fd->block_cache_enabled() && avg_value >= 64 * 1024) {
      Finding f =
          MakeFinding("blockcache-big-values", AdviceSeverity::kInfo, m.name,
                      fmt::format("values average {:.0f} bytes with BLOCKCACHE true: each read "
                                  "caches a block that evicts many small ones",
                                  avg_value),
                      AlterFix(a, m.name, "BLOCKCACHE => false"));
      f.figures["avg_value"] = avg_value;
      out->push_back(std::move(f));
    }
  }
}

}  // namespace hfile::region
