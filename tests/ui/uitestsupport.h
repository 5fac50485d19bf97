#pragma once

#include "dct/ui/scenariodocument.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QString>

namespace dct::test {

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

} // namespace dct::test
