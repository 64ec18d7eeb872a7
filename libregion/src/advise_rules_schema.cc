// The advisor's schema rules: family count, families written together, versions and TTL,
// expired data, cell TTLs, and descriptor vs files (an alter never compacted).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "advise_finding.h"
#include "region/advise.h"

namespace hfile::region {

std::string ShellWord(const std::string& s) {
  const bool plain = !s.empty() && s.find_first_not_of(
                                       "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMN"
                                       "OPQRSTUVWXYZ0123456789_-./:=,+@%") == std::string::npos;
  if (plain) return s;
  // Shell statements hold single quotes: double quotes read best when nothing in them expands.
  if (s.find_first_of("\"$`\\!") == std::string::npos) return "\"" + s + "\"";
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string AlterFix(const Advice& a, const std::string& family, const std::string& attrs) {
  return fmt::format(
      "hfile alter {} {}", ShellWord(a.table_dir),
      ShellWord(fmt::format("alter '{}', {{NAME => '{}', {}}}", a.table, family, attrs)));
}

namespace {

std::string Ts(int64_t ms) { return fmt::format("{} ms", ms); }

}  // namespace

void ApplySchemaRules(const TableDescriptor& d, const Advice& a, std::vector<Finding>* out) {
  const auto& fams = a.families;
  // The book (number.of.cfs): 1 family, 2nd/3rd only for column-scoped access; flushes and
  // compactions are per region, so every family pays for the busiest.
  if (fams.size() > 3) {
    Finding f =
        MakeFinding("too-many-families", AdviceSeverity::kWarn, "",
                    fmt::format("{} families (the norm is 1-2, at most 3): flushes and "
                                "compactions are per region, so each family flushes and splits "
                                "with the busiest one",
                                fams.size()),
                    "move to a new table: families read apart from the others (hfile "
                    "copy-family cannot cross tables; export them, then alter 'delete')");
    f.figures["families"] = static_cast<double>(fams.size());
    out->push_back(std::move(f));
  }
  // Same rows with the same timestamps: written by the same puts, read together, one family.
  for (size_t i = 0; i < fams.size(); ++i) {
    for (size_t j = i + 1; j < fams.size(); ++j) {
      const auto &x = fams[i], &y = fams[j];
      if (x.sampled || y.sampled || x.fingerprint_partial || y.fingerprint_partial || x.rows == 0 ||
          x.rows != y.rows || x.row_hash != y.row_hash || x.row_ts_hash != y.row_ts_hash ||
          x.store_files != y.store_files)
        continue;
      Finding f = MakeFinding(
          "families-written-together", AdviceSeverity::kInfo, x.name + "," + y.name,
          fmt::format("families {} and {} hold the same {} rows with the same timestamps in the "
                      "same number of files ({}): they are written together and might be one "
                      "family (fewer store files, flushes and seeks per row)",
                      x.name, y.name, x.rows, x.store_files),
          "move to a new table with one family holding both (no offline tool merges "
          "families)");
      f.figures["rows"] = static_cast<double>(x.rows);
      f.figures["store_files"] = static_cast<double>(x.store_files);
      out->push_back(std::move(f));
    }
  }
  for (const auto& m : fams) {
    const FamilyDescriptor* fd = d.FindFamily(m.name);
    if (!fd) continue;
    const int32_t versions = fd->max_versions();
    // schema.versions.max: "not recommended setting the number of max versions to an
    // exceedingly high level (e.g., hundreds or more)"; without a TTL they are never aged out.
    if (fd->ttl_is_forever() && versions > 3) {
      Finding f = MakeFinding(
          "versions-without-ttl", versions >= 100 ? AdviceSeverity::kWarn : AdviceSeverity::kInfo,
          m.name,
          fmt::format("VERSIONS => {} with TTL FOREVER: every column keeps up to {} versions "
                      "forever (most seen in one file: {})",
                      versions, versions, m.max_versions_seen),
          AlterFix(a, m.name,
                   fmt::format("VERSIONS => {}",
                               std::max<uint64_t>(1, std::min<uint64_t>(3, m.max_versions_seen)))));
      f.figures["versions"] = versions;
      f.figures["max_versions_seen"] = static_cast<double>(m.max_versions_seen);
      out->push_back(std::move(f));
    }
    // schema.minversions: MIN_VERSIONS only matters together with a TTL.
    if (fd->min_versions() > 0 && fd->ttl_is_forever()) {
      Finding f =
          MakeFinding("min-versions-without-ttl", AdviceSeverity::kInfo, m.name,
                      fmt::format("MIN_VERSIONS => {} with TTL FOREVER has no effect: it keeps "
                                  "versions only against TTL expiry",
                                  fd->min_versions()),
                      AlterFix(a, m.name, "MIN_VERSIONS => 0"));
      f.figures["min_versions"] = fd->min_versions();
      out->push_back(std::move(f));
    }
    // Expired cells stay on disk (and are read past by every scan) until a major compaction.
    if (!fd->ttl_is_forever() && (m.expired_cells > 0 || m.expired_files > 0)) {
      Finding f = MakeFinding(
          "expired-data", AdviceSeverity::kWarn, m.name,
          fmt::format("TTL {} s is shorter than data present: {} of {} cells read are expired, "
                      "{} whole files ({} bytes) hold only expired cells; they wait for a major "
                      "compaction",
                      fd->ttl_seconds(), m.expired_cells, m.cells, m.expired_files,
                      m.expired_file_bytes),
          fmt::format("hfile compact {} --family {}", ShellWord(a.table_dir), ShellWord(m.name)));
      f.figures["expired_cells"] = static_cast<double>(m.expired_cells);
      f.figures["cells_read"] = static_cast<double>(m.cells);
      f.figures["expired_files"] = static_cast<double>(m.expired_files);
      f.figures["expired_file_bytes"] = static_cast<double>(m.expired_file_bytes);
      out->push_back(std::move(f));
    }
    // The book: a cell TTL cannot extend a cell's life beyond the family TTL.
    if (m.cell_ttl_beyond_family > 0) {
      const int64_t secs = (m.max_cell_ttl_ms + 999) / 1000;
      Finding f = MakeFinding(
          "cell-ttl-beyond-family", AdviceSeverity::kInfo, m.name,
          fmt::format("{} cells carry a TTL tag longer than the family TTL ({} s; longest {}): "
                      "the family TTL wins, they expire earlier than their writer asked",
                      m.cell_ttl_beyond_family, fd->ttl_seconds(), Ts(m.max_cell_ttl_ms)),
          AlterFix(a, m.name, fmt::format("TTL => {}", secs)));
      f.figures["cells"] = static_cast<double>(m.cell_ttl_beyond_family);
      f.figures["max_cell_ttl_ms"] = static_cast<double>(m.max_cell_ttl_ms);
      f.figures["family_ttl_s"] = fd->ttl_seconds();
      out->push_back(std::move(f));
    }
    // An alter changes the descriptor only; old files keep their settings until rewritten.
    const uint64_t differ = std::max(
        {m.files_other_codec, m.files_other_encoding, m.files_other_bloom, m.files_smaller_blocks});
    if (differ > 0) {
      std::vector<std::string> what;
      if (m.files_other_codec)
        what.push_back(
            fmt::format("{} not {}", m.files_other_codec, CompressionName(fd->compression())));
      if (m.files_other_encoding)
        what.push_back(fmt::format("{} not {}", m.files_other_encoding,
                                   DataBlockEncodingName(fd->data_block_encoding())));
      if (m.files_other_bloom)
        what.push_back(
            fmt::format("{} not bloom {}", m.files_other_bloom, BloomTypeName(fd->bloom_type())));
      if (m.files_smaller_blocks)
        what.push_back(fmt::format("{} with blocks smaller than BLOCKSIZE {}",
                                   m.files_smaller_blocks, fd->block_size()));
      Finding f = MakeFinding(
          "descriptor-files-disagree", AdviceSeverity::kWarn, m.name,
          fmt::format("{} of {} store files were written with other settings than "
                      "the descriptor's (an alter never compacted): {}",
                      differ, m.store_files, fmt::join(what, ", ")),
          fmt::format("hfile compact {} --family {}", ShellWord(a.table_dir), ShellWord(m.name)));
      f.figures["files"] = static_cast<double>(m.store_files);
      f.figures["files_other_codec"] = static_cast<double>(m.files_other_codec);
      f.figures["files_other_encoding"] = static_cast<double>(m.files_other_encoding);
      f.figures["files_other_bloom"] = static_cast<double>(m.files_other_bloom);
      f.figures["files_smaller_blocks"] = static_cast<double>(m.files_smaller_blocks);
      out->push_back(std::move(f));
    }
  }
}

}  // namespace hfile::region
