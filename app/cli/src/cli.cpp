#include "dct/cli/cli.h"

#include "dct/cli/command.h"

#include <CLI/CLI.hpp>
#include <memory>
#include <ostream>

#ifndef DCT_VERSION
#error "DCT_VERSION must be defined (the CMake project version)"
#endif

namespace dct::cli {

namespace {

/** The program without its commands: its name, description and global options. */
void describeProgram(CLI::App& app, CommandContext& context)
{
    app.description("DC Twin: digital twin and capacity planner for AI data centers.\n"
                    "Evaluates scenario files (cluster, fabric, power, cooling, site, workload).");
    app.name("dctwin-cli");
    app.require_subcommand(1);
    app.set_version_flag("--version", "dctwin-cli " DCT_VERSION);
    app.add_option("--catalog", context.catalogDirectory,
                   "Catalog folder (default: $DCT_DATA_DIR/catalog or the bundled data)");
}

} // namespace

std::vector<std::string> commandNames()
{
    CLI::App app;
    std::vector<std::unique_ptr<Command>> commands;
    std::vector<std::string> names;
    for (const CommandFactory create : commandTable()) {
        commands.push_back(create(app));
        names.push_back(commands.back()->subcommand()->get_name());
    }
    return names;
}

int run(int argc, char** argv, std::ostream& out, std::ostream& err)
{
    CLI::App app;
    CommandContext context;
    describeProgram(app, context);
    std::vector<std::unique_ptr<Command>> commands;
    for (const CommandFactory create : commandTable())
        commands.push_back(create(app));

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int code = app.exit(e, out, err);
        return code == 0 ? ExitOk : ExitUsage;
    }

    try {
        for (const auto& command : commands)
            if (command->subcommand()->parsed())
                return command->run(context, out, err);
    } catch (const std::exception& e) {
        // Nothing below should throw; if something does, say so instead of crashing.
        err << "dctwin-cli: internal error: " << e.what() << "\n";
        return ExitUsage;
    }
    return ExitUsage;
}

} // namespace dct::cli
