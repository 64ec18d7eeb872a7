// What every writing tool checks of an HFile before it turns the file's cells into new files,
// and of what it read afterwards. A trailer is not checksummed: one flipped byte can make a
// reader see no data blocks in a file full of them, and a tool that trusted it would write an
// empty output and dispose of the input (the D1/D2 defects). So a writing tool
//
//   HFILE_RETURN_IF_ERROR(CheckInput(reader, {}, &report));   // before reading any cell
//   ... read every cell, counting them ...
//   HFILE_RETURN_IF_ERROR(CheckCellsRead(reader, n));          // after the last one
//
// and refuses the input (nothing committed) when either fails.
#ifndef HFILE_INPUT_CHECK_H_
#define HFILE_INPUT_CHECK_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "hfile/reader.h"
#include "hfile/status.h"
#include "hfile/verify.h"

namespace hfile {

struct InputCheckOptions {
  // true: VerifyFile's full check (every block, checksum, index entry, bloom); any error refuses
  // the input. false (--trust-inputs): only the cheap structural checks below.
  bool full = true;
  VerifyOptions verify;
};

struct InputCheckReport {
  bool verified = false;       // the full check ran
  uint64_t warnings = 0;       // VerifyFile's warnings (deviations HBase tolerates)
  uint64_t data_blocks = 0;    // data blocks found in the data section
};

// Cheap checks, always: walks the block headers of the data section (offset 0 up to the
// load-on-open section) and compares what it finds with the trailer: data blocks present while
// the trailer says there are no cells, no data index entry or no first data block (and the
// reverse). With options.full, then VerifyFile. Corruption naming the path, offset and block.
Status CheckInput(const Reader& reader, const InputCheckOptions& options,
                  InputCheckReport* report = nullptr);

// CheckInput's full part alone: VerifyFile of `path`, any error refusing the input. It opens the
// file itself and shares nothing with a Reader of it, so a tool may run it on another thread
// while it reads the cells (and must then commit nothing before it returns OK).
Status VerifyInput(const std::string& path, const VerifyOptions& options = {},
                   InputCheckReport* report = nullptr);

// After a whole-file read: Corruption unless `cells_read` equals the trailer's entry count.
Status CheckCellsRead(const Reader& reader, uint64_t cells_read);

// The verify problem code ("checksum-mismatch", ... : hfile-verify(1)) of a refusal by
// CheckInput, VerifyInput or CheckCellsRead, also after WithContext; "" for any other status
// (OK, usage and I/O errors, a file that does not open at all). The writing tools' JSON
// `code` field, so that scripts match a refusal as they match verify's problems.
std::string_view RefusalCode(const Status& s);

}  // namespace hfile

#endif  // HFILE_INPUT_CHECK_H_
