#pragma once

#include "dct/model/error.h"
#include "dct/study/sweepcolumn.h"
#include "dct/study/sweeppartrecord.h"
#include "dct/study/sweepspec.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

namespace dct::study {

/**
 * Sweep parts checked to be the shards of one sweep, each whole and well formed, in variant
 * order. The rows stay in the part files and are read again when written or scanned.
 */
struct MergedSweep
{
    SweepFormat format = SweepFormat::Csv;
    std::string header; ///< CSV header line with its newline; "" for JSON lines.
    std::vector<std::filesystem::path> parts; ///< In shard order.
    std::vector<SweepPartRecord> records;     ///< Of each part, in shard order.
    /** Of the merged output, as the unsharded run writes it: shard 0/1, all rows (its bytes and
     *  checksum are known once written). */
    SweepPartRecord record;

    /** Calls \a row with every row (with its newline) in variant order, reading the parts. */
    Result<void> forEachRow(const std::function<void(const std::string& row)>& row) const;
    /**
     * Writes the header and the rows to \a out, exactly as the unsharded sweep writes them, and
     * returns the record of what was written. Fails when a part changed since it was checked, or
     * when \a stop returns true (asked between blocks).
     */
    Result<SweepPartRecord> write(std::ostream& out, const std::function<bool()>& stop = {}) const;
    /** Returns the header and rows as one text (small merges and tests). */
    std::string text() const;
};

/**
 * Checks sweep outputs (CSV or JSON lines, each with the record that `sweep -o` writes beside
 * it) and returns them in variant order. Refuses, naming the file and the line of the first
 * defect: a folder or unreadable file, a missing or damaged record, parts of different specs,
 * formats or columns, a shard given twice or missing, a header that differs from the record's
 * columns, a row with too few or too many columns, a value of the wrong kind, an invalid JSON
 * line, a variant outside its shard or out of order, a part shorter or longer than its record
 * says (truncated, empty, header only) or whose checksum differs.
 */
Result<MergedSweep> mergeSweepParts(const std::vector<std::filesystem::path>& parts);

/** Returns the rows of \a merged on the Pareto front of \a objectives, in variant order. Rows
 *  whose objectives are missing or not numbers are not on it, nor infeasible rows unless
 *  \a includeInfeasible. */
Result<std::vector<std::string>> paretoRows(const MergedSweep& merged,
                                            const std::vector<SweepObjective>& objectives,
                                            bool includeInfeasible = false);

} // namespace dct::study
