// hfile-copy-family: thin shell over hfile::cli::RunCopyFamilyTool.
#include <iostream>

#include "cli_common.h"

int main(int argc, char** argv) {
  return hfile::cli::RunCopyFamilyTool(argc, argv, std::cout, std::cerr);
}
