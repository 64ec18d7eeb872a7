// RewriteStore (region/store_rewrite.h).
#include "region/store_rewrite.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>

#include "background_checks.h"
#include "fs_util.h"
#include "hfile/input_check.h"
#include "hfile/reader.h"
#include "hfile/rewrite.h"
#include "input_guard.h"
#include "prefetch_iterator.h"
#include "region/merging_iterator.h"
#include "region/store_file_reader.h"
#include "region/tool_threads.h"

namespace hfile::region {

namespace {

// Counts what the merge yields (the cells read; for progress and the summary).
class CountingIterator : public CellIterator {
 public:
  CountingIterator(std::unique_ptr<CellIterator> in, std::function<void(uint64_t)> progress)
      : in_(std::move(in)), progress_(std::move(progress)) {}
  bool Valid() const override { return in_->Valid(); }
  void SeekToFirst() override { in_->SeekToFirst(); Count(); }
  void Seek(const Slice& k) override { in_->Seek(k); Count(); }
  void Next() override { in_->Next(); Count(); }
  const Cell& cell() const override { return in_->cell(); }
  Status status() const override { return in_->status(); }
  bool KeyDifference(KeyField* d) const override { return in_->KeyDifference(d); }
  uint64_t bytes() const { return bytes_; }
  uint64_t cells() const { return cells_; }

 private:
  void Count() {
    if (!in_->Valid()) return;
    bytes_ += KeyValueSize(in_->cell());
    if ((++cells_ & 0x3FFF) == 0 && progress_) progress_(cells_);
  }
  std::unique_ptr<CellIterator> in_;
  std::function<void(uint64_t)> progress_;
  uint64_t bytes_ = 0, cells_ = 0;
};

class FamilyRenameIterator : public CellIterator {
 public:
  FamilyRenameIterator(std::unique_ptr<CellIterator> in, std::string family,
                       std::function<void(const Cell&)> on_cell)
      : in_(std::move(in)), family_(std::move(family)), on_cell_(std::move(on_cell)) {}
  bool Valid() const override { return in_->Valid(); }
  void SeekToFirst() override { in_->SeekToFirst(); Fill(); }
  void Seek(const Slice& k) override { in_->Seek(k); Fill(); }
  void Next() override { in_->Next(); Fill(); }
  const Cell& cell() const override { return cell_; }
  Status status() const override { return in_->status(); }
  // Every cell of a store has its family: the new name changes no difference.
  bool KeyDifference(KeyField* d) const override { return in_->KeyDifference(d); }

