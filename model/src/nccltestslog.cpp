#include "dct/model/nccltestslog.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

// The layout read here is the one nccl-tests prints (github.com/NVIDIA/nccl-tests, src/common.cu:
// the "# nThread" header, one "#  Rank" line per GPU, the column header, one row per size with
// the out-of-place and in-place time in us, algbw and busbw in GB/s and #wrong, then
// "# Avg bus bandwidth"). Versions before 2.10 print no root column and call #wrong "error" (the
// largest error as a number); alltoall_perf and sendrecv_perf of some versions no redop column.
// docs/references.md lists the logs the tests read.

namespace dct::model {

const char* ncclTestProgram(NcclTest test)
{
    switch (test) {
    case NcclTest::AllReduce:
        return "all_reduce_perf";
    case NcclTest::AllGather:
        return "all_gather_perf";
    case NcclTest::ReduceScatter:
        return "reduce_scatter_perf";
    case NcclTest::AllToAll:
        return "alltoall_perf";
    case NcclTest::SendRecv:
        return "sendrecv_perf";
    }
    return "all_reduce_perf";
}

int NcclTestsLog::nodes() const
{
    std::vector<std::string> hosts;
    for (const auto& d : devices)
        if (std::find(hosts.begin(), hosts.end(), d.host) == hosts.end())
            hosts.push_back(d.host);
    return std::max(1, static_cast<int>(hosts.size()));
}

int NcclTestsLog::gpusPerNode() const
{
    if (devices.empty())
        return 0;
    return static_cast<int>(std::count_if(devices.begin(), devices.end(), [&](const auto& d) {
        return d.host == devices.front().host;
    }));
}

namespace {

constexpr std::array<NcclTest, 5> allTests = {NcclTest::AllReduce, NcclTest::AllGather,
                                              NcclTest::ReduceScatter, NcclTest::AllToAll,
                                              NcclTest::SendRecv};

std::string_view trim(std::string_view s)
{
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
        s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
        s.remove_suffix(1);
    return s;
}

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

/** Removes an MPI rank prefix: "[1,0]<stdout>:" (Open MPI --tag-output), "0: " (srun -l). */
std::string_view stripRankPrefix(std::string_view line)
{
    std::size_t i = 0;
    if (!line.empty() && line[0] == '[') {
        i = 1;
        while (i < line.size() && (isDigit(line[i]) || line[i] == ','))
            ++i;
        if (i > 1 && i < line.size() && line[i] == ']') {
            const std::string_view rest = line.substr(i + 1);
            for (std::string_view tag : {"<stdout>:", "<stderr>:"})
                if (rest.starts_with(tag))
                    return rest.substr(tag.size());
        }
        return line;
    }
    while (i < line.size() && line[i] == ' ')
        ++i;
    const std::size_t digits = i;
    while (i < line.size() && isDigit(line[i]))
        ++i;
    if (i > digits && i + 1 < line.size() && line[i] == ':' && line[i + 1] == ' ')
        return line.substr(i + 2);
    if (i > digits && i + 1 == line.size() && line[i] == ':')
        return {};
    return line;
}

std::vector<std::string_view> tokens(std::string_view s)
{
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i])))
            ++i;
        const std::size_t start = i;
        while (i < s.size() && !std::isspace(static_cast<unsigned char>(s[i])))
            ++i;
        if (i > start)
            out.push_back(s.substr(start, i - start));
    }
    return out;
}

std::optional<double> number(std::string_view s)
{
    double value = 0.0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
    if (ec != std::errc() || end != s.data() + s.size() || !std::isfinite(value))
        return std::nullopt;
    return value;
}

std::optional<long long> integer(std::string_view s)
{
    long long value = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
    if (ec != std::errc() || end != s.data() + s.size())
        return std::nullopt;
    return value;
}

std::string lineText(int line)
{
    return "line " + std::to_string(line);
}

