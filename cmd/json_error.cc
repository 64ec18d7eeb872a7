#include "json_error.h"

#include <fmt/format.h>

#include "hfile/escape.h"
#include "hfile/input_check.h"

namespace hfile::cli {

namespace {

std::string Json(std::string_view s) {
  std::string out;
  AppendJsonString(&out, std::string(s));
  return out;
}

}  // namespace

std::string JsonErrorFields(const Status& s) {
  if (s.ok()) return "\"error\":null,\"code\":null";
  const std::string_view code = RefusalCode(s);
  return fmt::format("\"error\":{},\"code\":{}", Json(s.ToString()),
                     code.empty() ? "null" : Json(code));
}

std::string JsonErrorRecord(const std::string& input, const Status& s) {
  return fmt::format("{{\"kind\":\"error\",\"v\":1,\"path\":{},\"input\":{},{}}}\n", Json(input),
                     Json(input), JsonErrorFields(s));
}

}  // namespace hfile::cli
