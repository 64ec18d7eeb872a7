#include "hfile/escape.h"

namespace hfile {
namespace {
constexpr char kHexUpper[] = "0123456789ABCDEF";
constexpr char kHexLower[] = "0123456789abcdef";

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}
}  // namespace

void AppendStringBinary(std::string* dst, const Slice& bytes) {
  for (size_t i = 0; i < bytes.size(); ++i) {
    unsigned char c = bytes.byte(i);
    if (c >= ' ' && c <= '~' && c != '\\') {
      dst->push_back(static_cast<char>(c));
    } else {
      dst->append("\\x");
      dst->push_back(kHexUpper[c >> 4]);
      dst->push_back(kHexUpper[c & 15]);
    }
  }
}

std::string ToStringBinary(const Slice& bytes) {
  std::string s;
  s.reserve(bytes.size());
  AppendStringBinary(&s, bytes);
  return s;
}

std::optional<std::string> FromStringBinary(const std::string& text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 1 < text.size() && text[i + 1] == 'x') {
      if (i + 3 >= text.size()) return std::nullopt;
      int hi = HexValue(text[i + 2]), lo = HexValue(text[i + 3]);
      if (hi < 0 || lo < 0) return std::nullopt;
      out.push_back(static_cast<char>(hi * 16 + lo));
      i += 3;
    } else {
      out.push_back(text[i]);
    }
  }
  return out;
}

std::string ToHex(const Slice& bytes) {
  std::string s;
  s.reserve(bytes.size() * 2);
  for (size_t i = 0; i < bytes.size(); ++i) {
    s.push_back(kHexLower[bytes.byte(i) >> 4]);
    s.push_back(kHexLower[bytes.byte(i) & 15]);
  }
  return s;
}

std::optional<std::string> FromHex(const std::string& hex) {
  if (hex.size() % 2 != 0) return std::nullopt;
  std::string out;
  out.reserve(hex.size() / 2);
  for (size_t i = 0; i < hex.size(); i += 2) {
    int hi = HexValue(hex[i]), lo = HexValue(hex[i + 1]);
    if (hi < 0 || lo < 0) return std::nullopt;
    out.push_back(static_cast<char>(hi * 16 + lo));
  }
  return out;
}

void AppendJsonString(std::string* dst, const Slice& s) {
  dst->push_back('"');
  for (size_t i = 0; i < s.size(); ++i) {
    unsigned char c = s.byte(i);
    switch (c) {
      case '"': dst->append("\\\""); break;
      case '\\': dst->append("\\\\"); break;
      case '\n': dst->append("\\n"); break;
      case '\t': dst->append("\\t"); break;
      case '\r': dst->append("\\r"); break;
      default:
        if (c < 0x20) {
          dst->append("\\u00");
          dst->push_back(kHexLower[c >> 4]);
          dst->push_back(kHexLower[c & 15]);
        } else {
          dst->push_back(static_cast<char>(c));
        }
    }
  }
  dst->push_back('"');
}

void AppendJsonUInt(std::string* dst, uint64_t v) {
  if (v <= static_cast<uint64_t>(kJsonMaxSafeInteger)) {
    dst->append(std::to_string(v));
  } else {
    dst->push_back('"');
    dst->append(std::to_string(v));
    dst->push_back('"');
  }
}

void AppendJsonInt(std::string* dst, int64_t v) {
  if (v >= -kJsonMaxSafeInteger && v <= kJsonMaxSafeInteger) {
    dst->append(std::to_string(v));
  } else {
    dst->push_back('"');
    dst->append(std::to_string(v));
    dst->push_back('"');
  }
}

std::string JsonInt(int64_t v) {
  std::string s;
  AppendJsonInt(&s, v);
  return s;
}

std::string JsonUInt(uint64_t v) {
  std::string s;
  AppendJsonUInt(&s, v);
  return s;
}

}  // namespace hfile
