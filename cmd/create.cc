// hfile-create: thin shell over hfile::cli::RunCreateTool.
#include <iostream>

#include "cli_common.h"

int main(int argc, char** argv) {
  return hfile::cli::RunCreateTool(argc, argv, std::cout, std::cerr);
}
