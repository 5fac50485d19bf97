#include "dct/cli/calibratecommand.h"
#include "dct/cli/catalogcommand.h"
#include "dct/cli/collectivescommand.h"
#include "dct/cli/command.h"
#include "dct/cli/comparecommand.h"
#include "dct/cli/evalcommand.h"
#include "dct/cli/layoutcommand.h"
#include "dct/cli/plancommand.h"
#include "dct/cli/reportcommand.h"
#include "dct/cli/schemacommand.h"
#include "dct/cli/storecommand.h"
#include "dct/cli/sweepcommand.h"
#include "dct/cli/sweepmergecommand.h"
#include "dct/cli/topologycommand.h"
#include "dct/cli/validatecommand.h"

namespace dct::cli {

namespace {

template <class T> std::unique_ptr<Command> create(CLI::App& app)
{
    return std::make_unique<T>(app);
}

} // namespace

const std::vector<CommandFactory>& commandTable()
{
    // The one place that lists the commands: add a new one here.
    static const std::vector<CommandFactory> table = {
        &create<ValidateCommand>, &create<EvalCommand>,        &create<CompareCommand>,
        &create<CatalogCommand>,  &create<SchemaCommand>,      &create<StoreCommand>,
        &create<SweepCommand>,    &create<SweepMergeCommand>,  &create<ReportCommand>,
        &create<TopologyCommand>, &create<CollectivesCommand>, &create<CalibrateCommand>,
        &create<LayoutCommand>,   &create<PlanCommand>,
    };
    return table;
}

} // namespace dct::cli
