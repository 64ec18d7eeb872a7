// Helpers shared by the unit tests: where the real-file corpus is, temp dirs, file I/O.
#ifndef HFILE_TESTS_TESTUTIL_H_
#define HFILE_TESTS_TESTUTIL_H_

#include <string>
#include <vector>

namespace hfile::test {

// ../shared/testdata/real, or "" when ../shared is absent.
std::string RealDataDir();
// ../shared/testdata/fuzz-seeds, or "".
std::string FuzzSeedDir();
// ../shared/testdata/defects (reproducers of defects, its README says what must happen), or "".
std::string DefectsDir();
// The project's own testdata/ directory.
std::string ProjectTestDataDir();
// A fresh empty directory under the build tree, removed when the process exits with every test
// passed (kept after a failure, or with HFILE_KEEP_TEST_TMP=1).
std::string NewTempDir(const std::string& name);

std::string ReadFileOrDie(const std::string& path);
void WriteFileOrDie(const std::string& path, const std::string& data);
// Extracts the corpus archives (the 0.90/0.92/0.94 root dirs in .tgz, the exported snapshots in
// .zip) into a fresh temp dir and returns it. REQUIRES: RealDataDir() is not empty.
std::string ExtractRealArchives();

// "01 AB ..." (upper-case hex, space separated) for readable byte assertions, and its inverse
// (spaces ignored).
std::string SpacedHex(const std::string& bytes);
std::string ParseSpacedHex(const std::string& hex);

// Regular files below `dir`, sorted.
std::vector<std::string> ListFilesRecursive(const std::string& dir);

}  // namespace hfile::test

// Skips the current test, loudly, when the shared real-file corpus is not beside the project.
#define HFILE_REQUIRE_REAL_DATA()                                                   \
  do {                                                                              \
    if (::hfile::test::RealDataDir().empty())                                       \
      GTEST_SKIP() << "SKIPPED LOUDLY: ../shared/testdata/real is absent; real-file " \
                      "compatibility was NOT tested";                               \
  } while (0)

// Skips the current test, loudly, when the shared defect reproducers are not beside the project.
#define HFILE_REQUIRE_DEFECTS()                                                       \
  do {                                                                                \
    if (::hfile::test::DefectsDir().empty())                                          \
      GTEST_SKIP() << "SKIPPED LOUDLY: ../shared/testdata/defects is absent; the defect " \
                      "reproducers were NOT tested";                                  \
  } while (0)

#endif  // HFILE_TESTS_TESTUTIL_H_
