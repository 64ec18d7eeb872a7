// hfile: the front end. `hfile <tool> ARGS...` runs hfile-<tool> ARGS..., found next to this
// binary or on PATH, the way git runs its subcommands.
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

const char* const kTools[][2] = {
    {"dump", "show an HFile's cells, blocks, index, file info and statistics"},
    {"verify", "check HFiles for corruption and format violations"},
    {"rewrite", "rewrite HFiles with other codec, encoding, bloom or block settings"},
    {"compact", "compact a region's store files offline, as HBase would"},
};

void Usage(FILE* out) {
  std::fprintf(out, "usage: hfile <tool> [ARGS...]\n       hfile <tool> --help\n\ntools:\n");
  for (const auto& t : kTools) std::fprintf(out, "  %-10s %s\n", t[0], t[1]);
}

std::string SelfDir() {
  char buf[4096];
  ssize_t n = ::readlink("/proc/self/exe", buf, sizeof(buf) - 1);
  if (n <= 0) return "";
  std::string p(buf, static_cast<size_t>(n));
  auto slash = p.rfind('/');
  return slash == std::string::npos ? "" : p.substr(0, slash);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h")) {
    Usage(argc < 2 ? stderr : stdout);
    return argc < 2 ? 1 : 0;
  }
  if (!std::strcmp(argv[1], "--version")) {
    std::printf("hfile (hfilekit) 0.1.0\n");
    return 0;
  }
  std::string tool = std::string("hfile-") + argv[1];
  std::vector<char*> args;
  args.push_back(tool.data());
  for (int i = 2; i < argc; ++i) args.push_back(argv[i]);
  args.push_back(nullptr);
  std::string local = SelfDir() + "/" + tool;
  if (::access(local.c_str(), X_OK) == 0) ::execv(local.c_str(), args.data());
  ::execvp(tool.c_str(), args.data());
  std::fprintf(stderr, "hfile: '%s' is not an hfile tool (%s)\n\n", argv[1], std::strerror(errno));
  Usage(stderr);
  return 1;
}
