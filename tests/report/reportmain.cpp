// Catch2 runner of the report tests: a QGuiApplication (offscreen unless told otherwise) exists
// before any test runs. catch_discover_tests runs this binary without the test ENVIRONMENT, so
// the platform is chosen here, or no test would be registered.
#define CATCH_CONFIG_RUNNER
#include <QGuiApplication>
#include <catch2/catch.hpp>
#include <cstdlib>

int main(int argc, char** argv)
{
    if (!std::getenv("QT_QPA_PLATFORM"))
        setenv("QT_QPA_PLATFORM", "offscreen", 1);
    QGuiApplication app(argc, argv);
    return Catch::Session().run(argc, argv);
}
