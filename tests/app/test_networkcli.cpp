#include "clirunner.h"

#include <fstream>
#include <set>
#include <sstream>

using namespace dct;
using nlohmann::json;
using test::CliRun;
using test::example;
using test::runCli;

namespace {

/** Returns the switches of tier \a tier in a `topology --format json` document. */
long long tierSwitches(const json& doc, const std::string& tier)
{
    for (const auto& t : doc.at("tiers_counts"))
        if (t.at("tier") == tier)
            return t.at("switches").get<long long>();
    return -1;
}

} // namespace

// NVIDIA DGX SuperPOD reference architecture (RA-11333-001), Table 4, compute fabric of 4
// scalable units (127 nodes): 32 leaf and 16 spine switches.
TEST_CASE("topology: the 4-SU SuperPOD has Table 4's 32 leaf and 16 spine switches",
          "[cli][topology]")
{
    const CliRun r =
        runCli({"topology", "--format", "json", "--no-graph", example("dgx-superpod-4su.json")});
    INFO(r.err);
    REQUIRE(r.code == cli::ExitOk);
    const json doc = json::parse(r.out);
    CHECK(doc.at("tiers") == 2);
    CHECK(tierSwitches(doc, "leaf") == 32);
    CHECK(tierSwitches(doc, "spine") == 16);
    CHECK(doc.at("switches") == 48);
    CHECK_FALSE(doc.contains("graph"));

    const CliRun table = runCli({"topology", "--no-graph", example("dgx-superpod-4su.json")});
    REQUIRE(table.code == cli::ExitOk);
    CHECK_THAT(table.out,
               Catch::Contains("leaf") && Catch::Contains("spine") && Catch::Contains("Cables"));
}

TEST_CASE("topology: the explicit graph agrees with the closed forms and --dot writes Graphviz",
          "[cli][topology][dot]")
{
    const auto dot = std::filesystem::temp_directory_path() / "dct-cli-superpod-4su.dot";
    std::filesystem::remove(dot);
    const CliRun r = runCli(
        {"topology", "--format", "json", "--dot", dot.string(), example("dgx-superpod-4su.json")});
    INFO(r.err);
    REQUIRE(r.code == cli::ExitOk);
    const json doc = json::parse(r.out);
    CHECK(doc.at("graph").at("counts_match_closed_form") == true);

    std::ifstream in(dot);
    REQUIRE(in.good());
    std::string first;
    in >> first;
    CHECK((first == "graph" || first == "digraph"));
    std::stringstream all;
    all << in.rdbuf();
    CHECK_THAT(all.str(), Catch::Contains("--") || Catch::Contains("->"));
}

TEST_CASE("topology --nccl-env prints the HCA list of the rails", "[cli][topology][nccl]")
{
    const CliRun r = runCli({"topology", "--nccl-env", example("dgx-superpod-4su.json")});
    INFO(r.err);
    REQUIRE(r.code == cli::ExitOk);
    CHECK_THAT(r.out, Catch::Contains("NCCL_IB_HCA=") && Catch::Contains("mlx5_0:1"));
    CHECK_THAT(r.out, !Catch::Contains("Cables"));
}

TEST_CASE("topology: a missing file exits 2", "[cli][topology][bad-input]")
{
    const CliRun r = runCli({"topology", "/nonexistent/scenario.json"});
    CHECK(r.code == cli::ExitUsage);
    CHECK(r.out.empty());
    CHECK_THAT(r.err, Catch::Contains("/nonexistent/scenario.json"));
}

