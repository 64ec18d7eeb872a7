// Per-codec entry points behind compression.cc's dispatch. Each codec_<name>.cc documents the
// framing HBase uses for it and where that was settled. Same contracts as Decompress/Compress
// in compression.h; `level` 0 means the HBase default.
#ifndef HFILE_SRC_CODECS_H_
#define HFILE_SRC_CODECS_H_

#include <cstddef>
#include <string>

#include "compression.h"
#include "hfile/slice.h"
#include "hfile/status.h"

namespace hfile {

Status GzDecompress(const Slice& in, char* out, size_t raw_len);
Status GzCompress(const Slice& in, int level, std::string* out);

Status Bzip2Decompress(const Slice& in, char* out, size_t raw_len);
Status Bzip2Compress(const Slice& in, int level, std::string* out);

Status SnappyDecompress(const Slice& in, char* out, size_t raw_len);
Status SnappyCompress(const Slice& in, int level, std::string* out);

Status Lz4Decompress(const Slice& in, char* out, size_t raw_len);
Status Lz4Compress(const Slice& in, int level, std::string* out);

Status LzoDecompress(const Slice& in, char* out, size_t raw_len);
Status LzoCompress(const Slice& in, int level, std::string* out);

Status ZstdDecompress(const Slice& in, char* out, size_t raw_len);
Status ZstdCompress(const Slice& in, int level, ZstdFraming framing, std::string* out);

Status LzmaDecompress(const Slice& in, char* out, size_t raw_len);
Status LzmaCompress(const Slice& in, int level, std::string* out);

Status BrotliDecompress(const Slice& in, char* out, size_t raw_len);
Status BrotliCompress(const Slice& in, int level, std::string* out);

}  // namespace hfile

#endif  // HFILE_SRC_CODECS_H_
