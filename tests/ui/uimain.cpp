// Catch2 runner of the widget tests: makes the QApplication (offscreen unless told otherwise)
// before any test runs. catch_discover_tests runs this binary without the test ENVIRONMENT, so
// the platform must be chosen here, or no test would be registered.
#define CATCH_CONFIG_RUNNER
#include "uitestsupport.h"

#include <QApplication>
#include <QDir>
#include <QTemporaryDir>
#include <catch2/catch.hpp>
#include <cstdlib>

int main(int argc, char** argv)
{
    if (!std::getenv("QT_QPA_PLATFORM"))
        setenv("QT_QPA_PLATFORM", "offscreen", 1);
    if (!std::getenv("DCT_DATA_DIR"))
        setenv("DCT_DATA_DIR", DCT_TEST_DATA_DIR, 1);
    // Settings, data and caches of the tests go to a fresh temporary folder, removed at exit,
    // never the user's ~/.config (QSettings reads XDG_CONFIG_HOME). Not QStandardPaths' test
    // mode: it ignores XDG_CONFIG_HOME and writes ~/.qttest, under the user's home all the same.
    QTemporaryDir homeDir;
    if (!homeDir.isValid())
        return 1;
    for (const char* variable :
         {"XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"}) {
        const QString folder = homeDir.filePath(QString::fromLatin1(variable).toLower());
        QDir().mkpath(folder);
        setenv(variable, qPrintable(folder), 1);
    }
    dct::test::isolatedHome() = homeDir.path();
    // The scenario library of every window made here is a fresh store in a temporary folder,
    // never the user's (a test that needs another store sets DCT_STORE itself).
    QTemporaryDir storeDir;
    setenv("DCT_STORE", qPrintable(storeDir.filePath(QStringLiteral("scenarios.sqlite"))), 1);
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("DC Twin Tests"));
    QApplication::setApplicationName(QStringLiteral("dctwin-tests"));
    return Catch::Session().run(argc, argv);
}
