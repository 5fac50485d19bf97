// libFuzzer target: nccl-tests standard output through the log reader, as `dctwin-cli calibrate
// nccl-tests` reads a log, then the measurements the fit takes from it. Any crash, sanitizer
// report or exception that escapes is a defect (docs/fuzzing.md).
#include "dct/model/nccltestslog.h"
#include "dct/solvers/collectivecalibration.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const auto log = dct::model::parseNcclTestsLog(text, "fuzz.log");
    if (!log)
        return 0;
    (void)log->nodes();
    (void)log->gpusPerNode();
    const auto measured = dct::solvers::measuredCollectives(*log);
    (void)measured;
    return 0;
}
