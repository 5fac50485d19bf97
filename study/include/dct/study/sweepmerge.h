#pragma once

#include "dct/model/error.h"
#include "dct/study/sweeprunner.h"
#include "dct/study/sweepspec.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace dct::study {

/** The rows of sweep parts joined in variant order. */
struct MergedSweep
{
    SweepFormat format = SweepFormat::Csv;
    std::string header; ///< CSV header line with its newline; "" for JSON lines.
    std::vector<std::pair<std::uint64_t, std::string>> rows; ///< Variant index, line.

    /** Returns the header and rows as one text, as the unsharded sweep writes it. */
    std::string text() const;
};

/**
 * Reads sweep outputs (CSV or JSON lines, as written by SweepRunner::run) and joins their rows
 * ordered by variant index. Parts must share one header; a variant in two parts is an error.
 */
Result<MergedSweep> mergeSweepParts(const std::vector<std::filesystem::path>& parts);

/** Returns the rows of \a merged on the Pareto front of \a objectives, in variant order. */
Result<std::vector<std::string>> paretoRows(const MergedSweep& merged,
                                            const std::vector<SweepObjective>& objectives);

} // namespace dct::study
