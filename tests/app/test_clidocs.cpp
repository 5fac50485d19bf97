// The man page and the bash completion of dctwin-cli describe what the program parses: every
// option of every command (from the CLI11 tree of the command table) and every catalog kind (from
// the catalog's registry), so that neither can drift from the program again.
#include "clirunner.h"
#include "dct/cli/cli.h"
#include "dct/model/catalog.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

using namespace dct;
using test::CliRun;
using test::runCli;

namespace {

const std::filesystem::path sourceDir = DCT_TEST_SOURCE_DIR;

std::string slurp(const std::filesystem::path& file)
{
    std::ifstream in(file);
    REQUIRE(in);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::vector<std::string> words(const std::string& text)
{
    std::istringstream in(text);
    return {std::istream_iterator<std::string>(in), std::istream_iterator<std::string>()};
}

/** Returns a line of the man page as it reads: "\-" as "-", without font changes and quotes. */
std::string plain(std::string line)
{
    line = std::regex_replace(line, std::regex(R"(\\f[BIRP])"), "");
    line = std::regex_replace(line, std::regex(R"(\\-)"), "-");
    line.erase(std::remove(line.begin(), line.end(), '"'), line.end());
    return line;
}

/** One .TP entry of the man page: its tag's words ("eval", "files", ...) and its whole text. */
struct ManEntry
{
    std::vector<std::string> tag;
    std::string text;
};

/** Returns the .TP entries of the man page, each until the next .TP, .SS or .SH. */
std::vector<ManEntry> manEntries(const std::string& man)
{
    std::vector<ManEntry> entries;
    std::istringstream lines(man);
    bool inEntry = false;
    bool tagNext = false;
    for (std::string line; std::getline(lines, line);) {
        if (line == ".TP") {
            entries.push_back({});
            inEntry = true;
            tagNext = true;
            continue;
        }
        if (line.starts_with(".SH") || line.starts_with(".SS")) {
            inEntry = false;
            continue;
        }
        if (!inEntry)
            continue;
        // Without its macro (.B, .BI, .BR, ...): the words of the line.
        const std::string text =
            plain(line.starts_with(".") ? line.substr(line.find(' ') + 1) : line);
        if (tagNext) {
            entries.back().tag = words(text);
            tagNext = false;
        }
        entries.back().text += text + "\n";
    }
    return entries;
}

/** Returns the text of man page section \a name (".SH NAME"), each line as it reads. */
std::string manSection(const std::string& man, const std::string& name)
{
    std::istringstream lines(man);
    std::string out;
    bool in = false;
    for (std::string line; std::getline(lines, line);) {
        if (line.starts_with(".SH"))
            in = line == ".SH " + name;
        else if (in)
            out += plain(line) + "\n";
    }
    return out;
}

/** Returns whether \a text names \a word on its own ("-f" is not found in "--format"). */
bool mentions(const std::string& text, const std::string& word)
{
    const std::string escaped = std::regex_replace(word, std::regex(R"([-.+])"), R"(\$&)");
    return std::regex_search(text,
                             std::regex("(^|[^-A-Za-z0-9_])" + escaped + "($|[^-A-Za-z0-9_])"));
}

/**
 * Returns the bash completion's candidates for the command line \a line, the last word being
 * the one completed, with _init_completion and _filedir of the bash-completion package replaced
 * by stand-ins (that package need not be installed).
 */
std::set<std::string> completions(const std::vector<std::string>& line)
{
    const auto script = std::filesystem::temp_directory_path() /
                        ("dct-completion-test-" + std::to_string(::getpid()) + ".sh");
    {
        std::ofstream out(script);
        out << "_init_completion() { words=(\"${COMP_WORDS[@]}\"); cword=$COMP_CWORD;\n"
               "    cur=${COMP_WORDS[COMP_CWORD]}; prev=${COMP_WORDS[COMP_CWORD-1]}; }\n"
               "_filedir() { :; }\n"
               "source '"
            << (sourceDir / "packaging" / "completion" / "dctwin-cli").string() << "'\n"
            << "COMP_WORDS=(dctwin-cli";
        for (const auto& word : line)
            out << " '" << word << "'";
        out << ")\nCOMP_CWORD=" << line.size() << "\n_dctwin_cli\n"
            << "printf '%s\\n' \"${COMPREPLY[@]}\"\n";
    }
    std::FILE* pipe = ::popen(("bash '" + script.string() + "' 2>&1").c_str(), "r");
    REQUIRE(pipe != nullptr);
    std::string output;
    char buffer[4096];
    for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;)
        output.append(buffer, n);
    const int status = ::pclose(pipe);
    std::filesystem::remove(script);
    INFO(output);
    REQUIRE(status == 0);
    std::set<std::string> out;
    for (const auto& word : words(output))
        out.insert(word);
    return out;
}

} // namespace

