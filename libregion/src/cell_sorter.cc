#include "region/cell_sorter.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>
#include <lz4.h>

#include <boost/sort/pdqsort/pdqsort.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <mutex>
#include <string>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include "fs_util.h"
#include "hfile/coding.h"
#include "key_head.h"

namespace hfile::region {

namespace {

// A record in the arena: key, value and tag lengths (u32), sequence id and ordinal (u64),
// native byte order, then the bytes. (Runs hold them more compactly: RunWriter.)
constexpr size_t kRecordHeader = 4 + 4 + 4 + 8 + 8;

// Runs are written in blocks of kRunBlock raw bytes, so that each reader of the merge needs
// about kReaderBytes: the block and its compressed bytes.
constexpr size_t kRunBlock = size_t{64} << 10;
constexpr size_t kReaderBytes = size_t{160} << 10;

// Runs one merge pass may open: the open-file limit, less what the rest of the process (the
// writers, the inputs, libraries) may hold. A 10 GiB load spills over a thousand runs, more than
// a default soft limit of 1024 descriptors.
size_t MaxOpenRuns() {
  constexpr size_t kReservedFds = 128;
  struct rlimit rl;
  if (::getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY) return SIZE_MAX;
  const size_t limit = static_cast<size_t>(rl.rlim_cur);
  return limit > kReservedFds + 2 ? limit - kReservedFds : 2;
}

struct Header {
  uint32_t key_len, value_len, tags_len;
  uint64_t sequence_id, ordinal;
};

void EncodeHeader(char* p, const Header& h) {
  std::memcpy(p, &h.key_len, 4);
  std::memcpy(p + 4, &h.value_len, 4);
  std::memcpy(p + 8, &h.tags_len, 4);
  std::memcpy(p + 12, &h.sequence_id, 8);
  std::memcpy(p + 20, &h.ordinal, 8);
}

Header DecodeHeader(const char* p) {
  Header h;
  std::memcpy(&h.key_len, p, 4);
  std::memcpy(&h.value_len, p + 4, 4);
  std::memcpy(&h.tags_len, p + 8, 4);
  std::memcpy(&h.sequence_id, p + 12, 8);
  std::memcpy(&h.ordinal, p + 20, 8);
  return h;
}

// A record's cell view; `p` points at its header.
Cell RecordCell(const char* p, uint64_t* ordinal) {
  Header h = DecodeHeader(p);
  const char* b = p + kRecordHeader;
  if (ordinal != nullptr) *ordinal = h.ordinal;
  return Cell{Slice(b, h.key_len), Slice(b + h.key_len, h.value_len),
              Slice(b + h.key_len + h.value_len, h.tags_len), h.sequence_id};
}

size_t RecordSize(const Cell& c) {
  return kRecordHeader + c.key.size() + c.value.size() + c.tags.size();
}

// How many entries ahead a spill prefetches the records it copies.
constexpr long kPrefetchAhead = 8;

// Spills of at least this many entries are written as two runs, one per thread.
constexpr size_t kParallelSortEntries = size_t{1} << 14;

// Key order, then newest-added first, so that the first of equal keys is the one kept.
int CompareEntries(ComparatorKind kind, const Slice& ka, uint64_t oa, const Slice& kb,
                   uint64_t ob) {
  int c = CompareKeys(kind, ka, kb);
  if (c != 0) return c;
  return oa > ob ? -1 : (oa < ob ? 1 : 0);
}

// An index entry of the sort: the record in the arena and its key's head (key_head.h). The
// ordinal, needed only for equal keys, is read from the record.
struct SortEntry {
  const char* record;
  KeyHead head;
};

// Entries whose heads do not decide: key order, then newest-added first. Out of line: it is
// the rare case, and the common one stays small enough to inline into the sort.
[[gnu::noinline]] bool TieLess(ComparatorKind kind, const SortEntry& a, const SortEntry& b) {
  uint64_t oa, ob;
  Cell ca = RecordCell(a.record, &oa), cb = RecordCell(b.record, &ob);
  return CompareEntries(kind, ca.key, oa, cb.key, ob) < 0;
}

struct EntryLess {
  ComparatorKind kind;
  bool operator()(const SortEntry& a, const SortEntry& b) const {
    int c = CompareHeads(a.head, b.head);
    return c != 0 ? c < 0 : TieLess(kind, a, b);
  }
};

// Equal keys have equal heads; only then are the records read.
inline bool SameKey(ComparatorKind kind, const SortEntry& a, const SortEntry& b) {
  return a.head == b.head && CompareKeys(kind, RecordCell(a.record, nullptr).key,
                                         RecordCell(b.record, nullptr).key) == 0;
}

// Runs are sequences of LZ4 blocks: u32 raw length, u32 stored length (equal: stored raw, it
// did not compress), then the bytes; each block holds whole records. zstd at level 1 (then its
// fast levels) cost 17 instructions per spilled byte and another 6 to read back, a fifth of a
// bulk load; LZ4 a few, at a somewhat lower ratio (temp space is the input's size at most).
constexpr size_t kBlockHeader = 8;
// LZ4's acceleration for run blocks (1 is LZ4_compress_default): a run is read back once, soon,
// so speed beats ratio. On the bench TSV (256 MiB at --memory 64M) 4 took 5% off a load's wall
// time and spilled 8% more bytes.
constexpr int kRunLz4Acceleration = 4;

// A spilled run. With range_starts, `starts[i]` is the offset of the block where range i + 1
// begins (a range's first record starts a block of its own), the file's size when the run has
// no rows that far.
struct Run {
  std::string path;
  std::vector<uint64_t> starts;
};

// The part of a run a merge reads: [begin, end) of its file.
constexpr uint64_t kWholeRun = UINT64_MAX;
struct RunSlice {
  std::string path;
  uint64_t begin = 0, end = kWholeRun;
};

// A record in a run block, LevelDB style: varints of the key bytes shared with the previous
// record's key in the block, the key's other bytes, the value and tag lengths, the sequence id
// and the ordinal; then the key's unshared bytes, the value and the tags. Sorted neighbours
// share most of their keys: with the arena's fixed header the LZ4 input was half again as large
// (and LZ4 the largest cost of a spill).
constexpr size_t kMaxVarints = 6 * 10;

// One spilled run being written: records gathered into a block, compressed and written with
// one write per block.
class RunWriter {
 public:
  // `cuts`: the sorter's range_starts (or null), outliving the writer.
  explicit RunWriter(const std::vector<std::string>* cuts = nullptr) : cuts_(cuts) {}
  ~RunWriter() {
    if (fd_ >= 0) ::close(fd_);
  }
  Status Open(const std::string& path) {
    path_ = path;
    fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd_ < 0) return ErrnoStatus("cannot create sort run", path);
    pending_.reset(new char[kRunBlock]);  // not zero-filled (make_unique would)
    pending_cap_ = kRunBlock;
    return Status::OK();
  }
  Status Append(const Cell& c, uint64_t ordinal) {
    if (cuts_ != nullptr && next_cut_ < cuts_->size()) HFILE_RETURN_IF_ERROR(MarkCuts(c.key));
    const size_t max = kMaxVarints + c.key.size() + c.value.size() + c.tags.size();
    if (used_ + max > kRunBlock && used_ > 0) HFILE_RETURN_IF_ERROR(Flush());
    if (used_ + max > pending_cap_) {  // only for a record larger than a block
      std::unique_ptr<char[]> bigger(new char[used_ + max]);
      std::memcpy(bigger.get(), pending_.get(), used_);
      pending_ = std::move(bigger);
      pending_cap_ = used_ + max;
    }
    // A block starts with a whole key.
    const size_t shared =
        used_ > 0 ? CommonPrefixLength(last_key_.data(), c.key.data(),
                                       std::min(last_len_, c.key.size()))
                  : 0;
    char* p = pending_.get() + used_;
    p = EncodeVarint64(p, shared);
    p = EncodeVarint64(p, c.key.size() - shared);
    p = EncodeVarint64(p, c.value.size());
    p = EncodeVarint64(p, c.tags.size());
    p = EncodeVarint64(p, c.sequence_id);
    p = EncodeVarint64(p, ordinal);
    std::memcpy(p, c.key.data() + shared, c.key.size() - shared);
    p += c.key.size() - shared;
    std::memcpy(p, c.value.data(), c.value.size());
    p += c.value.size();
    if (!c.tags.empty()) std::memcpy(p, c.tags.data(), c.tags.size());
    p += c.tags.size();
    used_ = static_cast<size_t>(p - pending_.get());
    if (last_key_.size() < c.key.size()) last_key_.resize(c.key.size() * 2);
    std::memcpy(last_key_.data(), c.key.data(), c.key.size());
    last_len_ = c.key.size();
    return Status::OK();
  }
  Status Close() {
    if (used_ > 0) HFILE_RETURN_IF_ERROR(Flush());
    while (cuts_ != nullptr && starts_.size() < cuts_->size()) starts_.push_back(bytes_);
    int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) return ErrnoStatus("cannot write sort run", path_);
    return Status::OK();
  }
  uint64_t bytes() const { return bytes_; }
  // After Close: where each range after the first begins (Run::starts).
  std::vector<uint64_t>& starts() { return starts_; }

