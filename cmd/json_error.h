// The error fields of the writing tools' JSON records (hfile-json(7)): `error`, the status as
// the tool prints it, and `code`, the verify problem code of a refused damaged input.
#ifndef HFILE_CMD_JSON_ERROR_H_
#define HFILE_CMD_JSON_ERROR_H_

#include <string>

#include "hfile/status.h"

namespace hfile::cli {

// `"error":null,"code":null` for OK; otherwise `"error":"<status>","code":<c>` where c is the
// code hfile verify gives the input's first problem (RefusalCode: "checksum-mismatch", ...) when
// `s` refuses a damaged input, else null (usage and I/O errors, a file that does not open at
// all, a failure of the output's own check, a layout refusal).
std::string JsonErrorFields(const Status& s);

// A per-file tool's record for an input it could not process (hfile-rewrite, hfile-split
// --file): {"kind":"error","v":1,"path":...,"input":...,<JsonErrorFields>}.
std::string JsonErrorRecord(const std::string& input, const Status& s);

}  // namespace hfile::cli

#endif  // HFILE_CMD_JSON_ERROR_H_
