#pragma once

#include <QAbstractItemModel>
#include <QList>
#include <QPointer>
#include <memory>
#include <vector>

namespace dct::ui {

class ScenarioDocument;
class ScenarioLibrarySource;

/**
 * The scenario library as a tree: the open scenarios first, then one group per source (the
 * scenario store, or the examples folder when the store cannot be used).
 */
class ScenarioLibraryModel : public QAbstractItemModel
{
    Q_OBJECT

public:
    /** Role of the open document of an item (QObject*), null for source entries. */
    static constexpr int DocumentRole = Qt::UserRole + 1;
    /** Role of the source index of an item (int), -1 for open documents and groups. */
    static constexpr int SourceRole = Qt::UserRole + 2;
    /** Role of the entry id within its source (QString). */
    static constexpr int EntryIdRole = Qt::UserRole + 3;
    /** Role of the tags of a source entry (QStringList). */
    static constexpr int TagsRole = Qt::UserRole + 4;

    explicit ScenarioLibraryModel(QObject* parent = nullptr);
    ~ScenarioLibraryModel() override;

    /** Adds a source; its entries are listed as a group of their own. */
    void addSource(std::shared_ptr<ScenarioLibrarySource> source);
    /** Returns source \a index. */
    std::shared_ptr<ScenarioLibrarySource> source(int index) const;
    /** Shows \a documents as the open scenarios. */
    void setOpenDocuments(const QList<ScenarioDocument*>& documents);
    /** Removes every source. */
    void clearSources();
    /** Returns the index of the group of source \a sourceIndex (a top-level row). */
    QModelIndex sourceGroup(int sourceIndex) const;
    /** Re-reads every source. */
    void refresh();

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;

private:
    struct Group;
    std::vector<Group> m_groups; // 0: open documents, then one per source.
    QList<QPointer<ScenarioDocument>> m_documents;
    std::vector<std::shared_ptr<ScenarioLibrarySource>> m_sources;
};

} // namespace dct::ui
