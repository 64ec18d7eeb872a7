// Dispatch from the trailer's codec ordinal to the codec files. NONE is a checked copy so that
// callers need no special case.
#include "compression.h"

#include <fmt/format.h>

#include <cstring>

#include "codecs.h"

namespace hfile {

bool CompressionAvailable(Compression c) {
  switch (c) {
    case Compression::kLzo:
    case Compression::kGz:
    case Compression::kNone:
    case Compression::kSnappy:
    case Compression::kLz4:
    case Compression::kBzip2:
    case Compression::kZstd:
    case Compression::kLzma:
    case Compression::kBrotli:
      return true;
  }
  return false;
}

Status Decompress(Compression c, const Slice& in, char* out, size_t raw_len) {
  switch (c) {
    case Compression::kNone:
      if (in.size() != raw_len) {
        return Status::Corruption(
            fmt::format("NONE: body is {} bytes, expected {}", in.size(), raw_len));
      }
      if (raw_len > 0) std::memcpy(out, in.data(), raw_len);
      return Status::OK();
    case Compression::kGz:
      return GzDecompress(in, out, raw_len);
    case Compression::kBzip2:
      return Bzip2Decompress(in, out, raw_len);
    case Compression::kSnappy:
      return SnappyDecompress(in, out, raw_len);
    case Compression::kLz4:
      return Lz4Decompress(in, out, raw_len);
    case Compression::kLzo:
      return LzoDecompress(in, out, raw_len);
    case Compression::kZstd:
      return ZstdDecompress(in, out, raw_len);
    case Compression::kLzma:
      return LzmaDecompress(in, out, raw_len);
    case Compression::kBrotli:
      return BrotliDecompress(in, out, raw_len);
  }
  return Status::NotSupported(
      fmt::format("compression ordinal {} is not supported", static_cast<unsigned>(c)));
}

Status Compress(Compression c, const Slice& in, const CompressOptions& options, std::string* out) {
  const int level = options.level;
  switch (c) {
    case Compression::kNone:
      out->append(in.data(), in.size());
      return Status::OK();
    case Compression::kGz:
      return GzCompress(in, level, out);
    case Compression::kBzip2:
      return Bzip2Compress(in, level, out);
    case Compression::kSnappy:
      return SnappyCompress(in, level, out);
    case Compression::kLz4:
      return Lz4Compress(in, level, out);
    case Compression::kLzo:
      return LzoCompress(in, level, out);
    case Compression::kZstd:
      return ZstdCompress(in, level, options.zstd_framing, out);
    case Compression::kLzma:
      return LzmaCompress(in, level, out);
    case Compression::kBrotli:
      return BrotliCompress(in, level, out);
  }
  return Status::NotSupported(
      fmt::format("compression ordinal {} is not supported", static_cast<unsigned>(c)));
}

}  // namespace hfile
