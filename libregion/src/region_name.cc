#include "region/region_name.h"

#include "region/layout.h"
#include "region/region_info.h"

namespace hfile::region {

Result<ParsedRegionName> ParseRegionName(const std::string& name) {
  const size_t comma = name.find(',');
  if (comma == std::string::npos || comma == 0) {
    return Status::InvalidArgument("'" + name +
                                   "' is not a region name (TABLE,STARTKEY,ID[.ENCODED.])");
  }
  ParsedRegionName p;
  HFILE_ASSIGN_OR_RETURN(p.table, TableName::Parse(name.substr(0, comma)));
  if (name.size() > comma + 1 && name.back() == '.') {
    const size_t dot = name.rfind('.', name.size() - 2);
    if (dot != std::string::npos && dot > comma && dot + 2 < name.size()) {
      p.encoded_name = name.substr(dot + 1, name.size() - dot - 2);
      return p;
    }
  }
  if (p.table.namespace_name == kSystemNamespace && p.table.qualifier == "meta") {
    p.encoded_name = kMetaEncodedName;
    return p;
  }
  return Status::InvalidArgument("region name '" + name +
                                 "' has no encoded name ('.ENCODED.' at its end)");
}

Result<std::string> RegionDirForName(const std::string& root, const std::string& name) {
  HFILE_ASSIGN_OR_RETURN(ParsedRegionName p, ParseRegionName(name));
  HFILE_ASSIGN_OR_RETURN(RootDir dir, RootDir::Open(root));
  return dir.RegionDirPath(p.table, p.encoded_name);
}

}  // namespace hfile::region
