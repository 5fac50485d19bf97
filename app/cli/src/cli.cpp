#include "dct/cli/cli.h"

#include "dct/cli/command.h"
#include "dct/model/catalog.h"

#include <CLI/CLI.hpp>
#include <memory>
#include <ostream>
#include <sstream>

#ifndef DCT_VERSION
#error "DCT_VERSION must be defined (the CMake project version)"
#endif

namespace dct::cli {

namespace {

/** The program without its commands: its name, description and global options; the program's
 *  own answers (--print-data-dir) are written to \a out. */
void describeProgram(CLI::App& app, CommandContext& context, std::ostream& out)
{
    app.description("DC Twin: digital twin and capacity planner for AI data centers.\n"
                    "Evaluates scenario files (cluster, fabric, power, cooling, site, workload).");
    app.name("dctwin-cli");
    app.require_subcommand(1);
    app.set_version_flag("--version", "dctwin-cli " DCT_VERSION);
    app.add_option("--catalog", context.catalogDirectory,
                   "Catalog folder (default: $DCT_DATA_DIR/catalog or the bundled data)");
    // Where the data comes from: an installed program must read <prefix>/share/dctwin, never the
    // source tree it was built from (the package gate checks it).
    app.add_flag_callback(
        "--print-data-dir",
        [&out] {
            out << model::Catalog::dataDirectory().string() << "\n";
            throw CLI::Success();
        },
        "Print the data folder the program reads (catalog/, examples/, schema/) and exit");
}

/** Adds the names of \a app's options (and of its unnamed option groups) to \a names. */
void addOptionNames(const CLI::App& app, std::vector<std::string>& names)
{
    for (const CLI::Option* option : app.get_options()) {
        if (option == app.get_help_ptr() || option == app.get_help_all_ptr())
            continue;
        for (const auto& name : option->get_snames())
            names.push_back("-" + name);
        for (const auto& name : option->get_lnames())
            names.push_back("--" + name);
    }
    for (const CLI::App* group : app.get_subcommands([](const CLI::App*) { return true; }))
        if (group->get_name().empty())
            addOptionNames(*group, names);
}

/** Appends \a app, named \a path, and its subcommands, depth first, to \a out. */
void collectOptions(const CLI::App& app, const std::string& path, std::vector<CommandOptions>& out)
{
    CommandOptions entry;
    entry.command = path;
    addOptionNames(app, entry.names);
    const auto subcommands = app.get_subcommands([](const CLI::App*) { return true; });
    for (const CLI::App* sub : subcommands)
        if (!sub->get_name().empty())
            entry.commands.push_back(sub->get_name());
    out.push_back(entry);
    for (const CLI::App* sub : subcommands)
        if (!sub->get_name().empty())
            collectOptions(*sub, path.empty() ? sub->get_name() : path + " " + sub->get_name(),
                           out);
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

std::vector<CommandOptions> commandOptions()
{
    CLI::App app;
    CommandContext context;
    std::ostringstream unused;
    describeProgram(app, context, unused);
    std::vector<std::unique_ptr<Command>> commands;
    for (const CommandFactory create : commandTable())
        commands.push_back(create(app));
    std::vector<CommandOptions> out;
    collectOptions(app, "", out);
    return out;
}

int run(int argc, char** argv, std::ostream& out, std::ostream& err)
{
    CLI::App app;
    CommandContext context;
    describeProgram(app, context, out);
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
