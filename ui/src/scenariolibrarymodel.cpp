#include "dct/ui/scenariolibrarymodel.h"

#include "dct/ui/scenariodocument.h"
#include "dct/ui/scenariolibrarysource.h"

#include <QFont>

namespace dct::ui {

struct ScenarioLibraryModel::Group
{
    QString title;
    QList<ScenarioLibrarySource::Entry> entries; // Empty for the open documents group.
};

ScenarioLibraryModel::ScenarioLibraryModel(QObject* parent) : QAbstractItemModel(parent)
{
    m_groups.push_back({tr("Open scenarios"), {}});
}

ScenarioLibraryModel::~ScenarioLibraryModel() = default;

void ScenarioLibraryModel::addSource(std::shared_ptr<ScenarioLibrarySource> source)
{
    beginResetModel();
    m_groups.push_back({source->name(), source->entries()});
    m_sources.push_back(std::move(source));
    endResetModel();
}

std::shared_ptr<ScenarioLibrarySource> ScenarioLibraryModel::source(int index) const
{
    if (index < 0 || index >= static_cast<int>(m_sources.size()))
        return nullptr;
    return m_sources[static_cast<std::size_t>(index)];
}

void ScenarioLibraryModel::clearSources()
{
    beginResetModel();
    m_groups.resize(1);
    m_sources.clear();
    endResetModel();
}

QModelIndex ScenarioLibraryModel::sourceGroup(int sourceIndex) const
{
    return index(sourceIndex + 1, 0);
}

void ScenarioLibraryModel::setOpenDocuments(const QList<ScenarioDocument*>& documents)
{
    beginResetModel();
    for (const auto& d : std::as_const(m_documents))
        if (d)
            disconnect(d, nullptr, this, nullptr);
    m_documents.clear();
    for (auto* d : documents) {
        m_documents.push_back(d);
        connect(d, &ScenarioDocument::titleChanged, this, [this, d] {
            const int row = static_cast<int>(m_documents.indexOf(d));
            if (row >= 0) {
                const QModelIndex i = index(row, 0, index(0, 0));
                emit dataChanged(i, i);
            }
        });
    }
    endResetModel();
}

void ScenarioLibraryModel::refresh()
{
    beginResetModel();
    for (std::size_t i = 0; i < m_sources.size(); ++i)
        m_groups[i + 1].entries = m_sources[i]->entries();
    endResetModel();
}

QModelIndex ScenarioLibraryModel::index(int row, int column, const QModelIndex& parent) const
{
    if (!hasIndex(row, column, parent))
        return {};
    if (!parent.isValid())
        return createIndex(row, column, quintptr(0));
    // A child's internal id is its group's row plus one, so that 0 marks a group.
    return createIndex(row, column, quintptr(parent.row() + 1));
}

QModelIndex ScenarioLibraryModel::parent(const QModelIndex& child) const
{
    if (!child.isValid() || child.internalId() == 0)
        return {};
    return createIndex(static_cast<int>(child.internalId() - 1), 0, quintptr(0));
}

int ScenarioLibraryModel::rowCount(const QModelIndex& parent) const
{
    if (!parent.isValid())
        return static_cast<int>(m_groups.size());
    if (parent.internalId() != 0 || parent.column() != 0)
        return 0;
    if (parent.row() == 0)
        return static_cast<int>(m_documents.size());
    return static_cast<int>(m_groups[static_cast<std::size_t>(parent.row())].entries.size());
}

int ScenarioLibraryModel::columnCount(const QModelIndex& parent) const
{
    (void)parent;
    return 1;
}

QVariant ScenarioLibraryModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    if (index.internalId() == 0) {
        const auto& group = m_groups[static_cast<std::size_t>(index.row())];
        if (role == Qt::DisplayRole)
            return group.title;
        if (role == Qt::FontRole) {
            QFont font;
            font.setBold(true);
            return font;
        }
        if (role == SourceRole)
            return -1;
        return {};
    }
    const int group = static_cast<int>(index.internalId() - 1);
    if (group == 0) {
        ScenarioDocument* d = m_documents.value(index.row());
        if (!d)
            return {};
        switch (role) {
        case Qt::DisplayRole:
            return d->isModified() ? d->title() + QStringLiteral(" *") : d->title();
        case Qt::ToolTipRole:
            return d->filePath().isEmpty() ? tr("Not saved yet") : d->filePath();
        case DocumentRole:
            return QVariant::fromValue<QObject*>(d);
        case SourceRole:
            return -1;
        default:
            return {};
        }
    }
    const auto& entry = m_groups[static_cast<std::size_t>(group)].entries[index.row()];
    switch (role) {
    case Qt::DisplayRole:
        return entry.tags.isEmpty() ? entry.title
                                    : QStringLiteral("%1  [%2]")
                                          .arg(entry.title, entry.tags.join(QStringLiteral(", ")));
    case Qt::ToolTipRole:
        return entry.detail;
    case TagsRole:
        return entry.tags;
    case SourceRole:
        return group - 1;
    case EntryIdRole:
        return entry.id;
    case DocumentRole:
        return QVariant::fromValue<QObject*>(nullptr);
    default:
        return {};
    }
}

} // namespace dct::ui
