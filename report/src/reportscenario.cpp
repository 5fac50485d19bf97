#include "dct/report/reportscenario.h"

#include "dct/model/catalog.h"
#include "dct/solvers/documentevaluation.h"

namespace dct::report {

namespace {

ReportScenario fromDocument(solvers::DocumentEvaluation document)
{
    ReportScenario item;
    item.file = document.origin;
    item.diagnostics = std::move(document.diagnostics);
    item.calibration = std::move(document.calibration);
    if (document.evaluation) {
        item.resolved = std::move(document.resolved);
        item.evaluation = std::move(*document.evaluation);
    }
    return item;
}

} // namespace

ReportScenario ReportScenario::fromJson(const nlohmann::json& json, const model::Catalog& catalog,
                                        const std::string& file,
                                        const solvers::EvaluateOptions& options)
{
    return fromDocument(solvers::evaluateDocument(json, catalog, file, options));
}

ReportScenario ReportScenario::fromFile(const std::filesystem::path& path,
                                        const model::Catalog& catalog,
                                        const solvers::EvaluateOptions& options)
{
    return fromDocument(solvers::evaluateDocumentFile(path, catalog, options));
}

} // namespace dct::report