 private:
  // Ends the block before a record whose row reaches the next cut(s) and notes where the
  // ranges they start begin.
  Status MarkCuts(const Slice& key) {
    const Slice row = KeyRow(key);
    while (next_cut_ < cuts_->size() && row.compare(Slice((*cuts_)[next_cut_])) >= 0) {
      if (used_ > 0) HFILE_RETURN_IF_ERROR(Flush());
      starts_.push_back(bytes_);
      ++next_cut_;
    }
    return Status::OK();
  }

  Status Flush() {
    const size_t raw = used_;
    if (raw > static_cast<size_t>(LZ4_MAX_INPUT_SIZE))
      return Status::InvalidArgument("cell too large for a sort run", path_);
    const size_t bound = static_cast<size_t>(LZ4_compressBound(static_cast<int>(raw)));
    if (out_.size() < kBlockHeader + bound) out_.resize(kBlockHeader + bound);
    int z = LZ4_compress_fast(pending_.get(), out_.data() + kBlockHeader,
                              static_cast<int>(raw), static_cast<int>(bound), kRunLz4Acceleration);
    uint32_t raw_len = static_cast<uint32_t>(raw);
    uint32_t stored = z > 0 && static_cast<size_t>(z) < raw ? static_cast<uint32_t>(z) : raw_len;
    if (stored == raw_len) std::memcpy(out_.data() + kBlockHeader, pending_.get(), raw);
    std::memcpy(out_.data(), &raw_len, 4);
    std::memcpy(out_.data() + 4, &stored, 4);
    used_ = 0;
    return WriteAll(out_.data(), kBlockHeader + stored);
  }
  Status WriteAll(const char* p, size_t n) {
    while (n > 0) {
      ssize_t w = ::write(fd_, p, n);
      if (w < 0 && errno == EINTR) continue;
      if (w < 0) return ErrnoStatus("cannot write sort run", path_);
      p += w;
      n -= static_cast<size_t>(w);
      bytes_ += static_cast<uint64_t>(w);
    }
    return Status::OK();
  }

  std::string path_;
  int fd_ = -1;
  std::unique_ptr<char[]> pending_;  // the block being filled: kRunBlock, or one larger record
  size_t pending_cap_ = 0;
  size_t used_ = 0;
  std::vector<char> last_key_;  // the previous record's key: its first last_len_ bytes
  size_t last_len_ = 0;
  std::vector<char> out_;      // block header and compressed bytes
  uint64_t bytes_ = 0;
  const std::vector<std::string>* cuts_;
  size_t next_cut_ = 0;
  std::vector<uint64_t> starts_;
};

