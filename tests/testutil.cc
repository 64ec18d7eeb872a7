#include "testutil.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <unistd.h>

namespace fs = std::filesystem;

namespace hfile::test {

std::string RealDataDir() {
  std::string d = std::string(HFILE_SHARED_DIR) + "/testdata/real";
  return fs::is_directory(d) ? d : "";
}

std::string DefectsDir() {
  std::string d = std::string(HFILE_SHARED_DIR) + "/testdata/defects";
  return fs::is_directory(d) ? d : "";
}

std::string FuzzSeedDir() {
  std::string d = std::string(HFILE_SHARED_DIR) + "/testdata/fuzz-seeds";
  return fs::is_directory(d) ? d : "";
}

std::string ProjectTestDataDir() { return std::string(HFILE_SOURCE_DIR) + "/testdata"; }

namespace {

// The temp dirs this process made, removed when it exits after every test passed: a CI run's
// disk is shared, and one corrupt-file sweep alone writes 2 GB. A failure keeps them to look at
// (so does HFILE_KEEP_TEST_TMP=1). Only the process that made a dir removes it: a forked child
// that exits normally (a crash-test child) must not delete what its parent is still checking.
class TempDirRegistry {
 public:
  void Add(const fs::path& p) { dirs_.push_back({p, ::getpid()}); }
  ~TempDirRegistry() {
    if (std::getenv("HFILE_KEEP_TEST_TMP") != nullptr) return;
    if (!::testing::UnitTest::GetInstance()->Passed()) return;
    for (const auto& [path, pid] : dirs_) {
      if (pid != ::getpid()) continue;
      std::error_code ec;
      fs::remove_all(path, ec);
    }
  }

 private:
  std::vector<std::pair<fs::path, pid_t>> dirs_;
};

TempDirRegistry& Registry() {
  static TempDirRegistry registry;
  return registry;
}

}  // namespace

std::string NewTempDir(const std::string& name) {
  fs::path p = fs::path(HFILE_BINARY_DIR) / "test-tmp" /
               (name + "-" + std::to_string(::getpid()) + "-" + std::to_string(std::rand()));
  fs::remove_all(p);
  fs::create_directories(p);
  Registry().Add(p);
  return p.string();
}

std::string ReadFileOrDie(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) ADD_FAILURE() << "cannot read " << path;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void WriteFileOrDie(const std::string& path, const std::string& data) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(data.data(), static_cast<std::streamsize>(data.size()));
  if (!out) ADD_FAILURE() << "cannot write " << path;
}

std::string ExtractRealArchives() {
  const std::string dir = NewTempDir("real-archives");
  for (const char* tgz : {"hbase-0.94/hbase-4388-root.dir.tgz",
                          "hbase-upgrade-fixtures/TestMetaMigrationConvertToPB.tgz",
                          "hbase-upgrade-fixtures/TestNamespaceUpgrade.tgz"}) {
    const std::string dst = dir + "/" + fs::path(tgz).stem().string();
    fs::create_directories(dst);
    const std::string cmd = "tar -xzf '" + RealDataDir() + "/" + tgz + "' -C '" + dst + "'";
    if (std::system(cmd.c_str()) != 0) ADD_FAILURE() << cmd;
  }
  const std::string cmd = "python3 -m zipfile -e '" + RealDataDir() +
                          "/java-bigtable-hbase/EndToEndIT-snapshot.zip' '" + dir + "/zip'";
  if (std::system(cmd.c_str()) != 0) ADD_FAILURE() << cmd;
  return dir;
}

std::string SpacedHex(const std::string& bytes) {
  static const char* d = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : bytes) {
    if (!out.empty()) out.push_back(' ');
    out.push_back(d[c >> 4]);
    out.push_back(d[c & 15]);
  }
  return out;
}

std::string ParseSpacedHex(const std::string& hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size();) {
    if (hex[i] == ' ') {
      ++i;
      continue;
    }
    out.push_back(static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16)));
    i += 2;
  }
  return out;
}

std::vector<std::string> ListFilesRecursive(const std::string& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file()) out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace hfile::test
