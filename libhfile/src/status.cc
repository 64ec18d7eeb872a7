#include "hfile/status.h"

namespace hfile {
namespace {
const char* CodeName(Status::Code code) {
  switch (code) {
    case Status::Code::kOk: return "OK";
    case Status::Code::kNotFound: return "NotFound";
    case Status::Code::kCorruption: return "Corruption";
    case Status::Code::kNotSupported: return "Not supported";
    case Status::Code::kInvalidArgument: return "Invalid argument";
    case Status::Code::kIOError: return "IO error";
  }
  return "Unknown";
}
const std::string kEmpty;
}  // namespace

Status::Status(Code code, std::string_view msg, std::string_view msg2) : rep_(new Rep{code, {}}) {
  rep_->msg.assign(msg);
  if (!msg2.empty()) {
    rep_->msg.append(": ");
    rep_->msg.append(msg2);
  }
}

const std::string& Status::message() const { return rep_ ? rep_->msg : kEmpty; }

std::string Status::ToString() const {
  if (ok()) return "OK";
  std::string s = CodeName(rep_->code);
  s.append(": ");
  s.append(rep_->msg);
  return s;
}

Status Status::WithContext(std::string_view context) const {
  if (ok()) return *this;
  return Status(rep_->code, context, rep_->msg);
}

}  // namespace hfile
