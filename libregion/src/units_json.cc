// The JSON form of the distributed run's records (units.proto), shared by plan, task, commit.
#include <google/protobuf/descriptor.h>
#include <google/protobuf/util/json_util.h>

#include <cstdint>
#include <cstdlib>
#include <set>

#include "fs_util.h"
#include "units.pb.h"
#include "units_internal.h"

namespace hfile::region {
namespace {

namespace gpb = google::protobuf;

// The names of the 64-bit integer fields of `d` and the messages it holds.
void CollectInt64Fields(const gpb::Descriptor* d, std::set<std::string>* names,
                        std::set<const gpb::Descriptor*>* seen) {
  if (!seen->insert(d).second) return;
  for (int i = 0; i < d->field_count(); ++i) {
    const gpb::FieldDescriptor* f = d->field(i);
    switch (f->cpp_type()) {
      case gpb::FieldDescriptor::CPPTYPE_INT64:
      case gpb::FieldDescriptor::CPPTYPE_UINT64:
        names->insert(f->name());
        break;
      case gpb::FieldDescriptor::CPPTYPE_MESSAGE:
        CollectInt64Fields(f->message_type(), names, seen);
        break;
      default:
        break;
    }
  }
}

// Protobuf's JSON writes every 64-bit integer as a string; hfile-json(7)'s rule is a number up
// to 2^53 - 1 and a string above. A key can only be matched where it follows '{' or ',':
// inside a string value its quotes are escaped.
std::string ApplyLargeIntegerRule(const gpb::Message& m, const std::string& json) {
  std::set<std::string> names;
  std::set<const gpb::Descriptor*> seen;
  CollectInt64Fields(m.GetDescriptor(), &names, &seen);
  std::string out;
  out.reserve(json.size());
  size_t i = 0;
  while (i < json.size()) {
    out += json[i];
    if ((json[i] == '{' || json[i] == ',') && i + 1 < json.size() && json[i + 1] == '"') {
      const size_t key_end = json.find('"', i + 2);
      if (key_end != std::string::npos && names.count(json.substr(i + 2, key_end - i - 2)) &&
          json.compare(key_end + 1, 2, ":\"") == 0) {
        const size_t v = key_end + 3, v_end = json.find('"', v);
        const std::string digits = json.substr(v, v_end - v);
        const bool neg = !digits.empty() && digits[0] == '-';
        const uint64_t mag = std::strtoull(digits.c_str() + neg, nullptr, 10);
        if (v_end != std::string::npos && digits.size() > size_t{neg} &&
            digits.find_first_not_of("0123456789", neg) == std::string::npos &&
            digits.size() - neg <= 16 && mag <= (uint64_t{1} << 53) - 1) {
          out.append(json, i + 1, key_end + 2 - i - 1);  // "key":
          out += digits;
          i = v_end + 1;
          continue;
        }
      }
    }
    ++i;
  }
  return out;
}

}  // namespace

std::string ToJsonLine(const google::protobuf::Message& m) {
  google::protobuf::util::JsonPrintOptions o;
  o.preserve_proto_field_names = true;
  o.always_print_primitive_fields = true;
  std::string out;
  // Only fails for messages with unresolvable Any fields, which these records have none of.
  (void)google::protobuf::util::MessageToJsonString(m, &out, o);
  return ApplyLargeIntegerRule(m, out);
}

Status FromJson(const std::string& json, const std::string& what, google::protobuf::Message* m) {
  google::protobuf::util::JsonParseOptions o;
  o.ignore_unknown_fields = true;  // a newer driver may add fields
  auto s = google::protobuf::util::JsonStringToMessage(json, m, o);
  if (!s.ok()) return Status::Corruption(what, "not a valid record: " + s.ToString());
  return Status::OK();
}

Status ReadJobUnits(FileSystem* fs, const std::string& job_dir, std::vector<pb::UnitProto>* units,
                    std::vector<std::string>* lines) {
  const std::string path = JoinPath(job_dir, kUnitsFile);
  HFILE_ASSIGN_OR_RETURN(auto text, fs->ReadFile(path));
  size_t start = 0;
  while (start < text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string::npos) nl = text.size();
    if (nl > start) {
      std::string line = text.substr(start, nl - start);
      pb::UnitProto u;
      HFILE_RETURN_IF_ERROR(FromJson(line, path, &u));
      units->push_back(std::move(u));
      if (lines) lines->push_back(std::move(line));
    }
    start = nl + 1;
  }
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
