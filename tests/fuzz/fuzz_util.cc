#include "fuzz_util.h"

#include <sys/mman.h>
#include <unistd.h>

namespace hfile::fuzz {

MemFile::MemFile(const uint8_t* data, size_t size) {
  fd_ = memfd_create("hfile-fuzz", MFD_CLOEXEC);
  if (fd_ < 0) {
    std::perror("memfd_create");
    std::abort();
  }
  for (size_t done = 0; done < size;) {
    ssize_t n = ::write(fd_, data + done, size - done);
    if (n <= 0) {
      std::perror("write memfd");
      std::abort();
    }
    done += static_cast<size_t>(n);
  }
  path_ = "/proc/self/fd/" + std::to_string(fd_);
}

MemFile::~MemFile() { ::close(fd_); }

}  // namespace hfile::fuzz
