// Hostile input through the CLI as a user runs it: nesting, duplicate keys, numbers out of range,
// control characters in names and a renderer that crashes.
#include "clirunner.h"
#include "dct/model/jsonread.h"

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <sys/stat.h>

using namespace dct;
using test::CliRun;
using test::example;
using test::runCli;

namespace {

/** A file in the temporary folder, removed at the end of the test. */
class ScratchFile
{
public:
    ScratchFile(const std::string& name, const std::string& text)
        : m_path(std::filesystem::temp_directory_path() / ("dct-badinput-" + name))
    {
        std::ofstream(m_path, std::ios::binary) << text;
    }
    ~ScratchFile() { std::filesystem::remove(m_path); }
    ScratchFile(const ScratchFile&) = delete;
    ScratchFile& operator=(const ScratchFile&) = delete;

    std::string path() const { return m_path.string(); }

private:
    std::filesystem::path m_path;
};

std::string slurp(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream buffer;
    buffer << in.rdbuf();
    return buffer.str();
}

/** Returns the seed scenario with \a replacement in place of the first \a original. */
std::string seedReplacing(const std::string& original, const std::string& replacement)
{
    std::string text = slurp(example("seed-h100-dallas-d2c.json"));
    const auto at = text.find(original);
    REQUIRE(at != std::string::npos);
    return text.replace(at, original.size(), replacement);
}

/** Returns the seed scenario with \a value (raw JSON text) as compute.node_count. */
std::string seedWithNodeCount(const std::string& value)
{
    std::string text = slurp(example("seed-h100-dallas-d2c.json"));
    const std::string key = "\"node_count\":";
    const auto at = text.find(key);
    REQUIRE(at != std::string::npos);
    const auto end = text.find_first_of(",\n}", at + key.size());
    return text.substr(0, at + key.size()) + " " + value + text.substr(end);
}

std::string nested(char open, char close, std::size_t levels)
{
    return std::string(levels, open) + std::string(levels, close);
}

std::string nestedObjects(std::size_t levels)
{
    std::string text;
    for (std::size_t i = 0; i < levels; ++i)
        text += "{\"k\":";
    return text + "0" + std::string(levels, '}');
}

/** Runs validate and eval on \a path; both must exit 2 with every part of \a expected. */
void checkRefused(const std::string& path, const std::vector<std::string>& expected)
{
    for (const char* command : {"validate", "eval"}) {
        INFO(command);
        const CliRun r = runCli({command, path});
        INFO(r.err);
        CHECK(r.code == cli::ExitUsage);
        CHECK_THAT(r.err, Catch::Contains(path));
        for (const auto& part : expected)
            CHECK_THAT(r.err, Catch::Contains(part));
    }
}

/** Sets an environment variable for the life of the object, then puts the old value back. */
class ScopedEnvironment
{
public:
    ScopedEnvironment(const char* name, const std::string& value) : m_name(name)
    {
        if (const char* old = std::getenv(name))
            m_old = old;
        ::setenv(name, value.c_str(), 1);
    }
    ~ScopedEnvironment()
    {
        if (m_old)
            ::setenv(m_name, m_old->c_str(), 1);
        else
            ::unsetenv(m_name);
    }
    ScopedEnvironment(const ScopedEnvironment&) = delete;
    ScopedEnvironment& operator=(const ScopedEnvironment&) = delete;

private:
    const char* m_name;
    std::optional<std::string> m_old;
};

} // namespace

TEST_CASE("100,000 nested arrays or objects as a scenario exit 2 naming the limit",
          "[cli][bad-input][depth]")
{
    const ScratchFile arrays("deep-arrays.json", nested('[', ']', 100000));
    checkRefused(arrays.path(), {"nested deeper than 128 levels", "/0/0/0/"});
    const ScratchFile objects("deep-objects.json", nestedObjects(100000));
    checkRefused(objects.path(), {"nested deeper than 128 levels", "/k/k/k/"});
}

