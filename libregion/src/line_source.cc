#include "region/line_source.h"

#include <fcntl.h>
#include <unistd.h>

#include <boost/iostreams/filter/bzip2.hpp>
#include <boost/iostreams/filter/gzip.hpp>
#include <boost/iostreams/filter/lzma.hpp>
#include <boost/iostreams/concepts.hpp>
#include <boost/iostreams/operations.hpp>
#include <boost/iostreams/filtering_streambuf.hpp>
#include <cerrno>
#include <cstring>
#include <exception>
#include <memory>

#include <zstd.h>

namespace hfile::region {

namespace io = boost::iostreams;

namespace {

std::string ErrnoText(int e) { return std::strerror(e); }

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// A Boost.Iostreams source over a file descriptor that first hands out the bytes already read
// to sniff the format. Copyable as Boost requires; the Stream owns the descriptor.
class FdSource {
 public:
  typedef char char_type;
  typedef io::source_tag category;
  FdSource(int fd, std::string prefix, const std::string* name)
      : fd_(fd), prefix_(std::move(prefix)), name_(name) {}
  std::streamsize read(char* s, std::streamsize n) {
    if (pos_ < prefix_.size()) {
      size_t k = std::min<size_t>(static_cast<size_t>(n), prefix_.size() - pos_);
      std::memcpy(s, prefix_.data() + pos_, k);
      pos_ += k;
      return static_cast<std::streamsize>(k);
    }
    while (true) {
      ssize_t r = ::read(fd_, s, static_cast<size_t>(n));
      if (r > 0) return r;
      if (r == 0) return -1;
      if (errno == EINTR) continue;
      throw std::ios_base::failure("read error: " + ErrnoText(errno));
    }
  }

 private:
  int fd_;
  std::string prefix_;
  size_t pos_ = 0;
  const std::string* name_;
};

// Boost 1.74's zstd_decompressor ends quietly when the input stops inside a frame (a truncated
// .zst reads as a shorter file), so zstd goes through this filter: libzstd's streaming decoder,
// and at the end of the input the last frame must be complete. Frames with a content checksum
// (the zstd tool's default) are verified by libzstd.
class ZstdInputFilter : public io::multichar_input_filter {
 public:
  ZstdInputFilter()
      : ds_(ZSTD_createDStream(), ZSTD_freeDStream),
        in_(std::make_shared<std::string>(1 << 17, '\0')) {
    if (!ds_) throw std::ios_base::failure("zstd: cannot create a decoder");
    ZSTD_initDStream(ds_.get());
  }
  template <typename Source>
  std::streamsize read(Source& src, char* s, std::streamsize n) {
    ZSTD_outBuffer out{s, static_cast<size_t>(n), 0};
    while (true) {
      if (pos_ == size_ && !src_eof_) {
        std::streamsize r = io::read(src, in_->data(), static_cast<std::streamsize>(in_->size()));
        if (r < 0) {
          src_eof_ = true;
        } else {
          size_ = static_cast<size_t>(r);
          pos_ = 0;
        }
      }
      ZSTD_inBuffer ib{in_->data(), size_, pos_};
      size_t ret = ZSTD_decompressStream(ds_.get(), &out, &ib);
      bool progress = ib.pos != pos_ || out.pos > 0;
      pos_ = ib.pos;
      if (ZSTD_isError(ret))
        throw std::ios_base::failure(std::string("zstd: ") + ZSTD_getErrorName(ret));
      // A call with no input at a frame boundary returns the next header's size, not 0.
      if (progress) last_ = ret;
      if (out.pos > 0) return static_cast<std::streamsize>(out.pos);
      if (pos_ == size_ && src_eof_) {
        if (last_ != 0) throw std::ios_base::failure("zstd: the input ends inside a frame");
        return -1;
      }
    }
  }

