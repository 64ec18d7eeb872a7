// StoreWriter (region/store_writer.h): routing by row, one hfile::Writer per range, and the one
// verification rule for every output a tool commits.
#include "region/store_writer.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>

#include "background_checks.h"
#include "fs_util.h"
#include "hfile/rewrite.h"
#include "hfile/verify.h"
#include "region/tool_threads.h"

namespace hfile::region {

WriterOptions WriterOptionsForFamily(const FamilyDescriptor& f, bool compaction_output,
                                     bool major) {
  WriterOptions w;
  w.block_size = static_cast<uint32_t>(f.block_size());
  w.compression = compaction_output ? f.compaction_compression(major) : f.compression();
  w.encoding = f.data_block_encoding();
  w.bloom_type = f.bloom_type();
  w.bloom_prefix_length = f.bloom_prefix_length();
  w.compress_tags = f.compress_tags();
  return w;
}

namespace {

// The one rule for every output: VerifyFile clean, and as many cells as were added.
// `read_ahead`: the blocks read on another thread, for the last output, whose verification
// runs alone once every cell is written (the reading and writing threads done).
Status VerifyOutput(const StoreOutput& info, std::function<void(const Cell&)> on_cell,
                    bool read_ahead) {
  VerifyOptions vo;
  vo.on_cell = std::move(on_cell);
  vo.read_ahead = read_ahead;
  VerifyReport rep = VerifyFile(info.path, vo);
  if (rep.open_status.IsIOError() || rep.open_status.IsNotFound())
    return rep.open_status.WithContext("verifying " + info.path);
  if (!rep.io_error.ok()) return rep.io_error.WithContext("verifying " + info.path);
  if (!rep.clean() || rep.cells != info.cells)
    return Status::Corruption(fmt::format(
        "verification of {} failed ({} cells, expected {}): {}", info.path, rep.cells, info.cells,
        rep.problems.empty() ? rep.open_status.ToString() : rep.problems[0].what));
  return Status::OK();
}

}  // namespace

struct StoreWriter::Output {
  StoreOutput info;
  std::unique_ptr<Writer> writer;
};

StoreWriter::StoreWriter(StoreWriterOptions o)
    : o_(std::move(o)), verifier_(std::make_unique<BackgroundChecks>()) {}

StoreWriter::~StoreWriter() {
  if (!finished_) RemoveAll();
}

Result<std::unique_ptr<StoreWriter>> StoreWriter::Open(StoreWriterOptions options) {
  if (!IsDirectory(options.dir))
    return Status::InvalidArgument("no such output directory", options.dir);
  for (size_t i = 1; i < options.boundaries.size(); ++i)
    if (!(Slice(options.boundaries[i - 1]).compare(Slice(options.boundaries[i])) < 0))
      return Status::InvalidArgument("range boundaries must be sorted and distinct",
                                     options.boundaries[i]);
  return std::unique_ptr<StoreWriter>(new StoreWriter(std::move(options)));
}

size_t StoreWriter::RangeOf(const Slice& row) const {
  // The first boundary > row is the end of its range.
  const auto& b = o_.boundaries;
  return std::upper_bound(b.begin(), b.end(), row,
                          [](const Slice& r, const std::string& k) { return r.compare(Slice(k)) < 0; }) -
         b.begin();
}

Status StoreWriter::OpenRange(size_t range) {
  // The output before is complete: finished now and verified on the worker while this one is
  // written.
  if (current_ != nullptr) HFILE_RETURN_IF_ERROR(Close(current_, /*last=*/false));
  auto out = std::make_unique<Output>();
  out->info.range = range;
  out->info.name = NewStoreFileName() + o_.name_suffix;
  out->info.path = JoinPath(o_.dir, out->info.name);
  HFILE_ASSIGN_OR_RETURN(out->writer, Writer::Create(out->info.path, o_.writer));
  current_ = out.get();
  current_range_ = range;
  outputs_.push_back(std::move(out));
  return Status::OK();
}

Status StoreWriter::Close(Output* out, bool last) {
  WriterStats ws;
  if (Status s = out->writer->Finish(&ws); !s.ok()) return s.WithContext("writing " + out->info.path);
  out->writer.reset();
  out->info.file_size = ws.file_size;
  out->info.index_levels = ws.index_levels;
  std::function<void(const Cell&)> on_cell;
  if (o_.on_verified_cell)
    on_cell = [this, range = out->info.range](const Cell& c) { o_.on_verified_cell(range, c); };
  verifier_->Add([info = out->info, on_cell = std::move(on_cell),
                  read_ahead = last && ToolThreads() > 1] {
    return VerifyOutput(info, on_cell, read_ahead);
  });
  return Status::OK();
}

Status StoreWriter::Add(const Cell& cell) { return AddCell(cell, nullptr); }

Status StoreWriter::AddAfter(const Cell& cell, KeyField first_difference) {
  return AddCell(cell, &first_difference);
}

Status StoreWriter::AddCell(const Cell& cell, const KeyField* known) {
  // A cell of the previous one's row is in its range.
  const bool same_row = known != nullptr && *known != KeyField::kRow && current_ != nullptr;
  const size_t range =
      o_.boundaries.empty() ? 0 : same_row ? current_range_ : RangeOf(cell.row());
  if (current_ == nullptr || range != current_range_) {
    if (current_ != nullptr && range < current_range_)
      return Status::InvalidArgument("cells out of order: row " + cell.row().ToString() +
                                     " after the start of a later range");
    HFILE_RETURN_IF_ERROR(OpenRange(range));
  } else if (o_.roll_bytes > 0 && current_->info.cells > 0 &&
             current_->info.cell_bytes + KeyValueSize(cell) >= o_.roll_bytes &&
             cell.row() != Slice(last_row_)) {
    HFILE_RETURN_IF_ERROR(OpenRange(range));
  }
  if (o_.roll_bytes > 0) last_row_.assign(cell.row().data(), cell.row().size());
  // A new output's first cell has no predecessor in it: AppendAfter takes it as Append does.
  if (Status s = known ? current_->writer->AppendAfter(cell, *known)
                       : current_->writer->Append(cell);
      !s.ok())
    return s.IsInvalidArgument() ? s : s.WithContext("writing " + current_->info.path);
  ++current_->info.cells;
  current_->info.cell_bytes += KeyValueSize(cell);
  if (++cells_ == 1 && o_.checkpoint) o_.checkpoint("output-started");
  if ((cells_ & 0xFFF) == 0 && o_.cancel && o_.cancel->load(std::memory_order_relaxed))
    return Status::IOError("interrupted", "the output was removed");
  return Status::OK();
}

Result<std::vector<StoreOutput>> StoreWriter::Finish() {
  if (outputs_.empty() && o_.write_empty) {
    if (Status s = OpenRange(0); !s.ok()) {
      RemoveAll();
      return s;
    }
  }
  if (current_ != nullptr) {
    if (Status s = Close(current_, /*last=*/true); !s.ok()) {
      RemoveAll();
      return s;
    }
    current_ = nullptr;
  }
  if (o_.checkpoint) o_.checkpoint("output-written");
  if (Status s = verifier_->Wait(); !s.ok()) {
    RemoveAll();
    return s;
  }
  std::vector<StoreOutput> result;
  for (auto& out : outputs_) result.push_back(out->info);
  if (o_.checkpoint) o_.checkpoint("output-verified");
  finished_ = true;
  return result;
}

void StoreWriter::RemoveAll() {
  verifier_->Abandon();  // no verification reads a file while it is removed
  for (auto& out : outputs_) {
    out->writer.reset();  // an unfinished Writer removes its own temporary file
    ::unlink(out->info.path.c_str());
  }
  outputs_.clear();
  current_ = nullptr;
}

}  // namespace hfile::region
