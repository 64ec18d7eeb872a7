#include "region/shell_statement.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <limits>
#include <regex>

#include "fs_util.h"
#include "hfile/escape.h"

namespace hfile::region {

namespace {

// ---------------------------------------------------------------------------------------------
// Values of the Ruby subset.

struct Value {
  enum class Kind { kString, kInt, kBool, kNil, kHash, kArray };
  Kind kind = Kind::kNil;
  std::string str;  // kString: the decoded text; kInt: the decimal digits
  int64_t num = 0;
  bool boolean = false;
  bool bare = false;  // a bare CONSTANT used as a hash key
  std::vector<Value> keys, values;  // kHash, in source order
  std::vector<Value> items;         // kArray
  int line = 1, col = 1;
};

std::string Where(int line, int col, bool multiline) {
  return multiline ? "line " + std::to_string(line) + ", column " + std::to_string(col)
                   : "column " + std::to_string(col);
}

// ---------------------------------------------------------------------------------------------
// Tokenizer.

enum class Tok { kString, kInt, kIdent, kArrow, kLBrace, kRBrace, kLBracket, kRBracket, kComma,
                 kLParen, kRParen, kSemicolon, kEnd };

struct Token {
  Tok tok = Tok::kEnd;
  std::string text;  // decoded string, digits, or identifier
  int64_t num = 0;
  int line = 1, col = 1;
};

std::string_view TokName(Tok t) {
  switch (t) {
    case Tok::kString: return "a quoted string";
    case Tok::kInt: return "an integer";
    case Tok::kIdent: return "a name";
    case Tok::kArrow: return "'=>'";
    case Tok::kLBrace: return "'{'";
    case Tok::kRBrace: return "'}'";
    case Tok::kLBracket: return "'['";
    case Tok::kRBracket: return "']'";
    case Tok::kComma: return "','";
    case Tok::kLParen: return "'('";
    case Tok::kRParen: return "')'";
    case Tok::kSemicolon: return "';'";
    case Tok::kEnd: return "end of statement";
  }
  return "?";
}

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

class Lexer {
 public:
  explicit Lexer(std::string_view text)
      : s_(text), multiline_(text.find('\n') != std::string_view::npos) {}

  bool multiline() const { return multiline_; }

  Result<std::vector<Token>> Run() {
    std::vector<Token> out;
    for (;;) {
      SkipSpaceAndComments();
      Token t;
      t.line = line_;
      t.col = col_;
      if (pos_ >= s_.size()) {
        out.push_back(t);
        return out;
      }
      char c = s_[pos_];
      if (c == '\'' || c == '"') {
        auto str = c == '\'' ? SingleQuoted() : DoubleQuoted();
        if (!str.ok()) return str.status();
        t.tok = Tok::kString;
        t.text = std::move(*str);
      } else if (std::isdigit(static_cast<unsigned char>(c)) ||
                 ((c == '-' || c == '+') && pos_ + 1 < s_.size() &&
                  std::isdigit(static_cast<unsigned char>(s_[pos_ + 1])))) {
        std::string digits(1, c);
        Advance();
        while (pos_ < s_.size() && (std::isdigit(static_cast<unsigned char>(s_[pos_])) ||
                                    (s_[pos_] == '_' && pos_ + 1 < s_.size() &&
                                     std::isdigit(static_cast<unsigned char>(s_[pos_ + 1]))))) {
          if (s_[pos_] != '_') digits += s_[pos_];
          Advance();
        }
        if (pos_ < s_.size() && (std::isalpha(static_cast<unsigned char>(s_[pos_])) ||
                                 s_[pos_] == '.')) {
          return Error(t, "a number may only hold digits (quote sizes such as '64KB')");
        }
        std::string_view d = digits;
        if (d[0] == '+') d.remove_prefix(1);
        auto [p, ec] = std::from_chars(d.data(), d.data() + d.size(), t.num);
        if (ec != std::errc() || p != d.data() + d.size())
          return Error(t, "integer " + digits + " is out of range");
        t.tok = Tok::kInt;
        t.text = std::to_string(t.num);
      } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
        while (pos_ < s_.size() &&
               (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_')) {
          t.text += s_[pos_];
          Advance();
        }
        t.tok = Tok::kIdent;
      } else if (c == '=' && pos_ + 1 < s_.size() && s_[pos_ + 1] == '>') {
        Advance();
        Advance();
        t.tok = Tok::kArrow;
      } else {
        switch (c) {
          case '{': t.tok = Tok::kLBrace; break;
          case '}': t.tok = Tok::kRBrace; break;
          case '[': t.tok = Tok::kLBracket; break;
          case ']': t.tok = Tok::kRBracket; break;
          case ',': t.tok = Tok::kComma; break;
          case '(': t.tok = Tok::kLParen; break;
          case ')': t.tok = Tok::kRParen; break;
          case ';': t.tok = Tok::kSemicolon; break;
          default:
            return Error(t, std::string("unexpected character '") + ToStringBinary(Slice(&c, 1)) +
                                "'; expected a quoted string, an integer, a name, '=>', "
                                "'{', '}', '[', ']' or ','");
        }
        Advance();
      }
      out.push_back(std::move(t));
    }
  }

  Status Error(const Token& at, const std::string& what) const {
    return Status::InvalidArgument(Where(at.line, at.col, multiline_), what);
  }

 private:
  void Advance() {
    if (s_[pos_] == '\n') {
      ++line_;
      col_ = 1;
    } else {
      ++col_;
    }
    ++pos_;
  }

  void SkipSpaceAndComments() {
    while (pos_ < s_.size()) {
      char c = s_[pos_];
      if (std::isspace(static_cast<unsigned char>(c))) {
        Advance();
      } else if (c == '\\' && pos_ + 1 < s_.size() && s_[pos_ + 1] == '\n') {
        Advance();  // line continuation
        Advance();
      } else if (c == '#') {
        while (pos_ < s_.size() && s_[pos_] != '\n') Advance();
      } else {
        return;
      }
    }
  }

  // Ruby '...': only \' and \\ are escapes; any other backslash stays.
  Result<std::string> SingleQuoted() {
    Token start{Tok::kString, "", 0, line_, col_};
    Advance();
    std::string out;
    while (pos_ < s_.size()) {
      char c = s_[pos_];
      if (c == '\'') {
        Advance();
        return out;
      }
      if (c == '\\' && pos_ + 1 < s_.size() && (s_[pos_ + 1] == '\'' || s_[pos_ + 1] == '\\')) {
        Advance();
        c = s_[pos_];
      }
      out += c;
      Advance();
    }
    return Error(start, "unterminated string: expected a closing '");
  }

  // Ruby "...": the common backslash escapes; #{...} interpolation is not evaluated.
  Result<std::string> DoubleQuoted() {
    Token start{Tok::kString, "", 0, line_, col_};
    Advance();
    std::string out;
    while (pos_ < s_.size()) {
      char c = s_[pos_];
      if (c == '"') {
        Advance();
        return out;
      }
      if (c == '#' && pos_ + 1 < s_.size() && s_[pos_ + 1] == '{') {
        Token at{Tok::kString, "", 0, line_, col_};
        return Error(at, "string interpolation #{...} is not supported; write the value");
      }
      if (c != '\\') {
        out += c;
        Advance();
        continue;
      }
      Advance();
      if (pos_ >= s_.size()) break;
      char e = s_[pos_];
      Advance();
      switch (e) {
        case 'n': out += '\n'; break;
        case 't': out += '\t'; break;
        case 'r': out += '\r'; break;
        case 's': out += ' '; break;
        case 'e': out += '\x1b'; break;
        case 'a': out += '\a'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'v': out += '\v'; break;
        case '\n': break;  // continuation inside the string
        case 'x': {
          int v = 0, n = 0;
          while (n < 2 && pos_ < s_.size() && HexDigit(s_[pos_]) >= 0) {
            v = v * 16 + HexDigit(s_[pos_]);
            Advance();
            ++n;
          }
          if (n == 0) {
            Token at{Tok::kString, "", 0, line_, col_};
            return Error(at, "expected hex digits after \\x");
          }
          out += static_cast<char>(v);
          break;
        }
        default:
          if (e >= '0' && e <= '7') {
            int v = e - '0', n = 1;
            while (n < 3 && pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '7') {
              v = v * 8 + (s_[pos_] - '0');
              Advance();
              ++n;
            }
            out += static_cast<char>(v & 0xff);
          } else {
            out += e;  // \" \\ and any other escaped character stand for themselves
          }
      }
    }
    return Error(start, "unterminated string: expected a closing \"");
  }

