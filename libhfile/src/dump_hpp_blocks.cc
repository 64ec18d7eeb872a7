// `hfile dump --hpp -b` (the root level of the data index, as HFileBlockIndex's reader prints
// itself) and `-h` (every block from the first to the last data block, as HFileBlock.toString).
#include <fmt/format.h>

#include <algorithm>
#include <ostream>

#include "dump_hpp.h"
#include "hfile/escape.h"
#include "hfile/file_info.h"

namespace hfile {

void DumpHppBlockIndex(const Reader& reader, std::ostream& out) {
  const RootIndex& index = reader.rep().data_index;
  std::string s = fmt::format("Block Index:\nsize={}\n", index.size());
  for (const auto& e : index.entries()) {
    s += fmt::format("key={}\n  offset={}, dataSize={}\n", hpp::KeyOnlyString(e.key), e.offset,
                     e.on_disk_size);
  }
  s += "\n";
  out << s;
}

Status DumpHppBlockHeaders(const Reader& reader, std::ostream& out) {
  const Reader::Rep& r = reader.rep();
  const Trailer& t = r.trailer;
  out << "Block Headers:\n";
  // The HFileContext HBase's block reader carries (the same for every block of the file): it
  // knows the codec and, from the file info, MVCC and tags; checksum fields and the block size
  // keep their defaults. Its comparator's identity hash cannot be reproduced (see hfile-dump(1)).
  const FileInfo& fi = r.file_info;
  const bool mvcc = fi.GetInt32(fileinfo::kKeyValueVersion) == fileinfo::kKeyValueVersionWithMvcc;
  const bool tags = fi.Get(fileinfo::kMaxTagsLen).has_value();
  const bool compress_tags = tags && fi.GetBool(fileinfo::kTagsCompressed).value_or(false);
  const bool compressed = t.compression() != Compression::kNone;
  BlockReader br = r.NewBlockReader();
  Block b;
  int64_t offset = t.first_data_block_offset;
  while (offset <= t.last_data_block_offset) {
    if (offset < 0) {
      return Status::Corruption(fmt::format(
          "{}: Requested block is out of range: {}, lastDataBlockOffset: {}, "
          "trailer.getLoadOnOpenDataOffset: {}",
          r.path, offset, t.last_data_block_offset, t.load_on_open_data_offset));
    }
    HFILE_RETURN_IF_ERROR(br.ReadBlock(static_cast<uint64_t>(offset), 0, &b));
    const BlockHeader& h = b.header;
    const bool hbase_checksum = h.header_size == kBlockHeaderSizeWithChecksum;
    const uint64_t next_offset = static_cast<uint64_t>(offset) + h.on_disk_size_with_header();
    int64_t next_size = -1;
    BlockHeader nh;
    if (next_offset < r.block_options.section_end && br.ReadHeader(next_offset, &nh).ok()) {
      next_size = static_cast<int64_t>(nh.on_disk_size_with_header());
    }
    const uint64_t lim = h.header_size + b.body.size();
    // A decompressed block lives in a buffer of its own; an uncompressed one in the buffer it
    // was read into, which also holds its checksums and the next block's header.
    const uint64_t cap =
        compressed ? lim : h.on_disk_size_with_header() + (next_size >= 0 ? h.header_size : 0);
    std::string s = fmt::format(
        "[blockType={}, fileOffset={}, headerSize={}, onDiskSizeWithoutHeader={}, "
        "uncompressedSizeWithoutHeader={}, prevBlockOffset={}, isUseHBaseChecksum={}",
        BlockTypeName(h.type), offset, h.header_size, h.on_disk_size_without_header,
        h.uncompressed_size_without_header, h.prev_block_offset, hbase_checksum);
    if (hbase_checksum) {
      // The block HBase hands out has had its checksums verified and stripped: its header copy
      // says NULL checksums, and its data size counts them in.
      s += fmt::format(", checksumType=NULL, bytesPerChecksum=0, onDiskDataSizeWithHeader={}",
                       h.on_disk_size_with_header());
    } else {
      s += fmt::format(", onDiskDataSizeWithHeader={}({}+{})",
                       h.on_disk_size_without_header + h.header_size, h.on_disk_size_without_header,
                       h.header_size);
    }
    s += fmt::format(
        ", getOnDiskSizeWithHeader={}, totalChecksumBytes=0, isUnpacked=true, "
        "buf=[SingleByteBuff[pos=0, lim={}, cap= {}]], dataBeginsWith=",
        h.on_disk_size_with_header(), lim, cap);
    AppendStringBinary(&s, Slice(b.body.data(), std::min<size_t>(32, b.body.size())));
    s += fmt::format(
        ", fileContext=[usesHBaseChecksum=true, checksumType=NULL, bytesPerChecksum=0, "
        "blocksize=65536, encoding=NONE, indexBlockEncoding=NONE, includesMvcc={}, "
        "includesTags={}, compressAlgo={}, compressTags={}, decompressionContext=null, "
        "cryptoContext=[cipher=NONE keyHash=NONE], "
        "cellComparator=org.apache.hadoop.hbase.InnerStoreCellComparator@0], "
        "nextBlockOnDiskSize={}]\n",
        mvcc, tags, CompressionName(t.compression()), compress_tags, next_size);
    out << s;
    offset = static_cast<int64_t>(next_offset);
  }
  return Status::OK();
}

}  // namespace hfile