// One run being read back, a block at a time: the current record's cell stays valid until Next.
class RunReader {
 public:
  explicit RunReader(ComparatorKind kind) : kind_(kind) {}
  ~RunReader() {
    if (fd_ >= 0) ::close(fd_);
  }
  // Reads the blocks of the run in [begin, end) of its file (a range's part of it).
  Status Open(const RunSlice& slice) {
    path_ = slice.path;
    fd_ = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) return ErrnoStatus("cannot open sort run", path_);
    if (slice.begin > 0 && ::lseek(fd_, static_cast<off_t>(slice.begin), SEEK_SET) < 0)
      return ErrnoStatus("cannot seek in sort run", path_);
    left_ = slice.end == kWholeRun ? kWholeRun : slice.end - slice.begin;
    return Next();
  }
  // Reads sorted entries still in the arena instead of a run file (the last chunk, which the
  // merge takes without spilling it).
  Status OpenMemory(const SortEntry* begin, const SortEntry* end) {
    mem_ = begin;
    mem_end_ = end;
    return Next();
  }
  bool valid() const { return valid_; }
  const Cell& cell() const { return cell_; }
  uint64_t ordinal() const { return ordinal_; }
  // The current key's head (compared before the keys themselves).
  const KeyHead& head() const { return head_; }

  Status Next() {
    if (mem_ != nullptr) {
      valid_ = mem_ != mem_end_;
      if (valid_) {
        cell_ = RecordCell(mem_->record, &ordinal_);
        head_ = mem_->head;
        ++mem_;
      }
      return Status::OK();
    }
    if (pos_ == end_) {
      HFILE_RETURN_IF_ERROR(LoadBlock());
      if (end_ == 0) {
        valid_ = false;
        return Status::OK();
      }
      key_len_ = 0;  // a block starts with a whole key
    }
    const char* p = raw_.data() + pos_;
    const char* limit = raw_.data() + end_;
    uint64_t shared, unshared, value_len, tags_len, sequence_id;
    if ((p = DecodeVarint64(p, limit, &shared)) == nullptr ||
        (p = DecodeVarint64(p, limit, &unshared)) == nullptr ||
        (p = DecodeVarint64(p, limit, &value_len)) == nullptr ||
        (p = DecodeVarint64(p, limit, &tags_len)) == nullptr ||
        (p = DecodeVarint64(p, limit, &sequence_id)) == nullptr ||
        (p = DecodeVarint64(p, limit, &ordinal_)) == nullptr || shared > key_len_ ||
        unshared > static_cast<uint64_t>(limit - p) ||
        value_len > static_cast<uint64_t>(limit - p) - unshared ||
        tags_len > static_cast<uint64_t>(limit - p) - unshared - value_len) {
      return Truncated();
    }
    if (key_.size() < shared + unshared) key_.resize((shared + unshared) * 2);
    std::memcpy(key_.data() + shared, p, unshared);
    key_len_ = shared + unshared;
    p += unshared;
    cell_ = Cell{Slice(key_.data(), key_len_), Slice(p, value_len), Slice(p + value_len, tags_len),
                 sequence_id};
    pos_ = static_cast<size_t>(p + value_len + tags_len - raw_.data());
    head_ = HeadOf(kind_, cell_.key);
    valid_ = true;
    return Status::OK();
  }

 private:
  Status Truncated() { return Status::Corruption("sort run truncated", path_); }
  // Reads exactly n bytes; *got < n only at the end of the file.
  Status ReadFull(char* p, size_t n, size_t* got) {
    *got = 0;
    while (*got < n) {
      ssize_t r = ::read(fd_, p + *got, n - *got);
      if (r < 0 && errno == EINTR) continue;
      if (r < 0) return ErrnoStatus("cannot read sort run", path_);
      if (r == 0) break;
      *got += static_cast<size_t>(r);
    }
    return Status::OK();
  }
  // The next block into raw_ (end_ = 0 at the end of the run).
  Status LoadBlock() {
    pos_ = end_ = 0;
    if (left_ == 0) return Status::OK();  // the end of the slice
    char h[kBlockHeader];
    size_t got;
    HFILE_RETURN_IF_ERROR(ReadFull(h, sizeof(h), &got));
    if (got == 0 && left_ == kWholeRun) return Status::OK();
    if (got < sizeof(h)) return Truncated();
    uint32_t raw_len, stored;
    std::memcpy(&raw_len, h, 4);
    std::memcpy(&stored, h + 4, 4);
    if (stored > raw_len || raw_len == 0 || raw_len > static_cast<uint32_t>(LZ4_MAX_INPUT_SIZE))
      return Status::Corruption("sort run: bad block header", path_);
    if (left_ != kWholeRun) {
      if (kBlockHeader + uint64_t{stored} > left_)
        return Status::Corruption("sort run: a block crosses the end of its range", path_);
      left_ -= kBlockHeader + stored;
    }
    if (raw_.size() < raw_len) raw_.resize(raw_len);
    if (stored == raw_len) {
      HFILE_RETURN_IF_ERROR(ReadFull(raw_.data(), raw_len, &got));
      if (got < raw_len) return Truncated();
    } else {
      if (comp_.size() < stored) comp_.resize(stored);
      HFILE_RETURN_IF_ERROR(ReadFull(comp_.data(), stored, &got));
      if (got < stored) return Truncated();
      int d = LZ4_decompress_safe(comp_.data(), raw_.data(), static_cast<int>(stored),
                                  static_cast<int>(raw_len));
      if (d != static_cast<int>(raw_len))
        return Status::Corruption("sort run: bad lz4 block", path_);
    }
    end_ = raw_len;
    return Status::OK();
  }

  ComparatorKind kind_;
  std::string path_;
  int fd_ = -1;
  const SortEntry* mem_ = nullptr;  // OpenMemory: the next entry, and the end
  const SortEntry* mem_end_ = nullptr;
  std::vector<char> raw_;   // the current block, decompressed
  std::vector<char> comp_;  // its stored bytes
  uint64_t left_ = kWholeRun;  // bytes of the slice not read yet
  size_t end_ = 0;          // raw bytes in raw_
  size_t pos_ = 0;          // the next record's offset in raw_
  std::vector<char> key_;   // the current record's key: its first key_len_ bytes
  size_t key_len_ = 0;
  Cell cell_;
  KeyHead head_;
  uint64_t ordinal_ = 0;
  bool valid_ = false;
};

// A k-way merge of run readers in entry order, keeping the first (newest-added) of equal keys.
// A binary heap whose top is replaced and sifted down once per cell; comparisons first look at
// the readers' cached key heads (most end there), only then decode and compare the keys.
class RunMerger {
 public:
  RunMerger(ComparatorKind kind, uint64_t* dropped) : kind_(kind), dropped_(dropped) {}

