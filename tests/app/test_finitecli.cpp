// The CLI with rates and shares near zero: the field is named where the scenario is read, and
// no command prints inf or nan for a figure it calls good.
#include "clirunner.h"

#include <cctype>
#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace dct;
using namespace dct::test;
using nlohmann::json;

namespace {

/** Writes the seed example with \a edit applied to a scratch file; returns its path. */
template <class Edit> std::string seedWith(const std::string& name, Edit edit)
{
    std::ifstream in(example("seed-h100-dallas-d2c.json"));
    json document = json::parse(in);
    edit(document);
    const auto path = std::filesystem::temp_directory_path() /
                      ("dct-finite-" + std::to_string(::getpid()) + "-" + name + ".json");
    std::ofstream(path) << document.dump(2);
    return path.string();
}

bool hasNonFiniteText(const std::string& text)
{
    for (const char* word : {"inf", "nan", "null"})
        for (std::size_t at = text.find(word); at != std::string::npos;
             at = text.find(word, at + 1)) {
            // Words such as "maintenance" or "infiniband" hold the letters; a value stands alone.
            const bool before = at > 0 && std::isalpha(static_cast<unsigned char>(text[at - 1]));
            const std::size_t end = at + std::char_traits<char>::length(word);
            const bool after =
                end < text.size() && std::isalpha(static_cast<unsigned char>(text[end]));
            if (!before && !after)
                return true;
        }
    return false;
}

} // namespace

TEST_CASE("issue reproducer: collectives on a NIC rate near zero name the field",
          "[cli][collectives][finite]")
{
    for (const double rate : {5e-324, 1e-310, 1e-300, 1e-3}) {
        const std::string file = seedWith("nic-rate", [&](json& d) {
            d["network"]["nic"] = {{"id", "connectx-6dx-100g"}, {"rate_gbps", rate}};
        });
        const CliRun r = runCli({"collectives", file});
        INFO(r.err);
        CHECK(r.code == cli::ExitUsage);
        CHECK(r.out.empty());
        CHECK_THAT(r.err, Catch::Contains("/network/nic/rate_gbps"));
        CHECK_THAT(r.err, Catch::Contains("a number >= 1 and <= 100000 (Gb/s)"));
        CHECK_THAT(r.err, !Catch::Contains("does not apply"));
    }
}

TEST_CASE("collectives on a switch port rate near zero name the field",
          "[cli][collectives][finite]")
{
    const std::string file = seedWith("port-rate", [](json& d) {
        d["network"]["switch"] = {{"id", "sn2700"}, {"port_rate_gbps", 1e-310}};
    });
    const CliRun r = runCli({"collectives", file});
    CHECK(r.code == cli::ExitUsage);
    CHECK_THAT(r.err, Catch::Contains("/network/switch/port_rate_gbps"));
}

TEST_CASE("collectives at the slowest accepted NIC rate print finite times",
          "[cli][collectives][finite]")
{
    const std::string file = seedWith("nic-floor", [](json& d) {
        d["network"]["nic"] = {{"id", "connectx-6dx-100g"}, {"rate_gbps", 1}};
    });
    for (const char* format : {"table", "csv", "json"}) {
        const CliRun r = runCli({"collectives", "--format", format, file});
        INFO(format << "\n" << r.err);
        CHECK(r.code == cli::ExitOk);
        CHECK_FALSE(r.out.empty());
        CHECK_FALSE(hasNonFiniteText(r.out));
    }
}

TEST_CASE("eval refuses an mfu of 5e-324 naming it and prints finite figures at the floor",
          "[cli][eval][finite]")
{
    const std::string tiny = seedWith("mfu-tiny", [](json& d) { d["workload"]["mfu"] = 5e-324; });
    const CliRun refused = runCli({"eval", "--format", "csv", tiny});
    CHECK(refused.code == cli::ExitUsage);
    CHECK_THAT(refused.err, Catch::Contains("/workload/mfu"));
    CHECK_FALSE(hasNonFiniteText(refused.out));

    const std::string floor = seedWith("mfu-floor", [](json& d) {
        d["workload"]["mfu"] = 0.01;
        d["facility"]["design_load_fraction"] = 0.1;
        d["economics"]["amortization_years"] = 0.5;
        d["storage"]["read_iops"] = 100;
        d["workload"]["checkpoint_interval_hours"] = 0.01;
    });
    for (const char* format : {"csv", "json", "table"}) {
        const CliRun r = runCli({"eval", "--format", format, floor});
        INFO(format << "\n" << r.err);
        CHECK(r.code == cli::ExitOk);
        CHECK_FALSE(hasNonFiniteText(r.out));
    }
}
