#pragma once

#include <QString>
#include <QStringList>

namespace dct::ui {

class MainWindow;

/** Writes screenshots of the main views (dashboard, topology, compare) for the README. */
class ScreenshotWriter
{
public:
    /**
     * Opens bundled examples in \a window, waits for the evaluations and the event loop, and
     * saves dashboard.png, topology.png, compare.png and diagnostics.png into \a directory. Returns
     * the files written; \a error says what failed.
     */
    static QStringList write(MainWindow& window, const QString& directory, QString* error);

    /** Runs the event loop for \a milliseconds, so that layouts and charts settle. */
    static void settle(int milliseconds = 300);
};

} // namespace dct::ui