  // Merges the runs at `runs` and the sorted entry ranges `memory`.
  Status Open(const std::vector<RunSlice>& runs,
              const std::vector<std::pair<const SortEntry*, const SortEntry*>>& memory = {}) {
    readers_.reserve(runs.size() + memory.size());
    for (const auto& slice : runs) {
      readers_.push_back(std::make_unique<RunReader>(kind_));
      HFILE_RETURN_IF_ERROR(readers_.back()->Open(slice));
      if (readers_.back()->valid()) heap_.push_back(readers_.back().get());
    }
    for (const auto& [begin, end] : memory) {
      readers_.push_back(std::make_unique<RunReader>(kind_));
      HFILE_RETURN_IF_ERROR(readers_.back()->OpenMemory(begin, end));
      if (readers_.back()->valid()) heap_.push_back(readers_.back().get());
    }
    std::make_heap(heap_.begin(), heap_.end(), Greater{kind_});
    return Status::OK();
  }
  bool valid() const { return !heap_.empty(); }
  const Cell& cell() const { return heap_.front()->cell(); }
  uint64_t ordinal() const { return heap_.front()->ordinal(); }

  // Moves past the current cell and every older cell with the same key.
  Status Next() {
    const RunReader* top = heap_.front();
    last_key_.assign(top->cell().key.data(), top->cell().key.size());
    last_head_ = top->head();
    HFILE_RETURN_IF_ERROR(AdvanceTop());
    while (!heap_.empty() && heap_.front()->head() == last_head_ &&
           CompareKeys(kind_, cell().key, Slice(last_key_)) == 0) {
      ++*dropped_;
      HFILE_RETURN_IF_ERROR(AdvanceTop());
    }
    return Status::OK();
  }

 private:
  struct Greater {
    ComparatorKind kind;
    bool operator()(const RunReader* a, const RunReader* b) const {
      int c = CompareHeads(a->head(), b->head());
      if (c != 0) return c > 0;
      return CompareEntries(kind, a->cell().key, a->ordinal(), b->cell().key, b->ordinal()) > 0;
    }
  };
  Status AdvanceTop() {
    RunReader* r = heap_.front();
    Status s = r->Next();
    if (!s.ok()) return s;
    if (!r->valid()) {
      heap_.front() = heap_.back();
      heap_.pop_back();
      if (heap_.empty()) return Status::OK();
    }
    SiftDown();
    return Status::OK();
  }
  // Restores the heap after its top changed.
  void SiftDown() {
    const Greater greater{kind_};
    const size_t n = heap_.size();
    RunReader* x = heap_[0];
    size_t i = 0;
    for (;;) {
      size_t c = 2 * i + 1;
      if (c >= n) break;
      if (c + 1 < n && greater(heap_[c], heap_[c + 1])) ++c;
      if (!greater(x, heap_[c])) break;
      heap_[i] = heap_[c];
      i = c;
    }
    heap_[i] = x;
  }

  ComparatorKind kind_;
  uint64_t* dropped_;
  std::vector<std::unique_ptr<RunReader>> readers_;
  std::vector<RunReader*> heap_;
  std::string last_key_;
  KeyHead last_head_;
};

// A killed sorter cannot remove its private dir; the next Open in the same temp dir removes
// those whose process is gone ("hfile-sort-<pid>-XXXXXX" holding only run-* files).
uint64_t RemoveDeadSortDirs(const std::string& temp_dir) {
  auto entries = ListDir(temp_dir);
  if (!entries.ok()) return 0;
  uint64_t removed = 0;
  const std::string prefix = "hfile-sort-";
  for (const auto& e : *entries) {
    if (!e.is_dir || e.name.compare(0, prefix.size(), prefix) != 0) continue;
    size_t dash = e.name.find('-', prefix.size());
    if (dash == std::string::npos || dash == prefix.size() || e.name.size() - dash != 7) continue;
    const std::string digits = e.name.substr(prefix.size(), dash - prefix.size());
    if (digits.find_first_not_of("0123456789") != std::string::npos) continue;
    const long pid = std::atol(digits.c_str());
    if (pid <= 0 || ::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM) continue;
    const std::string dir = JoinPath(temp_dir, e.name);
    auto files = ListDir(dir);
    if (!files.ok()) continue;
    bool only_runs = true;
    for (const auto& f : *files)
      only_runs = only_runs && !f.is_dir && f.name.compare(0, 4, "run-") == 0;
    if (!only_runs) continue;  // not ours after all: leave it
    for (const auto& f : *files) ::unlink(JoinPath(dir, f.name).c_str());
    if (::rmdir(dir.c_str()) == 0) ++removed;
  }
  return removed;
}

}  // namespace

struct CellSorter::Impl {
  using Entry = SortEntry;

  // A chunk being spilled on a background thread while Add fills the next one: parsing and
  // sorting of the next chunk overlap the sort and write of the previous (both cores).
  struct Inflight {
    std::vector<std::unique_ptr<char[]>> blocks;
    size_t arena_bytes = 0;
    std::vector<Entry> entries;
    std::thread thread;
    Status status;
    uint64_t bytes = 0, dropped = 0;
    size_t runs = 0;  // runs it writes
    bool active = false;
  };

  CellSorterOptions o;
  std::string dir;  // private spill directory
  // Budget of the chunk Add fills: the whole budget until the first spill (what fits is never
  // spilled), then half, the other half being the chunk in flight.
  size_t chunk_bytes = 0;
  size_t block_size = 0;
  size_t index_cap = 0;  // entries per run at most
  std::vector<std::unique_ptr<char[]>> blocks;
  std::vector<size_t> block_sizes;
  size_t arena_bytes = 0;  // sum of block_sizes
  size_t block_used = 0;   // bytes used in blocks.back()
  std::vector<Entry> entries;
  std::deque<std::unique_ptr<Run>> runs;  // oldest first
  std::mutex range_mu;  // FinishRanges' iterators: their duplicates_dropped
  uint64_t next_run = 0;
  uint64_t ordinal = 0;
  bool finished = false;
  Status failed;
  CellSorterStats stats;
  Inflight inflight;

  ~Impl() {
    if (inflight.thread.joinable()) inflight.thread.join();
    RemoveSpill();
  }

