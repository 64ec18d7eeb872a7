// The JSON form of the distributed run's records (units.proto), shared by plan, task, commit.
#include <google/protobuf/util/json_util.h>

#include "units_internal.h"

namespace hfile::region {

std::string ToJsonLine(const google::protobuf::Message& m) {
  google::protobuf::util::JsonPrintOptions o;
  o.preserve_proto_field_names = true;
  o.always_print_primitive_fields = true;
  std::string out;
  // Only fails for messages with unresolvable Any fields, which these records have none of.
  (void)google::protobuf::util::MessageToJsonString(m, &out, o);
  return out;
}

Status FromJson(const std::string& json, const std::string& what, google::protobuf::Message* m) {
  google::protobuf::util::JsonParseOptions o;
  o.ignore_unknown_fields = true;  // a newer driver may add fields
  auto s = google::protobuf::util::JsonStringToMessage(json, m, o);
  if (!s.ok()) return Status::Corruption(what, "not a valid record: " + s.ToString());
  return Status::OK();
}

bool RelativeTo(const std::string& base, const std::string& path, std::string* rel) {
  std::string b = base;
  while (b.size() > 1 && b.back() == '/') b.pop_back();
  if (path == b) {
    rel->clear();
    return true;
  }
  if (path.size() > b.size() && path.compare(0, b.size(), b) == 0 && path[b.size()] == '/') {
    *rel = path.substr(b.size() + 1);
    return true;
  }
  return false;
}

}  // namespace hfile::region
