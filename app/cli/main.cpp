#include "dct/cli/cli.h"

#include <iostream>

int main(int argc, char** argv)
{
    return dct::cli::run(argc, argv, std::cout, std::cerr);
}
