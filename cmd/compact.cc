// hfile-compact: thin shell over hfile::cli::RunCompactTool.
#include <iostream>

#include "cli_common.h"

int main(int argc, char** argv) {
  return hfile::cli::RunCompactTool(argc, argv, std::cout, std::cerr);
}
