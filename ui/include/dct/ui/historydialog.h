#pragma once

#include "dct/ui/storescenariosource.h"

#include <QDialog>
#include <QList>

class QTableWidget;

namespace dct::ui {

/**
 * The saved versions of one library scenario, the newest first, to pick one to open: version
 * number, time saved (UTC) and comment.
 */
class HistoryDialog : public QDialog
{
    Q_OBJECT

public:
    /** Lists \a versions (oldest first, as the store gives them) of scenario \a name. */
    HistoryDialog(const QString& name, const QList<StoreScenarioSource::Version>& versions,
                  QWidget* parent = nullptr);
    ~HistoryDialog() override;

    /** Returns the version selected (the newest at first), or 0 when none is. */
    int selectedVersion() const;
    /** Selects version \a version; returns false when it is not listed. */
    bool selectVersion(int version);
    /** Returns the table of the versions, for tests. */
    QTableWidget* table() const { return m_table; }

private:
    QTableWidget* m_table;
};

} // namespace dct::ui
