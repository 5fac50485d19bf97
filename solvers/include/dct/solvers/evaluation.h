#pragma once

#include "dct/model/diagnostics.h"
#include "dct/solvers/computeresult.h"
#include "dct/solvers/coolingresult.h"
#include "dct/solvers/costresult.h"
#include "dct/solvers/egressresult.h"
#include "dct/solvers/goodputresult.h"
#include "dct/solvers/gridresult.h"
#include "dct/solvers/metric.h"
#include "dct/solvers/networkresult.h"
#include "dct/solvers/powerresult.h"
#include "dct/solvers/redundancy.h"
#include "dct/solvers/verdict.h"

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace dct::solvers {

struct EvaluationMemo;

/**
 * What evaluate() keeps in a reused Evaluation between two evaluations (evaluator.cpp): the
 * inputs of its stages (the hall, the fabric, the reported collectives, the site year, the grid),
 * so that an evaluation whose inputs to a stage did not change keeps the figures that stage left
 * in the Evaluation. A copy starts empty (its figures are
 * solved again on its next reuse); a move takes it along with the figures.
 */
class EvaluationMemoSlot
{
public:
    EvaluationMemoSlot() noexcept;
    ~EvaluationMemoSlot();
    EvaluationMemoSlot(const EvaluationMemoSlot&) noexcept;
    EvaluationMemoSlot& operator=(const EvaluationMemoSlot&) noexcept;
    EvaluationMemoSlot(EvaluationMemoSlot&&) noexcept;
    EvaluationMemoSlot& operator=(EvaluationMemoSlot&&) noexcept;

    /** Returns the memo, made on first use. */
    EvaluationMemo& get();
    /** Forgets what was kept: the next evaluation solves every part. */
    void clear() noexcept;
    /** Returns whether the last evaluation kept the fabric part of the network. */
    bool fabricKept() const noexcept;
    /** Returns whether the last evaluation kept the site-year part (thermal loop, power, cooling
     *  over the year, the hall's checks, redundancy, cooling options). */
    bool facilityKept() const noexcept;
    /** Returns whether the last evaluation kept the hall's layout (its own stage). */
    bool hallKept() const noexcept;
    /** Returns whether the last evaluation kept the grid (prices and carbon over the year). */
    bool gridKept() const noexcept;
    /** Returns whether the last evaluation kept the reported collectives. */
    bool collectivesKept() const noexcept;
    /** Returns how many times the hall was laid out into this Evaluation since its memo began. */
    long long hallLayouts() const noexcept;

private:
    std::unique_ptr<EvaluationMemo> m_memo;
};

/** How the coupled loop (clock -> power -> heat -> temperature -> clock) settled. */
struct CouplingInfo
{
    int iterations = 0;
    bool converged = true;
    double residual = 0.0;   ///< Last change of the clock factor.
    double tolerance = 1e-6; ///< Stop when the clock factor changes less than this.
};

/** The coupled answer for one scenario: every figure with its unit, and what went wrong. */
struct Evaluation
{
    std::string scenarioName;
    ComputeResult compute;
    PowerResult power;
    CoolingResult cooling;
    GridResult grid;             ///< Carbon, tariff and demand over the site's year.
    RedundancyResult redundancy; ///< UPS, generators, chillers and CDUs; availability.
    std::vector<CoolingOptionPue> coolingOptions; ///< PUE of every catalog cooling system.
    EgressResult egress;
    CostResult cost;
    NetworkResult network;
    GoodputResult goodput; ///< Failures, checkpoints and goodput of the training run.
    CouplingInfo coupling;
    std::vector<Metric> metrics;
    Diagnostics diagnostics;
    /**
     * What the next evaluate() into this Evaluation may keep. It trusts the figures above to be
     * as the last evaluate() left them: code that edits them and then reuses this Evaluation for
     * another evaluation clears it first.
     */
    EvaluationMemoSlot memo;

    /** Returns true when the scenario could be evaluated (no error diagnostics). */
    bool ok() const { return !diagnostics.hasErrors(); }
    /** Returns whether the design is feasible, and why, from its diagnostics. */
    Verdict verdict() const { return assessVerdict(diagnostics); }
    /** Returns the metric with \a key, or nullptr. */
    const Metric* metric(const std::string& key) const;
    /** Returns the value of metric \a key, or \a fallback when there is none. */
    double value(const std::string& key, double fallback = 0.0) const;
    /**
     * Appends a metric. Between restartMetrics() and finishMetrics() it overwrites the metric at
     * the same position of the previous evaluation instead, so that a reused Evaluation
     * allocates nothing while its metrics keep their keys and labels.
     */
    void add(std::string_view key, std::string_view label, double value, std::string_view unit,
             MetricTraits traits, MetricInputs inputs = {});
    /**
     * add() with a key, label and unit that are string literals (or other constant character
     * arrays of static storage): a refill that passes the same literals at the same position
     * compares their addresses instead of their text.
     */
    template <std::size_t K, std::size_t L, std::size_t U>
    void add(const char (&key)[K], const char (&label)[L], double value, const char (&unit)[U],
             MetricTraits traits, MetricInputs inputs = {})
    {
        // The refill of a metric from the same literals: its text stands, only its value and
        // traits change.
        if (m_refilling && m_metricsFilled < metrics.size()) {
            Metric& m = metrics[m_metricsFilled];
            if (m.origin.key == key && m.origin.label == label && m.origin.unit == unit) {
                ++m_metricsFilled;
                m.value = value;
                m.inputs = inputs;
                m.traits = traits;
                return;
            }
        }
        addText({key, K - 1, key}, {label, L - 1, label}, value, {unit, U - 1, unit}, traits,
                inputs);
    }
    /** Returns the headline metrics in the order of their headline rank. */
    std::vector<const Metric*> headlines() const;
    /** Starts refilling the metrics: the next add()s overwrite them from the first. */
    void restartMetrics();
    /** Ends the refill: drops the metrics the new evaluation did not overwrite. */
    void finishMetrics();

private:
    /** A key, label or unit: its text, and the string literal it is (or null). */
    struct Text
    {
        const char* data;
        std::size_t size;
        const char* literal;
    };
    void addText(Text key, Text label, double value, Text unit, MetricTraits traits,
                 MetricInputs inputs);

    std::size_t m_metricsFilled = 0; ///< Metrics overwritten since restartMetrics().
    bool m_refilling = false;
};

} // namespace dct::solvers
