#pragma once

#include "dct/model/catalog.h"
#include "dct/model/error.h"
#include "dct/model/resolvedscenario.h"

#include <functional>
#include <nlohmann/json.hpp>
#include <string>

namespace dct::study {

/**
 * Sets one field of a resolved scenario by JSON pointer, fast: the pointer is looked up once in
 * the field tables and each value is turned into a number once, so applying it is one call.
 * Pointers reach scenario fields ("/compute/node_count", "/cooling/economizer",
 * "/workload/precision") and fields of the catalog entries in use ("/compute/gpu/tdp_w",
 * "/site/electricity_usd_per_kwh"). A catalog reference itself ("/cooling/system", "/site")
 * cannot be set by number: it changes which entry is used and needs resolving again.
 */
class ScenarioPatcher
{
public:
    /** Compiles \a pointer; errors are reported at \a specPath of \a file. */
    static Result<ScenarioPatcher> compile(const std::string& pointer, const std::string& file,
                                           const std::string& specPath);

    /** Returns the pointer. */
    const std::string& pointer() const { return m_pointer; }
    /** Returns true when the field names a catalog entry (resolve again to apply it). */
    bool isCatalogReference() const { return m_catalogReference; }

    /** Returns the number that \a value stands for, or an error naming \a valuePath. */
    Result<double> toNumber(const nlohmann::json& value, const std::string& valuePath) const;
    /** Sets the field to \a number (from toNumber()). */
    void apply(model::ResolvedScenario& scenario, double number) const { m_set(scenario, number); }
    /** Sets a catalog reference field of \a scenario to the id \a value; returns "" or what is
     *  accepted. */
    std::string setReference(model::Scenario& scenario, const nlohmann::json& value) const;

    /** Recomputes what the resolver derives from the fields (GPUs per node, rails, data
     *  parallel size), after fields were set by number. */
    static void updateDerived(model::ResolvedScenario& scenario);

private:
    std::string m_pointer;
    std::string m_file;
    bool m_catalogReference = false;
    bool m_integer = false;
    std::vector<std::string> m_choices; ///< Enum names, in index order.
    double m_minimum = -1e300;
    double m_maximum = 1e300;
    bool m_exclusiveMinimum = false;
    bool m_zeroAllowed = false; ///< 0 ("none") is accepted besides the range.
    std::string m_rangeText;
    std::function<void(model::ResolvedScenario&, double)> m_set;
    std::function<std::string(model::Scenario&, const nlohmann::json&)> m_setReference;
};

} // namespace dct::study
