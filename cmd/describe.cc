// hfile-describe: thin shell over hfile::cli::RunDescribeTool.
#include <iostream>

#include "cli_common.h"

int main(int argc, char** argv) {
  return hfile::cli::RunDescribeTool(argc, argv, std::cout, std::cerr);
}