  std::string_view s_;
  bool multiline_;
  size_t pos_ = 0;
  int line_ = 1, col_ = 1;
};

// ---------------------------------------------------------------------------------------------
// Parser.

// Whether the shell defines `name` as a constant (hbase_constants.rb: its own list, plus every
// upper-case String field of HColumnDescriptor and HTableDescriptor, each equal to its name).
bool IsShellConstant(std::string_view name);

class Parser {
 public:
  Parser(std::vector<Token> toks, bool multiline) : t_(std::move(toks)), multiline_(multiline) {}

  // [command] ["("] table {"," arg} [")"] [";"]; each arg is a Value (string, hash or array).
  Status Statement(std::string_view command, Value* table, std::vector<Value>* args) {
    if (Peek().tok == Tok::kIdent && Peek().text == command) {
      Next();
    } else if (Peek().tok == Tok::kIdent && (Peek().text == "alter" || Peek().text == "create")) {
      return Expected("'" + std::string(command) + "'; this is a '" + Peek().text +
                      "' statement");
    }
    bool paren = false;
    if (Peek().tok == Tok::kLParen) {
      Next();
      paren = true;
    }
    if (Peek().tok != Tok::kString) return Expected("the table name as a quoted string");
    HFILE_RETURN_IF_ERROR(ParseValue(table));
    while (Peek().tok == Tok::kComma) {
      Next();
      if (IsKeyStart()) {
        // Ruby collects trailing `k => v, ...` call arguments into one hash.
        Value h;
        h.kind = Value::Kind::kHash;
        h.line = Peek().line;
        h.col = Peek().col;
        HFILE_RETURN_IF_ERROR(Pairs(&h, /*braced=*/false));
        args->push_back(std::move(h));
        break;
      }
      Value v;
      HFILE_RETURN_IF_ERROR(ParseValue(&v));
      if (v.kind != Value::Kind::kString && v.kind != Value::Kind::kHash &&
          v.kind != Value::Kind::kArray) {
        return ErrorAt(v, "expected a family name, a {...} hash or KEY => value");
      }
      args->push_back(std::move(v));
    }
    if (paren) {
      if (Peek().tok != Tok::kRParen) return Expected("',' or ')'");
      Next();
    }
    if (Peek().tok == Tok::kSemicolon) Next();
    if (Peek().tok != Tok::kEnd)
      return Expected(paren ? "end of statement" : "',' or end of statement");
    return Status::OK();
  }

 private:
  const Token& Peek(size_t ahead = 0) const {
    return t_[std::min(i_ + ahead, t_.size() - 1)];
  }
  const Token& Next() {
    const Token& t = t_[i_];
    if (i_ + 1 < t_.size()) ++i_;
    return t;
  }
  Status Expected(const std::string& what) const {
    const Token& t = Peek();
    std::string got = std::string(TokName(t.tok));
    if (t.tok == Tok::kIdent) got = "'" + t.text + "'";
    return Status::InvalidArgument(Where(t.line, t.col, multiline_),
                                   "expected " + what + ", found " + got);
  }
  Status ErrorAt(const Value& v, const std::string& what) const {
    return Status::InvalidArgument(Where(v.line, v.col, multiline_), what);
  }

  // A key starts a pair when followed by "=>".
  bool IsKeyStart() const {
    Tok t = Peek().tok;
    return (t == Tok::kString || t == Tok::kIdent || t == Tok::kInt) &&
           Peek(1).tok == Tok::kArrow;
  }

  Status Key(Value* k) {
    const Token& t = Peek();
    k->line = t.line;
    k->col = t.col;
    k->kind = Value::Kind::kString;
    if (t.tok == Tok::kString) {
      k->str = Next().text;
      return Status::OK();
    }
    if (t.tok == Tok::kIdent) {
      if (!std::isupper(static_cast<unsigned char>(t.text[0]))) {
        std::string up = t.text;
        for (char& c : up) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        return Expected("a shell constant such as " + up + " or a quoted key");
      }
      // HBase shell constants are strings equal to their own name (hbase_constants.rb).
      k->str = Next().text;
      k->bare = true;
      return Status::OK();
    }
    return Expected("a key (a CONSTANT such as NAME, or a quoted string)");
  }

  Status Pairs(Value* h, bool braced) {
    for (;;) {
      if (braced && Peek().tok == Tok::kRBrace) return Status::OK();  // {} or trailing ','
      Value k, v;
      HFILE_RETURN_IF_ERROR(Key(&k));
      if (Peek().tok != Tok::kArrow) return Expected("'=>' after key " + k.str);
      Next();
      HFILE_RETURN_IF_ERROR(ParseValue(&v));
      for (const auto& existing : h->keys) {
        if (existing.str == k.str) return ErrorAt(k, "key " + k.str + " given twice");
      }
      h->keys.push_back(std::move(k));
      h->values.push_back(std::move(v));
      if (Peek().tok != Tok::kComma) return Status::OK();
      if (!braced) {
        // A braceless hash must be the last argument: every ',' continues it.
        Next();
        continue;
      }
      Next();
    }
  }

  Status ParseValue(Value* v) {
    const Token& t = Peek();
    v->line = t.line;
    v->col = t.col;
    switch (t.tok) {
      case Tok::kString:
        v->kind = Value::Kind::kString;
        v->str = Next().text;
        return Status::OK();
      case Tok::kInt:
        v->kind = Value::Kind::kInt;
        v->num = t.num;
        v->str = Next().text;
        return Status::OK();
      case Tok::kIdent:
        if (t.text == "true" || t.text == "false") {
          v->kind = Value::Kind::kBool;
          v->boolean = t.text == "true";
          Next();
          return Status::OK();
        }
        if (t.text == "nil") {
          v->kind = Value::Kind::kNil;
          Next();
          return Status::OK();
        }
        if (IsShellConstant(t.text)) {
          // e.g. BLOOMFILTER => NONE, KEEP_DELETED_CELLS => TTL: the constant's own name.
          v->kind = Value::Kind::kString;
          v->str = Next().text;
          return Status::OK();
        }
        return Expected("a value: a quoted string, an integer, true, false, {...} or [...] "
                        "(quote names such as '" + t.text + "')");
      case Tok::kLBrace:
        Next();
        v->kind = Value::Kind::kHash;
        HFILE_RETURN_IF_ERROR(Pairs(v, /*braced=*/true));
        if (Peek().tok != Tok::kRBrace) return Expected("',' or '}'");
        Next();
        return Status::OK();
      case Tok::kLBracket:
        Next();
        v->kind = Value::Kind::kArray;
        while (Peek().tok != Tok::kRBracket) {
          Value item;
          HFILE_RETURN_IF_ERROR(ParseValue(&item));
          v->items.push_back(std::move(item));
          if (Peek().tok != Tok::kComma) break;
          Next();
        }
        if (Peek().tok != Tok::kRBracket) return Expected("',' or ']'");
        Next();
        return Status::OK();
      default:
        return Expected("a value");
    }
  }