TEST_CASE("the man page of dctwin-cli names every option of every command", "[cli][docs][man]")
{
    const std::string man = slurp(sourceDir / "packaging" / "man" / "dctwin-cli.1");
    const auto entries = manEntries(man);
    const auto all = cli::commandOptions();
    REQUIRE(all.size() > cli::commandNames().size()); // the program, its commands, subcommands
    for (const auto& command : all) {
        INFO("command '" << command.command << "'");
        if (command.command.empty()) {
            // The program's own options, in OPTIONS.
            const std::string options = manSection(man, "OPTIONS");
            REQUIRE(!command.names.empty());
            for (const auto& name : command.names) {
                INFO(name);
                CHECK(mentions(options, name));
            }
            continue;
        }
        // Its entry: the tag starts with the command's words, and goes on with something other
        // than one of its subcommands ("store subcommand" describes `store`, "store list"
        // describes `store list`).
        const auto path = words(command.command);
        const auto entry = std::find_if(entries.begin(), entries.end(), [&](const ManEntry& e) {
            return e.tag.size() >= path.size() &&
                   std::equal(path.begin(), path.end(), e.tag.begin()) &&
                   (e.tag.size() == path.size() ||
                    std::find(command.commands.begin(), command.commands.end(),
                              e.tag[path.size()]) == command.commands.end());
        });
        if (command.names.empty() && !command.commands.empty())
            continue; // a group with no options of its own (calibrate): its subcommands' entries
        REQUIRE(entry != entries.end());
        for (const auto& name : command.names) {
            INFO(name);
            CHECK(mentions(entry->text, name));
        }
        for (const auto& sub : command.commands) {
            INFO("subcommand " << sub);
            CHECK(mentions(entry->text, sub));
        }
    }
}

TEST_CASE("the man page, catalog --help and the completion name every catalog kind",
          "[cli][docs][catalog]")
{
    const auto kinds = model::Catalog::kinds();
    REQUIRE(kinds.size() >= 12);
    const auto entries = manEntries(slurp(sourceDir / "packaging" / "man" / "dctwin-cli.1"));
    const auto entry = std::find_if(entries.begin(), entries.end(), [](const ManEntry& e) {
        return !e.tag.empty() && e.tag.front() == "catalog";
    });
    REQUIRE(entry != entries.end());
    const CliRun help = runCli({"catalog", "--help"});
    REQUIRE(help.code == cli::ExitOk);
    for (const auto& kind : kinds) {
        INFO(kind);
        CHECK(mentions(entry->text, kind));
        CHECK(mentions(help.out, kind));
    }
    const auto completed = completions({"catalog", ""});
    CHECK(completed == std::set<std::string>(kinds.begin(), kinds.end()));
}

TEST_CASE("the bash completion offers exactly the options of every command",
          "[cli][docs][completion]")
{
    const auto all = cli::commandOptions();
    REQUIRE(!all.empty());
    for (const auto& command : all) {
        INFO("command '" << command.command << "'");
        auto line = words(command.command);
        if (!command.commands.empty()) {
            // Its subcommands, when nothing is typed yet.
            line.push_back("");
            const auto offered = completions(line);
            line.pop_back();
            CHECK(offered ==
                  std::set<std::string>(command.commands.begin(), command.commands.end()));
        }
        if (command.names.empty() && !command.commands.empty())
            continue;
        line.push_back("-");
        auto offered = completions(line);
        CHECK(offered.erase("--help") == 1);
        CHECK(offered == std::set<std::string>(command.names.begin(), command.names.end()));
    }
}
