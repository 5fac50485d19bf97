#include "dct/ui/comparemodel.h"

#include "dct/model/textformat.h"
#include "dct/ui/format.h"

#include <QBrush>
#include <QColor>
#include <QFont>
#include <cmath>
#include <map>

namespace dct::ui {

namespace {

/** Returns the unit column's text by the one rule: "%" for a share, "USD" for money. */
QString unitText(const std::string& unit)
{
    return qstr(dct::columnUnit(unit));
}

/** Returns a value cell by the one rule: the scale the unit column does not say stays ("11.36
 *  M" under "USD"). */
QString cellText(double value, const std::string& unit)
{
    return qstr(dct::formatCell(value, unit));
}

/** Returns \a text broken into lines of about \a width characters at spaces. */
QString wrapped(const QString& text, int width)
{
    QString out;
    int line = 0;
    for (const QString& word : text.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        if (line > 0 && line + 1 + word.size() > width) {
            out += QLatin1Char('\n');
            line = 0;
        } else if (line > 0) {
            out += QLatin1Char(' ');
            ++line;
        }
        out += word;
        line += static_cast<int>(word.size());
    }
    return out;
}

} // namespace

CompareModel::CompareModel(QObject* parent) : QAbstractTableModel(parent) {}

int CompareModel::valueColumn(int index)
{
    // Columns: figure, unit, then value of scenario 0, then (value, change) per later scenario.
    return index == 0 ? 2 : 2 * index + 1;
}

int CompareModel::deltaColumn(int index)
{
    return 2 * index + 2;
}

int CompareModel::direction(solvers::Better better)
{
    // The direction each metric declares where the solver adds it (solvers/metric.h).
    switch (better) {
    case solvers::Better::Lower:
        return -1;
    case solvers::Better::Higher:
        return +1;
    case solvers::Better::Neither:
        break;
    }
    return 0;
}

void CompareModel::setScenarios(
    const QStringList& titles,
    const std::vector<std::shared_ptr<const EvaluationOutcome>>& outcomes)
{
    beginResetModel();
    m_titles = titles;
    m_rows.clear();
    m_allRows.clear();
    m_verdicts.clear();
    for (const auto& outcome : outcomes)
        m_verdicts.push_back(outcome ? solvers::assessVerdict(outcome->diagnostics)
                                     : solvers::Verdict{solvers::Feasibility::Infeasible, {}});
    std::map<std::string, std::size_t> rowOfKey;
    const std::size_t n = outcomes.size();
    for (std::size_t s = 0; s < n; ++s) {
        if (!outcomes[s])
            continue;
        for (const auto& m : outcomes[s]->metrics()) {
            auto it = rowOfKey.find(m.key);
            if (it == rowOfKey.end()) {
                it = rowOfKey.emplace(m.key, m_rows.size()).first;
                m_rows.push_back({m.key, m.label, m.unit, std::vector<std::optional<double>>(n), -1,
                                  direction(m.traits.better)});
            }
            m_rows[it->second].values[s] = m.value;
        }
    }
    for (auto& row : m_rows) {
        const int dir = row.direction;
        if (dir == 0 || n < 2)
            continue;
        std::optional<double> best;
        bool tie = false;
        for (std::size_t s = 0; s < n; ++s) {
            if (!row.values[s])
                continue;
            const double v = *row.values[s];
            // Values that read the same tie: the better one by rounding noise is no winner.
            if (best && !differsAtDisplay(v, *best, row.unit)) {
                tie = true;
            } else if (!best || (dir < 0 ? v < *best : v > *best)) {
                best = v;
                row.best = static_cast<int>(s);
                tie = false;
            }
        }
        if (tie)
            row.best = -1; // No single winner to mark.
    }
    m_allRows = std::move(m_rows);
    filterRows();
    endResetModel();
}

bool CompareModel::differs(const Row& row)
{
    for (const auto& v : row.values)
        if (v.has_value() != row.values.front().has_value() ||
            (v && differsAtDisplay(*v, *row.values.front(), row.unit)))
            return true;
    return false;
}

void CompareModel::filterRows()
{
    m_rows.clear();
    for (const Row& row : m_allRows)
        if (!m_differencesOnly || differs(row))
            m_rows.push_back(row);
}

void CompareModel::setDifferencesOnly(bool on)
{
    if (on == m_differencesOnly)
        return;
    beginResetModel();
    m_differencesOnly = on;
    filterRows();
    endResetModel();
}

QString CompareModel::letterOf(int index)
{
    return index < 26 ? QString(QChar('A' + index)) : QString::number(index + 1);
}

int CompareModel::rowOf(const std::string& key) const
{
    for (std::size_t i = 0; i < m_rows.size(); ++i)
        if (m_rows[i].key == key)
            return static_cast<int>(i);
    return -1;
}

int CompareModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int CompareModel::columnCount(const QModelIndex& parent) const
{
    if (parent.isValid() || m_titles.isEmpty())
        return parent.isValid() ? 0 : 2;
    return 2 + 1 + 2 * (static_cast<int>(m_titles.size()) - 1);
}

std::optional<double> CompareModel::deltaOf(const Row& row, int scenario) const
{
    const auto& base = row.values[0];
    const auto& value = row.values[static_cast<std::size_t>(scenario)];
    if (!base || !value)
        return std::nullopt;
    // A change below the display precision is none: shown as "=", not coloured.
    if (!differsAtDisplay(*value, *base, row.unit))
        return 0.0;
    return *value - *base;
}

QVariant CompareModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row& row = m_rows[static_cast<std::size_t>(index.row())];
    const int column = index.column();
    if (column < 2) {
        if (role == Qt::DisplayRole)
            return column == 0 ? qstr(row.label) : unitText(row.unit);
        if (role == Qt::ToolTipRole)
            return qstr(row.key);
        return {};
    }
    const bool isDelta = column > 2 && column % 2 == 0;
    const int scenario = isDelta ? (column - 2) / 2 : (column == 2 ? 0 : (column - 1) / 2);
    if (isDelta) {
        const auto delta = deltaOf(row, scenario);
        if (role == ValueRole)
            return delta ? QVariant(*delta) : QVariant();
        if (role == Qt::DisplayRole) {
            if (!delta)
                return QStringLiteral("n/a");
            if (*delta == 0.0)
                return QStringLiteral("=");
            const double base = *row.values[0];
            const QString sign = *delta > 0 ? QStringLiteral("+") : QString();
            if (row.unit == "yes/no")
                return tr("changed");
            if (row.unit == "share") // A change of a percentage, in percentage points.
                return sign + formatNumber(100.0 * *delta) + tr(" pp");
            QString text = sign + cellText(*delta, row.unit);
            if (base != 0.0)
                text += QStringLiteral(" (%1%2%)")
                            .arg(*delta > 0 ? QStringLiteral("+") : QString(),
                                 formatNumber(100.0 * *delta / std::fabs(base)));
            return text;
        }
        if (role == Qt::ForegroundRole && delta && *delta != 0.0) {
            const int dir = row.direction;
            if (dir == 0)
                return {};
            const bool better = (dir < 0) == (*delta < 0);
            return QBrush(better ? QColor(0x1b, 0x5e, 0x20) : QColor(0xb7, 0x1c, 0x1c));
        }
        if (role == Qt::TextAlignmentRole)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    }
    const auto& value = row.values[static_cast<std::size_t>(scenario)];
    const bool best = row.best == scenario;
    switch (role) {
    case Qt::DisplayRole:
        if (!value)
            return QStringLiteral("n/a");
        return best ? QStringLiteral("\u2714 ") + cellText(*value, row.unit)
                    : cellText(*value, row.unit);
    case ValueRole:
        return value ? QVariant(*value) : QVariant();
    case BestRole:
        return best;
    case Qt::BackgroundRole:
        return best ? QVariant(QBrush(QColor(0xc8, 0xe6, 0xc9))) : QVariant();
    case Qt::FontRole:
        if (best) {
            QFont font;
            font.setBold(true);
            return font;
        }
        return {};
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    default:
        return {};
    }
}

