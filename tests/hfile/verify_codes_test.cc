// The stable problem codes of hfile verify: each one named and documented in hfile-verify(1),
// and the damaged files of the corrupt-file generator and of ../shared/testdata give the code of
// what is wrong with them.
#include <gtest/gtest.h>

#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "corrupt_gen.h"
#include "hfile/verify.h"
#include "region/layout_codes.h"
#include "test_hfile.h"
#include "testutil.h"

namespace hfile {
namespace {

std::string ManPage() {
  return test::ReadFileOrDie(std::string(HFILE_SOURCE_DIR) + "/man/hfile-verify.1.md");
}

bool IsKebab(const std::string& s) {
  if (s.empty() || s.front() == '-' || s.back() == '-') return false;
  for (char c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return false;
  return s.find("--") == std::string::npos;
}

// Every code, file and layout level alike, has a distinct kebab-case name and a definition in
// hfile-verify(1)'s PROBLEM CODES (a "`code`" line followed by ":   meaning").
TEST(VerifyCodes, EveryCodeIsNamedAndDocumented) {
  const std::string page = ManPage();
  std::set<std::string> seen;
  std::vector<std::string> all;
  for (int i = 0; i < static_cast<int>(ProblemCode::kCount); ++i)
    all.emplace_back(ProblemCodeName(static_cast<ProblemCode>(i)));
  // OpenErrorCode's (its io-error is the ProblemCode's).
  for (const char* c : {"trailer-unreadable", "load-on-open-unreadable", "unsupported",
                        "file-missing", "open-failed"})
    all.emplace_back(c);
  for (const char* c : region::layout_code::kAll) all.emplace_back(c);
  EXPECT_EQ(all.size(), static_cast<size_t>(ProblemCode::kCount) + 5 +
                            std::size(region::layout_code::kAll));
  for (const auto& c : all) {
    SCOPED_TRACE(c);
    EXPECT_TRUE(IsKebab(c));
    EXPECT_TRUE(seen.insert(c).second) << "named twice";
    EXPECT_NE(page.find("\n`" + c + "`\n:   "), std::string::npos) << "not in hfile-verify(1)";
  }
}

// Every code VerifyFile can give: the ProblemCodes and OpenErrorCode's.
const std::set<std::string>& Known() {
  static const std::set<std::string> known = [] {
    std::set<std::string> k;
    for (int i = 0; i < static_cast<int>(ProblemCode::kCount); ++i)
      k.emplace(ProblemCodeName(static_cast<ProblemCode>(i)));
    for (const char* c : {"trailer-unreadable", "load-on-open-unreadable", "unsupported",
                          "file-missing", "open-failed"})
      k.insert(c);
    return k;
  }();
  return known;
}

// The codes of a report: the open error's, or every listed problem's.
std::set<std::string> Codes(const VerifyReport& r) {
  std::set<std::string> out;
  if (!r.open_status.ok()) out.insert(r.open_error_code);
  for (const auto& p : r.problems) out.insert(std::string(ProblemCodeName(p.code)));
  return out;
}

std::string Describe(const VerifyReport& r) {
  std::ostringstream s;
  PrintVerifyReport(r, true, s);
  return s.str();
}

// The generator's defect classes, by name prefix, and the code each must give (among others).
TEST(VerifyCodes, GeneratedDefectsGiveTheirCodes) {
  const std::vector<std::pair<std::string, std::string>> expected = {
      {"flip-magic-", "block-header-invalid"},
      {"flip-sum-", "checksum-mismatch"},
      {"truncate-", "trailer-unreadable"},
      {"version-", "trailer-unreadable"},
      {"fileinfo-not-pbuf", "load-on-open-unreadable"},
      {"encoding-id-in-plain-block", "cell-undecodable"},
      {"swap-", ""},  // any code, as long as it is a documented one (checked below)
      {"absurd-", ""},
  };
  // Files too short to hold a trailer, or of a version this build does not read, are not
  // "damaged HFiles" but something else (exit 3).
  const std::map<std::string, std::string> exceptions = {
      {"truncate-0", "unsupported"}, {"truncate-1", "unsupported"},
      {"version-minor-9", "unsupported"}};
  const std::string dir = test::NewTempDir("verify_codes");
  std::map<std::string, int> checked;
  for (const auto& d : test::MakeDefects(test::BuildTestHFile({}))) {
    for (const auto& [prefix, code] : expected) {
      if (d.name.rfind(prefix, 0) != 0) continue;
      // A defect in the load-on-open section fails the open, whatever its kind.
      std::string want = d.at_open && code != "trailer-unreadable" && !code.empty()
                             ? "load-on-open-unreadable"
                             : code;
      if (auto e = exceptions.find(d.name); e != exceptions.end()) want = e->second;
      const std::string path = dir + "/" + d.name;
      test::WriteFileOrDie(path, d.bytes);
      VerifyReport r = VerifyFile(path, VerifyOptions{});
      const std::set<std::string> got = Codes(r);
      EXPECT_FALSE(got.empty()) << d.name << ":\n" << Describe(r);
      for (const auto& c : got) EXPECT_TRUE(Known().count(c)) << d.name << ": " << c;
      if (!want.empty())
        EXPECT_EQ(got.count(want), 1u) << d.name << " wants " << want << ":\n" << Describe(r);
      ++checked[prefix];
    }
  }
  for (const auto& [prefix, code] : expected) EXPECT_GT(checked[prefix], 0) << prefix;
}

// The reproducers of ../shared/testdata/defects and a few named fuzz seeds, each with the code
// of what its README (or its name) says is wrong with it.
TEST(VerifyCodes, NamedDamagedFilesGiveTheirCodes) {
  HFILE_REQUIRE_DEFECTS();
  const std::vector<std::pair<std::string, std::set<std::string>>> cases = {
      {"bzip2-bomb-1023MiB.hfile", {"block-size-invalid"}},
      {"bzip2-bomb-256MiB.hfile", {"block-size-invalid"}},
      {"gzhdr-DATA-uncomp-1073741824.hfile", {"block-size-invalid"}},
      {"v20-cell-type-251.hfile", {"cell-type-undefined"}},
      {"trailer-total_uncompressed_bytes-4611686018427387904.hfile",
       {"trailer-uncompressed-bytes-mismatch"}},
      {"bloom-meta-block-removed.hfile", {"bloom-missing", "trailer-uncompressed-bytes-mismatch"}},
  };
  for (const auto& [name, want] : cases) {
    VerifyReport r = VerifyFile(test::DefectsDir() + "/" + name, VerifyOptions{});
    const std::set<std::string> got = Codes(r);
    for (const auto& c : want) EXPECT_EQ(got.count(c), 1u) << name << " wants " << c << ":\n"
                                                           << Describe(r);
  }
}

// Every code a damaged file of the corpora gives is one of the documented ones, and the JSON
// record carries it.
TEST(VerifyCodes, CorporaGiveOnlyKnownCodes) {
  const std::set<std::string>& known = Known();
  std::vector<std::string> files;
  for (const auto& dir : {test::DefectsDir(), test::FuzzSeedDir()})
    if (!dir.empty())
      for (const auto& f : test::ListFilesRecursive(dir))
        if (f.ends_with(".hfile") || f.find("/riverbed/") != std::string::npos) files.push_back(f);
  if (files.empty()) GTEST_SKIP() << "SKIPPED LOUDLY: ../shared/testdata is absent";
  std::map<std::string, int> histogram;
  for (const auto& f : files) {
    VerifyReport r = VerifyFile(f, VerifyOptions{});
    const std::string json = Describe(r);
    for (const auto& c : Codes(r)) {
      ++histogram[c];
      EXPECT_EQ(known.count(c), 1u) << f << ": code '" << c << "'";
      EXPECT_NE(json.find("\"" + c + "\""), std::string::npos) << json;
    }
  }
  std::string seen;
  for (const auto& [c, n] : histogram) seen += " " + c + "=" + std::to_string(n);
  std::cout << files.size() << " files, codes:" << seen << "\n";
  EXPECT_GE(histogram.size(), 5u) << seen;
}

}  // namespace
}  // namespace hfile
