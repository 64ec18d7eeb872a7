// The corrupt-file generator: takes the bytes of an intact HFile and derives named damaged
// copies, each with what a reader must say about it.
//
// Defect classes (the name's prefix):
//   flip-magic-<TYPE>        a block's magic damaged             -> bad block magic at the block
//   flip-sum-<TYPE>          a byte of a checksummed block       -> checksum error at the block
//   flip-raw-<TYPE>          the same without checksums          -> anything but a crash
//   fileinfo-not-pbuf        the file info's "PBUF" damaged      -> file info parse error
//   truncate-<n>             the file cut to n bytes             -> open error naming the trailer
//   version-<what>           the trailer's version field         -> open error naming the trailer
//   absurd-<field>           a length or count set to 0x7fffffff -> error at the block / trailer
//   codec-<what>             the trailer's codec ordinal         -> open error
//   encoding-id              a data block's encoding id          -> unknown encoding id
//   swap-<what>              two adjacent blocks exchanged       -> error at the first of them
// Structural edits behind a checksum re-seal the block (recompute its checksums) so that the
// parser, not the checksum, has to catch them; they are made only where the bytes are not
// compressed.
#ifndef HFILE_TESTS_CORRUPT_GEN_H_
#define HFILE_TESTS_CORRUPT_GEN_H_

#include <cstdint>
#include <string>
#include <vector>

namespace hfile::test {

struct Defect {
  std::string name;
  std::string bytes;
  // A substring (lower case) the open error, or a verify problem, must contain; "" when the
  // defect is only checked not to crash (e.g. a flipped byte no checksum covers).
  std::string expect;
  // The block offset the error must name ("offset N" in the open error, or the problem's
  // offset); -1 when none is required.
  int64_t offset = -1;
  bool at_open = false;  // Open must fail (else Open may succeed and VerifyFile must report it)
};

// The defects derived from `intact`, which must be an HFile v2/v3 the library opens. Empty if
// it does not parse.
std::vector<Defect> MakeDefects(const std::string& intact);

}  // namespace hfile::test

#endif  // HFILE_TESTS_CORRUPT_GEN_H_
