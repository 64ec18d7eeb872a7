// CheckInput / CheckCellsRead (hfile/input_check.h): the trailer's claims about the data section
// against the block headers actually there, and the cells a tool read against the entry count.
#include "hfile/input_check.h"

#include <fmt/format.h>

#include "block_reader.h"
#include "reader_internal.h"

namespace hfile {

namespace {

// `code`: the name hfile verify gives the same finding (hfile-verify(1)), so that a refusal
// can be looked up and matched by scripts as verify's problems are.
Status Refuse(const Reader& r, ProblemCode code, int64_t offset, const std::string& what) {
  std::string where = offset >= 0 ? fmt::format("offset {}: ", offset) : "";
  return Status::Corruption(
      fmt::format("{}: {}: {}{} (the input is refused: a writing tool never trusts a trailer that "
                  "denies the file's own blocks)",
                  r.path(), ProblemCodeName(code), where, what));
}

// Walks the headers of [0, load-on-open): counts data blocks, notes the first one.
Status WalkDataSection(const Reader& r, uint64_t* data_blocks, int64_t* first_data) {
  const Reader::Rep& rep = r.rep();
  BlockReader br = rep.NewBlockReader();
  const uint64_t end = rep.trailer.load_on_open_data_offset;
  *data_blocks = 0;
  *first_data = -1;
  for (uint64_t offset = 0; offset < end;) {
    BlockHeader h;
    if (Status s = br.ReadHeader(offset, &h); !s.ok()) {
      if (s.IsIOError()) return s.WithContext("checking the input " + r.path());
      return Refuse(r, ProblemCode::kBlockHeaderInvalid, static_cast<int64_t>(offset),
                    "unreadable block header: " + s.message());
    }
    if (IsDataBlock(h.type)) {
      if (*first_data < 0) *first_data = static_cast<int64_t>(offset);
      ++*data_blocks;
    }
    const uint64_t size = h.on_disk_size_with_header();
    if (size <= h.header_size || size > end - offset) {
      return Refuse(r, ProblemCode::kBlockSizeInvalid, static_cast<int64_t>(offset),
                    fmt::format("{} block of {} bytes runs past the load-on-open section at {}",
                                BlockTypeName(h.type), size, end));
    }
    offset += size;
  }
  return Status::OK();
}

}  // namespace

Status CheckInput(const Reader& reader, const InputCheckOptions& options,
                  InputCheckReport* report) {
  InputCheckReport local;
  InputCheckReport* rep = report ? report : &local;
  const Trailer& t = reader.trailer();
  int64_t first_data = -1;
  HFILE_RETURN_IF_ERROR(WalkDataSection(reader, &rep->data_blocks, &first_data));
  if (rep->data_blocks > 0 && t.entry_count == 0) {
    return Refuse(reader, ProblemCode::kEntryCountMismatch, first_data,
                  fmt::format("{} data block(s) present, the trailer says entry_count 0",
                              rep->data_blocks));
  }
  if (rep->data_blocks > 0 && t.data_index_count == 0) {
    return Refuse(reader, ProblemCode::kDataBlockNotIndexed, first_data,
                  fmt::format("{} data block(s) present, the trailer says data_index_count 0",
                              rep->data_blocks));
  }
  if (first_data != t.first_data_block_offset) {
    return Refuse(reader, ProblemCode::kTrailerDataOffsetMismatch, first_data,
                  fmt::format("the first data block is at {}, the trailer says {}", first_data,
                              t.first_data_block_offset));
  }
  if (rep->data_blocks == 0 && (t.entry_count > 0 || t.data_index_count > 0)) {
    return Refuse(reader, ProblemCode::kTrailerDataOffsetMismatch, -1,
                  fmt::format("no data block, the trailer says {} cell(s) in {} index entries",
                              t.entry_count, t.data_index_count));
  }
  if (!options.full) return Status::OK();
  return VerifyInput(reader.path(), options.verify, rep);
}

Status VerifyInput(const std::string& path, const VerifyOptions& options,
                   InputCheckReport* report) {
  VerifyReport v = VerifyFile(path, options);
  if (report) {
    report->verified = true;
    report->warnings = v.warning_count;
  }
  if (!v.open_status.ok()) return v.open_status;
  if (!v.io_error.ok()) return v.io_error.WithContext("checking the input " + path);
  if (v.problem_count > 0) {
    const VerifyProblem& p = v.problems.front();
    return Status::Corruption(fmt::format(
        "{}: does not verify ({} error(s); first: {}: {}{}{}); the input is refused (hfile verify "
        "lists every problem)",
        path, v.problem_count, ProblemCodeName(p.code),
        p.offset >= 0 ? fmt::format("offset {}: ", p.offset) : "",
        p.block.empty() ? "" : p.block + " block: ", p.what));
  }
  return Status::OK();
}

std::string_view RefusalCode(const Status& s) {
  if (!s.IsCorruption()) return "";
  const std::string& m = s.message();
  auto known = [](std::string_view token) -> std::string_view {
    for (int i = 0; i < static_cast<int>(ProblemCode::kCount); ++i)
      if (ProblemCodeName(static_cast<ProblemCode>(i)) == token) return token;
    return "";
  };
  // VerifyInput: "<path>: does not verify (<n> error(s); first: <code>: ...".
  static constexpr std::string_view kFirst = " error(s); first: ";
  if (const size_t at = m.find(kFirst); at != std::string::npos) {
    const size_t from = at + kFirst.size();
    const size_t to = m.find(':', from);
    return to == std::string::npos ? "" : known(std::string_view(m).substr(from, to - from));
  }
  // Refuse: "<path>: <code>: <offset, what> (the input is refused: ...". The last code before
  // the marker: a context prefix and the path come before it, and no `what` names a code.
  const size_t marker = m.find(" (the input is refused: ");
  if (marker == std::string::npos) return "";
  std::string_view best;
  size_t best_at = 0;
  for (int i = 0; i < static_cast<int>(ProblemCode::kCount); ++i) {
    const std::string_view name = ProblemCodeName(static_cast<ProblemCode>(i));
    const size_t at = m.rfind(fmt::format(": {}:", name), marker);
    if (at != std::string::npos && (best.empty() || at > best_at)) best_at = at, best = name;
  }
  return best;
}

Status CheckCellsRead(const Reader& reader, uint64_t cells_read) {
  if (cells_read == reader.trailer().entry_count) return Status::OK();
  return Refuse(reader, ProblemCode::kEntryCountMismatch, -1,
                fmt::format("{} cell(s) read, the trailer's entry count is {}", cells_read,
                            reader.trailer().entry_count));
}

}  // namespace hfile
