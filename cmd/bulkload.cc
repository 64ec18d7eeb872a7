// hfile-bulkload: thin shell over hfile::cli::RunBulkLoadTool.
#include <iostream>

#include "cli_common.h"

int main(int argc, char** argv) {
  return hfile::cli::RunBulkLoadTool(argc, argv, std::cout, std::cerr);
}
