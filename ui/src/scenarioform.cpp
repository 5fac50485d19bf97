#include "dct/ui/scenarioform.h"

#include "dct/ui/catalogprovider.h"
#include "dct/ui/fieldgroup.h"
#include "dct/ui/format.h"
#include "dct/ui/scenariodocument.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStyle>
#include <QToolBox>
#include <QVBoxLayout>
#include <cmath>

namespace dct::ui {

using model::FieldKind;

namespace {

constexpr const char* kPointerProperty = "dctPointer";
constexpr const char* kSeverityProperty = "dctSeverity";
constexpr double kUnbounded = 1e12;

QString toolTipOf(const FieldInfo& field)
{
    QString tip = QStringLiteral("<b>%1</b>").arg(qstr(field.pointer).toHtmlEscaped());
    if (!field.description.empty())
        tip += QStringLiteral("<br>") + qstr(field.description).toHtmlEscaped();
    if (!field.rangeText.empty())
        tip += QStringLiteral("<br><i>Accepts %1</i>").arg(qstr(field.rangeText).toHtmlEscaped());
    return tip;
}

QString labelOf(const FieldInfo& field)
{
    QString label = qstr(field.label);
    if (!field.unit.empty())
        label += QStringLiteral(" (%1)").arg(qstr(field.unit));
    return label;
}

} // namespace

ScenarioForm::ScenarioForm(QWidget* parent) : QWidget(parent), m_pages(new QToolBox(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_pages);
    // Fields a diagnostic points at get a coloured frame; the property is set per editor.
    setStyleSheet(QStringLiteral(
        "*[dctSeverity=\"error\"] { border: 2px solid #d32f2f; background: #ffebee; }"
        "*[dctSeverity=\"warning\"] { border: 2px solid #f9a825; background: #fffde7; }"
        "QLabel[dctSeverity=\"error\"] { border: none; background: transparent; color: #b71c1c; }"
        "QLabel[dctSeverity=\"warning\"] { border: none; background: transparent;"
        " color: #8d6e00; }"));

    const auto& groups = scenarioFieldGroups();
    for (std::size_t g = 0; g < groups.size(); ++g) {
        auto* scroll = new QScrollArea(m_pages);
        scroll->setWidgetResizable(true);
        scroll->setFrameShape(QFrame::NoFrame);
        auto* page = new QWidget(scroll);
        auto* form = new QFormLayout(page);
        form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
        form->setRowWrapPolicy(QFormLayout::DontWrapRows);
        form->setLabelAlignment(Qt::AlignRight | Qt::AlignVCenter);
        std::string section;
        for (const auto& field : groups[g].fields) {
            // A page may hold several sections of the scenario (Compute holds storage, Cooling
            // holds facility): each after the first gets a sub-heading, so that "Power (kW)"
            // under it reads as the storage's, not the compute's.
            const auto slash = field.pointer.find('/', 1);
            const std::string fieldSection =
                slash == std::string::npos ? std::string() : field.pointer.substr(1, slash - 1);
            if (!section.empty() && !fieldSection.empty() && fieldSection != section) {
                QString title = qstr(fieldSection);
                if (!title.isEmpty())
                    title[0] = title[0].toUpper();
                auto* heading = new QLabel(QStringLiteral("<b>%1</b>").arg(title), page);
                heading->setObjectName(QStringLiteral("sectionHeading_") + qstr(fieldSection));
                heading->setContentsMargins(0, 10, 0, 2);
                heading->setToolTip(
                    tr("The fields below set /%1 of the scenario").arg(qstr(fieldSection)));
                form->addRow(heading);
            }
            section = fieldSection;
            QWidget* editor = makeEditor(field);
            auto* label = new QLabel(labelOf(field), page);
            label->setBuddy(editor);
            label->setToolTip(toolTipOf(field));
            editor->setToolTip(toolTipOf(field));
            editor->setProperty(kPointerProperty, qstr(field.pointer));
            form->addRow(label, editor);
            m_slots[field.pointer] = {editor, label, toolTipOf(field), static_cast<int>(g), scroll};
        }
        scroll->setWidget(page);
        m_pages->addItem(scroll, qstr(groups[g].title));
    }
    m_pages->setCurrentIndex(1); // Compute: where most planning starts.
    setEnabled(false);
}

QWidget* ScenarioForm::makeEditor(const FieldInfo& field)
{
    const std::string pointer = field.pointer;
    switch (field.kind) {
    case FieldKind::Number: {
        auto* spin = new QDoubleSpinBox(this);
        const double maximum = field.maximum.value_or(kUnbounded);
        // Shares need four decimals; counts of operations or dollars none; the rest two.
        const int decimals = maximum <= 1.0                                  ? 4
                             : (field.unit == "IOPS" || field.unit == "USD") ? 0
                                                                             : 2;
        double minimum = field.minimum.value_or(-kUnbounded);
        if (field.exclusiveMinimum)
            minimum += std::pow(10.0, -decimals);
        spin->setDecimals(decimals);
        spin->setRange(minimum, maximum);
        spin->setStepType(QAbstractSpinBox::AdaptiveDecimalStepType);
        spin->setKeyboardTracking(false);
        spin->setAccelerated(true);
        connect(spin, &QDoubleSpinBox::valueChanged, this,
                [this, pointer](double v) { commit(pointer, v); });
        return spin;
    }
    case FieldKind::Integer: {
        auto* spin = new QSpinBox(this);
        spin->setRange(static_cast<int>(std::max(field.minimum.value_or(-2e9), -2e9)),
                       static_cast<int>(std::min(field.maximum.value_or(2e9), 2e9)));
        spin->setKeyboardTracking(false);
        spin->setAccelerated(true);
        spin->setGroupSeparatorShown(true);
        // A field whose 0 stands for a choice ("0 takes the node type's count", "0 for a routed
        // fabric") shows that choice instead of a bare 0.
        const auto zero = field.description.find("; 0 ");
        if (field.minimum.value_or(-1.0) == 0.0 && zero != std::string::npos) {
            const std::string rest = field.description.substr(zero + 4);
            spin->setSpecialValueText(rest.rfind("for ", 0) == 0 ? qstr(rest.substr(4))
                                                                 : tr("automatic"));
        }
        connect(spin, &QSpinBox::valueChanged, this,
                [this, pointer](int v) { commit(pointer, v); });
        return spin;
    }
    case FieldKind::Boolean: {
        auto* check = new QCheckBox(this);
        connect(check, &QCheckBox::toggled, this,
                [this, pointer](bool on) { commit(pointer, on); });
        return check;
    }
    case FieldKind::Enum: {
        auto* combo = new QComboBox(this);
        for (const auto& c : field.choices)
            combo->addItem(qstr(c), qstr(c));
        connect(combo, &QComboBox::activated, this, [this, pointer, combo](int) {
            commit(pointer, combo->currentData().toString().toStdString());
        });
        return combo;
    }
    case FieldKind::CatalogRef: {
        auto* combo = new QComboBox(this);
        if (!field.required)
            combo->addItem(tr("(default)"), QString());
        for (const auto& id : CatalogProvider::ids(field.catalogKind))
            combo->addItem(qstr(id), qstr(id));
        connect(combo, &QComboBox::activated, this, [this, pointer, combo](int) {
            const std::string id = combo->currentData().toString().toStdString();
            if (id.empty()) {
                commit(pointer, nullptr);
                return;
            }
            // Keep the overrides of the entry when only the id changes.
            nlohmann::json value = id;
            if (m_document) {
                const auto own = m_document->ownValue(pointer);
                if (own && own->is_object()) {
                    value = *own;
                    value["id"] = id;
                }
            }
            commit(pointer, value);
        });
        return combo;
    }
    case FieldKind::String: {
        auto* line = new QLineEdit(this);
        connect(line, &QLineEdit::editingFinished, this,
                [this, pointer, line] { commit(pointer, line->text().toStdString()); });
        return line;
    }
    case FieldKind::Custom:
    default: {
        auto* line = new QLineEdit(this);
        line->setReadOnly(true);
        return line;
    }
    }
}

void ScenarioForm::commit(const std::string& pointer, const nlohmann::json& value)
{
    if (m_document)
        m_document->edit(pointer, value);
}

void ScenarioForm::setDocument(ScenarioDocument* document)
{
    if (m_document)
        disconnect(m_document, nullptr, this, nullptr);
    m_document = document;
    setEnabled(document != nullptr);
    if (!document)
        return;
    connect(document, &ScenarioDocument::valueChanged, this,
            [this](const QString& pointer) { refresh(pointer.toStdString()); });
    refreshAll();
    setDiagnostics(document->outcome()->diagnostics);
}

void ScenarioForm::refreshAll()
{
    for (const auto& [pointer, slot] : m_slots)
        refresh(pointer);
}

void ScenarioForm::refresh(const std::string& changed)
{
    if (!m_document)
        return;
    // An edit of a section or a catalog override refreshes every field below it.
    for (auto& [pointer, slot] : m_slots) {
        if (pointer != changed && pointer.rfind(changed + "/", 0) != 0 &&
            changed.rfind(pointer + "/", 0) != 0)
            continue;
        const nlohmann::json value = m_document->value(pointer);
        QWidget* w = slot.editor;
        const QSignalBlocker blocker(w);
        if (auto* spin = qobject_cast<QDoubleSpinBox*>(w)) {
            spin->setValue(value.is_number() ? value.get<double>() : 0.0);
        } else if (auto* ispin = qobject_cast<QSpinBox*>(w)) {
            ispin->setValue(value.is_number() ? static_cast<int>(value.get<double>()) : 0);
        } else if (auto* check = qobject_cast<QCheckBox*>(w)) {
            check->setChecked(value.is_boolean() && value.get<bool>());
        } else if (auto* combo = qobject_cast<QComboBox*>(w)) {
            QString id;
            if (value.is_string())
                id = qstr(value.get<std::string>());
            else if (value.is_object() && value.contains("id") && value["id"].is_string())
                id = qstr(value["id"].get<std::string>());
            int i = combo->findData(id);
            if (i < 0) {
                // An id the catalog does not have: show it, the diagnostics say what is wrong.
                combo->addItem(id, id);
                i = combo->count() - 1;
            }
            combo->setCurrentIndex(i);
        } else if (auto* line = qobject_cast<QLineEdit*>(w)) {
            line->setText(value.is_string() ? qstr(value.get<std::string>())
                          : value.is_null() ? QString()
                                            : qstr(value.dump()));
            line->setCursorPosition(0);
        }
    }
}

void ScenarioForm::setDiagnostics(const Diagnostics& diagnostics)
{
    for (auto& [pointer, slot] : m_slots) {
        (void)pointer;
        if (slot.editor->property(kSeverityProperty).isValid()) {
            for (QWidget* w : {slot.editor, static_cast<QWidget*>(slot.label)}) {
                w->setProperty(kSeverityProperty, QVariant());
                w->style()->unpolish(w);
                w->style()->polish(w);
            }
            slot.editor->setToolTip(slot.toolTip);
        }
    }
    std::map<std::string, std::pair<Severity, QString>> marks;
    for (const auto& d : diagnostics) {
        const FieldInfo* field = findFieldInfo(d.path);
        if (!field || d.severity == Severity::Note)
            continue;
        auto& mark = marks[field->pointer];
        if (mark.second.isEmpty() || d.severity > mark.first)
            mark.first = std::max(mark.first, d.severity);
        QString line = QStringLiteral("%1: %2").arg(QString::fromLatin1(severityName(d.severity)),
                                                    qstr(d.message).toHtmlEscaped());
        if (!d.hint.empty())
            line += QStringLiteral(" <i>(%1)</i>").arg(qstr(d.hint).toHtmlEscaped());
        mark.second += QStringLiteral("<br>") + line;
    }
    for (const auto& [pointer, mark] : marks) {
        auto it = m_slots.find(pointer);
        if (it == m_slots.end())
            continue;
        const QString severity =
            mark.first == Severity::Error ? QStringLiteral("error") : QStringLiteral("warning");
        for (QWidget* w : {it->second.editor, static_cast<QWidget*>(it->second.label)}) {
            w->setProperty(kSeverityProperty, severity);
            w->style()->unpolish(w);
            w->style()->polish(w);
        }
        it->second.editor->setToolTip(it->second.toolTip + QStringLiteral("<hr>") + mark.second);
    }
}

QWidget* ScenarioForm::editor(const QString& pointer) const
{
    const FieldInfo* field = findFieldInfo(pointer.toStdString());
    if (!field)
        return nullptr;
    auto it = m_slots.find(field->pointer);
    return it == m_slots.end() ? nullptr : it->second.editor;
}

bool ScenarioForm::focusField(const QString& pointer)
{
    const FieldInfo* field = findFieldInfo(pointer.toStdString());
    if (!field)
        return false;
    auto it = m_slots.find(field->pointer);
    if (it == m_slots.end())
        return false;
    m_pages->setCurrentIndex(it->second.page);
    it->second.scroll->ensureWidgetVisible(it->second.editor);
    it->second.editor->setFocus(Qt::OtherFocusReason);
    return true;
}

} // namespace dct::ui