/** Bytes of one element of the nccl-tests type \a type (0: unknown). */
double wordBytes(std::string_view type)
{
    if (type == "int8" || type == "uint8" || type == "char" || type.starts_with("f8") ||
        type.starts_with("fp8"))
        return 1.0;
    if (type == "half" || type == "bfloat16" || type == "float16" || type == "bf16")
        return 2.0;
    if (type == "float" || type == "int32" || type == "uint32" || type == "int" ||
        type == "float32")
        return 4.0;
    if (type == "double" || type == "int64" || type == "uint64" || type == "float64")
        return 8.0;
    return 0.0;
}

/** The nccl-tests bus-bandwidth factor (doc/PERFORMANCE.md). */
double busFactor(NcclTest test, int gpus)
{
    const double n = std::max(1, gpus);
    if (test == NcclTest::AllReduce)
        return 2.0 * (n - 1.0) / n;
    if (test == NcclTest::SendRecv)
        return 1.0;
    return (n - 1.0) / n;
}

/** Returns the program named in \a text (a command line or "Collective test starting"). */
std::optional<NcclTest> namedTest(std::string_view text)
{
    for (auto t : allTests)
        if (text.find(ncclTestProgram(t)) != std::string_view::npos)
            return t;
    return std::nullopt;
}

/** Returns the program a file name suggests ("allreduce.log", "h100_alltoall_perf.txt"). */
std::optional<NcclTest> testOfFileName(const std::string& file)
{
    std::string name = std::filesystem::path(file).filename().string();
    std::string squashed;
    for (char c : name)
        if (c != '_' && c != '-')
            squashed += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const std::array<std::pair<const char*, NcclTest>, 5> names = {{
        {"allreduce", NcclTest::AllReduce},
        {"allgather", NcclTest::AllGather},
        {"reducescatter", NcclTest::ReduceScatter},
        {"alltoall", NcclTest::AllToAll},
        {"sendrecv", NcclTest::SendRecv},
    }};
    for (const auto& [key, test] : names)
        if (squashed.find(key) != std::string::npos)
            return test;
    return std::nullopt;
}

/** One "# nThread" header and the device lines under it. */
struct Run
{
    int headerLine = 0;
    std::vector<NcclTestsDevice> devices;
};

/** Columns of the size table, by position. */
struct Columns
{
    int line = 0;
    std::size_t count = 0; ///< Tokens a row must have.
    int size = -1, elements = -1, type = -1, redop = -1, root = -1;
    std::array<int, 2> time = {-1, -1}, algbw = {-1, -1}, busbw = {-1, -1}, wrong = {-1, -1};
    bool wrongIsCount = true; ///< "#wrong" (a count); older versions print "error" (a size).
    bool valid() const
    {
        return size >= 0 && time[0] >= 0 && algbw[0] >= 0 && busbw[0] >= 0 && time[1] >= 0 &&
               algbw[1] >= 0 && busbw[1] >= 0;
    }
};

std::optional<Columns> columnHeader(std::string_view comment, int line)
{
    const auto names = tokens(comment);
    if (std::find(names.begin(), names.end(), "size") == names.end() ||
        std::find(names.begin(), names.end(), "busbw") == names.end())
        return std::nullopt;
    Columns c;
    c.line = line;
    c.count = names.size();
    int group = 0;
    for (std::size_t i = 0; i < names.size(); ++i) {
        const auto n = names[i];
        const int at = static_cast<int>(i);
        if (n == "size")
            c.size = at;
        else if (n == "count")
            c.elements = at;
        else if (n == "type")
            c.type = at;
        else if (n == "redop")
            c.redop = at;
        else if (n == "root")
            c.root = at;
        else if (n == "time" && group < 2 && c.time[static_cast<std::size_t>(group)] < 0)
            c.time[static_cast<std::size_t>(group)] = at;
        else if (n == "algbw" && group < 2)
            c.algbw[static_cast<std::size_t>(group)] = at;
        else if (n == "busbw" && group < 2)
            c.busbw[static_cast<std::size_t>(group)] = at;
        else if ((n == "#wrong" || n == "error") && group < 2) {
            c.wrong[static_cast<std::size_t>(group)] = at;
            c.wrongIsCount = n == "#wrong";
            ++group;
        }
    }
    if (!c.valid())
        return std::nullopt;
    return c;
}

