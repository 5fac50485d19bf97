#include "dct/report/reportscenario.h"

#include "dct/model/catalog.h"
#include "dct/model/resolver.h"
#include "dct/model/scenarioio.h"
#include "dct/solvers/evaluator.h"

namespace dct::report {

namespace {

/** Resolves and evaluates what \a read holds into \a item. */
void resolveAndEvaluate(model::ScenarioReadResult read, const model::Catalog& catalog,
                        ReportScenario& item)
{
    item.diagnostics.append(read.diagnostics);
    if (!read.scenario || read.diagnostics.hasErrors())
        return;
    auto resolved = model::resolveScenario(*read.scenario, catalog, item.file);
    item.diagnostics.append(resolved.diagnostics);
    if (!resolved.resolved)
        return;
    item.evaluation = solvers::evaluate(*resolved.resolved);
    item.diagnostics.append(item.evaluation.diagnostics);
    item.resolved = std::move(resolved.resolved);
}

} // namespace

ReportScenario ReportScenario::fromJson(const nlohmann::json& json, const model::Catalog& catalog,
                                        const std::string& file)
{
    ReportScenario item;
    item.file = file;
    try {
        resolveAndEvaluate(model::readScenario(json, file), catalog, item);
    } catch (const std::exception& e) {
        item.resolved.reset();
        item.diagnostics.error("", std::string("evaluation failed: ") + e.what(), {}, "internal");
    }
    item.diagnostics.setFile(file);
    return item;
}

ReportScenario ReportScenario::fromFile(const std::filesystem::path& path,
                                        const model::Catalog& catalog)
{
    ReportScenario item;
    item.file = path.string();
    try {
        resolveAndEvaluate(model::readScenarioFile(path), catalog, item);
    } catch (const std::exception& e) {
        item.resolved.reset();
        item.diagnostics.error("", std::string("evaluation failed: ") + e.what(), {}, "internal");
    }
    item.diagnostics.setFile(item.file);
    return item;
}

} // namespace dct::report
