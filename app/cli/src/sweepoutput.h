#pragma once

// Helpers shared by the `sweep` and `sweep-merge` commands (private to dct_cli).

#include "dct/model/atomicfile.h"
#include "dct/model/catalog.h"
#include "dct/model/scenarioio.h"
#include "dct/study/sweeprunner.h"

#include <filesystem>
#include <optional>
#include <ostream>
#include <string>

namespace dct::cli {

/** Prints \a error to \a err as a dctwin-cli error line. */
inline void printSweepError(std::ostream& err, const Error& error)
{
    err << "dctwin-cli: error: " << error.toString() << "\n";
}

/**
 * Prepares the sweep of \a spec (read from \a specFile): loads the catalog from
 * \a catalogDirectory (the default when empty), reads the base scenario and resolves it. Prints
 * what went wrong to \a err and returns nothing on failure.
 */
inline std::optional<study::SweepRunner> prepareSweepRunner(const std::string& specFile,
                                                            const study::SweepSpec& spec,
                                                            const std::string& catalogDirectory,
                                                            std::ostream& err)
{
    auto catalog =
        model::Catalog::load(catalogDirectory.empty() ? model::Catalog::defaultDirectory()
                                                      : std::filesystem::path(catalogDirectory));
    if (!catalog) {
        printSweepError(err, catalog.error());
        return std::nullopt;
    }
    auto base = model::readScenarioFile(spec.base);
    if (!base.scenario || base.diagnostics.hasErrors()) {
        err << "dctwin-cli: error: " << specFile << ": /base: the base scenario "
            << spec.base.string() << " cannot be read\n";
        for (const auto& d : base.diagnostics)
            err << d.toString() << "\n";
        return std::nullopt;
    }
    auto runner = study::SweepRunner::create(spec, *base.scenario, *catalog);
    if (!runner) {
        printSweepError(err, runner.error());
        return std::nullopt;
    }
    return std::move(*runner);
}

/** Writes the text that \a write produces to \a path atomically, or to \a out when it is empty. */
template <class F>
Result<void> writeSweepOutput(const std::string& path, std::ostream& out, F&& write)
{
    if (path.empty()) {
        write(out);
        return {};
    }
    // Beside the target, renamed at the end: a killed job leaves no half file that looks
    // finished.
    return writeFileAtomically(path, [&write](std::ostream& file) { write(file); });
}

} // namespace dct::cli
