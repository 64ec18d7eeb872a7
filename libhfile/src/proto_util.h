// Protobuf parsing for damaged input.
#ifndef HFILE_SRC_PROTO_UTIL_H_
#define HFILE_SRC_PROTO_UTIL_H_

#include <climits>
#include <cstddef>

namespace hfile {

// Parses `n` bytes into *m; false if they do not parse or lack a required field. Unlike
// ParseFromArray it does not log the missing fields to stderr: a damaged block is reported
// through Status, not by libprotobuf printing from inside the tools.
template <typename Message>
bool ParseQuietly(Message* m, const char* data, size_t n) {
  if (n > static_cast<size_t>(INT_MAX)) return false;
  return m->ParsePartialFromArray(data, static_cast<int>(n)) && m->IsInitialized();
}

}  // namespace hfile

#endif  // HFILE_SRC_PROTO_UTIL_H_
