#pragma once

#include <QList>
#include <QString>

namespace dct::ui {

class ScenarioDocument;

/**
 * Writes the report of \a documents (one: a scenario report; more: a comparison, the first the
 * baseline) to \a path through the same renderer as dctwin-report: PDF when \a path ends in
 * ".pdf", self-contained HTML for ".html" or ".htm". The file is replaced atomically. Returns ""
 * or a message naming what went wrong; never throws.
 */
QString exportReport(const QList<ScenarioDocument*>& documents, const QString& path);

} // namespace dct::ui
