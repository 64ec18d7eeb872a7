// hfile-split: thin shell over hfile::cli::RunSplitTool.
#include <iostream>

#include "cli_common.h"

int main(int argc, char** argv) {
  return hfile::cli::RunSplitTool(argc, argv, std::cout, std::cerr);
}
