#pragma once

#include "dct/model/error.h"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dct::model {

/** The nccl-tests programs whose output the calibration reads. */
enum class NcclTest
{
    AllReduce,     ///< all_reduce_perf
    AllGather,     ///< all_gather_perf
    ReduceScatter, ///< reduce_scatter_perf
    AllToAll,      ///< alltoall_perf
    SendRecv       ///< sendrecv_perf
};

/** Returns the program's name: "all_reduce_perf", "all_gather_perf", ... */
const char* ncclTestProgram(NcclTest test);

/** One device line ("#  Rank  3 Group  0 Pid 1234 on host device  3 [0x5d] NVIDIA H100 ..."). */
struct NcclTestsDevice
{
    int rank = 0;
    std::string host;
    int device = 0;
    std::string busId;
    std::string name; ///< The GPU's name as CUDA reports it.
    int line = 0;     ///< Line number in the log (1-based).
};

/** One row of the size table: out-of-place and in-place time and bandwidths. */
struct NcclTestsRow
{
    double bytes = 0.0; ///< The nccl-tests size S (bytes).
    long long count = 0;
    std::string type;
    std::string redop; ///< Empty in logs of versions that print no redop column.
    int root = -1;
    double outOfPlaceUs = 0.0;
    double outOfPlaceAlgbwGbytePerS = 0.0;
    double outOfPlaceBusbwGbytePerS = 0.0;
    double inPlaceUs = 0.0;
    double inPlaceAlgbwGbytePerS = 0.0;
    double inPlaceBusbwGbytePerS = 0.0;
    int line = 0; ///< Line number in the log (1-based).
};

/** An NCCL release, as NCCL's banner prints it ("NCCL version 2.9.9+cuda11.2"). */
struct NcclVersion
{
    int major = 0;
    int minor = 0;
    int patch = 0;
    int line = 0; ///< The banner's line in the log (1-based).

    /** Returns "2.9.9". */
    std::string text() const;
};

/** The standard output of one nccl-tests run, as read by parseNcclTestsLog(). */
struct NcclTestsLog
{
    std::string file;
    NcclTest test = NcclTest::AllReduce;
    /** Where the program was named (a command line or "# Collective test starting"); 0: the
     *  collective was told from the size table or the file name. */
    int testLine = 0;
    int threads = 0;       ///< nThread of the header line.
    int gpusPerThread = 0; ///< nGpus of the header line.
    int headerLine = 0;    ///< Line of the first "# nThread ..." header.
    std::vector<NcclTestsDevice> devices;
    std::vector<NcclTestsRow> rows;              ///< In log order.
    std::optional<double> averageBusbwGbytePerS; ///< "# Avg bus bandwidth".
    /** The NCCL that ran: its first banner ("NCCL version 2.9.9+cuda11.2", also inside an INFO
     *  line); absent when the log does not print it. */
    std::optional<NcclVersion> ncclVersion;

    /** Returns the GPUs (ranks) of the run: its device lines. */
    int gpus() const { return static_cast<int>(devices.size()); }
    /** Returns the nodes: distinct hosts of the device lines. */
    int nodes() const;
    /** Returns the GPUs per node (the device lines of the first host). */
    int gpusPerNode() const;
    /** Returns the GPU name of the first device line ("" when there is none). */
    std::string gpuName() const { return devices.empty() ? std::string() : devices.front().name; }
};

/**
 * Reads the standard output of all_reduce_perf, all_gather_perf, reduce_scatter_perf,
 * alltoall_perf or sendrecv_perf (nccl-tests, github.com/NVIDIA/nccl-tests): the "# nThread"
 * header, the device lines, the size table (out-of-place and in-place time, algbw, busbw,
 * #wrong; the older layouts without root or redop columns too) and "# Avg bus bandwidth".
 * Lines may carry MPI rank prefixes ("[1,0]<stdout>:" of Open MPI, "0: " of srun --label);
 * NCCL's own INFO and WARN lines and other text outside the table are skipped, except NCCL's
 * version banner, which sets NcclTestsLog::ncclVersion. A table row that
 * does not parse, a row with wrong values, two collectives or two GPU counts in one log, a log
 * without device lines or without rows are errors naming \a file and the line.
 */
Result<NcclTestsLog> parseNcclTestsLog(std::string_view text, const std::string& file);

/** As parseNcclTestsLog() for the file \a path. */
Result<NcclTestsLog> readNcclTestsLog(const std::filesystem::path& path);

} // namespace dct::model
