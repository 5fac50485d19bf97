#pragma once

// The seeds of the fuzz targets taken from the repository's files (tests/fuzz/seeds.txt), read
// by the replay tests and by the test that every example, sweep spec and log is a seed.
#include <algorithm>
#include <filesystem>
#include <fnmatch.h>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace dct::test {

/** One line of seeds.txt: the files of \a folder matching \a pattern seed \a target. */
struct SeedRule
{
    std::string target;
    std::filesystem::path folder; ///< Relative to the source tree.
    std::string pattern;
};

/** Returns the rules of seeds.txt in \a sourceDir (comments and blank lines skipped). */
inline std::vector<SeedRule> seedRules(const std::filesystem::path& sourceDir)
{
    std::vector<SeedRule> rules;
    std::ifstream in(sourceDir / "tests" / "fuzz" / "seeds.txt");
    for (std::string line; std::getline(in, line);) {
        if (line.empty() || line.front() == '#')
            continue;
        std::istringstream words(line);
        SeedRule rule;
        std::string folder;
        if (words >> rule.target >> folder >> rule.pattern) {
            rule.folder = folder;
            rules.push_back(rule);
        }
    }
    return rules;
}

/** Returns the files of \a rule's folder that match its pattern, sorted. */
inline std::vector<std::filesystem::path> seedFiles(const std::filesystem::path& sourceDir,
                                                    const SeedRule& rule)
{
    std::vector<std::filesystem::path> files;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(sourceDir / rule.folder, ec))
        if (entry.is_regular_file() &&
            ::fnmatch(rule.pattern.c_str(), entry.path().filename().c_str(), FNM_PERIOD) == 0)
            files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    return files;
}

} // namespace dct::test
