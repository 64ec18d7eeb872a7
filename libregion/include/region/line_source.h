// A streaming line reader over several inputs (files, or "-" for standard input), one after the
// other, with transparent decompression through Boost.Iostreams: gzip (also concatenated
// members), bzip2, xz and zstd, recognised by their magic bytes; a name ending in .gz/.bz2/.xz/
// .zst whose bytes are not of that format is an error (so a mislabelled or damaged file is never
// read as text). A truncated or corrupt compressed stream is an I/O error naming the input,
// never a silent end of input.
//
// Lines end as Hadoop's TextInputFormat (LineReader.readDefaultLine) ends them: at "\n", "\r" or
// "\r\n"; the terminator is not part of the line. A last line without a terminator is a line; an
// input ending in a terminator has no empty last line. A UTF-8 byte order mark at the start of an
// input is skipped, as LineRecordReader skips it. A line longer than max_line_bytes is an error.
//
// Memory is bounded by one read buffer plus the longest line; Line::text stays valid until the
// next call to Next().
#ifndef REGION_LINE_SOURCE_H_
#define REGION_LINE_SOURCE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "hfile/status.h"

namespace hfile::region {

enum class Compression { kNone, kGzip, kBzip2, kXz, kZstd };
std::string_view CompressionName(Compression c);
// The format `head` (the first bytes of an input) starts with; kNone if none.
Compression DetectCompression(std::string_view head);
// The format a file name's extension promises; kNone if none.
Compression CompressionFromName(std::string_view name);

struct Line {
  std::string_view text;         // without the terminator
  std::string_view terminator;   // "\n", "\r", "\r\n" or "" (the last line of an input)
  const std::string* input = nullptr;  // the input's name as given ("-" for stdin)
  size_t input_index = 0;
  uint64_t line_number = 0;      // 1-based within the input
  uint64_t offset = 0;           // byte offset of the line in the (decompressed) input
};

struct LineSourceOptions {
  size_t max_line_bytes = size_t{256} << 20;
  size_t buffer_bytes = size_t{1} << 20;
};

class LineSource {
 public:
  // Inputs are opened one at a time, when reading reaches them; an input that cannot be opened
  // is an error then. No inputs at all: standard input.
  LineSource(std::vector<std::string> inputs, LineSourceOptions options = {});
  ~LineSource();
  LineSource(const LineSource&) = delete;
  LineSource& operator=(const LineSource&) = delete;

  // The next line into *line; false at the end of the last input. An error (unreadable input,
  // corrupt or truncated compressed data, over-long line) names the input and its line number;
  // after an error Next() keeps returning it.
  Result<bool> Next(Line* line);

  // True when the line just returned is the first of its input (headers are per input).
  bool AtInputStart() const { return first_line_of_input_; }
  const std::vector<std::string>& inputs() const { return inputs_; }
  // Compression of the current input (after the first Next() on it).
  Compression current_compression() const { return compression_; }
  // Decompressed bytes read so far over all inputs.
  uint64_t bytes_read() const { return bytes_read_; }

 private:
  struct Stream;
  Status OpenNext();
  Status Fill();  // reads more into buf_ after compacting; sets eof_

  std::vector<std::string> inputs_;
  LineSourceOptions options_;
  size_t next_input_ = 0;
  size_t current_ = 0;
  std::unique_ptr<Stream> stream_;
  Compression compression_ = Compression::kNone;
  std::string buf_;
  size_t begin_ = 0, end_ = 0;  // unread bytes are buf_[begin_, end_)
  bool eof_ = false;
  bool bom_checked_ = false;
  bool first_line_of_input_ = false;
  uint64_t line_number_ = 0;
  uint64_t offset_ = 0;     // input offset of buf_[begin_]
  uint64_t bytes_read_ = 0;
  Status error_;
};

}  // namespace hfile::region

#endif  // REGION_LINE_SOURCE_H_