  std::vector<Token> t_;
  bool multiline_;
  size_t i_ = 0;
};

// ---------------------------------------------------------------------------------------------
// Attribute conversion: shell value → the string HBase stores.

std::string Upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

std::string Join(const std::vector<std::string>& v, std::string_view sep = " ") {
  std::string out;
  for (size_t i = 0; i < v.size(); ++i) {
    if (i > 0) out += sep;
    out += v[i];
  }
  return out;
}

enum class Kind {
  kBool, kInt, kLong, kTtl, kBlockSize, kSize, kEnum, kUpperString, kString, kNoOffline
};

struct AttrSpec {
  const char* key;
  Kind kind;
  std::vector<std::string> choices;  // kEnum
};

const std::vector<std::string>& CompressionNames() {
  // Compression.Algorithm constants of HBase 2.6 (LZMA and BROTLI since 2.5).
  static const auto* k = new std::vector<std::string>{"LZO", "GZ", "NONE", "SNAPPY", "LZ4",
                                                       "BZIP2", "ZSTD", "LZMA", "BROTLI"};
  return *k;
}

// The family keys hcd() reads, in its order (hbase-shell admin.rb), with 2.5+ additions.
const std::vector<AttrSpec>& FamilySpecs() {
  static const auto* k = new std::vector<AttrSpec>{
      {"BLOCKCACHE", Kind::kBool, {}},
      {"REPLICATION_SCOPE", Kind::kInt, {}},
      {"CACHE_DATA_ON_WRITE", Kind::kBool, {}},
      {"CACHE_INDEX_ON_WRITE", Kind::kBool, {}},
      {"CACHE_BLOOMS_ON_WRITE", Kind::kBool, {}},
      {"EVICT_BLOCKS_ON_CLOSE", Kind::kBool, {}},
      {"IN_MEMORY", Kind::kBool, {}},
      {"IN_MEMORY_COMPACTION", Kind::kEnum, {"NONE", "BASIC", "EAGER", "ADAPTIVE"}},
      {"TTL", Kind::kTtl, {}},
      {"DATA_BLOCK_ENCODING", Kind::kEnum, {"NONE", "PREFIX", "DIFF", "FAST_DIFF", "ROW_INDEX_V1"}},
      {"INDEX_BLOCK_ENCODING", Kind::kEnum, {"NONE"}},
      {"BLOCKSIZE", Kind::kBlockSize, {}},
      {"VERSIONS", Kind::kInt, {}},
      {"MIN_VERSIONS", Kind::kInt, {}},
      {"KEEP_DELETED_CELLS", Kind::kEnum, {"FALSE", "TRUE", "TTL"}},
      {"COMPRESS_TAGS", Kind::kBool, {}},
      {"PREFETCH_BLOCKS_ON_OPEN", Kind::kBool, {}},
      {"IS_MOB", Kind::kBool, {}},
      {"MOB_THRESHOLD", Kind::kLong, {}},
      {"NEW_VERSION_BEHAVIOR", Kind::kBool, {}},
      {"BLOOMFILTER", Kind::kEnum, {"NONE", "ROW", "ROWCOL", "ROWPREFIX_FIXED_LENGTH"}},
      {"COMPRESSION", Kind::kEnum, CompressionNames()},
      {"ENCRYPTION", Kind::kUpperString, {}},
      {"ENCRYPTION_KEY", Kind::kNoOffline, {}},
      {"COMPRESSION_COMPACT", Kind::kEnum, CompressionNames()},
      {"COMPRESSION_COMPACT_MAJOR", Kind::kEnum, CompressionNames()},
      {"COMPRESSION_COMPACT_MINOR", Kind::kEnum, CompressionNames()},
      {"STORAGE_POLICY", Kind::kUpperString, {}},
      {"MOB_COMPACT_PARTITION_POLICY", Kind::kEnum, {"DAILY", "WEEKLY", "MONTHLY"}},
      {"DFS_REPLICATION", Kind::kInt, {}},
  };
  return *k;
}

// update_htd_from_arg (admin.rb), plus 2.5+'s NORMALIZER_TARGET_REGION_SIZE_MB.
const std::vector<AttrSpec>& TableSpecs() {
  static const auto* k = new std::vector<AttrSpec>{
      {"OWNER", Kind::kString, {}},
      {"MAX_FILESIZE", Kind::kSize, {}},
      {"READONLY", Kind::kBool, {}},
      {"COMPACTION_ENABLED", Kind::kBool, {}},
      {"SPLIT_ENABLED", Kind::kBool, {}},
      {"MERGE_ENABLED", Kind::kBool, {}},
      {"NORMALIZATION_ENABLED", Kind::kBool, {}},
      {"NORMALIZER_TARGET_REGION_COUNT", Kind::kInt, {}},
      {"NORMALIZER_TARGET_REGION_SIZE", Kind::kLong, {}},
      {"NORMALIZER_TARGET_REGION_SIZE_MB", Kind::kLong, {}},
      {"MEMSTORE_FLUSHSIZE", Kind::kSize, {}},
      {"DURABILITY",
       Kind::kEnum,
       {"USE_DEFAULT", "SKIP_WAL", "ASYNC_WAL", "SYNC_WAL", "FSYNC_WAL"}},
      {"PRIORITY", Kind::kInt, {}},
      {"FLUSH_POLICY", Kind::kString, {}},
      {"REGION_MEMSTORE_REPLICATION", Kind::kBool, {}},
      {"SPLIT_POLICY", Kind::kString, {}},
      {"REGION_REPLICATION", Kind::kInt, {}},
  };
  return *k;
}

bool IsShellConstant(std::string_view name) {
  static const char* const kConstants[] = {
      "NAME", "VERSIONS", "IN_MEMORY", "METADATA", "CONFIGURATION", "METHOD", "SPLITS",
      "SPLITS_FILE", "SPLITALGO", "NUMREGIONS", "REGION_REPLICATION", "NONE", "TTL",
      "REPLICATION_SCOPE", "IS_META", "IS_ROOT", "OWNER", "ENCRYPTION_KEY", "VALUE", "TYPE",
      "TABLE", "DURABILITY"};
  for (const char* c : kConstants)
    if (name == c) return true;
  for (const auto* specs : {&FamilySpecs(), &TableSpecs()}) {
    for (const auto& s : *specs)
      if (name == s.key) return true;
  }
  return false;
}

const AttrSpec* FindSpec(const std::vector<AttrSpec>& specs, std::string_view key) {
  for (const auto& s : specs)
    if (key == s.key) return &s;
  return nullptr;
}

std::string ValueText(const Value& v) {
  switch (v.kind) {
    case Value::Kind::kString: return "'" + ToStringBinary(v.str) + "'";
    case Value::Kind::kInt: return v.str;
    case Value::Kind::kBool: return v.boolean ? "true" : "false";
    case Value::Kind::kNil: return "nil";
    case Value::Kind::kHash: return "{...}";
    case Value::Kind::kArray: return "[...]";
  }
  return "?";
}

Status BadValue(const std::string& key, const Value& v, const std::string& expected) {
  return Status::InvalidArgument(key, "bad value " + ValueText(v) + ": expected " + expected);
}

// Java's Integer.valueOf(String) / Long.valueOf(String): optional sign, decimal digits.
std::optional<int64_t> ParseJavaLong(std::string_view s, int64_t lo, int64_t hi) {
  if (!s.empty() && s[0] == '+') s.remove_prefix(1);
  int64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || p != s.data() + s.size() || v < lo || v > hi)
    return std::nullopt;
  return v;
}

Result<int64_t> AsNumber(const std::string& key, const Value& v, int64_t lo, int64_t hi,
                         const char* what) {
  std::optional<int64_t> n;
  if (v.kind == Value::Kind::kInt && v.num >= lo && v.num <= hi) n = v.num;
  if (v.kind == Value::Kind::kString) n = ParseJavaLong(v.str, lo, hi);
  if (!n) return BadValue(key, v, what);
  return *n;
}

Result<bool> AsBool(const std::string& key, const Value& v) {
  if (v.kind == Value::Kind::kBool) return v.boolean;
  // JBoolean.valueOf(String) reads anything but "true" as false; we refuse typos instead.
  if (v.kind == Value::Kind::kString) {
    std::string u = Upper(v.str);
    if (u == "TRUE") return true;
    if (u == "FALSE") return false;
  }
  return BadValue(key, v, "true or false");
}

// PrettyPrinter.valueOf(TIME_INTERVAL) (hbase-common/.../util/PrettyPrinter.java): 'FOREVER'
// (any case), a plain number of seconds, or the interval pattern
//   [N SECOND[S] (] [D DAY[S]] [H HOUR[S]] [M MINUTE[S]] [S SECOND[S]] [)]
// (case-insensitive, as describe prints it). When both N and the parts are given they must agree.
// HBase reads a string that does not match as 0, which its TTL check then rejects; we say why.
Result<int64_t> ParseTtl(const std::string& key, const Value& v) {
  if (v.kind == Value::Kind::kInt) return v.num;
  if (v.kind != Value::Kind::kString)
    return BadValue(key, v, "seconds or a string such as '1 DAY'");
  const std::string& s = v.str;
  if (Upper(s) == "FOREVER") return int64_t{kTtlForever};
  if (auto n = ParseJavaLong(s, INT64_MIN, INT64_MAX)) return *n;
  static const std::regex kInterval(
      R"(((\d+)\s*SECONDS?\s*\()?\s*((\d+)\s*DAYS?)?\s*((\d+)\s*HOURS?)?\s*)"
      R"(((\d+)\s*MINUTES?)?\s*((\d+)\s*SECONDS?)?\s*\)?)",
      std::regex::ECMAScript | std::regex::icase);
  std::smatch m;
  if (!std::regex_match(s, m, kInterval) ||
      !(m[4].matched || m[6].matched || m[8].matched || m[10].matched)) {
    return BadValue(key, v,
                    "seconds, 'FOREVER', or an interval such as '1 DAY', '2 HOURS 30 MINUTES' "
                    "or '86400 SECONDS (1 DAY)'");
  }
  auto part = [&](int g) -> int64_t {
    if (!m[g].matched) return 0;
    return ParseJavaLong(m[g].str(), 0, INT32_MAX).value_or(int64_t{INT32_MAX} + 1);
  };
  int64_t ttl = part(4) * 86400 + part(6) * 3600 + part(8) * 60 + part(10);
  if (m[2].matched && part(2) != ttl) {
    return BadValue(key, v, "matching seconds and human-readable parts (" + m[2].str() +
                                " seconds is not " + std::to_string(ttl) + ")");
  }
  return ttl;
}

// PrettyPrinter.valueOf(BYTE), which 2.5+ describe output uses for sizes ('65536 B (64KB)'): a
// plain number of bytes, or [N B (] [n T[B]] [n G[B]] [n M[B]] [n K[B]] [n [B]] [)]
// (case-insensitive; '64KB', '1 MB', '10GB 512MB'). When both N and the parts are given they must
// agree. A string that does not match is refused (HBase would read it as 0).
Result<int64_t> ParseSize(const std::string& key, const Value& v, int64_t max) {
  std::optional<int64_t> n;
  if (v.kind == Value::Kind::kInt) n = v.num;
  if (v.kind == Value::Kind::kString) n = ParseJavaLong(v.str, INT64_MIN, INT64_MAX);
  if (!n && v.kind == Value::Kind::kString) {
    static const std::regex kSize(
        R"(((\d+)\s*B?\s*\()?\s*((\d+)\s*TB?)?\s*((\d+)\s*GB?)?\s*)"
        R"(((\d+)\s*MB?)?\s*((\d+)\s*KB?)?\s*((\d+)\s*B?)?\s*\)?)",
        std::regex::ECMAScript | std::regex::icase);
    std::smatch m;
    if (std::regex_match(v.str, m, kSize) &&
        (m[4].matched || m[6].matched || m[8].matched || m[10].matched || m[12].matched)) {
      auto part = [&](int g) -> int64_t {
        if (!m[g].matched) return 0;
        return ParseJavaLong(m[g].str(), 0, int64_t{1} << 20).value_or(int64_t{1} << 21);
      };
      int64_t size = (part(4) << 40) + (part(6) << 30) + (part(8) << 20) + (part(10) << 10) +
                     part(12);
      if (m[2].matched && ParseJavaLong(m[2].str(), 0, INT64_MAX) != size) {
        return BadValue(key, v, "matching bytes and human-readable parts (" + m[2].str() +
                                    " is not " + std::to_string(size) + ")");
      }
      n = size;
    }
  }
  if (!n) return BadValue(key, v, "a size in bytes such as 65536, '64KB' or '1 MB'");
  if (*n > max || *n < -max - 1) return BadValue(key, v, "at most " + std::to_string(max));
  return *n;
}

// Converts one attribute to its stored string. `specs` names what `key` may be.
Result<std::string> Convert(const AttrSpec& spec, const Value& v) {
  const std::string key = spec.key;
  switch (spec.kind) {
    case Kind::kBool: {
      HFILE_ASSIGN_OR_RETURN(bool b, AsBool(key, v));
      return std::string(b ? "true" : "false");
    }
    case Kind::kInt: {
      HFILE_ASSIGN_OR_RETURN(int64_t n, AsNumber(key, v, INT32_MIN, INT32_MAX, "an integer"));
      return std::to_string(n);
    }
    case Kind::kLong: {
      HFILE_ASSIGN_OR_RETURN(int64_t n, AsNumber(key, v, INT64_MIN, INT64_MAX, "an integer"));
      return std::to_string(n);
    }
    case Kind::kTtl: {
      HFILE_ASSIGN_OR_RETURN(int64_t n, ParseTtl(key, v));
      if (n < INT32_MIN || n > INT32_MAX)
        return BadValue(key, v, "at most 2147483647 seconds (FOREVER)");
      return std::to_string(n);
    }
    case Kind::kBlockSize: {
      HFILE_ASSIGN_OR_RETURN(int64_t n, ParseSize(key, v, INT32_MAX));
      return std::to_string(n);
    }
    case Kind::kSize: {
      HFILE_ASSIGN_OR_RETURN(int64_t n, ParseSize(key, v, INT64_MAX));
      return std::to_string(n);
    }
    case Kind::kEnum: {
      // KEEP_DELETED_CELLS goes through to_s, so true/false are accepted there.
      std::string s;
      if (v.kind == Value::Kind::kString) s = Upper(v.str);
      else if (v.kind == Value::Kind::kBool && key == "KEEP_DELETED_CELLS")
        s = v.boolean ? "TRUE" : "FALSE";
      if (std::find(spec.choices.begin(), spec.choices.end(), s) == spec.choices.end())
        return BadValue(key, v, "one of " + Join(spec.choices));
      return s;
    }
    case Kind::kUpperString:
      if (v.kind != Value::Kind::kString || v.str.empty()) return BadValue(key, v, "a quoted name");
      return Upper(v.str);
    case Kind::kString:
      if (v.kind != Value::Kind::kString) return BadValue(key, v, "a quoted string");
      return v.str;
    case Kind::kNoOffline:
      return Status::InvalidArgument(key, "cannot be set offline: HBase wraps the key with the "
                                          "cluster's master key (hbase.crypto.master.key.name)");
  }
  return Status::InvalidArgument(key, "unsupported");
}

// METADATA / CONFIGURATION => {k => v}: values go through Ruby's to_s.
Status MapEntries(const std::string& what, const Value& v,
                  std::vector<std::pair<std::string, std::string>>* out) {
  if (v.kind != Value::Kind::kHash) return BadValue(what, v, "a {'key' => 'value'} hash");
  for (size_t i = 0; i < v.keys.size(); ++i) {
    const Value& val = v.values[i];
    std::string s;
    switch (val.kind) {
      case Value::Kind::kString: s = val.str; break;
      case Value::Kind::kInt: s = val.str; break;
      case Value::Kind::kBool: s = val.boolean ? "true" : "false"; break;
      default:
        return BadValue(what + " '" + v.keys[i].str + "'", val, "a string, integer or boolean");
    }
    out->emplace_back(v.keys[i].str, std::move(s));
  }
  return Status::OK();
}

void Put(std::vector<std::pair<std::string, std::string>>* out, const std::string& k,
         std::string v) {
  for (auto& e : *out) {
    if (e.first == k) {
      e.second = std::move(v);
      return;
    }
  }
  out->emplace_back(k, std::move(v));
}

std::vector<std::string> Keys(const std::vector<AttrSpec>& specs,
                              std::initializer_list<const char*> extra) {
  std::vector<std::string> out;
  for (const auto& s : specs) out.push_back(s.key);
  for (const char* e : extra) out.push_back(e);
  return out;
}

Status UnknownKey(const std::string& what, const std::string& key,
                  const std::vector<std::string>& valid) {
  for (const auto& k : valid) {
    if (Upper(key) == k) {
      return Status::InvalidArgument(
          what + " '" + key + "'", "keys are case-sensitive in the HBase shell; write " + k);
    }
  }
  return Status::InvalidArgument("unknown " + what + " '" + key + "'",
                                 "valid: " + Join(valid, ", "));
}

// ColumnFamilyDescriptorBuilder.isLegalColumnFamilyName.
Status CheckFamilyName(const std::string& name) {
  if (name.empty()) return Status::InvalidArgument("NAME", "a column family name cannot be empty");
  if (name[0] == '.')
    return Status::InvalidArgument("NAME '" + name + "'",
                                   "column family names cannot start with a period");
  for (char c : name) {
    if (c < ' ' || c > '~' || c == ':' || c == '\\' || c == '/')
      return Status::InvalidArgument("NAME '" + ToStringBinary(name) + "'",
                                     "column family names cannot contain control characters, "
                                     "non-ASCII, ':', '\\' or '/'");
  }
  if (name == "recovered.edits")
    return Status::InvalidArgument("NAME", "column family name cannot be recovered.edits");
  return Status::OK();
}

// One family attribute (a canonical key) into `fc`.
Status FamilyAttribute(const std::string& key, const Value& v, FamilyChange* fc) {
  if (key == "METADATA") {
    std::vector<std::pair<std::string, std::string>> entries;
    HFILE_RETURN_IF_ERROR(MapEntries(key, v, &entries));
    for (auto& [k, val] : entries) Put(&fc->values, k, std::move(val));
    return Status::OK();
  }
  if (key == "CONFIGURATION") {
    std::vector<std::pair<std::string, std::string>> entries;
    HFILE_RETURN_IF_ERROR(MapEntries(key, v, &entries));
    for (auto& [k, val] : entries) Put(&fc->configuration, k, std::move(val));
    return Status::OK();
  }
  const AttrSpec* spec = FindSpec(FamilySpecs(), key);
  if (!spec) {
    return UnknownKey("family attribute", key,
                      Keys(FamilySpecs(), {"NAME", "METADATA", "CONFIGURATION"}));
  }
  auto stored = Convert(*spec, v);
  if (!stored.ok()) return stored.status().WithContext("family '" + fc->name + "'");
  // Setter-time checks (ColumnFamilyDescriptorBuilder), made whatever the sanity-check setting.
  if (key == "VERSIONS" && std::stoll(*stored) <= 0)
    return BadValue("family '" + fc->name + "': VERSIONS", v, "a positive number of versions");
  if (key == "DFS_REPLICATION") {
    int64_t r = std::stoll(*stored);
    if (r < 1 && r != 0)
      return BadValue("family '" + fc->name + "': DFS_REPLICATION", v,
                      "at least 1, or 0 for the filesystem default");
  }
  Put(&fc->values, key, std::move(*stored));
  return Status::OK();
}

// hcd(): a {NAME => ..., ...} hash into a FamilyChange. `skip` keys were consumed by the caller.
Result<FamilyChange> FamilyFromHash(const Value& h, const std::vector<std::string>& skip = {}) {
  FamilyChange fc;
  const Value* name = nullptr;
  for (size_t i = 0; i < h.keys.size(); ++i)
    if (h.keys[i].str == "NAME") name = &h.values[i];
  if (!name || name->kind != Value::Kind::kString)
    return Status::InvalidArgument("NAME", "a column family needs NAME => 'family'");
  fc.name = name->str;
  HFILE_RETURN_IF_ERROR(CheckFamilyName(fc.name));
  // hcd() applies METADATA and CONFIGURATION after the typed attributes: a raw 'VERSIONS' in
  // METADATA wins over VERSIONS.
  for (bool maps : {false, true}) {
    for (size_t i = 0; i < h.keys.size(); ++i) {
      const std::string& k = h.keys[i].str;
      if (k == "NAME" || std::find(skip.begin(), skip.end(), k) != skip.end()) continue;
      if ((k == "METADATA" || k == "CONFIGURATION") != maps) continue;
      HFILE_RETURN_IF_ERROR(FamilyAttribute(k, h.values[i], &fc));
    }
  }
  return fc;
}

// update_htd_from_arg(): table attributes of a hash; `skip` keys were consumed by the caller.
Status TableAttributes(const Value& h, const std::vector<std::string>& skip,
                       std::initializer_list<const char*> also_valid,
                       std::vector<std::pair<std::string, std::string>>* out) {
  // update_htd_from_arg, too, applies METADATA and CONFIGURATION after the typed attributes.
  for (bool maps : {false, true}) {
    for (size_t i = 0; i < h.keys.size(); ++i) {
      const std::string& k = h.keys[i].str;
      const Value& v = h.values[i];
      if (std::find(skip.begin(), skip.end(), k) != skip.end()) continue;
      if ((k == "METADATA" || k == "CONFIGURATION") != maps) continue;
      if (maps) {
        // HBase 2.x keeps a table's CONFIGURATION in the same values map as METADATA.
        std::vector<std::pair<std::string, std::string>> entries;
        HFILE_RETURN_IF_ERROR(MapEntries(k, v, &entries));
        for (auto& [ek, ev] : entries) Put(out, ek, std::move(ev));
        continue;
      }
      const AttrSpec* spec = FindSpec(TableSpecs(), k);
      if (!spec) {
        if (Upper(k).find("COPROCESSOR") != std::string::npos) {
          return Status::InvalidArgument(k, "coprocessor specs are not supported offline; use "
                                            "the HBase shell");
        }
        std::vector<std::string> valid = Keys(TableSpecs(), {"METADATA", "CONFIGURATION"});
        for (const char* a : also_valid) valid.push_back(a);
        return UnknownKey("table attribute", k, valid);
      }
      HFILE_ASSIGN_OR_RETURN(std::string stored, Convert(*spec, v));
      Put(out, k, std::move(stored));
    }
  }
  return Status::OK();
}

const Value* Lookup(const Value& h, std::string_view key) {
  for (size_t i = 0; i < h.keys.size(); ++i)
    if (h.keys[i].str == key) return &h.values[i];
  return nullptr;
}

Result<TableName> ParseTable(const Value& v) {
  auto name = TableName::Parse(v.str);
  if (!name.ok()) return name.status().WithContext("table name");
  return name;
}

// TableName.isLegalNamespaceName / isLegalTableQualifierName, for tables being created.
Status CheckNewTableName(const TableName& t) {
  auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (char c : t.namespace_name) {
    if (!word(c))
      return Status::InvalidArgument("namespace '" + ToStringBinary(t.namespace_name) + "'",
                                     "may only contain [a-zA-Z_0-9]");
  }
  if (!word(t.qualifier[0]))
    return Status::InvalidArgument("table '" + ToStringBinary(t.qualifier) + "'",
                                   "must start with [a-zA-Z_0-9] (not '.' or '-')");
  for (char c : t.qualifier) {
    if (!word(c) && c != '-' && c != '.')
      return Status::InvalidArgument("table '" + ToStringBinary(t.qualifier) + "'",
                                     "may only contain [a-zA-Z_0-9-.]");
  }
  return Status::OK();
}

Status ParseStatement(std::string_view text, std::string_view command, Value* table,
                      std::vector<Value>* args) {
  Lexer lexer(text);
  HFILE_ASSIGN_OR_RETURN(std::vector<Token> toks, lexer.Run());
  Parser parser(std::move(toks), lexer.multiline());
  return parser.Statement(command, table, args);
}

// Bytes.toBytesBinary: "\xNN" is one byte, everything else stands for itself.
std::string ToBytesBinary(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 3 < s.size() && s[i + 1] == 'x' && HexDigit(s[i + 2]) >= 0 &&
        HexDigit(s[i + 3]) >= 0) {
      out += static_cast<char>(HexDigit(s[i + 2]) * 16 + HexDigit(s[i + 3]));
      i += 3;
    } else {
      out += s[i];
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// TableDescriptorChecker.sanityCheck (hbase-server/.../util/TableDescriptorChecker.java). Most
// findings only warn when the table (or site) sets hbase.table.sanity.checks=false; the
// replication scope, bloom parameter, FIFO compaction and meta checks always fail.

std::optional<int64_t> Num(const std::optional<std::string>& v) {
  if (!v) return std::nullopt;
  return ParseJavaLong(*v, INT64_MIN, INT64_MAX);
}

constexpr char kBypass[] = " (hbase.table.sanity.checks=false on the table bypasses this check)";
constexpr char kCompactionPolicyKey[] = "hbase.hstore.defaultengine.compactionpolicy.class";
constexpr char kFifoPolicy[] =
    "org.apache.hadoop.hbase.regionserver.compactions.FIFOCompactionPolicy";
constexpr char kBlockingStoreFilesKey[] = "hbase.hstore.blockingStoreFiles";

// The checks warnOrThrowExceptionForFailure() may turn into warnings.
Status CheckFamilyBypassable(const FamilyDescriptor& f) {
  const std::string cf = "family '" + ToStringBinary(f.name()) + "'";
  auto bad = [&](const char* key, const std::string& why) {
    return Status::InvalidArgument(cf + ": " + key, why + kBypass);
  };
  if (auto ttl = Num(f.GetValue(family_key::kTtl)); ttl && *ttl <= 0)
    return bad("TTL", std::to_string(*ttl) + ": TTL must be positive (seconds, or 'FOREVER')");
  if (auto bs = Num(f.GetValue(family_key::kBlockSize)); bs && (*bs < 1024 || *bs > (16 << 20)))
    return bad("BLOCKSIZE", std::to_string(*bs) + ": block size must be between 1K (1024) and "
                                                  "16MB (16777216)");
  int64_t max_versions = Num(f.GetValue(family_key::kVersions)).value_or(1);
  int64_t min_versions = Num(f.GetValue(family_key::kMinVersions)).value_or(0);
  if (min_versions < 0)
    return bad("MIN_VERSIONS", std::to_string(min_versions) + ": must not be negative");
  if (min_versions > max_versions)
    return bad("MIN_VERSIONS", std::to_string(min_versions) +
                                   ": min versions must be at most VERSIONS (" +
                                   std::to_string(max_versions) + ")");
  if (auto r = Num(f.GetValue("DFS_REPLICATION")); r && *r < 0)
    return bad("DFS_REPLICATION", "must not be negative");
  return Status::OK();
}

Status CheckFamilyAlways(const TableDescriptor& td, const FamilyDescriptor& f) {
  const std::string cf = "family '" + ToStringBinary(f.name()) + "'";
  auto bad = [&](const char* key, const std::string& why) {
    return Status::InvalidArgument(cf + ": " + key, why);
  };
  // The builder's setter refuses these; a stored descriptor cannot hold them.
  if (auto v = Num(f.GetValue(family_key::kVersions)); v && *v <= 0)
    return bad("VERSIONS", std::to_string(*v) + ": maximum versions must be positive");
  // WALProtos.ScopeType: REPLICATION_SCOPE_LOCAL (0) and REPLICATION_SCOPE_GLOBAL (1).
  if (auto s = Num(f.GetValue(family_key::kReplicationScope)); s && *s != 0 && *s != 1)
    return bad("REPLICATION_SCOPE",
               std::to_string(*s) + " is invalid: valid 0 (local), 1 (global)");
  if (f.bloom_type() == BloomType::kRowPrefixFixedLength) {
    // checkBloomFilterType → BloomFilterUtil.getBloomFilterParam over the family CONFIGURATION.
    auto len = f.GetConfiguration(family_key::kPrefixLengthConfig);
    if (!len)
      return bad("BLOOMFILTER", "ROWPREFIX_FIXED_LENGTH needs CONFIGURATION => "
                                "{'RowPrefixBloomFilter.prefix_length' => 'N'} (N > 0)");
    auto n = ParseJavaLong(*len, INT32_MIN, INT32_MAX);
    if (!n || *n <= 0)
      return bad("BLOOMFILTER", "RowPrefixBloomFilter.prefix_length '" + ToStringBinary(*len) +
                                    "' must be a positive integer");
  }
  // checkCompactionPolicy: FIFO compaction needs a TTL, no MIN_VERSIONS and >= 1000 blocking
  // store files (HStore's default is 16).
  std::string policy = f.GetConfiguration(kCompactionPolicyKey)
                           .value_or(td.GetValue(kCompactionPolicyKey).value_or(""));
  if (policy == kFifoPolicy) {
    if (f.ttl_seconds() == kTtlForever)
      return bad("TTL", "FIFO compaction does not support the default TTL (FOREVER)");
    if (f.min_versions() > 0) return bad("MIN_VERSIONS", "FIFO compaction needs MIN_VERSIONS 0");
    auto blocking = f.GetConfiguration(kBlockingStoreFilesKey);
    if (!blocking) blocking = td.GetValue(kBlockingStoreFilesKey);
    int64_t count = blocking ? Num(blocking).value_or(0) : 16;
    if (count < 1000)
      return bad(kBlockingStoreFilesKey, std::to_string(count) + " is below the minimum of 1000 "
                                         "FIFO compaction needs");
  }
  return Status::OK();
}

Status SanityCheck(const TableDescriptor& td) {
  if (td.families().empty())
    return Status::InvalidArgument(td.name().ToString(),
                                   "a table must have at least one column family");
  if (td.name().namespace_name == kSystemNamespace && td.name().qualifier == "meta" &&
      td.read_only()) {
    return Status::InvalidArgument("READONLY", "the meta table can't be set read only");
  }
  for (const auto& f : td.families()) HFILE_RETURN_IF_ERROR(CheckFamilyAlways(td, f));
  // Boolean.valueOf: anything but "true" turns the checks into warnings. The site-wide switch
  // is not visible offline.
  if (auto v = td.GetValue("hbase.table.sanity.checks"); v && Upper(*v) != "TRUE")
    return Status::OK();
  if (auto m = Num(td.GetValue(table_key::kMaxFileSize)); m && *m < (int64_t{2} << 20)) {
    return Status::InvalidArgument(
        "MAX_FILESIZE", std::to_string(*m) + " is too small (at least 2097152, 2 MB: smaller "
                                             "splits into an unmanageable number of regions)" +
                            kBypass);
  }
  if (auto m = Num(td.GetValue(table_key::kMemstoreFlushSize)); m && *m < (int64_t{1} << 20)) {
    return Status::InvalidArgument(
        "MEMSTORE_FLUSHSIZE",
        std::to_string(*m) + " is too small (at least 1048576, 1 MB)" + kBypass);
  }
  if (auto r = Num(td.GetValue(table_key::kRegionReplication)); r && *r < 1)
    return Status::InvalidArgument("REGION_REPLICATION",
                                   std::string("must be at least 1") + kBypass);
  for (const auto& f : td.families()) HFILE_RETURN_IF_ERROR(CheckFamilyBypassable(f));
  return Status::OK();
}

Status FinalChecks(const TableDescriptor& td) {
  HFILE_RETURN_IF_ERROR(SanityCheck(td));
  return td.Validate();
}

// StoreFileTrackerFactory's names for a tracker value: DEFAULT, FILE, MIGRATION, or the class.
std::string TrackerName(const std::optional<std::string>& v) {
  if (!v) return "DEFAULT";
  std::string u = Upper(*v);
  if (u == "DEFAULT" || v->ends_with(".DefaultStoreFileTracker")) return "DEFAULT";
  if (u == "FILE" || v->ends_with(".FileBasedStoreFileTracker")) return "FILE";
  if (u == "MIGRATION" || v->ends_with(".MigrationStoreFileTracker")) return "MIGRATION";
  return *v;
}

// StoreFileTrackerValidationUtils.checkForModifyTable (2.5+): a table's tracker changes only
// through MIGRATION (src = the current tracker), and leaves MIGRATION only for its dst, since the
// region servers must move the store file lists over while the table is online.
Status CheckTrackerChange(const TableDescriptor& before, const TableDescriptor& after) {
  constexpr char kSrc[] = "hbase.store.file-tracker.migration.src.impl";
  constexpr char kDst[] = "hbase.store.file-tracker.migration.dst.impl";
  std::string old_t = TrackerName(before.GetValue(table_key::kStoreFileTracker));
  std::string new_t = TrackerName(after.GetValue(table_key::kStoreFileTracker));
  if (old_t == new_t) {
    if (new_t == "MIGRATION" &&
        (TrackerName(before.GetValue(kSrc)) != TrackerName(after.GetValue(kSrc)) ||
         TrackerName(before.GetValue(kDst)) != TrackerName(after.GetValue(kDst)))) {
      return Status::InvalidArgument(table_key::kStoreFileTracker,
                                     "the migration src/dst cannot change during a migration");
    }
    return Status::OK();
  }
  if (new_t == "MIGRATION") {
    std::string src = TrackerName(after.GetValue(kSrc));
    std::string dst = TrackerName(after.GetValue(kDst));
    if (!after.GetValue(kSrc) || !after.GetValue(kDst) || src != old_t || dst == src) {
      return Status::InvalidArgument(
          table_key::kStoreFileTracker,
          "MIGRATION needs " + std::string(kSrc) + " = the current tracker (" + old_t + ") and " +
              kDst + " = a different one");
    }
    return Status::OK();
  }
  if (old_t == "MIGRATION") {
    std::string dst = TrackerName(before.GetValue(kDst));
    if (new_t != dst) {
      return Status::InvalidArgument(table_key::kStoreFileTracker,
                                     "a migration can only end at its dst (" + dst + "), not " +
                                         new_t);
    }
    return Status::OK();
  }
  return Status::InvalidArgument(
      table_key::kStoreFileTracker,
      "should not change the store file tracker from " + old_t + " to " + new_t +
          " directly; go through MIGRATION");
}

// A copy of `td` without the family `drop` and the values in `unset`, keeping order (the
// descriptor has no remove calls).
TableDescriptor Rebuild(const TableDescriptor& td, const std::string* drop,
                        const std::vector<std::string>& unset) {
  TableDescriptor out(td.name());
  for (const auto& [k, v] : td.values())
    if (std::find(unset.begin(), unset.end(), k) == unset.end()) out.SetValue(k, v);
  for (const auto& f : td.families())
    if (!drop || f.name() != *drop) out.AddFamily(f);
  return out;
}

FamilyDescriptor Merge(FamilyDescriptor f, const FamilyChange& fc) {
  for (const auto& [k, v] : fc.values) f.SetValue(k, v);
  for (const auto& [k, v] : fc.configuration) f.SetConfiguration(k, v);
  return f;
}

}  // namespace

const std::vector<std::string>& ShellFamilyAttributes() {
  static const auto* k =
      new std::vector<std::string>(Keys(FamilySpecs(), {"METADATA", "CONFIGURATION"}));
  return *k;
}

const std::vector<std::string>& ShellTableAttributes() {
  static const auto* k =
      new std::vector<std::string>(Keys(TableSpecs(), {"METADATA", "CONFIGURATION"}));
  return *k;
}

// ---------------------------------------------------------------------------------------------
// alter

Result<AlterStatement> ParseAlterStatement(std::string_view text) {
  Value table;
  std::vector<Value> args;
  HFILE_RETURN_IF_ERROR(ParseStatement(text, "alter", &table, &args));
  AlterStatement st;
  HFILE_ASSIGN_OR_RETURN(st.table, ParseTable(table));
  if (args.empty())
    return Status::InvalidArgument("alter", "there should be at least one argument but the table "
                                            "name");
  for (const Value& arg : args) {
    if (arg.kind == Value::Kind::kString) {  // alter 't', 'f': the family, as it is or new
      FamilyChange fc;
      fc.name = arg.str;
      HFILE_RETURN_IF_ERROR(CheckFamilyName(fc.name));
      st.families.push_back(std::move(fc));
      continue;
    }
    if (arg.kind != Value::Kind::kHash)
      return Status::InvalidArgument("alter", "expected a family name or a {...} hash, found " +
                                                  ValueText(arg));
    // 'delete' => 'f' is shorthand for {NAME => 'f', METHOD => 'delete'}.
    const Value* del = Lookup(arg, "delete");
    const Value* method = Lookup(arg, "METHOD");
    const Value* name = Lookup(arg, "NAME");
    std::string m;
    if (del) {
      m = "delete";
      name = del;
    } else if (method) {
      if (method->kind != Value::Kind::kString)
        return BadValue("METHOD", *method, "'delete', 'table_att', 'table_att_unset' or "
                                           "'table_conf_unset'");
      m = method->str;
    }
    auto only = [&](std::initializer_list<const char*> allowed) -> Status {
      for (const auto& k : arg.keys) {
        auto same = [&](const char* a) { return k.str == a; };
        if (std::find_if(allowed.begin(), allowed.end(), same) == allowed.end()) {
          return Status::InvalidArgument("METHOD => '" + m + "'",
                                         "unexpected key " + k.str + " (takes only " +
                                             Join(std::vector<std::string>(allowed.begin(),
                                                                           allowed.end()),
                                                  ", ") +
                                             ")");
        }
      }
      return Status::OK();
    };
    if (m.empty() && name) {  // 1) a family spec
      HFILE_ASSIGN_OR_RETURN(FamilyChange fc, FamilyFromHash(arg));
      st.families.push_back(std::move(fc));
    } else if (m == "delete") {
      HFILE_RETURN_IF_ERROR(del ? only({"delete"}) : only({"NAME", "METHOD"}));
      if (!name || name->kind != Value::Kind::kString)
        return Status::InvalidArgument("delete", "NAME parameter missing for delete method");
      FamilyChange fc;
      fc.name = name->str;
      fc.drop = true;
      st.families.push_back(std::move(fc));
    } else if (m == "table_att_unset" || m == "table_conf_unset") {
      HFILE_RETURN_IF_ERROR(only({"NAME", "METHOD"}));
      if (!name)
        return Status::InvalidArgument(m, "NAME parameter missing for " + m + " method");
      std::vector<const Value*> keys;
      if (name->kind == Value::Kind::kArray) {
        for (const auto& item : name->items) keys.push_back(&item);
      } else {
        keys.push_back(name);
      }
      for (const Value* k : keys) {
        if (k->kind != Value::Kind::kString) return BadValue(m + " NAME", *k, "attribute names");
        st.table_unset.push_back(k->str);
      }
    } else if (m.empty() || m == "table_att") {  // 3) table attributes
      if (name) return Status::InvalidArgument("NAME", "NAME argument in an unexpected place");
      HFILE_RETURN_IF_ERROR(TableAttributes(arg, {"METHOD"}, {"NAME", "METHOD"}, &st.table_values));
    } else {
      return Status::InvalidArgument("METHOD", "unknown method '" + m +
                                                   "': valid delete, table_att, table_att_unset, "
                                                   "table_conf_unset");
    }
  }
  return st;
}

Result<TableDescriptor> ApplyAlter(const TableDescriptor& current, const AlterStatement& st) {
  if (!(st.table == current.name())) {
    return Status::InvalidArgument("alter '" + st.table.ToString() + "'",
                                   "the descriptor is table '" + current.name().ToString() + "'");
  }
  TableDescriptor td = current;
  for (const FamilyChange& fc : st.families) {
    const FamilyDescriptor* existing = td.FindFamily(fc.name);
    if (fc.drop) {
      if (!existing) {
        return Status::InvalidArgument("delete '" + ToStringBinary(fc.name) + "'",
                                       "table " + td.name().ToString() + " has no such family");
      }
      td = Rebuild(td, &fc.name, {});
      continue;
    }
    td.AddFamily(Merge(existing ? *existing : FamilyDescriptor::WithDefaults(fc.name), fc));
  }
  for (const auto& [k, v] : st.table_values) td.SetValue(k, v);
  for (const auto& k : st.table_unset) {
    if (!td.GetValue(k))
      return Status::InvalidArgument("table_att_unset", "could not find attribute: " + k);
  }
  if (!st.table_unset.empty()) td = Rebuild(td, nullptr, st.table_unset);
  HFILE_RETURN_IF_ERROR(CheckTrackerChange(current, td));
  HFILE_RETURN_IF_ERROR(FinalChecks(td));
  return td;
}

// ---------------------------------------------------------------------------------------------
// create

Result<CreateStatement> ParseCreateStatement(std::string_view text) {
  Value table;
  std::vector<Value> raw;
  HFILE_RETURN_IF_ERROR(ParseStatement(text, "create", &table, &raw));
  CreateStatement st;
  HFILE_ASSIGN_OR_RETURN(st.table, ParseTable(table));
  HFILE_RETURN_IF_ERROR(CheckNewTableName(st.table));
  // create flattens its arguments (args.flatten.compact).
  std::vector<const Value*> args;
  std::vector<const Value*> stack;
  for (auto it = raw.rbegin(); it != raw.rend(); ++it) stack.push_back(&*it);
  while (!stack.empty()) {
    const Value* v = stack.back();
    stack.pop_back();
    if (v->kind == Value::Kind::kArray) {
      for (auto it = v->items.rbegin(); it != v->items.rend(); ++it) stack.push_back(&*it);
    } else if (v->kind != Value::Kind::kNil) {
      args.push_back(v);
    }
  }
  auto add_family = [&](FamilyChange fc) {
    for (auto& f : st.families) {
      if (f.name == fc.name) {  // "already exists, the old one will be replaced"
        f = std::move(fc);
        return;
      }
    }
    st.families.push_back(std::move(fc));
  };
  for (const Value* arg : args) {
    if (arg->kind == Value::Kind::kString) {
      FamilyChange fc;
      fc.name = arg->str;
      HFILE_RETURN_IF_ERROR(CheckFamilyName(fc.name));
      add_family(std::move(fc));
      continue;
    }
    if (arg->kind != Value::Kind::kHash)
      return Status::InvalidArgument("create", ValueText(*arg) + " is not a family name or a hash");
    if (Lookup(*arg, "NAME")) {
      HFILE_ASSIGN_OR_RETURN(FamilyChange fc, FamilyFromHash(*arg));
      add_family(std::move(fc));
      continue;
    }
    if (const Value* m = Lookup(*arg, "METHOD");
        m && !(m->kind == Value::Kind::kString && m->str == "table_att")) {
      return Status::InvalidArgument("METHOD", "table_att is currently the only supported method");
    }
    if (const Value* f = Lookup(*arg, "SPLITS_FILE")) {
      if (f->kind != Value::Kind::kString || f->str.empty())
        return BadValue("SPLITS_FILE", *f, "a file name");
      st.splits_file = f->str;
    }
    const Value* splits = Lookup(*arg, "SPLITS");
    const Value* num = Lookup(*arg, "NUMREGIONS");
    const Value* algo = Lookup(*arg, "SPLITALGO");
    if (splits) {
      if (!st.splits_file.empty())
        return Status::InvalidArgument("SPLITS", "give SPLITS or SPLITS_FILE, not both");
      if (splits->kind != Value::Kind::kArray) return BadValue("SPLITS", *splits, "['key', ...]");
      for (const auto& s : splits->items) {
        if (s.kind != Value::Kind::kString && s.kind != Value::Kind::kInt)
          return BadValue("SPLITS", s, "quoted split keys");
        st.split_keys.push_back(ToBytesBinary(s.str));
      }
    } else if (num || algo) {
      // The shell ignores NUMREGIONS/SPLITALGO when SPLITS is given.
      if (!num) return Status::InvalidArgument("NUMREGIONS", "number of regions must be specified");
      if (!algo) return Status::InvalidArgument("SPLITALGO", "split algorithm must be specified");
      if (num->kind != Value::Kind::kInt || num->num <= 1 || num->num > INT32_MAX)
        return BadValue("NUMREGIONS", *num, "an integer greater than 1");
      if (algo->kind != Value::Kind::kString || algo->str.empty())
        return BadValue("SPLITALGO", *algo,
                        "'HexStringSplit', 'DecimalStringSplit', 'UniformSplit' or a class name");
      st.num_regions = static_cast<int>(num->num);
      st.split_algorithm = algo->str;
    }
    HFILE_RETURN_IF_ERROR(TableAttributes(
        *arg, {"METHOD", "SPLITS_FILE", "SPLITS", "NUMREGIONS", "SPLITALGO"},
        {"NAME", "SPLITS", "SPLITS_FILE", "NUMREGIONS", "SPLITALGO"}, &st.table_values));
  }
  if (st.families.empty())
    return Status::InvalidArgument("create", "table must have at least one column family");
  return st;
}

Result<TableDescriptor> DescriptorForCreate(const CreateStatement& st) {
  TableDescriptor td(st.table);
  td.SetValue(table_key::kIsMeta, "false");
  for (const auto& [k, v] : st.table_values) td.SetValue(k, v);
  // CreateTableProcedure (2.5+) records the site's tracker; offline we assume the default.
  if (!td.GetValue(table_key::kStoreFileTracker))
    td.SetValue(table_key::kStoreFileTracker, "DEFAULT");
  for (const FamilyChange& fc : st.families) {
    if (fc.drop) return Status::InvalidArgument("create", "cannot drop family " + fc.name);
    td.AddFamily(Merge(FamilyDescriptor::WithDefaults(fc.name), fc));
  }
  HFILE_RETURN_IF_ERROR(FinalChecks(td));
  return td;
}

// RegionSplitter's NumberStringSplit (HexStringSplit, DecimalStringSplit): n-1 keys at
// first + i * (range / n), printed in the radix and left-padded with '0' to the row length.
std::vector<std::string> NumberStringSplits(int n, uint64_t last, int radix) {
  const uint64_t each = (last + 1) / static_cast<uint64_t>(n);
  std::vector<std::string> keys;
  for (int i = 1; i < n; ++i) {
    uint64_t v = each * static_cast<uint64_t>(i);
    std::string digits;
    do {
      digits.insert(digits.begin(), "0123456789abcdef"[v % radix]);
      v /= radix;
    } while (v > 0);
    keys.push_back(std::string(8 - std::min<size_t>(8, digits.size()), '0') + digits);
  }
  return keys;
}

Result<std::vector<std::string>> SplitKeysForCreate(const CreateStatement& st) {
  std::vector<std::string> keys = st.split_keys;
  if (keys.empty() && !st.splits_file.empty()) {
    HFILE_ASSIGN_OR_RETURN(std::string text, ReadWholeFile(st.splits_file));
    size_t pos = 0;
    while (pos < text.size()) {
      size_t nl = text.find('\n', pos);
      std::string line = text.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos);
      pos = nl == std::string::npos ? text.size() : nl + 1;
      if (!line.empty() && line.back() == '\r') line.pop_back();  // Ruby's chomp
      keys.push_back(ToBytesBinary(line));
    }
  } else if (keys.empty() && st.num_regions) {
    std::string algo = st.split_algorithm;
    for (const char* prefix : {"org.apache.hadoop.hbase.util.RegionSplitter$",
                               "org.apache.hadoop.hbase.util.RegionSplitter."}) {
      if (algo.starts_with(prefix)) algo = algo.substr(std::string_view(prefix).size());
    }
    if (algo == "HexStringSplit") {
      keys = NumberStringSplits(*st.num_regions, 0xFFFFFFFFull, 16);
    } else if (algo == "DecimalStringSplit") {
      keys = NumberStringSplits(*st.num_regions, 99999999ull, 10);
    } else if (algo == "UniformSplit") {
      // Bytes.split("", 8 x 0xff, inclusive, n - 1) over 8-byte keys: interval 2^64 / n.
      const unsigned __int128 each = (static_cast<unsigned __int128>(1) << 64) /
                                     static_cast<unsigned>(*st.num_regions);
      for (int i = 1; i < *st.num_regions; ++i) {
        uint64_t v = static_cast<uint64_t>(each * static_cast<unsigned>(i));
        std::string key(8, '\0');
        for (int b = 7; b >= 0; --b, v >>= 8) key[b] = static_cast<char>(v & 0xff);
        keys.push_back(std::move(key));
      }
    } else {
      return Status::NotSupported("SPLITALGO '" + st.split_algorithm + "'",
                                  "offline only HexStringSplit, DecimalStringSplit and "
                                  "UniformSplit are computed; give SPLITS => [...] instead");
    }
  }
  // HBaseAdmin.createTableAsync: sorted by Bytes.BYTES_COMPARATOR, no empty or repeated key.
  std::sort(keys.begin(), keys.end(), [](const std::string& a, const std::string& b) {
    return Slice(a).compare(Slice(b)) < 0;
  });
  for (size_t i = 0; i < keys.size(); ++i) {
    if (keys[i].empty())
      return Status::InvalidArgument("SPLITS",
                                     "empty split key must not be passed in the split keys");
    if (i > 0 && keys[i] == keys[i - 1])
      return Status::InvalidArgument("SPLITS", "all split keys must be unique, found duplicate: " +
                                                   ToStringBinary(keys[i]));
  }
  return keys;
}

