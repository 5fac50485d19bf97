#pragma once

#include "dct/cli/command.h"

#include <iosfwd>
#include <string>
#include <vector>

namespace dct::cli {

/**
 * The `store` subcommand: list, show, import, export, history, restore, tag, notes and eval of
 * scenarios in the SQLite scenario library, and recover of a damaged one into a new file.
 */
class StoreCommand : public Command
{
public:
    /** Registers `store` and its subcommands on \a app. */
    explicit StoreCommand(CLI::App& app);

    /** Returns the `store` subcommand. */
    CLI::App* subcommand() const override;
    /** Runs the chosen subcommand and returns the exit code. */
    int run(const CommandContext& context, std::ostream& out, std::ostream& err) override;

private:
    CLI::App* m_store = nullptr;
    CLI::App* m_list = nullptr;
    CLI::App* m_show = nullptr;
    CLI::App* m_import = nullptr;
    CLI::App* m_export = nullptr;
    CLI::App* m_history = nullptr;
    CLI::App* m_restore = nullptr;
    CLI::App* m_tag = nullptr;
    CLI::App* m_notes = nullptr;
    CLI::App* m_remove = nullptr;
    CLI::App* m_eval = nullptr;
    CLI::App* m_recover = nullptr;

    std::string m_path;
    std::string m_name;
    std::vector<std::string> m_files;
    std::vector<std::string> m_tags;
    std::string m_tagFilter;
    std::string m_comment;
    std::string m_output;
    std::string m_format = "table";
    std::string m_notesText;
    std::string m_damaged;
    std::string m_recovered;
    int m_version = 0;
    bool m_untag = false;
    bool m_info = false;
};

} // namespace dct::cli