// nccl-tests doc/PERFORMANCE.md: busbw = algbw x 2(n-1)/n for all-reduce, x (n-1)/n for
// reduce-scatter, all-gather and all-to-all.
TEST_CASE("collectives: busbw is algbw times the nccl-tests bus factor at every size",
          "[cli][collectives]")
{
    const CliRun r = runCli({"collectives", "--format", "json", "--algorithm", "ring",
                             example("multiplane-16k-h100.json")});
    INFO(r.err);
    REQUIRE(r.code == cli::ExitOk);
    const json doc = json::parse(r.out);
    const double n = doc.at("ranks").get<double>();
    REQUIRE(n > 1.0);
    CHECK(doc.at("bus_factor").get<double>() == Approx(2.0 * (n - 1.0) / n).epsilon(1e-12));
    const json& points = doc.at("points");
    // 8 B to 16 GiB in powers of two: 2^3 .. 2^34.
    REQUIRE(points.size() == 32);
    CHECK(points.front().at("bytes").get<double>() == 8.0);
    CHECK(points.back().at("bytes").get<double>() == 17179869184.0);
    double lastSeconds = 0.0;
    for (const auto& p : points) {
        INFO(p.dump());
        REQUIRE(p.at("available") == true);
        CHECK(p.at("algorithm") == "ring");
        const double algbw = p.at("algbw_gbyte_per_s").get<double>();
        CHECK(algbw == Approx(p.at("bytes").get<double>() / p.at("seconds").get<double>() / 1e9)
                           .epsilon(1e-12));
        CHECK(p.at("busbw_gbyte_per_s").get<double>() ==
              Approx(algbw * 2.0 * (n - 1.0) / n).epsilon(1e-12));
        CHECK(p.at("seconds").get<double>() > lastSeconds);
        lastSeconds = p.at("seconds").get<double>();
    }
}

TEST_CASE("collectives: all_gather's bus factor is (n-1)/n, in csv and table formats",
          "[cli][collectives]")
{
    const CliRun csv = runCli(
        {"collectives", "--op", "all_gather", "--format", "csv", example("dgx-superpod-4su.json")});
    INFO(csv.err);
    REQUIRE(csv.code == cli::ExitOk);
    std::istringstream lines(csv.out);
    std::string line;
    std::getline(lines, line);
    CHECK(line == "bytes,algorithm,seconds,algbw_gbyte_per_s,busbw_gbyte_per_s");
    int rows = 0;
    const CliRun js = runCli({"collectives", "--op", "all_gather", "--format", "json",
                              example("dgx-superpod-4su.json")});
    REQUIRE(js.code == cli::ExitOk);
    const double n = json::parse(js.out).at("ranks").get<double>();
    while (std::getline(lines, line)) {
        ++rows;
        std::vector<std::string> fields;
        std::istringstream row(line);
        for (std::string f; std::getline(row, f, ',');)
            fields.push_back(f);
        REQUIRE(fields.size() == 5);
        CHECK(std::stod(fields[4]) == Approx(std::stod(fields[3]) * (n - 1.0) / n).epsilon(1e-12));
    }
    CHECK(rows == 32);

    const CliRun table =
        runCli({"collectives", "--op", "all_gather", example("dgx-superpod-4su.json")});
    REQUIRE(table.code == cli::ExitOk);
    CHECK_THAT(table.out, Catch::Contains("8 B") && Catch::Contains("16 GiB") &&
                              Catch::Contains("busbw GB/s"));
}

TEST_CASE("collectives: an algorithm that does not apply exits 1, a bad op exits 2",
          "[cli][collectives][bad-input]")
{
    const CliRun tree = runCli({"collectives", "--op", "all_gather", "--algorithm", "tree",
                                example("dgx-superpod-4su.json")});
    CHECK(tree.code == cli::ExitEvaluation);
    CHECK_THAT(tree.err, Catch::Contains("does not apply"));

    const CliRun bad =
        runCli({"collectives", "--op", "broadcast", example("dgx-superpod-4su.json")});
    CHECK(bad.code == cli::ExitUsage);
    CHECK(bad.out.empty());
    CHECK_THAT(bad.err, Catch::Contains("broadcast"));
}