TEST_CASE("100,000 nested arrays or objects inside a field exit 2 naming the field",
          "[cli][bad-input][depth]")
{
    const ScratchFile arrays("deep-field-arrays.json", seedWithNodeCount(nested('[', ']', 100000)));
    checkRefused(arrays.path(), {"/compute/node_count/0/0/", "at most 128 levels"});
    const ScratchFile objects("deep-field-objects.json", seedWithNodeCount(nestedObjects(100000)));
    checkRefused(objects.path(), {"/compute/node_count/k/k/", "at most 128 levels"});
}

TEST_CASE("A duplicate key in a scenario exits 2 naming both positions", "[cli][bad-input][dup]")
{
    const ScratchFile file("duplicate.json",
                           seedReplacing("\"node_count\":", "\"node_count\": 8, \"node_count\":"));
    checkRefused(file.path(), {"/compute/node_count", "duplicate key 'node_count'", "first at line",
                               "again at line"});
}

TEST_CASE("1e309 in a field exits 2 as an error of that field", "[cli][bad-input][number]")
{
    for (const char* number : {"1e309", "-1e309"}) {
        const ScratchFile file("overflow.json", seedWithNodeCount(number));
        checkRefused(file.path(), {"/compute/node_count", "too large for a double"});
        const CliRun r = runCli({"eval", file.path()});
        CHECK(r.code == cli::ExitUsage);
        CHECK_THAT(r.err, !Catch::Contains("internal error"));
    }
}

TEST_CASE("A sweep spec with deep nesting, a duplicate key or 1e309 exits 2 naming the field",
          "[cli][bad-input][sweep]")
{
    const std::string spec =
        slurp(test::dataDir() / "examples" / "sweeps" / "seed-nodes-cooling-site.json");
    const std::string axis = "\"values\": [16, 32, 64, 128, 256]";
    REQUIRE(spec.find(axis) != std::string::npos);
    struct Case
    {
        const char* name;
        std::string replacement;
        std::vector<std::string> expected;
    };
    const std::vector<Case> cases = {
        {"sweep-deep.json",
         "\"values\": " + nested('[', ']', 100000),
         {"/axes/0/values/0/0/", "at most 128 levels"}},
        {"sweep-deep-objects.json",
         "\"values\": " + nestedObjects(100000),
         {"/axes/0/values/k/k/", "nested deeper than 128 levels"}},
        {"sweep-duplicate.json",
         "\"values\": [16], \"values\": [32]",
         {"/axes/0/values", "duplicate key 'values'", "first at line 6, column"}},
        {"sweep-overflow.json",
         "\"values\": [16, 1e309]",
         {"/axes/0/values/1", "too large for a double"}},
    };
    for (const auto& c : cases) {
        INFO(c.name);
        std::string text = spec;
        text.replace(text.find(axis), axis.size(), c.replacement);
        const ScratchFile file(c.name, text);
        const CliRun r = runCli({"sweep", file.path(), "-o", file.path() + ".csv"});
        INFO(r.err);
        CHECK(r.code == cli::ExitUsage);
        CHECK_THAT(r.err, Catch::Contains(file.path()));
        for (const auto& part : c.expected)
            CHECK_THAT(r.err, Catch::Contains(part));
        CHECK_FALSE(std::filesystem::exists(file.path() + ".csv"));
    }
}

TEST_CASE("eval prints control characters of a name and a key visibly, never raw",
          "[cli][bad-input][text]")
{
    const ScratchFile file(
        "ansi.json", seedReplacing("\"name\": \"Seed case",
                                   "\"name\": \"\\u001b[31mRed\\u0007\\r\\u009b2J Seed case"));
    const CliRun r = runCli({"eval", file.path()});
    REQUIRE(r.code == cli::ExitOk);
    CHECK_THAT(r.out, Catch::Contains("Scenario: \\x1b[31mRed\\x07\\r\\u009b2J Seed case"));
    CHECK(r.out.find('\x1b') == std::string::npos);
    CHECK(r.out.find('\a') == std::string::npos);
    CHECK(r.out.find('\r') == std::string::npos);

    const ScratchFile key(
        "ansi-key.json",
        seedReplacing("\"node_count\":", "\"\\u001b]0;title\\u0007\": 1, \"node_count\":"));
    const CliRun v = runCli({"validate", key.path()});
    CHECK(v.code == cli::ExitUsage);
    CHECK_THAT(v.err, Catch::Contains("unknown key '\\x1b]0;title\\x07'"));
    CHECK(v.err.find('\x1b') == std::string::npos);
}

