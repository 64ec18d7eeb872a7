// The compaction matcher (REGION_LAYOUT §6.3-§6.5). Per cell, in HBase's order:
//   preCheck: family TTL (MIN_VERSIONS == 0 and ts < now - ttl) -> skip column;
//             per-cell TTL tag (type 8, ms): ts + ttl < now -> skip cell
//   marker:   major: track (KDC FALSE, or TTL and expired), then purge-delay keep, KDC keep
//             (drop + skip column if older than every put) or drop; minor: track and keep
//   put:      delete tracker verdict
//   both:     column tracker (versions, duplicates, MIN_VERSIONS, TTL)
// "Skip column" drops the rest of the (row, family, qualifier) unless the qualifier is empty
// (HBASE-18471: DeleteFamily markers of the empty column must still be seen).
#include <algorithm>
#include <string>

#include "byte_copy.h"
#include "hfile/coding.h"
#include "column_tracker.h"
#include "delete_tracker.h"
#include "region/compaction.h"

namespace hfile::region {

CompactionOptions CompactionOptions::ForFamily(const FamilyDescriptor& family,
                                               CompactionKind kind, int64_t now_ms) {
  CompactionOptions o;
  o.kind = kind;
  o.max_versions = family.max_versions();
  o.min_versions = family.min_versions();
  o.ttl_ms = family.ttl_ms();
  o.keep_deleted_cells = family.keep_deleted_cells();
  o.now_ms = now_ms;
  return o;
}

int64_t CompactionOptions::oldest_unexpired_ts() const {
  return static_cast<int64_t>(static_cast<uint64_t>(now_ms) - static_cast<uint64_t>(ttl_ms));
}

std::optional<uint64_t> SequenceIdZeroingThreshold(const std::vector<CompactionInputFile>& inputs,
                                                   bool all_files, int64_t now_ms,
                                                   int keep_period_days) {
  if (!all_files) return std::nullopt;
  if (keep_period_days < 5) keep_period_days = 5;
  int64_t cutoff = now_ms - int64_t{keep_period_days} * 24 * 3600 * 1000;
  std::optional<uint64_t> out;
  for (const auto& f : inputs) {
    if (f.modification_time_ms < cutoff) {
      uint64_t v = static_cast<uint64_t>(f.max_memstore_ts < 0 ? 0 : f.max_memstore_ts);
      if (!out || v > *out) out = v;
    }
  }
  return out;
}

namespace {

// The first TTL tag's value, if any (tags: u16 BE length of type+value, u8 type, value).
std::optional<int64_t> CellTtl(const Slice& tags) {
  Slice in = tags;
  while (in.size() >= 3) {
    uint16_t len = DecodeFixed16BE(in.data());
    if (len < 1 || in.size() < 2u + len) return std::nullopt;
    uint8_t type = in.byte(2);
    if (type == 8) {
      if (len != 9) return std::nullopt;
      return static_cast<int64_t>(DecodeFixed64BE(in.data() + 3));
    }
    in.remove_prefix(2 + len);
  }
  return std::nullopt;
}

enum class Verdict : uint8_t { kInclude, kSkip, kSkipColumn };

class CompactionIterator : public CellIterator {
 public:
  CompactionIterator(std::unique_ptr<CellIterator> input, const CompactionOptions& o,
                     CompactionStats* stats)
      : input_(std::move(input)),
        o_(o),
        oldest_(o.oldest_unexpired_ts()),
        stats_(stats ? stats : &own_stats_),
        columns_(o.min_versions, o.max_versions, oldest_) {}

  bool Valid() const override { return valid_; }
  void SeekToFirst() override {
    input_->SeekToFirst();
    Restart();
  }
  void Seek(const Slice& key) override {
    input_->Seek(key);
    Restart();
  }
  void Next() override {
    input_->Next();
    FindNext();
  }
  const Cell& cell() const override { return current_; }
  Status status() const override { return input_->status(); }
  // From the input's differences: the first field in which the cells since the last kept one
  // differ from it is the least of theirs (the cells are sorted).
  bool KeyDifference(KeyField* first_difference) const override {
    if (!kept_known_) return false;
    *first_difference = kept_difference_;
    return true;
  }

 private:
  void Restart() {
    has_row_ = false;
    has_kept_ = false;
    skipping_column_ = false;
    FindNext();
  }

