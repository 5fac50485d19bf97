#include "dct/ui/setfieldcommand.h"

#include "dct/ui/fieldgroup.h"
#include "dct/ui/scenariodocument.h"

namespace dct::ui {

SetFieldCommand::SetFieldCommand(ScenarioDocument* document, std::string pointer,
                                 std::optional<nlohmann::json> before,
                                 std::optional<nlohmann::json> after)
    : m_document(document), m_pointer(std::move(pointer)), m_before(std::move(before)),
      m_after(std::move(after))
{
    const FieldInfo* field = findFieldInfo(m_pointer);
    const QString what =
        field ? QString::fromStdString(field->label) : QString::fromStdString(m_pointer);
    QString to = m_after ? QString::fromStdString(m_after->is_string() ? m_after->get<std::string>()
                                                                       : m_after->dump())
                         : QObject::tr("default");
    if (to.size() > 24)
        to = to.left(21) + QStringLiteral("...");
    setText(QObject::tr("Set %1 to %2").arg(what, to));
}

void SetFieldCommand::undo()
{
    m_document->applyValue(m_pointer, m_before);
}

void SetFieldCommand::redo()
{
    m_document->applyValue(m_pointer, m_after);
}

} // namespace dct::ui
