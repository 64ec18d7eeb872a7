#include "hfile/trailer.h"

#include <fmt/format.h>

#include "hfile/coding.h"
#include "hfile_format.pb.h"
#include "proto_util.h"

namespace hfile {

void DecodeVersion(uint32_t v, int* major, int* minor) {
  *major = static_cast<int>(v & 0x00FFFFFF);
  *minor = static_cast<int>(v >> 24);
}

namespace {

// v2 minor 0/1: magic then fixed-width fields, 212 bytes in all.
Status DecodeWritable(Slice in, Trailer* t) {
  uint64_t file_info, load_on_open, uncompressed_index, total, entries, first, last;
  uint32_t data_count, meta_count, codec, levels;
  if (!GetFixed64BE(&in, &file_info) || !GetFixed64BE(&in, &load_on_open) ||
      !GetFixed32BE(&in, &data_count) || !GetFixed64BE(&in, &uncompressed_index) ||
      !GetFixed32BE(&in, &meta_count) || !GetFixed64BE(&in, &total) ||
      !GetFixed64BE(&in, &entries) || !GetFixed32BE(&in, &codec) ||
      !GetFixed32BE(&in, &levels) || !GetFixed64BE(&in, &first) || !GetFixed64BE(&in, &last) ||
      in.size() < 128) {
    return Status::Corruption("truncated Writable trailer");
  }
  t->file_info_offset = file_info;
  t->load_on_open_data_offset = load_on_open;
  t->data_index_count = data_count;
  t->uncompressed_data_index_size = uncompressed_index;
  t->meta_index_count = meta_count;
  t->total_uncompressed_bytes = total;
  t->entry_count = entries;
  t->compression_ordinal = codec;
  t->num_data_index_levels = levels;
  t->first_data_block_offset = static_cast<int64_t>(first);
  t->last_data_block_offset = static_cast<int64_t>(last);
  Slice name = in.sub(0, 128);
  size_t n = 0;
  while (n < name.size() && name[n] != 0) ++n;
  t->comparator_class_name.assign(name.data(), n);
  return Status::OK();
}

Status DecodeProtobuf(Slice in, Trailer* t) {
  uint32_t len;
  if (!GetVarint32(&in, &len) || len > in.size()) {
    return Status::Corruption("trailer protobuf length exceeds the trailer");
  }
  pb::FileTrailerProto p;
  if (!ParseQuietly(&p, in.data(), len)) {
    return Status::Corruption("trailer protobuf does not parse");
  }
  t->file_info_offset = p.file_info_offset();
  t->load_on_open_data_offset = p.load_on_open_data_offset();
  t->uncompressed_data_index_size = p.uncompressed_data_index_size();
  t->total_uncompressed_bytes = p.total_uncompressed_bytes();
  t->data_index_count = p.data_index_count();
  t->meta_index_count = p.meta_index_count();
  t->entry_count = p.entry_count();
  t->num_data_index_levels = p.has_num_data_index_levels() ? p.num_data_index_levels() : 1;
  t->first_data_block_offset =
      p.has_first_data_block_offset() ? static_cast<int64_t>(p.first_data_block_offset()) : -1;
  t->last_data_block_offset =
      p.has_last_data_block_offset() ? static_cast<int64_t>(p.last_data_block_offset()) : -1;
  t->comparator_class_name = p.comparator_class_name();
  t->compression_ordinal =
      p.has_compression_codec() ? p.compression_codec() : static_cast<uint32_t>(Compression::kNone);
  t->encryption_key = p.encryption_key();
  return Status::OK();
}

}  // namespace

Status Trailer::DecodeFrom(const Slice& tail, uint64_t file_size) {
  if (tail.size() < 4 || file_size < 4) {
    return Status::Corruption(
        fmt::format("file of {} bytes is too small to hold an HFile trailer", file_size));
  }
  uint32_t version = DecodeFixed32BE(tail.data() + tail.size() - 4);
  DecodeVersion(version, &major_version, &minor_version);
  if (major_version < 1 || major_version > 3) {
    return Status::Corruption(
        fmt::format("not an HFile, or truncated: the trailer version field (the last 4 bytes, "
                    "0x{:08x}) names no HFile version",
                    version));
  }
  const size_t trailer_size = size();
  if (file_size < trailer_size || tail.size() < trailer_size) {
    return Status::Corruption(fmt::format(
        "file of {} bytes is shorter than the {}-byte v{} trailer", file_size, trailer_size,
        major_version));
  }
  Slice t = tail.sub(tail.size() - trailer_size, trailer_size);
  if (!t.starts_with(Slice(kTrailerMagic, 8))) {
    return Status::Corruption(fmt::format("bad trailer magic at offset {} (v{}.{} claimed)",
                                          file_size - trailer_size, major_version, minor_version));
  }
  if (major_version == 1) {
    return Status::NotSupported(
        "HFile v1 (written by HBase 0.20-0.90); rewrite it with HBase 0.92-0.98 to upgrade");
  }
  if (minor_version > 3) {
    return Status::NotSupported(
        fmt::format("HFile v{}.{}: trailer minor version newer than 3", major_version, minor_version));
  }
  Slice body = t.sub(8, trailer_size - 12);
  Status s = TrailerIsProtobuf(major_version, minor_version) ? DecodeProtobuf(body, this)
                                                             : DecodeWritable(body, this);
  if (!s.ok()) return s.WithContext(fmt::format("trailer at offset {}", file_size - trailer_size));

  if (!CompressionFromOrdinal(compression_ordinal)) {
    return Status::Corruption(
        fmt::format("trailer names unknown compression codec ordinal {}", compression_ordinal));
  }
  const uint64_t end = file_size - trailer_size;
  auto bad = [&](const char* what, uint64_t v) {
    return Status::Corruption(fmt::format("trailer {} {} is outside the file's block section "
                                          "[0, {})", what, v, end));
  };
  if (load_on_open_data_offset >= end) return bad("load_on_open_data_offset", load_on_open_data_offset);
  if (file_info_offset >= end || file_info_offset < load_on_open_data_offset)
    return bad("file_info_offset", file_info_offset);
  if (first_data_block_offset != -1 &&
      (first_data_block_offset < 0 || static_cast<uint64_t>(first_data_block_offset) >= end))
    return bad("first_data_block_offset", static_cast<uint64_t>(first_data_block_offset));
  if (last_data_block_offset != -1 &&
      (last_data_block_offset < first_data_block_offset ||
       static_cast<uint64_t>(last_data_block_offset) >= end))
    return bad("last_data_block_offset", static_cast<uint64_t>(last_data_block_offset));
  if (num_data_index_levels < 1 || num_data_index_levels > 16) {
    return Status::Corruption(
        fmt::format("trailer num_data_index_levels {} is outside 1..16", num_data_index_levels));
  }
  return Status::OK();
}

Status Trailer::EncodeTo(std::string* dst) const {
  if (!TrailerIsProtobuf(major_version, minor_version)) {
    return Status::NotSupported("only protobuf trailers (v2.2+, v3) are written");
  }
  pb::FileTrailerProto p;
  p.set_file_info_offset(file_info_offset);
  p.set_load_on_open_data_offset(load_on_open_data_offset);
  p.set_uncompressed_data_index_size(uncompressed_data_index_size);
  p.set_total_uncompressed_bytes(total_uncompressed_bytes);
  p.set_data_index_count(data_index_count);
  p.set_meta_index_count(meta_index_count);
  p.set_entry_count(entry_count);
  p.set_num_data_index_levels(num_data_index_levels);
  p.set_first_data_block_offset(static_cast<uint64_t>(first_data_block_offset));
  p.set_last_data_block_offset(static_cast<uint64_t>(last_data_block_offset));
  p.set_comparator_class_name(comparator_class_name);
  p.set_compression_codec(compression_ordinal);
  if (!encryption_key.empty()) p.set_encryption_key(encryption_key);
  std::string msg;
  p.SerializeToString(&msg);
  const size_t trailer_size = size();
  const size_t start = dst->size();
  dst->append(kTrailerMagic, 8);
  PutVarint32(dst, static_cast<uint32_t>(msg.size()));
  dst->append(msg);
  if (dst->size() - start > trailer_size - 4) {
    dst->resize(start);
    return Status::InvalidArgument("trailer protobuf does not fit the fixed trailer size");
  }
  dst->resize(start + trailer_size - 4, '\0');
  PutFixed32BE(dst, (static_cast<uint32_t>(minor_version) << 24) |
                        (static_cast<uint32_t>(major_version) & 0x00FFFFFF));
  return Status::OK();
}

}  // namespace hfile