namespace {

/** Writes the 4-SU SuperPOD example cut to \a nodes nodes into a temporary file. */
std::string superPodWithNodes(int nodes)
{
    std::ifstream in(example("dgx-superpod-4su.json"));
    json doc = json::parse(in);
    doc["compute"]["node_count"] = nodes;
    const std::string path =
        std::string(DCT_TEST_BINARY_DIR) + "/superpod-" + std::to_string(nodes) + "-nodes.json";
    std::ofstream(path) << doc.dump(2);
    return path;
}

/** The SuperPOD example with its switches' in-network reduction (SHARP) turned on. */
std::string superPodWithSharp()
{
    std::ifstream in(example("dgx-superpod-4su.json"));
    json doc = json::parse(in);
    doc["network"]["in_network_reduction"] = true;
    const std::string path = std::string(DCT_TEST_BINARY_DIR) + "/superpod-sharp.json";
    std::ofstream(path) << doc.dump(2);
    return path;
}

} // namespace

TEST_CASE("collectives: every point names its algorithm, protocol and why", "[cli][collectives]")
{
    const CliRun r = runCli({"collectives", "--format", "json", "--algorithm", "ring",
                             example("dgx-superpod-4su.json")});
    INFO(r.err);
    REQUIRE(r.code == cli::ExitOk);
    const json doc = json::parse(r.out);
    std::set<std::string> protocols;
    for (const auto& p : doc.at("points")) {
        INFO(p.dump());
        REQUIRE(p.at("available") == true);
        protocols.insert(p.at("protocol").get<std::string>());
        CHECK_FALSE(p.at("reason").get<std::string>().empty());
        const json& l = p.at("latency_us");
        CHECK(l.at("total").get<double>() ==
              Approx(l.at("launch").get<double>() + l.at("software").get<double>() +
                     l.at("nvlink").get<double>() + l.at("pcie").get<double>() +
                     l.at("nic").get<double>() + l.at("switch").get<double>() +
                     l.at("cable").get<double>())
                  .epsilon(1e-9));
    }
    // LL for the small sizes, a protocol of more bandwidth for the large (on 1016 ranks the
    // ring's 2(n-1) steps keep Simple's higher step latency from paying off: LL128).
    CHECK(protocols.count("LL") == 1);
    CHECK(protocols.size() >= 2);

    // Best, as NCCL runs by default (CollNet off): no reduction in the switches across nodes,
    // trees and rings; NVLS runs inside the nodes only (NVLS tree).
    const CliRun table = runCli({"collectives", example("dgx-superpod-4su.json")});
    REQUIRE(table.code == cli::ExitOk);
    CHECK_THAT(table.out, Catch::Contains("protocol") && Catch::Contains("why:") &&
                              Catch::Contains("tree") && Catch::Contains("next best"));
    CHECK_THAT(table.out, !Catch::Contains("in_network") && !Catch::Contains(" nvls "));

    // With the switches' SHARP turned on, NCCL's NVLS across nodes (43 us: 25 NVLink + 18
    // network steps, tuning.cc) beats a 127-node tree even at 8 B; the table says so.
    const CliRun sharp = runCli({"collectives", superPodWithSharp()});
    REQUIRE(sharp.code == cli::ExitOk);
    CHECK_THAT(sharp.out, Catch::Contains(" nvls ") && Catch::Contains("NVLink SHARP"));
}

TEST_CASE("collectives: on one node nvls and in_network run NVLink SHARP", "[cli][collectives]")
{
    const std::string oneNode = superPodWithNodes(1);
    for (const char* algorithm : {"nvls", "in_network"}) {
        const CliRun r =
            runCli({"collectives", "--format", "json", "--algorithm", algorithm, oneNode});
        INFO(algorithm << ": " << r.err);
        REQUIRE(r.code == cli::ExitOk);
        const json doc = json::parse(r.out);
        CHECK(doc.at("ranks") == 8);
        const json& last = doc.at("points").back();
        REQUIRE(last.at("available") == true);
        CHECK(last.at("protocol") == "Simple");
        // nccl-tests issue 212: ~480 GB/s busbw with NVLS on 8 H100s.
        CHECK(last.at("busbw_gbyte_per_s").get<double>() > 430.0);
    }
    // send/recv runs point to point: a pinned tree does not apply.
    const CliRun tree =
        runCli({"collectives", "--op", "send_recv", "--algorithm", "tree", oneNode});
    CHECK(tree.code == cli::ExitEvaluation);
    CHECK_THAT(tree.err, Catch::Contains("point to point"));
}

