// PartitionBulkLoadInput: the first stage of a distributed bulk load (region/bulkload.h). The
// records go out as they came in, so the second stage parses exactly what one run parses.
#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <map>
#include <set>

#include "fs_util.h"
#include "hfile/escape.h"
#include "region/bulkload.h"
#include "region/line_source.h"

namespace hfile::region {

namespace {

// Buffered appends to one file per region, flushed when the buffers together pass a budget,
// so memory is bounded whatever the number of regions and no more than one file is open.
class PartWriter {
 public:
  explicit PartWriter(std::string dir) : dir_(std::move(dir)) {}

  Status Append(const std::string& region, std::string_view header, std::string_view record) {
    Part& p = parts_[region];
    const size_t before = p.buffer.size();
    if (!p.started && !header.empty()) {
      p.buffer.append(header);
      p.buffer += '\n';
    }
    p.started = true;
    p.buffer.append(record);
    p.buffer += '\n';
    buffered_ += p.buffer.size() - before;
    return buffered_ >= kBudget ? FlushAll() : Status::OK();
  }

  // Writes what is buffered, then fsyncs every part and the dir.
  Status Finish(std::vector<std::pair<std::string, uint64_t>>* parts) {
    HFILE_RETURN_IF_ERROR(FlushAll());
    for (auto& [region, p] : parts_) {
      const std::string path = JoinPath(dir_, region);
      const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
      if (fd < 0) return ErrnoStatus("cannot open", path);
      const bool ok = ::fsync(fd) == 0;
      ::close(fd);
      if (!ok) return ErrnoStatus("cannot fsync", path);
      parts->emplace_back(region, p.written);
    }
    return SyncDir(dir_);
  }

 private:
  static constexpr size_t kBudget = size_t{32} << 20;
  struct Part {
    std::string buffer;
    bool started = false;  // the header is written first
    uint64_t written = 0;  // on disk
  };

  Status FlushAll() {
    for (auto& [region, p] : parts_) {
      if (p.buffer.empty()) continue;
      const std::string path = JoinPath(dir_, region);
      const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
      if (fd < 0) return ErrnoStatus("cannot open", path);
      size_t done = 0;
      while (done < p.buffer.size()) {
        const ssize_t n = ::write(fd, p.buffer.data() + done, p.buffer.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
          Status s = ErrnoStatus("cannot write", path);
          ::close(fd);
          return s;
        }
        done += static_cast<size_t>(n);
      }
      if (::close(fd) != 0) return ErrnoStatus("cannot close", path);
      p.written += p.buffer.size();
      p.buffer.clear();
      p.buffer.shrink_to_fit();
    }
    buffered_ = 0;
    return Status::OK();
  }

  std::string dir_;
  std::map<std::string, Part> parts_;  // by region name: the report's order
  size_t buffered_ = 0;
};

}  // namespace

Status PartitionBulkLoadInput(const BulkLoadPlan& plan, const BulkLoadOptions& o,
                              const std::string& dir, BulkPartitionReport* report) {
  *report = BulkPartitionReport();
  if (plan.into || plan.create_splits > 0 || plan.regions.empty())
    return Status::InvalidArgument("partition", "needs the table's regions (no --into, no "
                                                "--create-splits)");
  const bool csv_header = o.import.format == InputFormat::kCsv &&
                          o.import.EffectiveCsvHeader() != CsvHeader::kNone;
  if (csv_header && plan.inputs.size() > 1)
    return Status::InvalidArgument("partition", "CSV inputs with a header: one input per run");
  {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) return Status::IOError(dir, ec.message());
    if (!std::filesystem::is_empty(dir, ec))
      return Status::InvalidArgument(dir, "the partition dir is not empty");
  }
  // Nothing is left behind on an error: a half-written part would be as good as lost lines.
  struct Cleanup {
    std::string dir;
    bool keep = false;
    ~Cleanup() {
      if (keep) return;
      std::error_code ec;
      for (const auto& e : std::filesystem::directory_iterator(dir, ec))
        std::filesystem::remove(e.path(), ec);
    }
  } cleanup{dir};

  std::set<std::string, std::less<>> families;
  for (const auto& f : plan.families) families.insert(f.name);
  std::vector<std::string> inputs;
  for (const auto& in : plan.inputs) inputs.push_back(in.first);
  LineSourceOptions lo;
  lo.max_line_bytes = o.import.max_line_bytes;
  LineSource source(inputs, lo);
  RecordReader reader(o.import, &source, o.import.DefaultTimestamp(o.now_ms ? o.now_ms : NowMs()));
  PartWriter writer(dir);
  ParsedRecord rec;
  BadLine bad;
  bool failing = false;
  while (true) {
    auto ev = reader.Next(&rec, &bad);
    if (!ev.ok()) {
      report->parse = reader.stats();
      return ev.status();
    }
    if (*ev == RecordReader::Event::kEnd) break;
    if (*ev == RecordReader::Event::kBadLine) {
      if (o.on_bad_line) o.on_bad_line(bad);
      if (!o.import.skip_bad_lines) failing = true;
      continue;
    }
    if ((report->records_written & 0x3FFF) == 0 && o.cancel && o.cancel->load())
      return Status::IOError("interrupted", "nothing was kept");
    for (const ParsedCell& c : rec.cells) {
      if (families.find(c.family) == families.end()) {
        report->parse = reader.stats();
        return Status::InvalidArgument(fmt::format(
            "{}:{}: family '{}' is not in table {}", rec.input ? *rec.input : "-",
            rec.line_number, ToStringBinary(std::string(c.family)), plan.table));
      }
    }
    if (failing) continue;
    // The region: the last whose start key is <= the row (boundaries are regions[1..]'s).
    const auto at = std::upper_bound(plan.boundaries.begin(), plan.boundaries.end(), rec.row,
                                     [](std::string_view row, const std::string& b) {
                                       return row < std::string_view(b);
                                     });
    const BulkLoadRegion& region = plan.regions[at - plan.boundaries.begin()];
    HFILE_RETURN_IF_ERROR(writer.Append(region.encoded_name, reader.header_line(), rec.raw));
    ++report->records_written;
  }
  report->parse = reader.stats();
  if (failing)
    return Status::Corruption(fmt::format(
        "{} bad line(s); nothing was written (--skip-bad-lines skips them)",
        report->parse.bad_lines));
  HFILE_RETURN_IF_ERROR(writer.Finish(&report->parts));
  cleanup.keep = true;
  return Status::OK();
}

}  // namespace hfile::region
