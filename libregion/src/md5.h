// MD5 (RFC 1321), for HBase's encoded region names (MD5Hash.getMD5AsHex).
#ifndef REGION_SRC_MD5_H_
#define REGION_SRC_MD5_H_

#include <string>

#include "hfile/slice.h"

namespace hfile::region {

// 32 lowercase hex digits.
std::string Md5Hex(const Slice& data);

}  // namespace hfile::region

#endif  // REGION_SRC_MD5_H_
