#pragma once

#include "dct/model/catalog.h"
#include "dct/model/error.h"
#include "dct/model/resolvedscenario.h"
#include "dct/solvers/evaluation.h"
#include "dct/study/scenariopatcher.h"
#include "dct/study/sweepspec.h"

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

namespace dct::study {

/** Output format of sweep rows. */
enum class SweepFormat
{
    Csv,  ///< A header line, then one line per variant.
    Jsonl ///< One JSON object per line.
};

/** Part \a index (from 0) of \a count equal parts of a sweep, for array jobs. */
struct SweepShard
{
    int index = 0;
    int count = 1;

    /** Parses "i/N" with 0 <= i < N. */
    static Result<SweepShard> parse(const std::string& text);
};

/** How to run a sweep. */
struct SweepRunOptions
{
    SweepShard shard;
    unsigned threads = 0;            ///< 0 means std::thread::hardware_concurrency().
    std::size_t chunkVariants = 256; ///< Variants a thread takes at a time.
    /** Called on the calling thread about every 100 ms and at the end: variants done, total. */
    std::function<void(std::uint64_t done, std::uint64_t total)> progress;
};

/** What a sweep run did. */
struct SweepSummary
{
    std::uint64_t variants = 0;    ///< In this shard.
    std::uint64_t written = 0;     ///< Rows written (failed ones included).
    std::uint64_t failed = 0;      ///< Variants whose evaluation had errors.
    std::uint64_t filteredOut = 0; ///< Variants dropped by the filters.
    double seconds = 0.0;
    std::vector<std::string> paretoRows; ///< Rows of the Pareto front, by variant index.
};

/** Evaluates one resolved scenario; evaluate() unless a test or benchmark passes another. */
using SweepEvaluator = std::function<solvers::Evaluation(const model::ResolvedScenario&)>;

/**
 * Runs a sweep: resolves the base scenario once per combination of catalog-reference values,
 * then for each variant sets the swept fields by number through the field tables, evaluates on
 * every core and writes the rows in variant order.
 */
class SweepRunner
{
public:
    /** Prepares \a spec over \a base resolved against \a catalog. */
    static Result<SweepRunner> create(const SweepSpec& spec, const model::Scenario& base,
                                      const model::Catalog& catalog, SweepEvaluator evaluator = {});
    /** Prepares \a spec over an already resolved base (no catalog-reference axes). */
    static Result<SweepRunner> create(const SweepSpec& spec, const model::ResolvedScenario& base,
                                      SweepEvaluator evaluator = {});

    /** Returns the number of variants of the whole sweep. */
    std::uint64_t variantCount() const { return m_variantCount; }
    /** Returns the first and one-past-last variant of \a shard. */
    std::pair<std::uint64_t, std::uint64_t> shardRange(const SweepShard& shard) const;
    /** Returns the metric keys written in each row. */
    const std::vector<std::string>& metricColumns() const { return m_metrics; }
    /** Returns the header line of \a format ("" for JSON lines). */
    std::string header(SweepFormat format) const;

    /** Returns the Pareto objectives, each with its goal (from the spec or the metric). */
    const std::vector<SweepObjective>& objectives() const { return m_spec.objectives; }

    /** Runs the variants of options.shard, writing rows (and the CSV header) to \a out. */
    SweepSummary run(const SweepRunOptions& options, SweepFormat format, std::ostream& out) const;

private:
    struct Axis
    {
        ScenarioPatcher patcher;
        std::vector<double> numbers;       ///< Per value (numeric axes).
        std::vector<std::string> csvText;  ///< Per value, as written in CSV.
        std::vector<std::string> jsonText; ///< Per value, as written in JSON.
        std::uint64_t stride = 1;          ///< Variants per step of this axis.
        std::uint64_t groupStride = 0;     ///< Groups per step (catalog-reference axes).
    };
    struct Metric
    {
        std::string key;
        std::size_t hint = 0; ///< Where it was in the base evaluation.
    };

    static Result<SweepRunner> prepare(const SweepSpec& spec, const model::Scenario* base,
                                       const model::Catalog* catalog,
                                       const model::ResolvedScenario* resolved,
                                       SweepEvaluator evaluator);

    SweepSpec m_spec;
    SweepEvaluator m_evaluate;
    bool m_evaluateInPlace = false; ///< evaluate() into a reused Evaluation (no evaluator given).
    std::vector<Axis> m_axes;
    std::vector<model::ResolvedScenario> m_groups; ///< One per catalog-reference combination.
    std::vector<std::string> m_metrics;
    std::vector<Metric> m_columns;
    std::vector<std::size_t> m_filterColumns;    ///< Column of each filter.
    std::vector<std::size_t> m_objectiveColumns; ///< Column of each objective.
    std::uint64_t m_variantCount = 0;
};

} // namespace dct::study