// ---------------------------------------------------------------------------------------------
// flags

Result<FamilyChange> FamilyChangeFromFlags(const std::string& family,
                                           const std::vector<std::string>& sets) {
  FamilyChange fc;
  fc.name = family;
  HFILE_RETURN_IF_ERROR(CheckFamilyName(fc.name));
  for (const std::string& set : sets) {
    size_t eq = set.find('=');
    if (eq == std::string::npos || eq == 0)
      return Status::InvalidArgument("--set '" + set + "'", "expected ATTR=VALUE");
    std::string attr = set.substr(0, eq);
    Value v;
    v.kind = Value::Kind::kString;
    v.str = set.substr(eq + 1);
    size_t colon = attr.find(':');
    std::string head = Upper(attr.substr(0, colon));
    if (colon != std::string::npos && (head == "CONFIGURATION" || head == "METADATA")) {
      std::string key = attr.substr(colon + 1);
      if (key.empty())
        return Status::InvalidArgument("--set '" + set + "'", "expected " + head + ":key=value");
      Put(head == "CONFIGURATION" ? &fc.configuration : &fc.values, key, v.str);
      continue;
    }
    std::string key = Upper(attr);
    if (key == "NAME" || key == "METADATA" || key == "CONFIGURATION" ||
        !FindSpec(FamilySpecs(), key)) {
      return Status::InvalidArgument(
          "unknown family attribute '" + attr + "'",
          "valid: " + Join(Keys(FamilySpecs(), {"CONFIGURATION:key", "METADATA:key"}), ", "));
    }
    HFILE_RETURN_IF_ERROR(FamilyAttribute(key, v, &fc));
  }
  return fc;
}

}  // namespace hfile::region
