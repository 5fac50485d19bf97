#pragma once

#include "dct/model/error.h"

#include <cstdint>
#include <filesystem>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace dct::study {

/** Most variants a spec may describe, whatever the options (the grid is counted first). */
inline constexpr std::uint64_t maxSweepVariants = 1'000'000'000'000'000ULL; // 10^15
/** Most axis values a spec may expand, all axes together: bounds the memory of a spec. */
inline constexpr std::uint64_t maxSweepAxisValues = 10'000'000;

/**
 * Bounds on a spec checked while it is read, before any axis is expanded, so that a spec with
 * huge axes is refused without allocating them.
 */
struct SweepSpecLimits
{
    /** Most variants one run may evaluate: the largest of \a shards equal parts of the grid. */
    std::uint64_t maxVariantsPerRun = maxSweepVariants;
    std::uint64_t shards = 1; ///< Parts the grid is split into (--shard i/N).
    std::string accepted;     ///< What to suggest when the grid is over the limit.
};

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
    bool feasibleOnly = false;            ///< Drop infeasible variants ("feasible_only").
    bool paretoIncludeInfeasible = false; ///< Infeasible variants may join the front.

    /** Returns the number of variants: the product of the axis sizes. */
    std::uint64_t variantCount() const;
};

/**
 * Reads a sweep spec from \a json. \a file names it in errors and anchors a relative "base".
 * Axis values are {"values": [...]}, {"from", "to", "step"} or
 * {"sample": "uniform" | "log_uniform", "min", "max", "count", "seed"}.
 */
Result<SweepSpec> parseSweepSpec(const nlohmann::json& json, const std::string& file,
                                 const SweepSpecLimits& limits = {});
/** Reads and parses the sweep spec file \a path. */
Result<SweepSpec> readSweepSpecFile(const std::filesystem::path& path,
                                    const SweepSpecLimits& limits = {});

/**
 * Returns \a a times \a b, or nothing when the product does not fit in 64 bits (grid sizes are
 * multiplied with it, so that no spec wraps around to a small count).
 */
std::optional<std::uint64_t> multiplyCounts(std::uint64_t a, std::uint64_t b);

} // namespace dct::study
