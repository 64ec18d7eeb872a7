// hfile-task: thin shell over hfile::cli::RunTaskTool.
#include <iostream>

#include "cli_common.h"

int main(int argc, char** argv) { return hfile::cli::RunTaskTool(argc, argv, std::cout, std::cerr); }