  // Advances the input to the next kept cell.
  void FindNext() {
    valid_ = false;
    kept_known_ = has_kept_;
    kept_difference_ = KeyField::kNone;
    for (; input_->Valid(); input_->Next()) {
      const Cell& c = input_->cell();
      ++stats_->input_cells;
      // How c differs from the cell before it, when the input knows: a row or column change
      // needs no compare then. A family difference is compared, as the "last on row" key
      // differs in its family from a cell of its row whatever the family's bytes.
      KeyField d = KeyField::kRow;
      const bool known = has_row_ && input_->KeyDifference(&d);
      if (known) {
        kept_difference_ = std::min(kept_difference_, d);
      } else {
        kept_known_ = false;
      }
      const bool by_field = known && d != KeyField::kFamily;
      if (by_field ? d == KeyField::kRow
                   : !has_row_ || c.row() != row_.slice() || c.family() != family_.slice()) {
        has_row_ = true;
        row_.Assign(c.row());  // no allocation per row: the copies keep their capacity
        family_.Assign(c.family());
        deletes_.Reset();
        columns_.Reset();
        skipping_column_ = false;
      }
      if (skipping_column_) {
        if (by_field ? d >= KeyField::kTimestamp : c.qualifier() == skip_qualifier_.slice()) {
          Count(skip_reason_);
          continue;
        }
        skipping_column_ = false;
      }
      uint64_t* reason = nullptr;
      Verdict v = Match(c, &reason);
      if (v == Verdict::kInclude) {
        current_ = c;
        if (o_.zero_sequence_ids_up_to && c.sequence_id != 0 &&
            c.sequence_id <= *o_.zero_sequence_ids_up_to) {
          current_.sequence_id = 0;
          ++stats_->zeroed_sequence_ids;
        }
        ++stats_->output_cells;
        valid_ = true;
        has_kept_ = true;
        return;
      }
      ++*reason;
      if (v == Verdict::kSkipColumn && !c.qualifier().empty()) {
        skipping_column_ = true;
        skip_qualifier_.Assign(c.qualifier());
        skip_reason_ = reason;
      }
    }
  }

  void Count(uint64_t* reason) { ++*reason; }

  Verdict Match(const Cell& c, uint64_t** reason) {
    int64_t ts = c.timestamp();
    uint8_t type = c.type();
    // preCheck.
    if (columns_.IsDone(ts)) {
      *reason = &stats_->dropped_ttl;
      return Verdict::kSkipColumn;
    }
    if (!c.tags.empty()) {
      if (auto ttl = CellTtl(c.tags); ttl && ts + *ttl < o_.now_ms) {
        *reason = &stats_->dropped_cell_ttl;
        return Verdict::kSkip;
      }
    }
    if (IsDeleteType(type)) {
      bool track = o_.keep_deleted_cells == KeepDeletedCells::kFalse ||
                   (o_.keep_deleted_cells == KeepDeletedCells::kTtl && ts < oldest_);
      if (track) deletes_.Add(c);
      if (o_.kind == CompactionKind::kMinor) return Verdict::kInclude;
      // tryDropDelete.
      if (o_.time_to_purge_deletes_ms > 0 && o_.now_ms - ts <= o_.time_to_purge_deletes_ms)
        return Verdict::kInclude;
      bool keep = o_.keep_deleted_cells == KeepDeletedCells::kTrue ||
                  (o_.keep_deleted_cells == KeepDeletedCells::kTtl && ts >= oldest_);
      if (!keep) {
        *reason = &stats_->dropped_delete_markers;
        return Verdict::kSkip;
      }
      if (ts < o_.earliest_put_ts) {
        *reason = &stats_->dropped_delete_markers;
        return Verdict::kSkipColumn;
      }
    } else if (!deletes_.empty()) {
      switch (deletes_.IsDeleted(c)) {
        case DeleteTracker::Result::kFamilyDeleted:
        case DeleteTracker::Result::kColumnDeleted:
          *reason = &stats_->dropped_deleted;
          return Verdict::kSkipColumn;
        case DeleteTracker::Result::kFamilyVersionDeleted:
        case DeleteTracker::Result::kVersionDeleted:
          *reason = &stats_->dropped_deleted;
          return Verdict::kSkip;
        case DeleteTracker::Result::kNotDeleted:
          break;
      }
    }
    switch (columns_.CheckVersions(c)) {
      case ColumnTracker::Result::kInclude:
        return Verdict::kInclude;
      case ColumnTracker::Result::kSkipDuplicate:
        *reason = &stats_->dropped_versions;
        return Verdict::kSkip;
      case ColumnTracker::Result::kTooManyVersions:
        *reason = &stats_->dropped_versions;
        return Verdict::kSkipColumn;
      case ColumnTracker::Result::kExpired:
        *reason = &stats_->dropped_ttl;
        return Verdict::kSkipColumn;
    }
    return Verdict::kInclude;
  }

  std::unique_ptr<CellIterator> input_;
  CompactionOptions o_;
  int64_t oldest_;
  CompactionStats own_stats_;
  CompactionStats* stats_;
  DeleteTracker deletes_;
  ColumnTracker columns_;
  bool has_row_ = false;
  ByteCopy row_, family_;
  bool skipping_column_ = false;
  ByteCopy skip_qualifier_;
  uint64_t* skip_reason_ = nullptr;
  bool valid_ = false;
  Cell current_;
  bool has_kept_ = false;    // a cell was kept since the last seek
  bool kept_known_ = false;  // kept_difference_ is known
  KeyField kept_difference_ = KeyField::kNone;  // the current cell's from the kept one before
};

}  // namespace

std::unique_ptr<CellIterator> NewCompactionIterator(std::unique_ptr<CellIterator> input,
                                                    const CompactionOptions& options,
                                                    CompactionStats* stats) {
  return std::make_unique<CompactionIterator>(std::move(input), options, stats);
}

}  // namespace hfile::region