std::optional<NcclTestsDevice> deviceLine(std::string_view comment, int line)
{
    // "Rank  0 Group  0 Pid  12345 on host device  0 [0x18] NVIDIA H100 80GB HBM3"; versions
    // before 2.11 print no Group.
    const auto t = tokens(comment);
    if (t.size() < 8 || t[0] != "Rank")
        return std::nullopt;
    std::size_t i = 2;
    if (t[i] == "Group")
        i += 2;
    if (i + 5 >= t.size() || t[i] != "Pid" || t[i + 2] != "on" || t[i + 4] != "device")
        return std::nullopt;
    const auto rank = integer(t[1]);
    const auto device = integer(t[i + 5]);
    if (!rank || !device || *rank < 0 || *rank > 100000000 || *device < 0 || *device > 1000000)
        return std::nullopt;
    NcclTestsDevice d;
    d.rank = static_cast<int>(*rank);
    d.host = std::string(t[i + 3]);
    d.device = static_cast<int>(*device);
    d.line = line;
    // The rest: "[bus id] name", the name keeping its own spaces.
    const auto afterDevice =
        static_cast<std::size_t>(t[i + 5].data() - comment.data()) + t[i + 5].size();
    std::string_view rest = trim(comment.substr(afterDevice));
    if (rest.starts_with('[')) {
        const std::size_t close = rest.find(']');
        if (close == std::string_view::npos)
            return std::nullopt;
        d.busId = std::string(rest.substr(1, close - 1));
        rest = trim(rest.substr(close + 1));
    }
    d.name = std::string(rest);
    return d;
}

Error errorAt(const std::string& file, int line, std::string message, std::string accepted = {})
{
    return Error{file, "", (line > 0 ? lineText(line) + ": " : std::string()) + std::move(message),
                 std::move(accepted)};
}

/** The release of an NCCL version banner in \a line ("NCCL version 2.9.9+cuda11.2"). */
std::optional<NcclVersion> ncclVersionOf(std::string_view line)
{
    constexpr std::string_view banner = "NCCL version ";
    const std::size_t at = line.find(banner);
    if (at == std::string_view::npos)
        return std::nullopt;
    std::string_view rest = line.substr(at + banner.size());
    int parts[3] = {0, 0, 0};
    for (int i = 0; i < 3; ++i) {
        std::size_t digits = 0;
        while (digits < rest.size() && digits < 4 && rest[digits] >= '0' && rest[digits] <= '9')
            ++digits;
        if (digits == 0)
            return std::nullopt;
        for (std::size_t d = 0; d < digits; ++d)
            parts[i] = parts[i] * 10 + (rest[d] - '0');
        rest.remove_prefix(digits);
        if (i < 2) {
            if (rest.empty() || rest.front() != '.')
                return std::nullopt;
            rest.remove_prefix(1);
        }
    }
    NcclVersion v;
    v.major = parts[0];
    v.minor = parts[1];
    v.patch = parts[2];
    return v;
}

const char* programList = "the standard output of all_reduce_perf, all_gather_perf, "
                          "reduce_scatter_perf, alltoall_perf or sendrecv_perf (nccl-tests)";

} // namespace

std::string NcclVersion::text() const
{
    return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
}

