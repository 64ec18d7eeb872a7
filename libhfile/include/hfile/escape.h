// Byte-string renderings operators know: HBase's Bytes.toStringBinary ("row\x00\xFF") and hex.
#ifndef HFILE_ESCAPE_H_
#define HFILE_ESCAPE_H_

#include <cstdint>
#include <optional>
#include <string>

#include "hfile/slice.h"

namespace hfile {

// Bytes.toStringBinary: printable ASCII except '\' as is, every other byte as \xNN (upper case).
void AppendStringBinary(std::string* dst, const Slice& bytes);
std::string ToStringBinary(const Slice& bytes);
// Inverse of ToStringBinary (Bytes.toBytesBinary); accepts lower-case hex too. nullopt on a
// malformed escape.
std::optional<std::string> FromStringBinary(const std::string& text);

std::string ToHex(const Slice& bytes);                         // "0a1b..."
std::optional<std::string> FromHex(const std::string& hex);    // nullopt if not hex

// Appends `s` as a JSON string literal, quotes included.
void AppendJsonString(std::string* dst, const Slice& s);

// An integer as every tool's JSON gives it (hfile-json(7)): a JSON number when its magnitude is
// at most 2^53 - 1, the largest that every JSON reader holds exactly (jq 1.6 and JavaScript
// parse numbers as doubles), else a JSON string of its decimal digits ("9223372036854775807"
// for LATEST_TIMESTAMP), which jq and Python read without loss.
constexpr int64_t kJsonMaxSafeInteger = (int64_t{1} << 53) - 1;
void AppendJsonInt(std::string* dst, int64_t v);
void AppendJsonUInt(std::string* dst, uint64_t v);
std::string JsonInt(int64_t v);
std::string JsonUInt(uint64_t v);

}  // namespace hfile

#endif  // HFILE_ESCAPE_H_
