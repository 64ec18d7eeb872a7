// hfile-verify: thin shell over hfile::RunVerifyTool.
#include <iostream>

#include "cli_common.h"

int main(int argc, char** argv) {
  return hfile::cli::RunVerifyTool(argc, argv, std::cout, std::cerr);
}
