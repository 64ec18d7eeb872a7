// hfile-alter: thin shell over hfile::cli::RunAlterTool.
#include <iostream>

#include "cli_common.h"

int main(int argc, char** argv) {
  return hfile::cli::RunAlterTool(argc, argv, std::cout, std::cerr);
}