QVariant CompareModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal ||
        (role != Qt::DisplayRole && role != Qt::ToolTipRole && role != Qt::ForegroundRole))
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::ForegroundRole) {
        // A scenario column's header says its verdict; an infeasible one in red.
        if (section < 2 || (section > 2 && section % 2 == 0))
            return {};
        const auto index = static_cast<std::size_t>(section == 2 ? 0 : (section - 1) / 2);
        if (index < m_verdicts.size() &&
            m_verdicts[index].feasibility == solvers::Feasibility::Infeasible)
            return QBrush(QColor(0xcf, 0x22, 0x2e));
        return {};
    }
    if (section == 0)
        return tr("Figure");
    if (section == 1)
        return tr("Unit");
    const bool isDelta = section > 2 && section % 2 == 0;
    const int scenario = isDelta ? (section - 2) / 2 : (section == 2 ? 0 : (section - 1) / 2);
    const QString letter = letterOf(scenario);
    if (isDelta)
        return tr("\u0394 %1 vs A").arg(letter);
    const auto index = static_cast<std::size_t>(scenario);
    const QString verdict = index < m_verdicts.size()
                                ? tr(solvers::feasibilityLabel(m_verdicts[index].feasibility))
                                : QString();
    if (role == Qt::ToolTipRole) {
        QString tip = m_titles.value(scenario) + QStringLiteral("\n") + verdict;
        if (index < m_verdicts.size())
            for (const auto& reason : m_verdicts[index].reasons)
                tip += QStringLiteral("\n\u2022 ") + qstr(reason.message);
        return tip;
    }
    // The title wraps over lines rather than being cut: what-if copies differ at its end.
    QString title = m_titles.value(scenario);
    if (title.size() > 100)
        title = title.left(98) + QStringLiteral("\u2026");
    return QStringLiteral("%1: %2\n%3").arg(letter, wrapped(title, 26), verdict);
}

} // namespace dct::ui