  size_t ChunkAccounted() const { return arena_bytes + entries.capacity() * sizeof(Entry); }
  size_t Accounted() const {
    return ChunkAccounted() + inflight.arena_bytes + inflight.entries.capacity() * sizeof(Entry);
  }
  void NotePeak() {
    stats.peak_memory_bytes = std::max<uint64_t>(stats.peak_memory_bytes, Accounted());
  }

  void RemoveSpill() {
    for (const auto& r : runs) ::unlink(r->path.c_str());
    runs.clear();
    if (!dir.empty()) {
      ::rmdir(dir.c_str());
      dir.clear();
    }
  }

  Status Fail(Status s) {
    failed = s;
    if (inflight.thread.joinable()) inflight.thread.join();
    inflight = Inflight();
    RemoveSpill();
    ReleaseArena();
    return s;
  }

  void ReleaseArena() {
    blocks.clear();
    block_sizes.clear();
    arena_bytes = 0;
    block_used = 0;
  }

  std::string NewRunPath() { return JoinPath(dir, "run-" + std::to_string(next_run++) + ".lz4"); }

  // Reserves `n` arena bytes, spilling first when the budget would be passed.
  Result<char*> Allocate(size_t n) {
    if (blocks.empty() || block_sizes.back() - block_used < n) {
      size_t size = std::max(block_size, n);
      if (!entries.empty() && ChunkAccounted() + size > chunk_bytes) {
        HFILE_RETURN_IF_ERROR(SpillChunk());
        return Allocate(n);
      }
      blocks.push_back(std::unique_ptr<char[]>(new char[size]));
      block_sizes.push_back(size);
      arena_bytes += size;
      block_used = 0;
    }
    char* p = blocks.back().get() + block_used;
    block_used += n;
    return p;
  }

  void SortEntries() {
    boost::sort::pdqsort_branchless(entries.begin(), entries.end(), EntryLess{o.kind});
    // Keep the first (newest-added) of each key.
    size_t out = 0;
    for (size_t i = 0; i < entries.size(); ++i) {
      if (out > 0) {
        if (SameKey(o.kind, entries[out - 1], entries[i])) {
          ++stats.duplicates_dropped;
          continue;
        }
      }
      entries[out++] = entries[i];
    }
    entries.resize(out);
  }

  // Sorts [begin, end) and writes it as the run `path`, keeping the first (newest-added) of
  // equal keys. Touches nothing of the sorter's state.
  static Status WriteRun(ComparatorKind kind, Entry* begin, Entry* end, Run* run,
                         const std::vector<std::string>* cuts, uint64_t* bytes,
                         uint64_t* dropped) {
    // Branchless partitioning: most comparisons end on the heads, whose outcome is random.
    boost::sort::pdqsort_branchless(begin, end, EntryLess{kind});
    RunWriter w(cuts);
    Status s = w.Open(run->path);
    const Entry* last = nullptr;
    for (const Entry* e = begin; s.ok() && e != end; ++e) {
      // The records are read in key order, all over the arena: fetched a few entries ahead,
      // their cache misses overlap instead of stalling one after another.
      if (end - e > kPrefetchAhead) {
        __builtin_prefetch(e[kPrefetchAhead].record);
        __builtin_prefetch(e[kPrefetchAhead].record + 64);
      }
      if (last != nullptr && SameKey(kind, *last, *e)) {
        ++*dropped;
        continue;
      }
      last = e;
      uint64_t ord;
      Cell c = RecordCell(e->record, &ord);
      s = w.Append(c, ord);
    }
    if (s.ok()) s = w.Close();
    *bytes += w.bytes();
    run->starts = std::move(w.starts());
    return s;
  }

  // In how many parts `n` entries are sorted: two, one per thread, when they are enough for
  // two threads and two are allowed; one otherwise.
  size_t Parts(size_t n) const { return n >= kParallelSortEntries && o.threads > 1 ? 2 : 1; }

  // The runs a spill of `n` entries writes (one per part), added to `runs` (the spill fills in
  // their starts; a deque keeps their addresses).
  std::vector<Run*> NewRuns(size_t n) {
    std::vector<Run*> out(Parts(n));
    for (auto& r : out) {
      runs.push_back(std::make_unique<Run>(Run{NewRunPath(), {}}));
      r = runs.back().get();
    }
    return out;
  }
  const std::vector<std::string>* Cuts() const {
    return o.range_starts.empty() ? nullptr : &o.range_starts;
  }

  // Runs `first` on a helper thread (here when none can be had) and `second` on this one;
  // returns the first failure.
  template <typename F1, typename F2>
  static Status OnTwoThreads(F1 first, F2 second) {
    Status a;
    std::thread helper;
    try {
      helper = std::thread([&] { a = first(); });
    } catch (const std::system_error&) {
      a = first();
    }
    Status b = second();
    if (helper.joinable()) helper.join();
    return a.ok() ? b : a;
  }

  // Sorts `entries` and writes them as the runs `targets` (NewRuns): with two, each half is
  // sorted and written by its own thread, so that the whole spill runs on both cores (merging
  // the two halves into one run was a serial third of it); the final merge takes both.
  static Status WriteRuns(ComparatorKind kind, std::vector<Entry>* entries,
                          const std::vector<Run*>& targets, const std::vector<std::string>* cuts,
                          uint64_t* bytes, uint64_t* dropped) {
    Entry* begin = entries->data();
    Entry* end = begin + entries->size();
    if (targets.size() == 1) return WriteRun(kind, begin, end, targets[0], cuts, bytes, dropped);
    Entry* mid = begin + entries->size() / 2;
    uint64_t first_bytes = 0, first_dropped = 0;
    Status s = OnTwoThreads(
        [&] {
          return WriteRun(kind, begin, mid, targets[0], cuts, &first_bytes, &first_dropped);
        },
        [&] { return WriteRun(kind, mid, end, targets[1], cuts, bytes, dropped); });
    *bytes += first_bytes;
    *dropped += first_dropped;
    return s;
  }