 private:
  std::shared_ptr<ZSTD_DStream> ds_;
  std::shared_ptr<std::string> in_;
  size_t pos_ = 0, size_ = 0;
  size_t last_ = 0;  // 0: at a frame boundary
  bool src_eof_ = false;
};

}  // namespace

std::string_view CompressionName(Compression c) {
  switch (c) {
    case Compression::kNone: return "none";
    case Compression::kGzip: return "gzip";
    case Compression::kBzip2: return "bzip2";
    case Compression::kXz: return "xz";
    case Compression::kZstd: return "zstd";
  }
  return "?";
}

Compression DetectCompression(std::string_view h) {
  auto u = [&](size_t i) { return static_cast<unsigned char>(h[i]); };
  if (h.size() >= 3 && u(0) == 0x1F && u(1) == 0x8B && u(2) == 0x08) return Compression::kGzip;
  if (h.size() >= 4 && u(0) == 0x28 && u(1) == 0xB5 && u(2) == 0x2F && u(3) == 0xFD)
    return Compression::kZstd;
  if (h.size() >= 6 && std::memcmp(h.data(), "\xFD" "7zXZ\x00", 6) == 0) return Compression::kXz;
  // "BZh" + block size '1'..'9' + a block (pi) or end-of-stream (sqrt pi) magic: plain text that
  // happens to start with "BZh9" is not taken for bzip2.
  if (h.size() >= 10 && h.substr(0, 3) == "BZh" && h[3] >= '1' && h[3] <= '9' &&
      (h.substr(4, 6) == "\x31\x41\x59\x26\x53\x59" ||
       h.substr(4, 6) == "\x17\x72\x45\x38\x50\x90"))
    return Compression::kBzip2;
  return Compression::kNone;
}

Compression CompressionFromName(std::string_view name) {
  if (EndsWith(name, ".gz") || EndsWith(name, ".gzip")) return Compression::kGzip;
  if (EndsWith(name, ".bz2")) return Compression::kBzip2;
  if (EndsWith(name, ".xz")) return Compression::kXz;
  if (EndsWith(name, ".zst") || EndsWith(name, ".zstd")) return Compression::kZstd;
  return Compression::kNone;
}

struct LineSource::Stream {
  int fd = -1;
  bool own = false;
  io::filtering_istreambuf sb;
  ~Stream() {
    sb.reset();
    if (own && fd >= 0) ::close(fd);
  }
};

LineSource::LineSource(std::vector<std::string> inputs, LineSourceOptions options)
    : inputs_(std::move(inputs)), options_(options) {
  if (inputs_.empty()) inputs_.push_back("-");
  buf_.resize(std::max<size_t>(options_.buffer_bytes, 4096));
}

LineSource::~LineSource() = default;

Status LineSource::OpenNext() {
  current_ = next_input_++;
  const std::string& name = inputs_[current_];
  auto s = std::make_unique<Stream>();
  if (name == "-") {
    s->fd = 0;
  } else {
    s->fd = ::open(name.c_str(), O_RDONLY | O_CLOEXEC);
    if (s->fd < 0) return Status::IOError("cannot open input " + name + ": " + ErrnoText(errno));
    s->own = true;
  }
  // Sniff the format from the first bytes.
  std::string head(16, '\0');
  size_t got = 0;
  while (got < head.size()) {
    ssize_t r = ::read(s->fd, head.data() + got, head.size() - got);
    if (r > 0) { got += static_cast<size_t>(r); continue; }
    if (r == 0) break;
    if (errno == EINTR) continue;
    return Status::IOError("cannot read input " + name + ": " + ErrnoText(errno));
  }
  head.resize(got);
  Compression by_magic = DetectCompression(head);
  Compression by_name = name == "-" ? Compression::kNone : CompressionFromName(name);
  if (by_name != Compression::kNone && by_magic != by_name)
    return Status::Corruption("input " + name + " is named as " +
                              std::string(CompressionName(by_name)) + " but its data is " +
                              (got == 0 ? std::string("empty")
                                        : "not " + std::string(CompressionName(by_name))));
  compression_ = by_magic;
  try {
    switch (compression_) {
      case Compression::kGzip: s->sb.push(io::gzip_decompressor()); break;
      case Compression::kBzip2: s->sb.push(io::bzip2_decompressor()); break;
      case Compression::kXz: s->sb.push(io::lzma_decompressor()); break;
      case Compression::kZstd: s->sb.push(ZstdInputFilter()); break;
      case Compression::kNone: break;
    }
    s->sb.push(FdSource(s->fd, std::move(head), &inputs_[current_]));
  } catch (const std::exception& e) {
    return Status::IOError("cannot set up reading " + name + ": " + e.what());
  }
  stream_ = std::move(s);
  begin_ = end_ = 0;
  eof_ = false;
  bom_checked_ = false;
  first_line_of_input_ = false;
  line_number_ = 0;
  offset_ = 0;
  return Status::OK();
}

Status LineSource::Fill() {
  if (begin_ > 0) {
    std::memmove(buf_.data(), buf_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  if (end_ == buf_.size()) buf_.resize(buf_.size() * 2);
  const std::string& name = inputs_[current_];
  try {
    // Small reads: when the data turns out corrupt, what decoded before it has been delivered.
    size_t want = std::min<size_t>(buf_.size() - end_, size_t{64} << 10);
    std::streamsize n = stream_->sb.sgetn(buf_.data() + end_, static_cast<std::streamsize>(want));
    if (n <= 0) {
      eof_ = true;
    } else {
      end_ += static_cast<size_t>(n);
      bytes_read_ += static_cast<uint64_t>(n);
    }
  } catch (const std::exception& e) {
    std::string what = e.what();
    if (compression_ != Compression::kNone)
      return Status::Corruption("input " + name + ": " +
                                std::string(CompressionName(compression_)) +
                                " data is corrupt or truncated after " +
                                std::to_string(offset_ + (end_ - begin_)) +
                                " decompressed bytes (" + what + ")");
    return Status::IOError("input " + name + ": " + what);
  }
  return Status::OK();
}

Result<bool> LineSource::Next(Line* line) {
  if (!error_.ok()) return error_;
  while (true) {
    if (!stream_) {
      if (next_input_ >= inputs_.size()) return false;
      error_ = OpenNext();
      if (!error_.ok()) return error_;
    }
    if (!bom_checked_) {
      while (end_ - begin_ < 3 && !eof_) {
        error_ = Fill();
        if (!error_.ok()) return error_;
      }
      if (end_ - begin_ >= 3 && std::memcmp(buf_.data() + begin_, "\xEF\xBB\xBF", 3) == 0) {
        begin_ += 3;
        offset_ += 3;
      }
      bom_checked_ = true;
    }
    const char* base = buf_.data();
    // The first '\n' or '\r' (memchr's vector loop: a byte-at-a-time test of both was a few
    // percent of a bulk load).
    const char* nl = static_cast<const char*>(std::memchr(base + begin_, '\n', end_ - begin_));
    const char* limit = nl != nullptr ? nl : base + end_;
    const char* cr = static_cast<const char*>(
        std::memchr(base + begin_, '\r', static_cast<size_t>(limit - (base + begin_))));
    const size_t p = static_cast<size_t>((cr != nullptr ? cr : limit) - base);
    if (p < end_) {
      size_t term = 1;
      if (base[p] == '\r') {
        if (p + 1 == end_ && !eof_) {  // is it "\r\n"? need the next byte
          error_ = Fill();
          if (!error_.ok()) return error_;
          continue;
        }
        if (p + 1 < end_ && base[p + 1] == '\n') term = 2;
      }
      line->text = std::string_view(base + begin_, p - begin_);
      line->terminator = std::string_view(base + p, term);
      line->input = &inputs_[current_];
      line->input_index = current_;
      line->line_number = ++line_number_;
      line->offset = offset_;
      first_line_of_input_ = line_number_ == 1;
      offset_ += p + term - begin_;
      begin_ = p + term;
      return true;
    }
    if (end_ - begin_ > options_.max_line_bytes) {
      error_ = Status::InvalidArgument(
          "input " + inputs_[current_] + ": line " + std::to_string(line_number_ + 1) +
          " is longer than " + std::to_string(options_.max_line_bytes) +
          " bytes (--max-line-bytes)");
      return error_;
    }
    if (eof_) {
      if (begin_ < end_) {  // the last line, without a terminator
        line->text = std::string_view(base + begin_, end_ - begin_);
        line->terminator = std::string_view();
        line->input = &inputs_[current_];
        line->input_index = current_;
        line->line_number = ++line_number_;
        line->offset = offset_;
        first_line_of_input_ = line_number_ == 1;
        offset_ += end_ - begin_;
        begin_ = end_;
        return true;
      }
      stream_.reset();
      continue;
    }
    error_ = Fill();
    if (!error_.ok()) return error_;
  }
}

}  // namespace hfile::region
