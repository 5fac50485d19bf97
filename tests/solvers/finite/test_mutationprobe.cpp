// A mutation probe: random numeric fields of the seed example (scenario fields and catalog
// overrides) set to random, tiny, huge, boundary and out-of-range values, each document
// evaluated through the one evaluation entry. No run may end "ok" with a figure that is not a
// finite number, and none may fail inside the evaluation.
//
// The full probe (20,000 runs) prints its counts:
//   DCT_PROBE_RUNS=20000 test_finite "[.probe]" -s
#include "finitesupport.h"

#include <cstdlib>
#include <iostream>
#include <map>
#include <random>

using namespace dct;
using nlohmann::json;

namespace {

struct ProbeCounts
{
    int runs = 0;
    int refused = 0;          ///< Not evaluated: read or resolve errors.
    int evaluationErrors = 0; ///< Evaluated with errors.
    int ok = 0;
    int nonFinite = 0;                        ///< Runs with at least one metric that is not finite.
    int silentNonFinite = 0;                  ///< ... of which the evaluation said ok.
    int internal = 0;                         ///< An exception inside the evaluation.
    std::map<std::string, int> silentByField; ///< Fields set in the silent runs.
};

double pickValue(const test::NumericInput& input, double current, std::mt19937_64& rng)
{
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    const double low = input.minimum.value_or(-1e6);
    const double high = input.maximum.value_or(1e6);
    switch (rng() % 14) {
    case 0:
        return 5e-324;
    case 1:
        return 1e-310;
    case 2:
        return 1e-200;
    case 3:
        return 1e-12;
    case 4:
        return 0.0;
    case 5:
        return -1e-300;
    case 6:
        return std::nextafter(low, high);
    case 7:
        return low;
    case 8:
        return high;
    case 9:
        return std::nextafter(high, low);
    case 10:
        return current * std::pow(10.0, -6.0 + 12.0 * unit(rng));
    case 11:
        return low + (high - low) * unit(rng);
    case 12:
        return 1e300;
    default:
        return current * 2.0 * unit(rng);
    }
}

/** Returns the value of \a input in \a document, or 1 when the document leaves it out. */
double currentValue(const json& document, const test::NumericInput& input)
{
    const json* at = nullptr;
    if (input.reference.empty()) {
        if (document.contains(input.section) && document[input.section].contains(input.key))
            at = &document[input.section][input.key];
    } else {
        const json& holder = input.section.empty() ? document : document[input.section];
        if (holder.contains(input.reference) && holder[input.reference].is_object() &&
            holder[input.reference].contains(input.key))
            at = &holder[input.reference][input.key];
    }
    return at && at->is_number() ? at->get<double>() : 1.0;
}

ProbeCounts runProbe(int runs, std::uint64_t seed)
{
    const std::vector<test::NumericInput> inputs = test::numericInputs();
    const json base = test::seedDocument();
    std::mt19937_64 rng(seed);
    ProbeCounts counts;
    for (int run = 0; run < runs; ++run) {
        json document = base;
        // Half the runs change one field, so that the field to blame is known; the rest two or
        // three.
        const int changes = rng() % 2 == 0 ? 1 : 2 + static_cast<int>(rng() % 2);
        std::vector<std::string> changed;
        for (int c = 0; c < changes; ++c) {
            const auto& input = inputs[rng() % inputs.size()];
            double value = pickValue(input, currentValue(document, input), rng);
            if (input.integer && rng() % 2 == 0)
                value = std::round(value);
            test::setInput(document, input, value);
            changed.push_back(input.pointer);
        }
        const solvers::DocumentEvaluation d =
            solvers::evaluateDocument(document, test::catalog(), "probe.json");
        ++counts.runs;
        if (d.diagnostics.hasCode("internal"))
            ++counts.internal;
        if (!d.evaluated()) {
            ++counts.refused;
            continue;
        }
        const bool finite = test::nonFiniteMetrics(d).empty();
        counts.nonFinite += finite ? 0 : 1;
        if (d.ok()) {
            ++counts.ok;
            if (!finite) {
                ++counts.silentNonFinite;
                for (const auto& pointer : changed)
                    ++counts.silentByField[pointer];
            }
        } else {
            ++counts.evaluationErrors;
        }
    }
    return counts;
}

void print(const ProbeCounts& c)
{
    std::cout << "mutation probe: " << c.runs << " runs, " << c.refused << " refused, "
              << c.evaluationErrors << " evaluated with errors, " << c.ok << " ok; " << c.nonFinite
              << " with a non-finite metric, " << c.silentNonFinite << " of them marked ok; "
              << c.internal << " internal failures\n";
    for (const auto& [pointer, n] : c.silentByField)
        std::cout << "  " << pointer << ": " << n << "\n";
}

} // namespace

TEST_CASE("randomly mutated seed documents never evaluate ok with a non-finite figure",
          "[finite][probe]")
{
    const ProbeCounts counts = runProbe(600, 20261123);
    std::string fields;
    for (const auto& [pointer, n] : counts.silentByField)
        fields += " " + pointer + ": " + std::to_string(n);
    INFO("fields set in the runs that were ok with a non-finite figure:" << fields);
    CHECK(counts.runs == 600);
    CHECK(counts.ok > 0);
    CHECK(counts.refused > 0);
    CHECK(counts.silentNonFinite == 0);
    CHECK(counts.internal == 0);
}

TEST_CASE("the full mutation probe prints its counts", "[.probe]")
{
    const char* runs = std::getenv("DCT_PROBE_RUNS");
    const ProbeCounts counts = runProbe(runs ? std::atoi(runs) : 20000, 20261123);
    print(counts);
    CHECK(counts.silentNonFinite == 0);
}
