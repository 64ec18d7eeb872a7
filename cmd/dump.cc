// hfile-dump: thin shell over hfile::RunDumpTool.
#include <iostream>

#include "cli_common.h"

int main(int argc, char** argv) { return hfile::cli::RunDumpTool(argc, argv, std::cout, std::cerr); }
