// `hfile dump -h` (every block header, not only data blocks) and `-b` (every index level).
#include <fmt/format.h>

#include <ostream>

#include "dump_internal.h"
#include "hfile/escape.h"

namespace hfile {

Status DumpBlockHeaders(const Reader& reader, const DumpFormat& fmt, std::ostream& out) {
  const Reader::Rep& r = reader.rep();
  BlockReader br = r.NewBlockReader();
  const bool json = fmt.options().json;
  if (!json) out << "Block Headers:\n";
  uint64_t offset = 0;
  const uint64_t end = r.block_options.section_end;
  while (offset < end) {
    BlockHeader h;
    Status s = br.ReadHeader(offset, &h);
    if (!s.ok()) return s.WithContext(fmt::format("{}: block header at offset {}", r.path, offset));
    if (json) {
      out << fmt::format(
          "{},\"offset\":{},\"type\":\"{}\",\"on_disk_size_with_header\":{},"
          "\"uncompressed_size_without_header\":{},\"prev_block_offset\":{},"
          "\"checksum_type\":\"{}\",\"bytes_per_checksum\":{},"
          "\"on_disk_data_size_with_header\":{}}}\n",
          fmt.JsonHead("block"), offset, BlockTypeName(h.type), h.on_disk_size_with_header(),
          h.uncompressed_size_without_header, h.prev_block_offset,
          ChecksumTypeName(h.checksum_type), h.bytes_per_checksum, h.on_disk_data_size_with_header);
    } else {
      out << fmt::format(
          "[blockType={}, offset={}, onDiskSizeWithoutHeader={}, uncompressedSizeWithoutHeader={}, "
          "prevBlockOffset={}, checksumType={}, bytesPerChecksum={}, onDiskDataSizeWithHeader={}]\n",
          BlockTypeName(h.type), offset, h.on_disk_size_without_header,
          h.uncompressed_size_without_header, h.prev_block_offset,
          ChecksumTypeName(h.checksum_type), h.bytes_per_checksum, h.on_disk_data_size_with_header);
    }
    offset += h.on_disk_size_with_header();
  }
  return Status::OK();
}

namespace {

struct IndexPrinter {
  const Reader::Rep& r;
  const DumpFormat& fmt;
  std::ostream& out;
  BlockReader br;

  void Entry(const char* index, uint32_t level, size_t i, const IndexEntry& e, bool is_key) {
    std::string s;
    if (fmt.options().json) {
      s = fmt::format(
          "{},\"index\":\"{}\",\"level\":{},\"entry\":{},"
          "\"offset\":{},\"on_disk_size\":{},",
          fmt.JsonHead("index_entry"), index, level, i, e.offset, e.on_disk_size);
      fmt.AppendJsonBytes(&s, "key", e.key);
      // The key decoded as the cell records give it (null for meta block names, raw-byte
      // comparators and keys that do not parse).
      if (is_key && r.comparator != ComparatorKind::kRawBytes && IsValidKey(e.key)) {
        s += ',';
        fmt.AppendJsonBytes(&s, "row", KeyRow(e.key));
        s += ',';
        fmt.AppendJsonBytes(&s, "family", KeyFamily(e.key));
        s += ',';
        fmt.AppendJsonBytes(&s, "qualifier", KeyQualifier(e.key));
        s += ",\"timestamp\":";
        AppendJsonInt(&s, KeyTimestamp(e.key));
        s += fmt::format(",\"type\":\"{}\"", KeyTypeName(KeyTypeByte(e.key)));
      } else {
        s += ",\"row\":null,\"family\":null,\"qualifier\":null,\"timestamp\":null,\"type\":null";
      }
      s += "}\n";
    } else {
      s = fmt::format("{:{}}key=", "", 2 + 2 * level);
      if (is_key) {
        fmt.AppendKey(&s, e.key, r.comparator);
      } else {
        fmt.AppendBytes(&s, e.key);
      }
      s += fmt::format(" offset={} dataSize={}\n", e.offset, e.on_disk_size);
    }
    out << s;
  }

  // Prints the non-root block at e and, below it, its children down to the leaves.
  Status Children(uint32_t level, const IndexEntry& parent) {
    const uint32_t levels = r.trailer.num_data_index_levels;
    if (level >= levels) return Status::OK();
    Block b;
    HFILE_RETURN_IF_ERROR(br.ReadBlock(parent.offset, parent.on_disk_size, &b));
    NonRootIndexView view;
    HFILE_RETURN_IF_ERROR(view.Init(b.body).WithContext(
        fmt::format("{} block at offset {}", BlockTypeName(b.header.type), parent.offset)));
    // Copy the entries: reading the children reuses the block buffer.
    std::vector<std::pair<IndexEntry, std::string>> entries;
    for (uint32_t i = 0; i < view.size(); ++i) {
      IndexEntry e = view.entry(i);
      entries.emplace_back(e, e.key.ToString());
    }
    for (size_t i = 0; i < entries.size(); ++i) {
      IndexEntry e = entries[i].first;
      e.key = entries[i].second;
      Entry("data", level, i, e, true);
      HFILE_RETURN_IF_ERROR(Children(level + 1, e));
    }
    return Status::OK();
  }
};

}  // namespace

Status DumpBlockIndex(const Reader& reader, const DumpFormat& fmt, std::ostream& out) {
  const Reader::Rep& r = reader.rep();
  IndexPrinter p{r, fmt, out, r.NewBlockReader()};
  if (!fmt.options().json) {
    out << fmt::format("Block Index: {} levels, {} root entries\n",
                       r.trailer.num_data_index_levels, r.data_index.size());
  }
  for (size_t i = 0; i < r.data_index.size(); ++i) {
    p.Entry("data", 0, i, r.data_index.entry(i), true);
    Status s = p.Children(1, r.data_index.entry(i));
    if (!s.ok()) return s.WithContext(r.path);
  }
  if (!fmt.options().json) out << fmt::format("Meta Index: {} entries\n", r.meta_index.size());
  for (size_t i = 0; i < r.meta_index.size(); ++i) p.Entry("meta", 0, i, r.meta_index.entry(i), false);
  return Status::OK();
}

}  // namespace hfile
