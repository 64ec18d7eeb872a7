// Helpers shared by the fuzz targets.
#ifndef HFILE_TESTS_FUZZ_FUZZ_UTIL_H_
#define HFILE_TESTS_FUZZ_FUZZ_UTIL_H_

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "hfile/slice.h"

namespace hfile::fuzz {

// Fails the run (libFuzzer reports a crash) when a property of the library does not hold.
#define HFILE_FUZZ_CHECK(cond)                                                 \
  do {                                                                         \
    if (!(cond)) {                                                             \
      std::fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
      std::abort();                                                            \
    }                                                                          \
  } while (0)

// Reads every byte of s, so that ASan flags a slice that points outside its buffer.
inline uint32_t Touch(const Slice& s) {
  uint32_t h = 0;
  for (size_t i = 0; i < s.size(); ++i) h = h * 31 + static_cast<uint8_t>(s[i]);
  return h;
}

// The input as an in-memory file with a path (memfd), removed on destruction.
class MemFile {
 public:
  MemFile(const uint8_t* data, size_t size);
  ~MemFile();
  MemFile(const MemFile&) = delete;
  MemFile& operator=(const MemFile&) = delete;
  const std::string& path() const { return path_; }

 private:
  int fd_ = -1;
  std::string path_;
};

}  // namespace hfile::fuzz

#endif  // HFILE_TESTS_FUZZ_FUZZ_UTIL_H_
