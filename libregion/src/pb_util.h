// The "PBUF" magic HBase prepends to the protobuf messages it persists.
#ifndef REGION_SRC_PB_UTIL_H_
#define REGION_SRC_PB_UTIL_H_

namespace hfile::region {

inline constexpr char kPbMagic[] = "PBUF";

}  // namespace hfile::region

#endif  // REGION_SRC_PB_UTIL_H_
