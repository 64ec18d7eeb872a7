// Status and Result<T>: the one error model of hfilekit.
//
// A Status is either OK (no allocation) or an error code with a message. The message carries the
// context a user needs to find the defect: path, offset, block. No exception crosses a library
// boundary; every fallible function returns Status or Result<T>.
#ifndef HFILE_STATUS_H_
#define HFILE_STATUS_H_

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace hfile {

class [[nodiscard]] Status {
 public:
  enum class Code : unsigned char {
    kOk = 0,
    kNotFound = 1,
    kCorruption = 2,
    kNotSupported = 3,
    kInvalidArgument = 4,
    kIOError = 5,
  };

  Status() noexcept = default;
  Status(const Status& other) : rep_(other.rep_ ? new Rep(*other.rep_) : nullptr) {}
  Status& operator=(const Status& other) {
    if (this != &other) rep_.reset(other.rep_ ? new Rep(*other.rep_) : nullptr);
    return *this;
  }
  Status(Status&&) noexcept = default;
  Status& operator=(Status&&) noexcept = default;

  static Status OK() { return Status(); }
  static Status NotFound(std::string_view msg, std::string_view msg2 = {}) {
    return Status(Code::kNotFound, msg, msg2);
  }
  static Status Corruption(std::string_view msg, std::string_view msg2 = {}) {
    return Status(Code::kCorruption, msg, msg2);
  }
  static Status NotSupported(std::string_view msg, std::string_view msg2 = {}) {
    return Status(Code::kNotSupported, msg, msg2);
  }
  static Status InvalidArgument(std::string_view msg, std::string_view msg2 = {}) {
    return Status(Code::kInvalidArgument, msg, msg2);
  }
  static Status IOError(std::string_view msg, std::string_view msg2 = {}) {
    return Status(Code::kIOError, msg, msg2);
  }

  bool ok() const { return rep_ == nullptr; }
  Code code() const { return rep_ ? rep_->code : Code::kOk; }
  bool IsNotFound() const { return code() == Code::kNotFound; }
  bool IsCorruption() const { return code() == Code::kCorruption; }
  bool IsNotSupported() const { return code() == Code::kNotSupported; }
  bool IsInvalidArgument() const { return code() == Code::kInvalidArgument; }
  bool IsIOError() const { return code() == Code::kIOError; }

  // The message alone, without the code name.
  const std::string& message() const;
  // "Corruption: <message>", or "OK".
  std::string ToString() const;

  // Returns a copy whose message is "<context>: <message>". OK stays OK.
  Status WithContext(std::string_view context) const;

 private:
  struct Rep {
    Code code;
    std::string msg;
  };
  Status(Code code, std::string_view msg, std::string_view msg2);

  std::unique_ptr<Rep> rep_;
};

// A value or the Status that explains why there is none.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : value_(std::move(value)) {}  // NOLINT: implicit by design
  Result(Status status) : status_(std::move(status)) {}  // NOLINT: implicit by design

  bool ok() const { return status_.ok(); }
  const Status& status() const { return status_; }

  // REQUIRES: ok()
  T& value() & { return *value_; }
  const T& value() const& { return *value_; }
  T&& value() && { return std::move(*value_); }
  T* operator->() { return &*value_; }
  const T* operator->() const { return &*value_; }
  T& operator*() & { return *value_; }
  const T& operator*() const& { return *value_; }

 private:
  Status status_;
  std::optional<T> value_;
};

}  // namespace hfile

#define HFILE_CONCAT_IMPL_(a, b) a##b
#define HFILE_CONCAT_(a, b) HFILE_CONCAT_IMPL_(a, b)

// Returns from the enclosing function if `expr` (a Status) is not OK.
#define HFILE_RETURN_IF_ERROR(expr)              \
  do {                                           \
    ::hfile::Status _hfile_st = (expr);          \
    if (!_hfile_st.ok()) return _hfile_st;       \
  } while (0)

// `lhs = value of expr` (a Result<T>), or returns its Status. Expands to several statements.
#define HFILE_ASSIGN_OR_RETURN(lhs, expr) \
  HFILE_ASSIGN_OR_RETURN_IMPL_(HFILE_CONCAT_(_hfile_res_, __LINE__), lhs, expr)
#define HFILE_ASSIGN_OR_RETURN_IMPL_(tmp, lhs, expr) \
  auto tmp = (expr);                                 \
  if (!tmp.ok()) return tmp.status();                \
  lhs = std::move(tmp).value()

#endif  // HFILE_STATUS_H_
