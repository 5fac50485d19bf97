#pragma once

#include "dct/model/error.h"
#include "dct/study/sweepcolumn.h"
#include "dct/study/sweepshard.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace dct::study {

/**
 * What a sweep output is: written beside it as "<output>.shard.json" when the output is
 * complete, and read by sweep-merge to check that the parts it joins are the shards of one spec,
 * each whole. A sidecar rather than a header or trailer line inside the output, so that the CSV
 * and JSON lines stay plain for every other tool (a spreadsheet, pandas, jq, DuckDB) and the
 * merged output stays byte for byte the unsharded one.
 */
struct SweepPartRecord
{
    std::string specHash; ///< Spec, base scenario, catalog and model version (32 hex digits).
    SweepShard shard;
    std::uint64_t variants = 0;     ///< Of the whole sweep.
    std::uint64_t firstVariant = 0; ///< The shard's variants: [firstVariant, endVariant).
    std::uint64_t endVariant = 0;
    SweepFormat format = SweepFormat::Csv;
    /** Of the CSV metric values: parts of other precisions are not merged. A record without it
     *  was written before CSV had display precision, with every digit. */
    SweepPrecision precision = SweepPrecision::Full;
    std::vector<SweepColumn> columns;
    std::uint64_t rows = 0;  ///< Rows written (the CSV header not counted).
    std::uint64_t bytes = 0; ///< Size of the output.
    std::string checksum;    ///< SweepChecksum of the output.

    /** Returns "<output>.shard.json". */
    static std::filesystem::path pathFor(const std::filesystem::path& output);

    /** Returns the record as JSON text (one object, keys in a fixed order). */
    std::string toJson() const;
    /** Reads the record \a text; \a file names it in errors. */
    static Result<SweepPartRecord> fromJson(const std::string& text, const std::string& file);

    /** Writes the record of \a output beside it, atomically. */
    Result<void> writeBeside(const std::filesystem::path& output) const;
    /** Reads the record beside \a output. */
    static Result<SweepPartRecord> readBeside(const std::filesystem::path& output);
};

} // namespace dct::study