  // At Finish, with runs spilled: the entries in memory sorted as sources of the final merge
  // (two halves, on two threads, when large), instead of spilled and read back. Only when the
  // budget left beside them holds a reader for every run, for each of `concurrent` merges at
  // once (FinishRanges); empty otherwise.
  std::vector<std::pair<const Entry*, const Entry*>> KeepInMemory(size_t concurrent) {
    if (entries.empty()) return {};
    const size_t sources = Parts(entries.size());
    const size_t left = o.memory_bytes > ChunkAccounted() ? o.memory_bytes - ChunkAccounted() : 0;
    if ((runs.size() + sources) * concurrent > std::min(left / kReaderBytes, MaxOpenRuns()))
      return {};
    Entry* begin = entries.data();
    Entry* end = begin + entries.size();
    const EntryLess less{o.kind};
    if (sources == 1) {
      boost::sort::pdqsort_branchless(begin, end, less);
      return {{begin, end}};
    }
    Entry* mid = begin + entries.size() / 2;
    auto sort = [less](Entry* b, Entry* e) {
      boost::sort::pdqsort_branchless(b, e, less);
      return Status::OK();
    };
    // Sorting cannot fail: the status is always OK.
    static_cast<void>(
        OnTwoThreads([&] { return sort(begin, mid); }, [&] { return sort(mid, end); }));
    return {{begin, mid}, {mid, end}};
  }

  // Waits for the chunk in flight, if any, and frees its memory.
  Status WaitInflight() {
    if (!inflight.active) return Status::OK();
    inflight.thread.join();
    return CollectInflight();
  }
  // Takes the finished chunk's figures and status, and frees its memory.
  Status CollectInflight() {
    Status s = inflight.status;
    stats.spilled_bytes += inflight.bytes;
    stats.duplicates_dropped += inflight.dropped;
    stats.runs_spilled += inflight.runs;
    inflight = Inflight();
    return s.ok() ? s : Fail(s);
  }

  // The filled chunk goes to a background thread to be sorted and spilled (after the previous
  // one is done); Add continues on a fresh chunk. Without a thread to be had, spilled here.
  Status SpillChunk() {
    // The first here, then chunks of half the budget in the background; with one thread, every
    // chunk here and of the whole budget.
    if (runs.empty() || o.threads <= 1) {
      HFILE_RETURN_IF_ERROR(SpillMemory());
      if (o.threads > 1) {
        chunk_bytes = o.memory_bytes / 2;
        index_cap = std::max<size_t>(16, chunk_bytes / 4 / sizeof(Entry));
      }
      return Status::OK();
    }
    HFILE_RETURN_IF_ERROR(WaitInflight());
    std::vector<Run*> targets = NewRuns(entries.size());
    inflight.runs = targets.size();
    inflight.blocks = std::move(blocks);
    inflight.arena_bytes = arena_bytes;
    inflight.entries = std::move(entries);
    inflight.active = true;
    blocks.clear();
    entries = std::vector<Entry>();
    ReleaseArena();
    try {
      Inflight* f = &inflight;
      ComparatorKind kind = o.kind;
      const std::vector<std::string>* cuts = Cuts();
      inflight.thread = std::thread([f, kind, targets, cuts] {
        f->status = WriteRuns(kind, &f->entries, targets, cuts, &f->bytes, &f->dropped);
      });
    } catch (const std::system_error&) {
      inflight.status = WriteRuns(o.kind, &inflight.entries, targets, Cuts(), &inflight.bytes,
                                  &inflight.dropped);
    }
    return WaitInflightIfNoThread();
  }
  Status WaitInflightIfNoThread() {
    if (inflight.active && !inflight.thread.joinable()) return CollectInflight();
    return Status::OK();
  }

  // The in-memory cells as runs, here and now (on both cores); the arena is then empty.
  Status SpillMemory() {
    HFILE_RETURN_IF_ERROR(WaitInflight());
    std::vector<Run*> targets = NewRuns(entries.size());
    uint64_t bytes = 0, dropped = 0;
    Status s = WriteRuns(o.kind, &entries, targets, Cuts(), &bytes, &dropped);
    stats.spilled_bytes += bytes;
    stats.duplicates_dropped += dropped;
    if (!s.ok()) return Fail(s);
    stats.runs_spilled += targets.size();
    entries = std::vector<Entry>();
    ReleaseArena();
    return Status::OK();
  }

  // The start of Finish and FinishRanges: no more Add, and the chunk in flight spilled.
  Status EndInput() {
    if (!failed.ok()) return failed;
    if (finished) return Status::InvalidArgument("CellSorter::Finish called twice");
    finished = true;
    return WaitInflight();
  }

  // Finish's work before the final merge, for `concurrent` merges at once (FinishRanges): the
  // last chunk's sorted sources kept in memory (*memory), or spilled too, and then as many
  // extra passes as needed for every merge to open all runs within the budget and the
  // open-file limit.
  Status PrepareMerge(size_t concurrent,
                      std::vector<std::pair<const Entry*, const Entry*>>* memory) {
    *memory = KeepInMemory(concurrent);
    if (!memory->empty()) return Status::OK();
    if (!entries.empty()) HFILE_RETURN_IF_ERROR(SpillMemory());
    entries = std::vector<Entry>();
    ReleaseArena();
    // As many readers as the budget and the open-file limit hold, at least two.
    const size_t fan_in = std::max<size_t>(
        2, std::min(o.memory_bytes / kReaderBytes, MaxOpenRuns()) / concurrent);
    while (runs.size() > fan_in) HFILE_RETURN_IF_ERROR(MergeRuns(fan_in));
    return Status::OK();
  }

  // Merges the oldest `n` runs into one new run (appended), removing them.
  Status MergeRuns(size_t n) {
    std::vector<RunSlice> group;
    for (size_t i = 0; i < n; ++i) group.push_back(RunSlice{runs[i]->path});
    RunWriter w(Cuts());
    runs.push_back(std::make_unique<Run>(Run{NewRunPath(), {}}));
    Run* merged = runs.back().get();
    Status s = w.Open(merged->path);
    if (s.ok()) {
      RunMerger m(o.kind, &stats.duplicates_dropped);
      s = m.Open(group);
      while (s.ok() && m.valid()) {
        s = w.Append(m.cell(), m.ordinal());
        if (s.ok()) s = m.Next();
      }
    }
    if (s.ok()) s = w.Close();
    stats.spilled_bytes += w.bytes();
    merged->starts = std::move(w.starts());
    if (!s.ok()) return Fail(s);
    for (size_t i = 0; i < n; ++i) {
      ::unlink(runs.front()->path.c_str());
      runs.pop_front();
    }
    ++stats.runs_spilled;
    ++stats.merge_passes;
    return Status::OK();
  }
};

