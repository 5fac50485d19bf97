#pragma once

#include "dct/cli/cli.h"
#include "testsupport.h"

#include <sstream>
#include <string>
#include <vector>

namespace dct::test {

/** What one in-process run of dctwin-cli returned and printed. */
struct CliRun
{
    int code = -1;
    std::string out;
    std::string err;
};

/** Runs dctwin-cli in-process with \a args (without the program name). */
inline CliRun runCli(std::vector<std::string> args)
{
    args.insert(args.begin(), "dctwin-cli");
    std::vector<char*> argv;
    for (auto& a : args)
        argv.push_back(a.data());
    std::ostringstream out, err;
    CliRun r;
    r.code = cli::run(static_cast<int>(argv.size()), argv.data(), out, err);
    r.out = out.str();
    r.err = err.str();
    return r;
}

/** Returns the path of the bundled example \a name. */
inline std::string example(const char* name)
{
    return (dataDir() / "examples" / name).string();
}

} // namespace dct::test
