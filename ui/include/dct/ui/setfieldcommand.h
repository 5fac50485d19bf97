#pragma once

#include <QUndoCommand>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace dct::ui {

class ScenarioDocument;

/** An undoable edit: sets (or removes) the scenario field at one JSON pointer. */
class SetFieldCommand : public QUndoCommand
{
public:
    /** Makes the edit of \a pointer from \a before to \a after; nullopt means absent. */
    SetFieldCommand(ScenarioDocument* document, std::string pointer,
                    std::optional<nlohmann::json> before, std::optional<nlohmann::json> after);

    void undo() override;
    void redo() override;

    /** Returns the JSON pointer this command edits. */
    const std::string& pointer() const { return m_pointer; }

private:
    ScenarioDocument* m_document;
    std::string m_pointer;
    std::optional<nlohmann::json> m_before;
    std::optional<nlohmann::json> m_after;
};

} // namespace dct::ui
