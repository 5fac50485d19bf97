#pragma once

#include "dct/model/catalog.h"
#include "dct/model/error.h"
#include "dct/model/resolvedscenario.h"
#include "dct/solvers/evaluation.h"
#include "dct/study/scenariopatcher.h"
#include "dct/study/sweepcolumn.h"
#include "dct/study/sweeppartrecord.h"
#include "dct/study/sweepshard.h"
#include "dct/study/sweepspec.h"

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

namespace dct::study {

/** How to run a sweep. */
struct SweepRunOptions
{
    SweepShard shard;
    unsigned threads = 0;            ///< 0 means std::thread::hardware_concurrency().
    std::size_t chunkVariants = 256; ///< Variants a thread takes at a time.
    /** Of the metric values in CSV rows (JSON lines keep every digit); the CLI shows display
     *  precision unless --precision full is given. */
    SweepPrecision precision = SweepPrecision::Full;
    /** Called on the calling thread about every 100 ms and at the end: variants done, total. */
    std::function<void(std::uint64_t done, std::uint64_t total)> progress;
    /**
     * Asked on the calling thread about every 100 ms and by the workers between chunks: when it
     * returns true, the run stops early (SweepSummary::stopped) and its output is incomplete.
     */
    std::function<bool()> stop;
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
    bool stopped = false;                ///< SweepRunOptions::stop ended the run early.
    std::uint64_t bytes = 0;             ///< Written, the CSV header included.
    std::string checksum;                ///< SweepChecksum of what was written.
    /** Of the metric values written: SweepRunOptions::precision for CSV, Full for JSON lines. */
    SweepPrecision precision = SweepPrecision::Full;
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
    /** Returns the columns of each row, in order. */
    const std::vector<SweepColumn>& columns() const { return m_layout; }
    /** Returns the header line of \a format ("" for JSON lines). */
    std::string header(SweepFormat format) const;

    /**
     * Returns a hash of everything the rows depend on: the spec's axes, metrics, filters and
     * objectives, the base scenario, the catalog and the model version (32 hex digits).
     */
    const std::string& specHash() const { return m_specHash; }
    /**
     * Returns about how many bytes run() writes for \a shard in \a format: the header, and
     * the variants times the mean row of up to 64 variants evaluated across the shard.
     */
    std::uint64_t estimateOutputBytes(SweepFormat format, const SweepShard& shard,
                                      SweepPrecision precision = SweepPrecision::Full) const;
    /** Returns the record of the output that run() wrote for \a shard, as \a summary says (its
     *  precision among it). */
    SweepPartRecord partRecord(const SweepShard& shard, SweepFormat format,
                               const SweepSummary& summary) const;

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
        std::string unit;     ///< Its unit there, for display precision ("share", "USD").
    };

    static Result<SweepRunner> prepare(const SweepSpec& spec, const model::Scenario* base,
                                       const model::Catalog* catalog,
                                       const model::ResolvedScenario* resolved,
                                       SweepEvaluator evaluator);
    /** What one thread needs to evaluate variants: its copies of the bases, its results. */
    struct Workspace
    {
        std::vector<model::ResolvedScenario> scenarios; ///< Per group, copied when first used.
        std::vector<bool> copied;
        std::vector<double> values;     ///< Per metric column.
        std::vector<std::size_t> hints; ///< Where each column's metric was last time.
        solvers::Evaluation evaluation; ///< Reused: its metrics keep their strings' storage.
    };
    enum class VariantOutcome
    {
        Ok,
        Failed,
        FilteredOut
    };
    Workspace workspace() const;
    /** Sets the swept fields of variant \a index, evaluates it and reads its metric values. */
    VariantOutcome evaluateVariant(std::uint64_t index, Workspace& w) const;

    /** Appends the row of variant \a index to \a text (\a evaluation for the error message);
     *  \a display writes CSV metric values at display precision. */
    void appendRow(std::string& text, bool jsonl, bool display, std::uint64_t index, bool ok,
                   const std::vector<double>& values, const solvers::Evaluation& evaluation) const;
    /** Returns the value number of axis \a a in variant \a index. */
    std::size_t valueIndex(std::size_t a, std::uint64_t index) const
    {
        return static_cast<std::size_t>((index / m_axes[a].stride) % m_axes[a].csvText.size());
    }

    SweepSpec m_spec;
    SweepEvaluator m_evaluate;
    bool m_evaluateInPlace = false; ///< evaluate() into a reused Evaluation (no evaluator given).
    std::vector<Axis> m_axes;
    std::vector<model::ResolvedScenario> m_groups; ///< One per catalog-reference combination.
    std::vector<std::string> m_metrics;
    std::vector<Metric> m_columns;
    std::vector<SweepColumn> m_layout;   ///< The columns of a row, in order.
    std::vector<std::string> m_jsonKeys; ///< Per layout column: "\"key\":".
    std::string m_specHash;
    std::vector<std::size_t> m_filterColumns;    ///< Column of each filter.
    std::vector<std::size_t> m_objectiveColumns; ///< Column of each objective.
    std::uint64_t m_variantCount = 0;
};

} // namespace dct::study