TEST_CASE("collectives: all-to-all and send/recv say they run point to point, not a ring",
          "[cli][collectives]")
{
    const std::string nodes = superPodWithNodes(2);
    for (const char* op : {"all_to_all", "send_recv"}) {
        INFO(op);
        const CliRun table = runCli({"collectives", "--op", op, nodes});
        REQUIRE(table.code == cli::ExitOk);
        CHECK_THAT(table.out, Catch::Contains(" p2p "));
        CHECK_THAT(table.out, !Catch::Contains(" ring "));
        const CliRun doc = runCli({"collectives", "--op", op, "--format", "json", nodes});
        REQUIRE(doc.code == cli::ExitOk);
        const json parsed = json::parse(doc.out);
        REQUIRE(parsed.at("points").size() > 30);
        for (const json& point : parsed.at("points"))
            CHECK(point.at("algorithm") == "p2p");
        const CliRun csv = runCli({"collectives", "--op", op, "--format", "csv", nodes});
        CHECK_THAT(csv.out, Catch::Contains("1073741824,p2p,"));
    }
    // All-reduce keeps its algorithms' names.
    const CliRun ring = runCli({"collectives", "--algorithm", "ring", "--format", "csv", nodes});
    CHECK_THAT(ring.out, Catch::Contains("1073741824,ring,"));
}

namespace {

/** Writes the 4-SU SuperPOD example with its network's \a field set to \a value. */
std::string superPodWith(const std::string& field, const json& value, const std::string& name)
{
    std::ifstream in(example("dgx-superpod-4su.json"));
    json doc = json::parse(in);
    doc["network"][field] = value;
    const std::string path = std::string(DCT_TEST_BINARY_DIR) + "/superpod-" + name + ".json";
    std::ofstream(path) << doc.dump(2);
    return path;
}

/** Returns the lines of \a text that name \a pointer. */
std::vector<std::string> linesNaming(const std::string& text, const std::string& pointer)
{
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        if (line.find(pointer) != std::string::npos)
            lines.push_back(line);
    return lines;
}

} // namespace

TEST_CASE("collectives and topology refuse a switch of the wrong protocol as eval does",
          "[cli][collectives][topology][bad-input]")
{
    // An Ethernet switch (sn5600) on an InfiniBand fabric: eval's consistency check refuses it.
    const std::string file = superPodWith("switch", "sn5600", "ethernet-switch");
    const CliRun eval = runCli({"eval", file});
    REQUIRE(eval.code == cli::ExitEvaluation);
    const auto evalLines = linesNaming(eval.err, "/network/switch");
    REQUIRE(evalLines.size() == 1);
    CHECK_THAT(evalLines.front(), Catch::Contains("sn5600") && Catch::Contains("Ethernet"));
    for (const char* command : {"collectives", "topology"}) {
        INFO(command);
        const CliRun r = runCli({command, file});
        CHECK(r.code == cli::ExitEvaluation);
        CHECK(r.out.empty());
        CHECK(linesNaming(r.err, "/network/switch") == evalLines);
    }
}

TEST_CASE("collectives and topology refuse a NIC that does not speak the fabric's protocol",
          "[cli][collectives][topology][bad-input]")
{
    // RoCE v2 on an InfiniBand switch with an InfiniBand-only NIC: two errors, as eval gives.
    const std::string file = superPodWith("protocol", "roce_v2", "roce-on-ib");
    const CliRun eval = runCli({"eval", file});
    REQUIRE(eval.code == cli::ExitEvaluation);
    const auto nic = linesNaming(eval.err, "/network/nic");
    const auto sw = linesNaming(eval.err, "/network/switch");
    REQUIRE(nic.size() + sw.size() >= 1);
    for (const char* command : {"collectives", "topology"}) {
        INFO(command);
        const CliRun r = runCli({command, file});
        CHECK(r.code == cli::ExitEvaluation);
        CHECK(r.out.empty());
        CHECK(linesNaming(r.err, "/network/nic") == nic);
        CHECK(linesNaming(r.err, "/network/switch") == sw);
    }
}
