#pragma once

#include "dct/model/error.h"

#include <cstdint>
#include <filesystem>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace dct::study {

/** One axis of a sweep: a field by JSON pointer and the values it takes. */
struct SweepAxis
{
    std::string pointer;                ///< e.g. "/compute/node_count".
    std::vector<nlohmann::json> values; ///< Expanded: lists, ranges and samples alike.
    std::string specPath;               ///< JSON pointer of the axis in the spec, for errors.
};

/** Keeps a variant only when \a metric lies within [minimum, maximum]. */
struct SweepFilter
{
    std::string metric;
    double minimum = -std::numeric_limits<double>::infinity();
    double maximum = std::numeric_limits<double>::infinity();
    std::string specPath;
};

/** One objective of the Pareto front. */
struct SweepObjective
{
    std::string metric;
    bool minimize = true;   ///< The spec's "goal", else the direction the metric declares.
    bool goalGiven = false; ///< True when the spec names the goal.
    std::string specPath;
};

/**
 * A sweep: a base scenario file and the grid product of its axes, with optional filters on the
 * results, the metrics to write and the objectives of a Pareto front.
 */
struct SweepSpec
{
    std::string file;           ///< The spec file, for errors.
    std::filesystem::path base; ///< Base scenario, relative paths resolved.
    std::vector<SweepAxis> axes;
    std::vector<std::string> metrics; ///< Metrics to write; empty means all.
    std::vector<SweepFilter> filters;
    std::vector<SweepObjective> objectives;

    /** Returns the number of variants: the product of the axis sizes. */
    std::uint64_t variantCount() const;
};

/**
 * Reads a sweep spec from \a json. \a file names it in errors and anchors a relative "base".
 * Axis values are {"values": [...]}, {"from", "to", "step"} or
 * {"sample": "uniform" | "log_uniform", "min", "max", "count", "seed"}.
 */
Result<SweepSpec> parseSweepSpec(const nlohmann::json& json, const std::string& file);
/** Reads and parses the sweep spec file \a path. */
Result<SweepSpec> readSweepSpecFile(const std::filesystem::path& path);

} // namespace dct::study