TEST_CASE("CSV, validate and the store show control characters of names, tags and comments "
          "visibly, never raw",
          "[cli][bad-input][text][store]")
{
    const auto noRaw = [](const std::string& text) {
        return text.find('\x1b') == std::string::npos && text.find('\a') == std::string::npos &&
               text.find('\r') == std::string::npos;
    };
    const ScratchFile named(
        "ansi-csv.json",
        seedReplacing("\"name\": \"Seed case", "\"name\": \"\\u001b[2J\\u0007\\r\\n Seed case"));
    const CliRun csv = runCli({"eval", "-f", "csv", named.path()});
    REQUIRE(csv.code == cli::ExitOk);
    CHECK(noRaw(csv.out));
    CHECK_THAT(csv.out, Catch::Contains("\\x1b[2J\\x07\\r\\n Seed case"));
    // Every record is still one line: as many lines as there are figures plus the header.
    CHECK(csv.out.find("\n Seed case") == std::string::npos);

    // A file whose name holds an escape sequence, validated and imported into a store.
    const ScratchFile evil("ev\x1b[31mil.json", slurp(example("seed-h100-dallas-d2c.json")));
    const CliRun valid = runCli({"validate", evil.path()});
    REQUIRE(valid.code == cli::ExitOk);
    CHECK(noRaw(valid.out));
    CHECK_THAT(valid.out, Catch::Contains("ev\\x1b[31mil.json: valid"));

    const ScratchFile store("ansi-store.sqlite", "");
    std::filesystem::remove(store.path());
    const CliRun imported =
        runCli({"store", "--store", store.path(), "import", evil.path(), "-t", "t\x1b[1mx"});
    REQUIRE(imported.code == cli::ExitOk);
    CHECK(noRaw(imported.out));
    const CliRun renamed =
        runCli({"store", "--store", store.path(), "import", named.path(), "--name", "x\x1b[2Jy"});
    REQUIRE(renamed.code == cli::ExitOk);
    CHECK(noRaw(renamed.out));
    CHECK_THAT(renamed.out, Catch::Contains("x\\x1b[2Jy: version 1"));
    const CliRun list = runCli({"store", "--store", store.path(), "list"});
    REQUIRE(list.code == cli::ExitOk);
    CHECK(noRaw(list.out));
    CHECK_THAT(list.out, Catch::Contains("ev\\x1b[31mil"));
    CHECK_THAT(list.out, Catch::Contains("t\\x1b[1mx"));
    const CliRun history =
        runCli({"store", "--store", store.path(), "history", "dct-badinput-ev\x1b[31mil"});
    REQUIRE(history.code == cli::ExitOk);
    CHECK(noRaw(history.out));
    CHECK_THAT(history.out, Catch::Contains("imported from"));
    const CliRun exported = runCli(
        {"store", "--store", store.path(), "export", "x\x1b[2Jy", "-o", store.path() + ".json"});
    REQUIRE(exported.code == cli::ExitOk);
    CHECK(noRaw(exported.out));
    std::filesystem::remove(store.path() + ".json");
    std::filesystem::remove(store.path());
}

