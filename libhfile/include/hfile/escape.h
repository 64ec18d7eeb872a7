// Byte-string renderings operators know: HBase's Bytes.toStringBinary ("row\x00\xFF") and hex.
#ifndef HFILE_ESCAPE_H_
#define HFILE_ESCAPE_H_

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

}  // namespace hfile

#endif  // HFILE_ESCAPE_H_
