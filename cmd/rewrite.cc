// hfile-rewrite: thin shell over hfile::RunRewriteTool.
#include <iostream>

#include "cli_common.h"

int main(int argc, char** argv) {
  return hfile::cli::RunRewriteTool(argc, argv, std::cout, std::cerr);
}