 private:
  void Fill() {
    if (!in_->Valid()) return;
    const Cell& c = in_->cell();
    if (on_cell_) on_cell_(c);
    key_.clear();  // reused: no allocation once it has grown
    AppendKey(&key_, c.row(), family_, c.qualifier(), c.timestamp(), c.type());
    cell_ = c;
    cell_.key = key_;
  }
  std::unique_ptr<CellIterator> in_;
  std::string family_, key_;
  std::function<void(const Cell&)> on_cell_;
  Cell cell_;
};

struct OpenInputs {
  std::vector<std::unique_ptr<StoreFileReader>> readers;
  std::vector<InputGuard*> guards;
  CountingIterator* counter = nullptr;
  std::unique_ptr<CellIterator> out;  // after the transform
  uint64_t total_cells = 0;
};

// Opens the inputs, each checked: the cheap checks here, before any of its cells is read; the
// full verification (unless !verify_inputs) queued on `checks`, to run while the cells are
// rewritten (the caller commits nothing before `checks` has passed). A dry run checks here, so
// that its timing stays the real rewrite's. With `prefetch`, the merge runs on its own thread.
Status Open(const std::vector<StoreFile>& inputs, const StoreRewriteOptions& o, bool prefetch,
            BackgroundChecks* checks, OpenInputs* in) {
  std::vector<std::unique_ptr<CellIterator>> its;
  InputCheckOptions check;
  check.full = o.verify_inputs && checks == nullptr;
  for (const auto& sf : inputs) {
    HFILE_ASSIGN_OR_RETURN(auto r, StoreFileReader::Open(sf));
    HFILE_RETURN_IF_ERROR(CheckInput(r->hfile(), check));
    if (o.verify_inputs && checks != nullptr)
      checks->Add([path = r->hfile().path()] { return VerifyInput(path); });
    in->total_cells += r->hfile().trailer().entry_count;
    InputGuardOptions g;
    g.path = sf.path;
    g.family = o.family;
    g.start_key = o.start_key;
    g.end_key = o.end_key;
    g.comparator = r->hfile().comparator();
    g.carry_out_of_range = o.carry_out_of_range;
    auto it = std::make_unique<InputGuard>(r->NewIterator(), std::move(g));
    in->guards.push_back(it.get());
    its.push_back(std::move(it));
    in->readers.push_back(std::move(r));
  }
  const ComparatorKind kind =
      in->readers.empty() ? ComparatorKind::kDefault : in->readers[0]->hfile().comparator();
  std::function<void(uint64_t)> progress;
  if (o.progress) {
    const uint64_t total = in->total_cells;
    progress = [&o, total](uint64_t n) { o.progress(n, total); };
  }
  auto counting =
      std::make_unique<CountingIterator>(NewMergingIterator(std::move(its), kind), progress);
  in->counter = counting.get();
  // The prefetch cuts the work in two: before it the reading thread (reading, decoding, the
  // merge), after it this one (the writer). The transform (compaction rules, a rename) goes to
  // the lighter side: this one when the output has no codec, where the writer only encodes,
  // checksums and writes (an uncompressed compaction of small cells: 2-20% less wall time in
  // three series); the reading side when it has one, whose compression then weighs on the
  // writer (LZ4: the other way round is slower).
  std::unique_ptr<CellIterator> merged = std::move(counting);
  const bool transform_on_writer = o.writer.writer.compression == Compression::kNone;
  if (prefetch && transform_on_writer)
    merged = std::make_unique<PrefetchIterator>(std::move(merged));
  in->out = o.transform ? o.transform(std::move(merged)) : std::move(merged);
  if (prefetch && !transform_on_writer)
    in->out = std::make_unique<PrefetchIterator>(std::move(in->out));
  in->out->SeekToFirst();
  return Status::OK();
}

// After the merge: every whole file gave as many cells as its trailer says (a Reference reads
// only its half of the parent's file, which CheckInput checked whole).
Status CheckInputsRead(const std::vector<StoreFile>& inputs, const OpenInputs& in,
                       StoreRewriteResult* r) {
  for (size_t i = 0; i < in.readers.size(); ++i) {
    r->out_of_range += in.guards[i]->out_of_range();
    if (inputs[i].reference) continue;
    HFILE_RETURN_IF_ERROR(CheckCellsRead(in.readers[i]->hfile(), in.guards[i]->cells()));
  }
  return Status::OK();
}

Status Estimate(const std::vector<StoreFile>& inputs, const StoreRewriteOptions& o,
                double check_seconds, OpenInputs* in, StoreRewriteResult* r) {
  // The output's cells are known exactly; what they take on disk under the output settings is
  // measured by writing the first of them (up to trial_blocks blocks) to a scratch file outside
  // the table. Scaling by the inputs' own ratio would miss every codec, encoding or block-size
  // change.
  const uint64_t budget = o.trial_blocks * uint64_t{o.writer.writer.block_size};
  const std::string trial =
      (std::filesystem::temp_directory_path() / (".hfile-trial-" + NewStoreFileName())).string();
  auto tw = Writer::Create(trial, o.writer.writer);
  uint64_t trial_bytes = 0;
  using Clock = std::chrono::steady_clock;
  const Clock::time_point t0 = Clock::now();
  Clock::duration writing{};  // the trial's appends: timed apart from the reading
  CellIterator* it = in->out.get();
  for (; it->Valid(); it->Next()) {
    const uint64_t b = KeyValueSize(it->cell());
    r->cell_bytes_out += b;
    ++r->cells_written;
    if (tw.ok() && trial_bytes < budget) {
      const Clock::time_point a = Clock::now();
      if ((*tw)->Append(it->cell()).ok()) trial_bytes += b;
      writing += Clock::now() - a;
    }
  }
  HFILE_RETURN_IF_ERROR(it->status());
  HFILE_RETURN_IF_ERROR(CheckInputsRead(inputs, *in, r));
  const Clock::time_point f0 = Clock::now();
  WriterStats ts;
  const bool ok = tw.ok() && trial_bytes > 0 && (*tw)->Finish(&ts).ok() && ts.file_size;
  writing += Clock::now() - f0;
  std::error_code ec;
  std::filesystem::remove(trial, ec);
  if (ok)
    r->bytes_out = static_cast<uint64_t>(static_cast<double>(r->cell_bytes_out) *
                                         static_cast<double>(ts.file_size) /
                                         static_cast<double>(trial_bytes));
  // The real rewrite spends: the input check (timed in Open), this pass's reading, the
  // writing of every output cell at the trial's rate, and the verification's read-back of
  // the outputs (about the reading's rate per cell byte).
  const double write_s = std::chrono::duration<double>(writing).count();
  const double read_s =
      std::max(0.0, std::chrono::duration<double>(Clock::now() - t0).count() - write_s);
  const double out = static_cast<double>(r->cell_bytes_out);
  double est = check_seconds + read_s;
  if (trial_bytes > 0) est += write_s * out / static_cast<double>(trial_bytes);
  if (const uint64_t in_bytes = in->counter->bytes(); in_bytes > 0)
    est += read_s * out / static_cast<double>(in_bytes);
  r->estimated_seconds = est;
  return Status::OK();
}

}  // namespace

std::unique_ptr<CellIterator> NewFamilyRenameIterator(std::unique_ptr<CellIterator> in,
                                                      std::string family,
                                                      std::function<void(const Cell&)> on_cell) {
  return std::make_unique<FamilyRenameIterator>(std::move(in), std::move(family),
                                                std::move(on_cell));
}

Status RewriteStore(const std::vector<StoreFile>& inputs, const StoreRewriteOptions& o,
                    StoreRewriteResult* r) {
  // Three threads on the two cores when verifying: the inputs' check (`checks`), the reading
  // and merge (the prefetch), and this one's writing; then the outputs' verification (the
  // StoreWriter's worker). With ToolThreads() == 1 all of it runs on this thread.
  // Declared before `in`: its checks read no input it owns.
  BackgroundChecks checks;
  OpenInputs in;
  const auto t0 = std::chrono::steady_clock::now();
  HFILE_RETURN_IF_ERROR(Open(inputs, o, /*prefetch=*/!o.estimate_only && ToolThreads() > 1,
                             o.estimate_only ? nullptr : &checks, &in));
  if (o.estimate_only) {
    const double check_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    HFILE_RETURN_IF_ERROR(Estimate(inputs, o, check_seconds, &in, r));
  } else {
    HFILE_ASSIGN_OR_RETURN(auto w, StoreWriter::Open(o.writer));
    CellIterator* it = in.out.get();
    uint64_t n = 0;
    for (; it->Valid(); it->Next()) {
      // An input that failed its check fails the rewrite: no need to write the rest.
      if ((++n & 0xFFFF) == 0 && checks.failed()) return checks.Wait();
      KeyField d;
      const Status s =
          it->KeyDifference(&d) ? w->AddAfter(it->cell(), d) : w->Add(it->cell());
      if (!s.ok()) {
        // The writer refuses a cell only when it breaks the order; else it is the output.
        if (s.IsInvalidArgument()) return Status::Corruption("inputs out of order: " + s.ToString());
        return s;
      }
    }
    if (Status s = it->status(); !s.ok()) {
      // A damaged input fails its read as well as its check, the read often first. The check's
      // refusal is the error then: it names the problem as hfile verify does (its code).
      if (s.IsCorruption())
        if (Status c = checks.Wait(); !c.ok()) return c;
      return s;
    }
    HFILE_RETURN_IF_ERROR(CheckInputsRead(inputs, in, r));
    HFILE_ASSIGN_OR_RETURN(r->outputs, w->Finish());
    if (Status s = checks.Wait(); !s.ok()) {
      // An input failed its check after its cells were rewritten: its outputs are staged, not
      // committed, and go.
      for (const auto& out : r->outputs) ::unlink(out.path.c_str());
      r->outputs.clear();
      return s;
    }
    for (const auto& out : r->outputs) {
      r->cells_written += out.cells;
      r->cell_bytes_out += out.cell_bytes;
      r->bytes_out += out.file_size;
    }
  }
  r->cells_read = in.counter->cells();
  r->bytes_read = in.counter->bytes();
  return Status::OK();
}

}  // namespace hfile::region
