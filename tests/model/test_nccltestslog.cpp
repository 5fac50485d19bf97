// The nccl-tests log reader against published logs (tests/data/nccl-tests/README.md names the
// source of each) and against logs broken on purpose.
#include "dct/model/nccltestslog.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace dct;
using namespace dct::model;

namespace {

std::filesystem::path logDir()
{
    return std::filesystem::path(DCT_TEST_SOURCE_DIR) / "tests" / "data" / "nccl-tests";
}

std::string logText(const std::string& name)
{
    std::ifstream in(logDir() / name, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

NcclTestsLog readLog(const std::string& name)
{
    auto log = readNcclTestsLog(logDir() / name);
    if (!log)
        FAIL(log.error().toString());
    return *log;
}

/** Returns the error message of parsing \a text, failing the test when it parses. */
std::string parseError(const std::string& text, const std::string& file = "run.log")
{
    auto log = parseNcclTestsLog(text, file);
    if (log)
        FAIL("expected an error, the log parsed with " << log->rows.size() << " rows");
    return log.error().toString();
}

} // namespace

TEST_CASE("all_reduce_perf on 2 x 8 H100 (A3 Mega): header, devices, 31 sizes", "[nccltests]")
{
    const NcclTestsLog log = readLog("a3mega-2x8-h100-all_reduce_perf.log");
    CHECK(log.test == NcclTest::AllReduce);
    CHECK(log.testLine == 7); // the mpirun command line names the program
    CHECK(log.threads == 1);
    CHECK(log.gpusPerThread == 1);
    CHECK(log.gpus() == 16);
    CHECK(log.nodes() == 2);
    CHECK(log.gpusPerNode() == 8);
    CHECK(log.gpuName() == "NVIDIA H100 80GB HBM3");
    CHECK(log.devices[8].host == "ztan-mig-gq73");
    CHECK(log.devices[8].busId == "0000:04:00");
    REQUIRE(log.rows.size() == 31);
    CHECK(log.rows.front().bytes == 8.0);
    CHECK(log.rows.front().outOfPlaceUs == Approx(135.8));
    CHECK(log.rows.front().inPlaceUs == Approx(123.5));
    const NcclTestsRow& last = log.rows.back();
    CHECK(last.bytes == 8589934592.0);
    CHECK(last.count == 2147483648LL);
    CHECK(last.type == "float");
    CHECK(last.redop == "sum");
    CHECK(last.root == -1);
    CHECK(last.outOfPlaceUs == Approx(47535.0));
    CHECK(last.outOfPlaceAlgbwGbytePerS == Approx(180.71));
    CHECK(last.outOfPlaceBusbwGbytePerS == Approx(338.82));
    CHECK(last.inPlaceBusbwGbytePerS == Approx(337.35));
    REQUIRE(log.averageBusbwGbytePerS);
    CHECK(*log.averageBusbwGbytePerS == Approx(70.742));
    CHECK_FALSE(log.ncclVersion); // this log does not print NCCL's banner
}

TEST_CASE("Open MPI rank prefixes and NCCL INFO lines of every rank are read through",
          "[nccltests]")
{
    // Pre-2.10 layout: no Group in the device lines, no root column, "error" instead of #wrong.
    const NcclTestsLog log = readLog("p4d-2x8-a100-efa-all_reduce_perf.log");
    CHECK(log.test == NcclTest::AllReduce);
    CHECK(log.gpus() == 16);
    CHECK(log.nodes() == 2);
    CHECK(log.gpusPerNode() == 8);
    CHECK(log.gpuName() == "A100-SXM4-40GB");
    REQUIRE(log.rows.size() == 30);
    CHECK(log.rows.back().bytes == 4294967296.0);
    CHECK(log.rows.back().outOfPlaceBusbwGbytePerS == Approx(43.81));
    CHECK(log.rows.back().root == -1);
    REQUIRE(log.averageBusbwGbytePerS);
    CHECK(*log.averageBusbwGbytePerS == Approx(11.2432));
    // NCCL's banner behind the rank prefix: "[1,0]<stdout>:NCCL version 2.9.9+cuda11.2".
    REQUIRE(log.ncclVersion);
    CHECK(log.ncclVersion->text() == "2.9.9");
    CHECK(log.ncclVersion->line == 25);
}

TEST_CASE("NCCL's version banner is read in both forms, the first one kept", "[nccltests]")
{
    std::string text = logText("a3mega-2x8-h100-all_reduce_perf.log");
    // Later releases print the banner as an INFO line; a malformed banner is not a version.
    const std::string banners = "host:1:1 [0] NCCL INFO NCCL version 2.19.3+cuda12.3\n"
                                "NCCL version 2.21.5+cuda12.4\n"
                                "NCCL version two\n";
    auto log = parseNcclTestsLog(banners + text, "run.log");
    REQUIRE(log);
    REQUIRE(log->ncclVersion);
    CHECK(log->ncclVersion->major == 2);
    CHECK(log->ncclVersion->minor == 19);
    CHECK(log->ncclVersion->patch == 3);
    CHECK(log->ncclVersion->line == 1);
    auto malformed = parseNcclTestsLog("NCCL version 2.x\n" + text, "run.log");
    REQUIRE(malformed);
    CHECK_FALSE(malformed->ncclVersion);
}

TEST_CASE("Every collective's log is read and told apart", "[nccltests]")
{
    SECTION("all_gather_perf, named on the command line")
    {
        const auto log = readLog("a100-1x2-all_gather_perf.log");
        CHECK(log.test == NcclTest::AllGather);
        CHECK(log.gpus() == 2);
        CHECK(log.rows.size() == 7);
        CHECK(log.rows[0].type == "bfloat16");
        CHECK(log.rows[0].redop == "none");
    }
    SECTION("alltoall_perf, named by its closing line, in-place #wrong N/A")
    {
        const auto log = readLog("gfx1151-1x2-alltoall_perf.log");
        CHECK(log.test == NcclTest::AllToAll);
        CHECK(log.rows.size() == 10);
        CHECK(log.rows.back().inPlaceUs == Approx(10589.0));
    }
    SECTION("sendrecv_perf across two nodes")
    {
        const auto log = readLog("a40-2x1-sendrecv_perf.log");
        CHECK(log.test == NcclTest::SendRecv);
        CHECK(log.nodes() == 2);
        CHECK(log.gpusPerNode() == 1);
        CHECK(log.rows.size() == 5);
    }
    SECTION("reduce_scatter_perf with srun's label prefix, by the file name")
    {
        const auto log = readLog("srun-2x4-reduce_scatter_perf.log");
        CHECK(log.test == NcclTest::ReduceScatter);
        CHECK(log.testLine == 0);
        CHECK(log.gpus() == 8);
        CHECK(log.nodes() == 2);
        CHECK(log.rows.size() == 7);
        CHECK(log.rows.front().bytes == 0.0);
    }
    SECTION("all_reduce_perf 2.20 with its version and 'Collective test starting' lines")
    {
        const auto log = readLog("gb10-2x1-all_reduce_perf.log");
        CHECK(log.test == NcclTest::AllReduce);
        CHECK(log.testLine == 2);
        CHECK(log.gpuName() == "NVIDIA GB10");
        CHECK(log.rows.size() == 4);
    }
}

TEST_CASE("The collective is told from the table when nothing names it", "[nccltests]")
{
    // The A3 Mega rows without the command line: count x 4 bytes = size and busbw/algbw =
    // 2(n-1)/n make it an all-reduce.
    std::string text = logText("a3mega-2x8-h100-all_reduce_perf.log");
    text = text.substr(text.find("# nThread"));
    auto log = parseNcclTestsLog(text, "run.log");
    REQUIRE(log);
    CHECK(log->test == NcclTest::AllReduce);
    CHECK(log->testLine == 0);

    // The all-gather rows without their command line: all_gather_perf and alltoall_perf print
    // the same table.
    std::string gather = logText("a100-1x2-all_gather_perf.log");
    gather = gather.substr(gather.find("# nThread"));
    const std::string message = parseError(gather, "run.log");
    CHECK_THAT(message, Catch::Contains("run.log: line 16: cannot tell which collective"));
}

TEST_CASE("An older alltoall_perf row without a redop value is read", "[nccltests]")
{
    // The layout of nccl-tests issue 78: alltoall_perf printed an empty redop.
    const std::string text =
        "# nThread 1 nGpus 1 minBytes 268435456 maxBytes 536870912 step: 2(factor) warmup "
        "iters: 5 iters: 20 validation: 1\n"
        "#   Rank  0 Pid   100 on      n1 device  0 [0x00] Tesla V100-SXM2-32GB\n"
        "#   Rank  1 Pid   101 on      n2 device  0 [0x00] Tesla V100-SXM2-32GB\n"
        "#       size         count      type   redop     time   algbw   busbw  error     time   "
        "algbw   busbw  error\n"
        "   268435456       1048576     float           520935    0.52    0.51  0e+00   519562 "
        "   0.52    0.51  1e+00\n";
    auto log = parseNcclTestsLog(text, "alltoall.log");
    REQUIRE(log);
    CHECK(log->test == NcclTest::AllToAll);
    REQUIRE(log->rows.size() == 1);
    CHECK(log->rows[0].redop.empty());
    CHECK(log->rows[0].outOfPlaceUs == Approx(520935.0));
}

TEST_CASE("Malformed logs are errors naming the file and the line", "[nccltests]")
{
    const std::string good = logText("a3mega-2x8-h100-all_reduce_perf.log");
    SECTION("a row cut short")
    {
        std::string text = good;
        const std::string row = "     1048576        262144     float     sum      -1    203.2";
        const auto at = text.find(row);
        REQUIRE(at != std::string::npos);
        text.erase(at + row.size(), text.find('\n', at) - at - row.size());
        CHECK_THAT(parseError(text),
                   Catch::Contains("run.log: line 49: a size row of 6 columns, but the header on "
                                   "line 30 names 13"));
    }
    SECTION("a time that is not a number")
    {
        std::string text = good;
        const auto at = text.find("   1261.6 ");
        text.replace(at, 10, "   12x1.6 ");
        CHECK_THAT(parseError(text), Catch::Contains("line 55: the out-of-place time '12x1.6'"));
    }
    SECTION("wrong values")
    {
        std::string text = good;
        const std::string row = "   24361  176.31  330.58      0";
        const auto at = text.find(row);
        text.replace(at + row.size() - 1, 1, "3");
        CHECK_THAT(parseError(text), Catch::Contains("line 61: the run found 3 wrong values"));
    }
    SECTION("rows before the column header")
    {
        std::string text = good;
        text.erase(text.find("#       size"), std::string("#       size").size());
        CHECK_THAT(parseError(text),
                   Catch::Contains("a size row before the table's column header"));
    }
    SECTION("no device lines")
    {
        CHECK_THAT(parseError("#       size         count      type   redop    root     time   "
                              "algbw   busbw #wrong     time   algbw   busbw #wrong\n"),
                   Catch::Contains("no device lines"));
    }
    SECTION("a failed run")
    {
        std::string text = good;
        text += " ztan-mig-235z: Test NCCL failure common.cu:1005 'unhandled system error'\n";
        CHECK_THAT(parseError(text), Catch::Contains("line 65: the run failed"));
    }
}

TEST_CASE("Mixed logs are refused at the line where the second run starts", "[nccltests]")
{
    SECTION("two collectives")
    {
        const std::string text = logText("a3mega-2x8-h100-all_reduce_perf.log") +
                                 logText("a100-1x2-all_gather_perf.log");
        CHECK_THAT(parseError(text), Catch::Contains("line 65: a second collective, "
                                                     "all_gather_perf, in a log of "
                                                     "all_reduce_perf (named on line 7)"));
    }
    SECTION("two GPU counts of one collective")
    {
        std::string second = logText("gb10-2x1-all_reduce_perf.log");
        second = second.substr(second.find("# nThread"));
        const std::string text = logText("a3mega-2x8-h100-all_reduce_perf.log") + second;
        CHECK_THAT(parseError(text),
                   Catch::Contains("line 65: a second run on 2 GPUs in a log of 16 GPUs"));
    }
    SECTION("rows of another collective under one header")
    {
        // An all-gather row (bus factor 1/2 on 2 GPUs) pasted into a 2-GPU all-reduce log.
        std::string text = logText("gb10-2x1-all_reduce_perf.log");
        text +=
            "    16777216       4194304  bfloat16    none      -1    108.8  154.20   77.10      0 "
            "   98.19  170.86   85.43      0\n";
        CHECK_THAT(parseError(text),
                   Catch::Contains("line 16: busbw 77.1 over algbw 154.2 is 0.5, but "
                                   "all_reduce_perf on 2 GPUs has the bus factor 1"));
    }
}