TEST_CASE("JSON output quotes bytes that are not UTF-8 without failing", "[cli][bad-input][text]")
{
    // A damaged file whose error message quotes a byte that is not UTF-8, and a file name that
    // is not UTF-8: both reach JSON output, which cannot hold them as they are.
    std::string text = slurp(example("seed-h100-dallas-d2c.json"));
    const auto at = text.find("\"site\"");
    REQUIRE(at != std::string::npos);
    text.insert(at + 3, "\xde");
    const ScratchFile damaged("latin\xff.json", text);
    for (const auto& args :
         std::vector<std::vector<std::string>>{{"eval", "-f", "json", damaged.path()},
                                               {"validate", "--format", "json", damaged.path()}}) {
        INFO(args.front());
        const CliRun r = runCli(args);
        CHECK(r.code == cli::ExitUsage);
        CHECK_THAT(r.err + r.out, !Catch::Contains("internal error"));
        CHECK_THAT(r.err + r.out, Catch::Contains("ill-formed UTF-8"));
    }
}

TEST_CASE("a file larger than the reader's limit is refused before it is read",
          "[cli][bad-input][limits]")
{
    // A sparse file: its size is past the limit but it takes no disk.
    const ScratchFile huge("huge.json", "{\"name\": \"");
    std::filesystem::resize_file(huge.path(), model::jsonFileSizeLimit + 1);
    for (const auto& args : std::vector<std::vector<std::string>>{
             {"eval", huge.path()},
             {"validate", huge.path()},
             {"sweep", huge.path(), "-o", huge.path() + ".csv"},
             {"store", "--store", huge.path() + ".sqlite", "import", huge.path()}}) {
        INFO(args.front());
        const CliRun r = runCli(args);
        CHECK(r.code == cli::ExitUsage);
        CHECK_THAT(r.err, Catch::Contains("huge.json"));
        CHECK_THAT(r.err, Catch::Contains("is 65 MiB, larger than the 64 MiB a file may have (not "
                                          "read)"));
    }
    CHECK_FALSE(std::filesystem::exists(huge.path() + ".csv"));
    std::filesystem::remove(huge.path() + ".sqlite");
}

TEST_CASE("report names the signal and passes on the messages when dctwin-report crashes",
          "[cli][report][crash]")
{
    // A stand-in for dctwin-report found on PATH (the real one is not beside the test program).
    const auto folder = std::filesystem::temp_directory_path() / "dct-badinput-renderer";
    std::filesystem::create_directories(folder);
    const auto renderer = folder / "dctwin-report";
    const auto pdf = folder / "out.pdf";
    const std::string path = std::getenv("PATH") ? std::getenv("PATH") : "/usr/bin:/bin";
    const ScopedEnvironment environment("PATH", folder.string() + ":" + path);
    const auto install = [&](const std::string& body) {
        std::ofstream(renderer) << "#!/bin/sh\n" << body << "\n";
        ::chmod(renderer.c_str(), 0755);
    };

    SECTION("killed by SIGSEGV")
    {
        install("echo 'renderer: rendering 10 MB of text' >&2\nkill -SEGV $$");
        const CliRun r =
            runCli({"report", example("seed-h100-dallas-d2c.json"), "--pdf", pdf.string()});
        CHECK(r.code == cli::ExitUsage);
        CHECK_THAT(r.err, Catch::Contains("renderer: rendering 10 MB of text"));
        CHECK_THAT(r.err, Catch::Contains("dctwin-report was killed by signal 11 (Segmentation "
                                          "fault) while writing " +
                                          pdf.string()));
    }
    SECTION("an exit code of its own")
    {
        install("echo 'renderer: out of paper' >&2\nexit 7");
        const CliRun r =
            runCli({"report", example("seed-h100-dallas-d2c.json"), "--pdf", pdf.string()});
        CHECK(r.code == cli::ExitUsage);
        CHECK_THAT(r.err, Catch::Contains("renderer: out of paper") &&
                              Catch::Contains("dctwin-report failed with exit code 7"));
    }
    SECTION("success passes its code and its messages on")
    {
        install("echo 'renderer: note' >&2\nexit 1");
        const CliRun r =
            runCli({"report", example("seed-h100-dallas-d2c.json"), "--pdf", pdf.string()});
        CHECK(r.code == cli::ExitEvaluation);
        CHECK(r.err == "renderer: note\n");
    }
    std::filesystem::remove_all(folder);
}
