#include "region/table_name.h"

namespace hfile::region {

Result<TableName> TableName::Parse(std::string_view name) {
  TableName t;
  size_t colon = name.find(':');
  if (colon == std::string_view::npos) {
    t.qualifier = std::string(name);
  } else {
    t.namespace_name = std::string(name.substr(0, colon));
    t.qualifier = std::string(name.substr(colon + 1));
    if (t.qualifier.find(':') != std::string::npos)
      return Status::InvalidArgument("table name has more than one ':'", name);
  }
  if (t.namespace_name.empty() || t.qualifier.empty())
    return Status::InvalidArgument("empty namespace or table qualifier", name);
  return t;
}

std::string TableName::ToString() const {
  if (namespace_name == kDefaultNamespace) return qualifier;
  return namespace_name + ":" + qualifier;
}

std::string TableName::ToLinkString() const {
  if (namespace_name == kDefaultNamespace) return qualifier;
  return namespace_name + "=" + qualifier;
}

}  // namespace hfile::region