namespace {

// The sorted output, streamed once.
class SortedIterator : public CellIterator {
 public:
  explicit SortedIterator(CellSorter::Impl* impl) : impl_(impl) {}
  bool Valid() const override { return status_.ok() && HasCell(); }
  void SeekToFirst() override {
    if (moved_) status_ = Status::NotSupported("a sorted cell stream cannot go back");
  }
  void Seek(const Slice& key) override {
    while (Valid() && CompareKeys(impl_->o.kind, cell().key, key) < 0) Next();
  }
  void Next() override {
    moved_ = true;
    Advance();
  }
  Status status() const override { return status_; }

 protected:
  virtual bool HasCell() const = 0;
  virtual void Advance() = 0;

  CellSorter::Impl* impl_;
  Status status_;
  bool moved_ = false;
};

// Sorted entries still in the arena (nothing was spilled): [pos, end).
class MemoryIterator : public SortedIterator {
 public:
  MemoryIterator(CellSorter::Impl* impl, const SortEntry* begin, const SortEntry* end)
      : SortedIterator(impl), pos_(begin), end_(end) {}
  const Cell& cell() const override { return cell_; }
  void Load() {
    if (pos_ != end_) cell_ = RecordCell(pos_->record, nullptr);
  }

 protected:
  bool HasCell() const override { return pos_ != end_; }
  void Advance() override {
    ++pos_;
    Load();
  }

 private:
  const SortEntry* pos_;
  const SortEntry* end_;
  Cell cell_;
};

// The k-way merge of runs (or of a range's slices of them) and in-memory sources.
class MergeIterator : public SortedIterator {
 public:
  // `range`: one of FinishRanges' iterators, read on a thread of its own: its readers are
  // opened at SeekToFirst and released at its end, and the duplicates it drops are added to
  // the sorter's stats (under range_mu) then.
  MergeIterator(CellSorter::Impl* impl, std::vector<RunSlice> runs,
                std::vector<std::pair<const SortEntry*, const SortEntry*>> memory, bool range)
      : SortedIterator(impl), runs_(std::move(runs)), memory_(std::move(memory)), range_(range) {}
  Status Open() {
    merger_ = std::make_unique<RunMerger>(impl_->o.kind,
                                          range_ ? &dropped_ : &impl_->stats.duplicates_dropped);
    Status s = merger_->Open(runs_, memory_);
    if (s.ok() && range_ && !merger_->valid()) Release();
    return s;
  }
  void SeekToFirst() override {
    if (range_ && !opened_) {
      opened_ = true;
      status_ = Open();
      return;
    }
    SortedIterator::SeekToFirst();
  }
  const Cell& cell() const override { return merger_->cell(); }

 protected:
  bool HasCell() const override { return merger_ != nullptr && merger_->valid(); }
  void Advance() override {
    Status s = merger_->Next();
    if (!s.ok()) {
      status_ = s;
    } else if (range_ && !merger_->valid()) {
      Release();
    }
  }

 private:
  void Release() {
    {
      std::lock_guard<std::mutex> l(impl_->range_mu);
      impl_->stats.duplicates_dropped += dropped_;
    }
    merger_.reset();
  }

  std::vector<RunSlice> runs_;
  std::vector<std::pair<const SortEntry*, const SortEntry*>> memory_;
  bool range_;
  bool opened_ = false;
  uint64_t dropped_ = 0;
  std::unique_ptr<RunMerger> merger_;
};

// Where each range of `cuts` begins in sorted entries [begin, end): cuts.size() + 2 bounds.
std::vector<const SortEntry*> RangeBounds(const std::vector<std::string>& cuts,
                                          const SortEntry* begin, const SortEntry* end) {
  std::vector<const SortEntry*> at{begin};
  for (const std::string& cut : cuts) {
    at.push_back(std::partition_point(at.back(), end, [&](const SortEntry& e) {
      return KeyRow(RecordCell(e.record, nullptr).key).compare(Slice(cut)) < 0;
    }));
  }
  at.push_back(end);
  return at;
}

}  // namespace

