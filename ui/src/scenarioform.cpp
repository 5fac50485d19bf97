#include "dct/ui/scenarioform.h"

#include "dct/ui/catalogprovider.h"
#include "dct/ui/evaluationoutcome.h"
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
#include <QScrollBar>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStyle>
#include <QToolBox>
#include <QVBoxLayout>
#include <cmath>
#include <map>
#include <type_traits>

namespace dct::ui {

using model::FieldKind;

namespace {

constexpr const char* kPointerProperty = "dctPointer";
constexpr const char* kSeverityProperty = "dctSeverity";
constexpr const char* kScaleProperty = "dctScale";
constexpr const char* kAutomaticProperty = "dctAutomatic";
constexpr const char* kListProperty = "dctList";
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

/** Returns true for a share of one (a number from 0 to 1 without a unit): edited in percent. */
bool isShare(const FieldInfo& field)
{
    return field.kind == FieldKind::Number && field.unit.empty() &&
           field.maximum.value_or(2.0) <= 1.0 && field.minimum.value_or(-1.0) >= 0.0;
}

QString labelOf(const FieldInfo& field)
{
    QString label = qstr(field.label);
    const auto dropWord = [&label](const QString& word) {
        if (label.endsWith(word) && label.size() > word.size())
            label.chop(word.size());
    };
    if (isShare(field)) {
        dropWord(QStringLiteral(" fraction"));
        return label + QStringLiteral(" (%)");
    }
    if (field.unit == "B") { // "parameters_billion": "Parameters (billions)"
        dropWord(QStringLiteral(" billion"));
        return label + QStringLiteral(" (billions)");
    }
    if (!field.unit.empty())
        label += QStringLiteral(" (%1)").arg(qstr(field.unit));
    return label;
}

/** Returns the name people read for the choice \a value of the enum field at \a pointer. */
QString choiceName(const std::string& pointer, const std::string& value)
{
    // Where a field's choice means something of its own: the gradients' "auto" is a precision
    // that follows the matrix math's, not the fastest of several algorithms; their "fused"
    // accumulation is no attention kernel.
    static const std::map<std::pair<std::string, std::string>, const char*> byField = {
        {{"/workload/gradient_precision", "auto"}, "Automatic (FP32; FP16 in FP16 training)"},
        {{"/workload/gradient_accumulation", "fused"},
         "Fused into the weight-gradient GEMM (Megatron-LM)"},
        {{"/workload/gradient_accumulation", "deepspeed_bf16"},
         "DeepSpeed's BF16 optimizer (a bf16 copy added to fp32)"}};
    if (const auto own = byField.find({pointer, value}); own != byField.end())
        return QObject::tr(own->second);
    static const std::map<std::string, const char*> names = {
        {"roce_v2", "RoCE v2 (Ethernet)"},
        {"infiniband", "InfiniBand"},
        {"fat_tree", "Fat tree"},
        {"rail_optimized", "Rail-optimized"},
        {"rail_only", "Rail-only"},
        {"multi_plane", "Multi-plane"},
        {"ecmp", "ECMP hashing"},
        {"static_pinned", "Static, pinned paths"},
        {"adaptive", "Adaptive routing"},
        {"auto", "Automatic (the fastest)"},
        {"ring", "Ring"},
        {"tree", "Tree"},
        {"hierarchical", "Hierarchical"},
        {"in_network", "In-network (SHARP)"},
        {"dense", "Dense (nodes fill the rack)"},
        {"spread", "Spread (to the cooling capacity)"},
        {"fp8", "FP8"},
        {"fp32", "FP32"},
        {"bf16", "BF16"},
        {"fp16", "FP16"},
        {"tf32", "TF32"},
        {"fp64", "FP64"},
        {"1f1b", "1F1B"},
        {"interleaved", "Interleaved"},
        {"dualpipe", "DualPipe"},
        {"fused", "Fused (cuDNN, as Transformer Engine runs it)"},
        {"flash2", "FlashAttention-2 (PyTorch SDPA)"},
        {"flash3", "FlashAttention-3"},
        {"triton", "FlashAttention's Triton kernel"},
        {"deepep", "DeepEP"},
        {"hybridep", "HybridEP"},
        {"none", "None"},
        {"selective", "Selective (the recompute modules)"},
        {"full", "Full"},
        {"cold_aisle", "Cold-aisle containment"},
        {"hot_aisle", "Hot-aisle containment"},
        {"end_of_row", "End of row"},
        {"middle_of_row", "Middle of row"},
        {"central", "Central (in the MDA)"},
        {"center", "Centre of the hall"},
        {"front", "Along the front wall"},
        {"back", "Along the back wall"},
        {"side", "Beside the row blocks"},
        {"layout", "From the floor plan"},
        {"typical", "Typical lengths (network section)"}};
    const auto it = names.find(value);
    return it == names.end() ? qstr(value) : QObject::tr(it->second);
}

/** Returns the switch protocol ("ethernet", "infiniband") a fabric \a protocol needs. */
std::string switchProtocolOf(const std::string& protocol)
{
    return protocol == "roce_v2" ? "ethernet" : protocol;
}

/** Returns the catalog entry \a id of \a kind as JSON, or null. */
nlohmann::json catalogEntry(const std::string& kind, const std::string& id)
{
    nlohmann::json entry;
    if (const auto catalog = CatalogProvider::catalog())
        catalog->forEachShelf([&](const auto& shelf) {
            using Entry = typename std::decay_t<decltype(shelf)>::Entry;
            if (kind != Entry::kind)
                return;
            const auto it = shelf.json.find(id);
            if (it != shelf.json.end())
                entry = it->second;
        });
    return entry;
}

/** The pointers whose 0 means "automatic", and the figure holding the value chosen. */
struct AutomaticValue
{
    const char* pointer;
    const char* metric;
    bool perNode; ///< The figure counts the whole cluster: divide by the node count.
};

const std::vector<AutomaticValue>& automaticValues()
{
    static const std::vector<AutomaticValue> list = {
        {"/compute/gpus_per_node", "compute.gpus", true},
        {"/network/rails", "network.nics", true},
        {"/network/tiers", "network.tiers", false},
        {"/network/port_breakout", "network.port_breakout", false},
        {"/network/scalable_unit_nodes", "network.scalable_unit_nodes", false}};
    return list;
}

/** The word the editor of a number field shows for its 0 (model::ZeroMeaning). */
QString zeroText(const FieldInfo& field)
{
    switch (field.zeroMeans) {
    case model::ZeroMeaning::Predicted:
        return ScenarioForm::tr("predicted");
    case model::ZeroMeaning::Automatic:
        return ScenarioForm::tr("automatic");
    case model::ZeroMeaning::Unchecked:
        return ScenarioForm::tr("unchecked");
    case model::ZeroMeaning::None:
        break;
    }
    return ScenarioForm::tr("none");
}

} // namespace

ScenarioForm::ScenarioForm(QWidget* parent) : QWidget(parent), m_pages(new QToolBox(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_pages);
    // Without a scenario the form says what to do instead of showing greyed fields.
    m_empty = new QLabel(tr("No scenario is open. Open an example from the start page or the "
                            "library, a file (File > Open) or a new scenario (File > New) to "
                            "edit it here."),
                         this);
    m_empty->setWordWrap(true);
    m_empty->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_empty->setContentsMargins(12, 12, 12, 12);
    layout->addWidget(m_empty);
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
        // In a dock narrower than a label and its editor side by side, the editor goes below
        // its label instead of out of sight to the right.
        form->setRowWrapPolicy(QFormLayout::WrapLongRows);
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
    m_pages->setEnabled(false);
    m_pages->setVisible(false);
}

QWidget* ScenarioForm::makeEditor(const FieldInfo& field)
{
    const std::string pointer = field.pointer;
    switch (field.kind) {
    case FieldKind::Number: {
        auto* spin = new QDoubleSpinBox(this);
        // A share of one is edited in percent (85 %, not 0.8500); counts of operations or
        // dollars need no decimals; the rest two.
        const double scale = isShare(field) ? 100.0 : 1.0;
        const double maximum = field.maximum.value_or(kUnbounded) * scale;
        const int decimals = scale > 1.0                                     ? 2
                             : (field.unit == "IOPS" || field.unit == "USD") ? 0
                                                                             : 2;
        double minimum = field.minimum.value_or(-kUnbounded) * scale;
        if (field.exclusiveMinimum)
            minimum += std::pow(10.0, -decimals);
        spin->setDecimals(decimals);
        // A field whose 0 means "none" or "predicted" accepts the 0 and names it, rather than
        // clamping it to the minimum (an MFU of 0, "predict it", read as a 1 % override).
        spin->setRange(field.zeroAllowed ? 0.0 : minimum, maximum);
        if (field.zeroAllowed)
            spin->setSpecialValueText(zeroText(field));
        spin->setGroupSeparatorShown(true);
        if (scale > 1.0)
            spin->setSuffix(QStringLiteral(" %"));
        spin->setProperty(kScaleProperty, scale);
        spin->setStepType(QAbstractSpinBox::AdaptiveDecimalStepType);
        spin->setKeyboardTracking(false);
        spin->setAccelerated(true);
        const double lowest = field.zeroAllowed ? minimum : 0.0;
        connect(spin, &QDoubleSpinBox::valueChanged, this,
                [this, pointer, scale, lowest, spin](double v) {
                    // Between 0 and the minimum lies no accepted value: a typed 0.5 % MFU, or a
                    // step up from "predicted", asks for an override, and the smallest accepted one
                    // is taken (as the spin box clamps any other value out of range); only 0 itself
                    // means 0.
                    if (v > 0.0 && v < lowest) {
                        v = lowest;
                        const QSignalBlocker blocker(spin);
                        spin->setValue(v);
                    }
                    commit(pointer, v / scale);
                });
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
        for (const auto& c : field.choices) {
            combo->addItem(choiceName(pointer, c), qstr(c));
            combo->setItemData(combo->count() - 1, qstr(c), Qt::ToolTipRole);
        }
        connect(combo, &QComboBox::activated, this, [this, pointer, combo](int) {
            commit(pointer, combo->currentData().toString().toStdString());
        });
        return combo;
    }
    case FieldKind::CatalogRef: {
        auto* combo = new QComboBox(this);
        // Long entry names never widen the form: the combo shows what fits, the list all.
        combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        combo->setMinimumContentsLength(18);
        fillCatalogCombo(combo, field, {});
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
        if (field.choices.empty()) {
            line->setReadOnly(true);
            return line;
        }
        // A list of names (recompute_modules): typed comma-separated, stored as a JSON array;
        // the names it accepts in the placeholder, the evaluation's diagnostics name a wrong one.
        QStringList names;
        for (const auto& c : field.choices)
            names << qstr(c);
        line->setPlaceholderText(names.join(QStringLiteral(", ")));
        line->setProperty(kListProperty, true);
        connect(line, &QLineEdit::editingFinished, this, [this, pointer, line] {
            nlohmann::json items = nlohmann::json::array();
            for (const QString& item : line->text().split(QLatin1Char(','), Qt::SkipEmptyParts)) {
                const QString name = item.trimmed();
                if (!name.isEmpty())
                    items.push_back(name.toStdString());
            }
            commit(pointer, items);
        });
        return line;
    }
    }
}

void ScenarioForm::fillCatalogCombo(QComboBox* combo, const FieldInfo& field,
                                    const std::string& protocol)
{
    // Entries by name (the id in the tooltip); switches only of the fabric's protocol.
    const QSignalBlocker blocker(combo);
    combo->clear();
    if (!field.required)
        combo->addItem(tr("(default)"), QString());
    const std::string wanted = switchProtocolOf(protocol);
    for (const auto& id : CatalogProvider::ids(field.catalogKind)) {
        const nlohmann::json entry = catalogEntry(field.catalogKind, id);
        if (field.catalogKind == "switch" && !wanted.empty() && entry.is_object() &&
            entry.value("protocol", wanted) != wanted)
            continue;
        const std::string name =
            entry.is_object() ? entry.value("name", std::string()) : std::string();
        combo->addItem(name.empty() ? qstr(id) : qstr(name), qstr(id));
        combo->setItemData(combo->count() - 1, qstr(id), Qt::ToolTipRole);
    }
}

void ScenarioForm::setOutcome(const EvaluationOutcome& outcome)
{
    setDiagnostics(outcome.diagnostics);
    // A field left at 0 ("automatic") shows what the evaluation chose: "automatic (8)".
    for (const auto& automatic : automaticValues()) {
        auto it = m_slots.find(automatic.pointer);
        if (it == m_slots.end())
            continue;
        auto* spin = qobject_cast<QSpinBox*>(it->second.editor);
        if (!spin || spin->specialValueText().isEmpty())
            continue;
        QString text = spin->property(kAutomaticProperty).toString();
        if (text.isEmpty()) {
            text = spin->specialValueText();
            spin->setProperty(kAutomaticProperty, text);
        }
        const solvers::Metric* m = outcome.metric({automatic.metric});
        const solvers::Metric* nodes = outcome.metric({"compute.nodes", "power.nodes"});
        double chosen = m ? m->value : std::nan("");
        if (automatic.perNode) {
            const nlohmann::json count =
                m_document ? m_document->value("/compute/node_count") : nlohmann::json();
            const double n = count.is_number() ? count.get<double>() : nodes ? nodes->value : 0.0;
            chosen = n > 0.0 ? chosen / n : std::nan("");
        }
        spin->setSpecialValueText(std::isfinite(chosen)
                                      ? QStringLiteral("%1 (%2)").arg(text, formatNumber(chosen))
                                      : text);
    }
    // An MFU left at 0 shows the predicted one: "predicted (41.2 %)".
    auto mfu = m_slots.find("/workload/mfu");
    if (mfu != m_slots.end())
        if (auto* spin = qobject_cast<QDoubleSpinBox*>(mfu->second.editor);
            spin && !spin->specialValueText().isEmpty()) {
            QString text = spin->property(kAutomaticProperty).toString();
            if (text.isEmpty()) {
                text = spin->specialValueText();
                spin->setProperty(kAutomaticProperty, text);
            }
            const solvers::Metric* m = outcome.metric({"step.mfu"});
            spin->setSpecialValueText(
                m && std::isfinite(m->value) && m->value > 0.0
                    ? QStringLiteral("%1 (%2 %)")
                          .arg(text, QString::number(m->value * 100.0, 'f', 1))
                    : text);
            // The longer text widens the editor, or wraps its row below the label.
            spin->updateGeometry();
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
    m_pages->setEnabled(document != nullptr);
    m_pages->setVisible(document != nullptr);
    m_empty->setVisible(document == nullptr);
    if (!document)
        return;
    connect(document, &ScenarioDocument::valueChanged, this,
            [this](const QString& pointer) { refresh(pointer.toStdString()); });
    refreshAll();
    setOutcome(*document->outcome());
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
    // The switch list follows the protocol: only switches that speak it are offered.
    if (changed == "/network/protocol" || std::string("/network/switch").rfind(changed, 0) == 0) {
        auto it = m_slots.find("/network/switch");
        const FieldInfo* field = findFieldInfo("/network/switch");
        const nlohmann::json protocol = m_document->value("/network/protocol");
        if (it != m_slots.end() && field)
            if (auto* combo = qobject_cast<QComboBox*>(it->second.editor)) {
                fillCatalogCombo(combo, *field,
                                 protocol.is_string() ? protocol.get<std::string>() : "");
                if (changed == "/network/protocol")
                    refresh("/network/switch");
            }
    }
    // An edit of a section or a catalog override refreshes every field below it.
    for (auto& [pointer, slot] : m_slots) {
        if (pointer != changed && pointer.rfind(changed + "/", 0) != 0 &&
            changed.rfind(pointer + "/", 0) != 0)
            continue;
        const nlohmann::json value = m_document->value(pointer);
        QWidget* w = slot.editor;
        const QSignalBlocker blocker(w);
        if (auto* spin = qobject_cast<QDoubleSpinBox*>(w)) {
            const double scale = spin->property(kScaleProperty).toDouble();
            spin->setValue((value.is_number() ? value.get<double>() : 0.0) *
                           (scale > 0.0 ? scale : 1.0));
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
            if (line->property(kListProperty).toBool() && value.is_array()) {
                QStringList names;
                for (const auto& item : value)
                    names << (item.is_string() ? qstr(item.get<std::string>()) : qstr(item.dump()));
                line->setText(names.join(QStringLiteral(", ")));
            } else {
                line->setText(value.is_string() ? qstr(value.get<std::string>())
                              : value.is_null() ? QString()
                                                : qstr(value.dump()));
            }
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
    // Never at the cost of the label: a form wider than its dock scrolls back to its left edge.
    it->second.scroll->horizontalScrollBar()->setValue(0);
    it->second.editor->setFocus(Qt::OtherFocusReason);
    return true;
}

} // namespace dct::ui