Result<NcclTestsLog> parseNcclTestsLog(std::string_view text, const std::string& file)
{
    NcclTestsLog log;
    log.file = file;
    std::vector<Run> runs;
    std::optional<Columns> columns;
    std::optional<NcclTest> named;
    int lineNumber = 0;
    std::size_t pos = 0;
    while (pos <= text.size()) {
        std::size_t end = text.find('\n', pos);
        if (end == std::string_view::npos)
            end = text.size();
        std::string_view raw = text.substr(pos, end - pos);
        pos = end + 1;
        ++lineNumber;
        if (!raw.empty() && raw.back() == '\r')
            raw.remove_suffix(1);
        const std::string_view line = trim(stripRankPrefix(raw));
        if (line.empty())
            continue;
        // NCCL's version banner: "NCCL version 2.9.9+cuda11.2" (to 2.11, on its own line) or
        // "host:pid:tid [0] NCCL INFO NCCL version 2.19.3+cuda12.3" (later releases).
        if (!log.ncclVersion)
            if (const auto version = ncclVersionOf(line)) {
                log.ncclVersion = version;
                log.ncclVersion->line = lineNumber;
            }
        // NCCL's own log lines ("host:pid:tid [0] NCCL INFO ...") and its version banner.
        if (line.find(" NCCL INFO ") != std::string_view::npos ||
            line.find(" NCCL WARN ") != std::string_view::npos || line.starts_with("NCCL version"))
            continue;
        if (const auto test = namedTest(line)) {
            if (named && *named != *test)
                return tl::unexpected(
                    errorAt(file, lineNumber,
                            std::string("a second collective, ") + ncclTestProgram(*test) +
                                ", in a log of " + ncclTestProgram(*named) + " (named on " +
                                lineText(log.testLine) + ")",
                            "one collective per log: split the log and pass each file"));
            if (!named) {
                named = test;
                log.testLine = lineNumber;
            }
        }
        if (line.find("Test NCCL failure") != std::string_view::npos ||
            line.find("Test CUDA failure") != std::string_view::npos ||
            line.find("Test failure") != std::string_view::npos)
            return tl::unexpected(errorAt(file, lineNumber,
                                          "the run failed: " + std::string(line.substr(0, 160)),
                                          "the log of a run that completed"));
        if (line.front() == '#') {
            const std::string_view comment = trim(line.substr(1));
            if (comment.starts_with("nThread")) {
                const auto t = tokens(comment);
                Run run;
                run.headerLine = lineNumber;
                runs.push_back(run);
                if (runs.size() == 1) {
                    log.headerLine = lineNumber;
                    for (std::size_t i = 0; i + 1 < t.size(); ++i) {
                        if (t[i] == "nThread")
                            log.threads = static_cast<int>(integer(t[i + 1]).value_or(0));
                        if (t[i] == "nGpus")
                            log.gpusPerThread = static_cast<int>(integer(t[i + 1]).value_or(0));
                    }
                }
                continue;
            }
            if (auto device = deviceLine(comment, lineNumber)) {
                if (runs.empty())
                    runs.push_back(Run{0, {}});
                runs.back().devices.push_back(std::move(*device));
                continue;
            }
            if (auto header = columnHeader(comment, lineNumber)) {
                if (columns && columns->count != header->count && !log.rows.empty())
                    return tl::unexpected(
                        errorAt(file, lineNumber,
                                "a second size table with " + std::to_string(header->count) +
                                    " columns (the one on " + lineText(columns->line) + " has " +
                                    std::to_string(columns->count) + ")",
                                "one run per log"));
                columns = header;
                continue;
            }
            if (comment.starts_with("Avg bus bandwidth")) {
                const std::size_t colon = comment.find(':');
                const auto value = colon == std::string_view::npos
                                       ? std::nullopt
                                       : number(trim(comment.substr(colon + 1)));
                if (!value)
                    return tl::unexpected(
                        errorAt(file, lineNumber,
                                "unreadable average bus bandwidth '" + std::string(comment) + "'",
                                "'# Avg bus bandwidth    : 70.742'"));
                log.averageBusbwGbytePerS = *value;
            }
            continue;
        }
        if (!isDigit(line.front()))
            continue; // mpirun's and the shell's own output
        // A row of the size table.
        if (!columns)
            return tl::unexpected(
                errorAt(file, lineNumber, "a size row before the table's column header",
                        "the nccl-tests layout: '#       size         count      type   redop ...' "
                        "before the rows"));
        auto t = tokens(line);
        const Columns& c = *columns;
        // alltoall_perf before 2.10 printed an empty redop: the row is one token short there.
        if (t.size() + 1 == c.count && c.redop >= 0)
            t.insert(t.begin() + c.redop, std::string_view());
        if (t.size() != c.count)
            return tl::unexpected(errorAt(file, lineNumber,
                                          "a size row of " + std::to_string(t.size()) +
                                              " columns, but the header on " + lineText(c.line) +
                                              " names " + std::to_string(c.count),
                                          "rows with every column of the header"));
        auto cell = [&](int index) { return t[static_cast<std::size_t>(index)]; };
        NcclTestsRow row;
        row.line = lineNumber;
        const auto bytes = integer(cell(c.size));
        if (!bytes || *bytes < 0)
            return tl::unexpected(
                errorAt(file, lineNumber,
                        "the size '" + std::string(cell(c.size)) + "' is not a byte count",
                        "a whole number of bytes"));
        row.bytes = static_cast<double>(*bytes);
        if (c.elements >= 0) {
            const auto count = integer(cell(c.elements));
            if (!count || *count < 0)
                return tl::unexpected(errorAt(file, lineNumber,
                                              "the count '" + std::string(cell(c.elements)) +
                                                  "' is not an element count",
                                              "a whole number"));
            row.count = *count;
        }
        if (c.type >= 0)
            row.type = std::string(cell(c.type));
        if (c.redop >= 0)
            row.redop = std::string(cell(c.redop));
        if (c.root >= 0) {
            const auto root = integer(cell(c.root));
            if (!root || *root < -1 || *root > 100000000)
                return tl::unexpected(errorAt(
                    file, lineNumber, "the root '" + std::string(cell(c.root)) + "' is not a rank",
                    "-1 or a rank"));
            row.root = static_cast<int>(*root);
        }
        std::array<double, 3> group[2] = {};
        for (std::size_t g = 0; g < 2; ++g) {
            const std::array<int, 3> at = {c.time[g], c.algbw[g], c.busbw[g]};
            for (std::size_t k = 0; k < 3; ++k) {
                const auto v = number(cell(at[k]));
                if (!v || *v < 0.0)
                    return tl::unexpected(
                        errorAt(file, lineNumber,
                                std::string("the ") + (g == 0 ? "out-of-place " : "in-place ") +
                                    (k == 0   ? "time"
                                     : k == 1 ? "algbw"
                                              : "busbw") +
                                    " '" + std::string(cell(at[k])) + "' is not a number",
                                "a number >= 0"));
                group[g][k] = *v;
            }
            if (c.wrong[g] >= 0 && c.wrongIsCount) {
                const auto w = cell(c.wrong[g]);
                if (w != "N/A") {
                    const auto wrong = integer(w);
                    if (!wrong || *wrong < 0)
                        return tl::unexpected(errorAt(
                            file, lineNumber, "the #wrong '" + std::string(w) + "' is not a count",
                            "a whole number or N/A"));
                    if (*wrong > 0)
                        return tl::unexpected(errorAt(
                            file, lineNumber,
                            "the run found " + std::to_string(*wrong) + " wrong values at " +
                                std::string(cell(c.size)) + " bytes: its results are not valid",
                            "a run whose results validated (#wrong 0 or N/A)"));
                }
            }
        }
        row.outOfPlaceUs = group[0][0];
        row.outOfPlaceAlgbwGbytePerS = group[0][1];
        row.outOfPlaceBusbwGbytePerS = group[0][2];
        row.inPlaceUs = group[1][0];
        row.inPlaceAlgbwGbytePerS = group[1][1];
        row.inPlaceBusbwGbytePerS = group[1][2];
        log.rows.push_back(std::move(row));
    }

    if (runs.empty() || runs.front().devices.empty())
        return tl::unexpected(errorAt(
            file, 0,
            "no device lines ('#  Rank  0 Group  0 Pid ... on HOST device  0 [BUS] GPU'): the "
            "GPUs of the run are unknown",
            programList));
    log.devices = runs.front().devices;
    for (const auto& run : runs)
        if (!run.devices.empty() && run.devices.size() != log.devices.size())
            return tl::unexpected(
                errorAt(file, run.headerLine > 0 ? run.headerLine : run.devices.front().line,
                        "a second run on " + std::to_string(run.devices.size()) +
                            " GPUs in a log of " + std::to_string(log.devices.size()) +
                            " GPUs (device lines from " + lineText(log.devices.front().line) + ")",
                        "one GPU count per log: split the log and pass each file"));
    // Every node holds as many GPUs as the first.
    std::map<std::string, int> perHost;
    for (const auto& d : log.devices)
        ++perHost[d.host];
    for (const auto& d : log.devices)
        if (perHost[d.host] != log.gpusPerNode())
            return tl::unexpected(errorAt(
                file, d.line,
                "host " + d.host + " runs " + std::to_string(perHost[d.host]) + " GPUs, host " +
                    log.devices.front().host + " " + std::to_string(log.gpusPerNode()),
                "a run with the same number of GPUs on every node"));
    if (log.rows.empty())
        return tl::unexpected(
            errorAt(file, 0, "no size rows: the run printed no results", programList));

    // Which collective: named in the log, else by the file's name, else told from the table.
    const int n = log.gpus();
    if (named) {
        log.test = *named;
    } else if (const auto byName = testOfFileName(file)) {
        log.test = *byName;
    } else {
        const NcclTestsRow& last = log.rows.back();
        const double word = wordBytes(last.type);
        const double perElement = word > 0.0 && last.count > 0
                                      ? last.bytes / (static_cast<double>(last.count) * word)
                                      : 0.0;
        const bool perRank = n > 1 && std::fabs(perElement - n) < 0.5;
        const double ratio = last.outOfPlaceAlgbwGbytePerS > 0.0
                                 ? last.outOfPlaceBusbwGbytePerS / last.outOfPlaceAlgbwGbytePerS
                                 : 0.0;
        if (!perRank && std::fabs(perElement - 1.0) < 0.01)
            log.test =
                std::fabs(ratio - 1.0) < 0.02 && n > 2 ? NcclTest::SendRecv : NcclTest::AllReduce;
        else if (perRank && last.redop != "none" && !last.redop.empty())
            log.test = NcclTest::ReduceScatter;
        else
            return tl::unexpected(
                errorAt(file, last.line,
                        "cannot tell which collective this log measured (all_gather_perf and "
                        "alltoall_perf print the same table)",
                        "a log that names its program (the command line or '# Collective test "
                        "starting: all_gather_perf'), or a file name that does "
                        "('all_gather_perf.log')"));
    }
    // The bus factor of every row agrees with the collective and the GPU count: a row of another
    // collective or GPU count is caught here even without its own header.
    const double factor = busFactor(log.test, n);
    for (const auto& row : log.rows) {
        for (const auto& [algbw, busbw] :
             {std::pair{row.outOfPlaceAlgbwGbytePerS, row.outOfPlaceBusbwGbytePerS},
              std::pair{row.inPlaceAlgbwGbytePerS, row.inPlaceBusbwGbytePerS}}) {
            if (algbw < 1.0)
                continue; // printed to two decimals: too coarse to check
            if (std::fabs(busbw - algbw * factor) > 0.011 + 0.005 * busbw) {
                std::ostringstream message;
                message << "busbw " << busbw << " over algbw " << algbw << " is " << busbw / algbw
                        << ", but " << ncclTestProgram(log.test) << " on " << n
                        << " GPUs has the bus factor " << factor
                        << ": the row is of another collective or GPU count";
                return tl::unexpected(errorAt(file, row.line, message.str(),
                                              "one collective and one GPU count per log"));
            }
        }
    }
    return log;
}

Result<NcclTestsLog> readNcclTestsLog(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return makeError(path.string(), "", "cannot read the file", "a readable nccl-tests log");
    std::ostringstream text;
    text << in.rdbuf();
    return parseNcclTestsLog(text.str(), path.string());
}

} // namespace dct::model
