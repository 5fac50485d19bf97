// Every numeric field of every section, and of every catalog entry a scenario names (as an
// override), set one at a time on the seed example to its schema minimum and maximum and just
// inside them: each evaluation gives finite figures, or an error naming that field.
#include "finitesupport.h"

#include <cmath>

using namespace dct;
using nlohmann::json;

namespace {

/** Returns the accepted values at the edges of \a input's range. */
std::vector<double> edgeValues(const test::NumericInput& input)
{
    std::vector<double> values;
    if (input.minimum) {
        const double low = *input.minimum;
        if (!input.exclusiveMinimum)
            values.push_back(low);
        values.push_back(input.integer ? low + 1.0 : std::nextafter(low, HUGE_VAL));
    }
    if (input.maximum) {
        const double high = *input.maximum;
        values.push_back(high);
        values.push_back(input.integer ? high - 1.0 : std::nextafter(high, -HUGE_VAL));
    }
    if (input.zeroAllowed)
        values.push_back(0.0);
    return values;
}

/** Returns "" when \a document evaluates to finite figures or to an error naming \a input. */
std::string checkFinite(const json& document, const test::NumericInput& input, double value)
{
    const solvers::DocumentEvaluation d =
        solvers::evaluateDocument(document, test::catalog(), "bounds.json");
    std::string problem;
    for (const auto& diagnostic : d.diagnostics)
        if (diagnostic.severity == Severity::Error && diagnostic.path == input.pointer &&
            diagnostic.code == "range")
            problem += " the value inside the range is refused: " + diagnostic.toString() + ";";
    const std::string nonFinite = test::nonFiniteMetrics(d);
    if (!nonFinite.empty() && d.ok())
        problem += " ok with non-finite figures: " + nonFinite + ";";
    if (!nonFinite.empty() && !test::errorNames(d.diagnostics, input.pointer))
        problem += " non-finite figures " + nonFinite + " and no error naming the field;";
    if (problem.empty())
        return {};
    return input.pointer + " = " + json(value).dump() + ":" + problem;
}

} // namespace

TEST_CASE("every numeric field has a lower and an upper bound", "[finite][bounds]")
{
    const auto inputs = test::numericInputs();
    // The sections' fields and those of the GPU, node, NIC, switch, cooling system, port and
    // site a scenario names.
    CHECK(inputs.size() > 100);
    for (const auto& input : inputs) {
        INFO(input.pointer);
        CHECK(input.minimum.has_value());
        CHECK(input.maximum.has_value());
    }
}

TEST_CASE("every numeric field at the edges of its range gives finite figures or names itself",
          "[finite][bounds]")
{
    const json seed = test::seedDocument();
    std::vector<std::string> problems;
    int evaluations = 0;
    for (const auto& input : test::numericInputs()) {
        for (const double value : edgeValues(input)) {
            json document = seed;
            test::setInput(document, input, value);
            ++evaluations;
            if (auto problem = checkFinite(document, input, value); !problem.empty())
                problems.push_back(problem);
        }
    }
    std::string text;
    for (const auto& p : problems)
        text += p + "\n";
    INFO(text);
    CHECK(evaluations > 400);
    CHECK(problems.empty());
}

TEST_CASE("a value just outside a field's range is refused naming the field", "[finite][bounds]")
{
    const json seed = test::seedDocument();
    for (const auto& input : test::numericInputs()) {
        REQUIRE(input.minimum);
        const double below = input.exclusiveMinimum || input.integer
                                 ? (input.integer ? *input.minimum - 1.0 : *input.minimum)
                                 : std::nextafter(*input.minimum, -HUGE_VAL);
        if (input.zeroAllowed && below == 0.0)
            continue;
        json document = seed;
        test::setInput(document, input, below);
        const solvers::DocumentEvaluation d =
            solvers::evaluateDocument(document, test::catalog(), "bounds.json");
        INFO(input.pointer << " = " << below);
        CHECK_FALSE(d.evaluated());
        CHECK(test::errorNames(d.diagnostics, input.pointer));
    }
}
