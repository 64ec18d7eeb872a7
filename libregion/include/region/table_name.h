// TableName: a namespace-qualified HBase table name ("ns:qualifier"; the default namespace is
// omitted when printed, "hbase" holds the system tables).
#ifndef REGION_TABLE_NAME_H_
#define REGION_TABLE_NAME_H_

#include <string>
#include <string_view>

#include "hfile/status.h"

namespace hfile::region {

inline constexpr char kDefaultNamespace[] = "default";
inline constexpr char kSystemNamespace[] = "hbase";

struct TableName {
  std::string namespace_name = kDefaultNamespace;
  std::string qualifier;

  // Parses "qualifier" or "ns:qualifier". InvalidArgument on an empty part or a second ':'.
  static Result<TableName> Parse(std::string_view name);
  // "qualifier" for the default namespace, "ns:qualifier" otherwise (TableName.getNameAsString).
  std::string ToString() const;
  // The HFileLink spelling: ':' becomes '=' ("ns=qualifier", or "qualifier").
  std::string ToLinkString() const;

  bool operator==(const TableName& o) const = default;
};

}  // namespace hfile::region

#endif  // REGION_TABLE_NAME_H_
