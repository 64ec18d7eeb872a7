// hfile-advise: thin shell over hfile::cli::RunAdviseTool.
#include <iostream>

#include "cli_common.h"

int main(int argc, char** argv) {
  return hfile::cli::RunAdviseTool(argc, argv, std::cout, std::cerr);
}