CellSorter::CellSorter(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
CellSorter::~CellSorter() = default;

Result<std::unique_ptr<CellSorter>> CellSorter::Open(CellSorterOptions options) {
  if (options.memory_bytes < kMinSorterMemory) {
    return Status::InvalidArgument("sort memory budget below the minimum of " +
                                   std::to_string(kMinSorterMemory >> 10) + " KiB");
  }
  if (!options.range_starts.empty()) {
    const auto& cuts = options.range_starts;
    if (options.kind != ComparatorKind::kDefault)
      return Status::InvalidArgument("CellSorter: range_starts need the default comparator");
    for (size_t i = 0; i < cuts.size(); ++i) {
      if (cuts[i].empty() || (i > 0 && !(cuts[i - 1] < cuts[i])))
        return Status::InvalidArgument("CellSorter: range_starts must ascend, without empty rows");
    }
  }
  if (options.temp_dir.empty()) options.temp_dir = ".";
  auto impl = std::make_unique<Impl>();
  impl->o = options;
  // The first chunk has the whole budget, later ones half (SpillChunk). Of a chunk, up to a
  // quarter for the index (an entry is 32 bytes, a third of a small cell's record: with an
  // eighth, runs of small cells ended with most of the arena unused), the rest for arena
  // blocks of a thirty-second of the budget (so a spill wastes little of the last block).
  impl->chunk_bytes = options.memory_bytes;
  impl->index_cap = std::max<size_t>(16, impl->chunk_bytes / 4 / sizeof(Impl::Entry));
  impl->block_size = std::clamp<size_t>(options.memory_bytes / 32, 4096, size_t{4} << 20);

  struct stat st;
  if (::stat(options.temp_dir.c_str(), &st) != 0) {
    return ErrnoStatus("sort temp dir", options.temp_dir);
  }
  if (!S_ISDIR(st.st_mode)) {
    return Status::IOError("sort temp dir is not a directory", options.temp_dir);
  }
  if (options.estimated_spill_bytes > options.memory_bytes) {
    struct statvfs vfs;
    if (::statvfs(options.temp_dir.c_str(), &vfs) != 0) {
      return ErrnoStatus("cannot check free space of sort temp dir", options.temp_dir);
    }
    uint64_t avail = static_cast<uint64_t>(vfs.f_bavail) * vfs.f_frsize;
    if (avail < options.estimated_spill_bytes) {
      return Status::IOError(
          "not enough free space for the sort's runs in " + options.temp_dir + ": " +
          std::to_string(avail) + " bytes free, about " +
          std::to_string(options.estimated_spill_bytes) +
          " needed (choose another temp dir or a larger memory budget)");
    }
  }
  impl->stats.stale_dirs_removed = RemoveDeadSortDirs(options.temp_dir);
  std::string tmpl = JoinPath(options.temp_dir, "hfile-sort-" + std::to_string(::getpid()) +
                                                    "-XXXXXX");
  if (::mkdtemp(tmpl.data()) == nullptr) {
    return ErrnoStatus("cannot create a directory in sort temp dir", options.temp_dir);
  }
  impl->dir = tmpl;
  return std::unique_ptr<CellSorter>(new CellSorter(std::move(impl)));
}

Status CellSorter::Add(const Cell& cell) {
  Impl& m = *impl_;
  if (!m.failed.ok()) return m.failed;
  if (m.finished) return Status::InvalidArgument("CellSorter::Add after Finish");
  if (m.o.kind != ComparatorKind::kRawBytes && !IsValidKey(cell.key)) {
    return Status::InvalidArgument("malformed cell key");
  }
  if (m.entries.size() == m.index_cap) HFILE_RETURN_IF_ERROR(m.SpillChunk());
  if (m.entries.size() == m.entries.capacity()) {
    size_t cap = std::min(m.index_cap, std::max<size_t>(64, m.entries.capacity() * 2));
    if (!m.entries.empty() && m.arena_bytes + cap * sizeof(Impl::Entry) > m.chunk_bytes) {
      HFILE_RETURN_IF_ERROR(m.SpillChunk());
    } else {
      m.entries.reserve(cap);
    }
  }
  HFILE_ASSIGN_OR_RETURN(char* p, m.Allocate(RecordSize(cell)));
  EncodeHeader(p, Header{static_cast<uint32_t>(cell.key.size()),
                         static_cast<uint32_t>(cell.value.size()),
                         static_cast<uint32_t>(cell.tags.size()), cell.sequence_id, m.ordinal++});
  char* b = p + kRecordHeader;
  std::memcpy(b, cell.key.data(), cell.key.size());
  std::memcpy(b + cell.key.size(), cell.value.data(), cell.value.size());
  std::memcpy(b + cell.key.size() + cell.value.size(), cell.tags.data(), cell.tags.size());
  m.entries.push_back(Impl::Entry{p, HeadOf(m.o.kind, cell.key)});
  ++m.stats.cells_added;
  m.NotePeak();
  return Status::OK();
}

Result<std::unique_ptr<CellIterator>> CellSorter::Finish() {
  Impl& m = *impl_;
  HFILE_RETURN_IF_ERROR(m.EndInput());
  if (m.runs.empty()) {
    m.SortEntries();
    auto it = std::make_unique<MemoryIterator>(&m, m.entries.data(),
                                               m.entries.data() + m.entries.size());
    it->Load();
    return std::unique_ptr<CellIterator>(std::move(it));
  }
  // The last chunk stays in memory as merge sources when the budget allows one final pass;
  // otherwise it is spilled too.
  std::vector<std::pair<const Impl::Entry*, const Impl::Entry*>> memory;
  HFILE_RETURN_IF_ERROR(m.PrepareMerge(1, &memory));
  std::vector<RunSlice> runs;
  for (const auto& r : m.runs) runs.push_back(RunSlice{r->path});
  auto it = std::make_unique<MergeIterator>(&m, std::move(runs), std::move(memory), false);
  Status s = it->Open();
  if (!s.ok()) return m.Fail(s);
  return std::unique_ptr<CellIterator>(std::move(it));
}

Result<std::vector<std::unique_ptr<CellIterator>>> CellSorter::FinishRanges(size_t concurrent) {
  Impl& m = *impl_;
  HFILE_RETURN_IF_ERROR(m.EndInput());
  const std::vector<std::string>& cuts = m.o.range_starts;
  concurrent = std::max<size_t>(1, concurrent);
  const size_t n = cuts.size() + 1;
  std::vector<std::unique_ptr<CellIterator>> out;
  if (m.runs.empty()) {
    m.SortEntries();
    const auto at = RangeBounds(cuts, m.entries.data(), m.entries.data() + m.entries.size());
    for (size_t r = 0; r < n; ++r) {
      auto it = std::make_unique<MemoryIterator>(&m, at[r], at[r + 1]);
      it->Load();
      out.push_back(std::move(it));
    }
    return out;
  }
  std::vector<std::pair<const Impl::Entry*, const Impl::Entry*>> memory;
  HFILE_RETURN_IF_ERROR(m.PrepareMerge(concurrent, &memory));
  std::vector<std::vector<const Impl::Entry*>> memory_at;
  for (const auto& [begin, end] : memory) memory_at.push_back(RangeBounds(cuts, begin, end));
  for (const auto& run : m.runs) {
    if (run->starts.size() != cuts.size())
      return m.Fail(Status::Corruption("sort run without its range offsets", run->path));
  }
  for (size_t r = 0; r < n; ++r) {
    std::vector<RunSlice> slices;
    for (const auto& run : m.runs) {
      slices.push_back(RunSlice{run->path, r == 0 ? 0 : run->starts[r - 1],
                                r + 1 < n ? run->starts[r] : kWholeRun});
    }
    std::vector<std::pair<const Impl::Entry*, const Impl::Entry*>> parts;
    for (const auto& at : memory_at) parts.emplace_back(at[r], at[r + 1]);
    out.push_back(std::make_unique<MergeIterator>(&m, std::move(slices), std::move(parts), true));
  }
  return out;
}

const CellSorterStats& CellSorter::stats() const { return impl_->stats; }
const std::string& CellSorter::spill_dir() const { return impl_->dir; }

}  // namespace hfile::region
