#pragma once

#include "dct/ui/scenariodocument.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QString>
#include <QTemporaryDir>
#include <QtGlobal>

namespace dct::test {

/**
 * Returns the temporary folder the test runner points XDG_CONFIG_HOME, XDG_DATA_HOME,
 * XDG_CACHE_HOME and XDG_STATE_HOME into before the application exists (set by uimain.cpp).
 */
inline QString& isolatedHome()
{
    static QString path;
    return path;
}

/** Returns the path of bundled example \a name. */
inline QString examplePath(const char* name)
{
    return QStringLiteral(DCT_TEST_DATA_DIR "/examples/") + QString::fromLatin1(name);
}

/** Runs the event loop until \a document has no evaluation running; false after \a ms. */
inline bool waitForEvaluation(const ui::ScenarioDocument& document, int ms = 20000)
{
    QElapsedTimer timer;
    timer.start();
    while (document.isEvaluating() && timer.elapsed() < ms)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    QCoreApplication::processEvents();
    return !document.isEvaluating();
}

/** Points DCT_STORE at a store file in a fresh temporary folder while it lives. */
class ScopedStore
{
public:
    ScopedStore() : m_previous(qgetenv("DCT_STORE")) { qputenv("DCT_STORE", path().toLocal8Bit()); }
    ~ScopedStore() { qputenv("DCT_STORE", m_previous); }
    ScopedStore(const ScopedStore&) = delete;
    ScopedStore& operator=(const ScopedStore&) = delete;

    /** Returns the store file (not created until a window opens it). */
    QString path() const { return m_dir.filePath(QStringLiteral("scenarios.sqlite")); }

private:
    QTemporaryDir m_dir;
    QByteArray m_previous;
};

} // namespace dct::test
