// dctwin: the desktop program. The window and its logic live in dct::ui.
#include "dct/ui/mainwindow.h"
#include "dct/ui/screenshotwriter.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QStringList>
#include <QTemporaryDir>
#include <cstdio>

namespace {

/** The command line of dctwin, the same before and after the QApplication is made. */
void describe(QCommandLineParser& parser, const QCommandLineOption& screenshots)
{
    parser.setApplicationDescription(
        QStringLiteral("DC Twin: digital twin and capacity planner for AI data centers"));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addOption(screenshots);
    parser.addPositionalArgument(QStringLiteral("files"), QStringLiteral("Scenarios to open."),
                                 QStringLiteral("[files...]"));
}

} // namespace

int main(int argc, char** argv)
{
    const QCommandLineOption screenshots(
        QStringLiteral("screenshots"),
        QStringLiteral("Write screenshots of the main views into <dir> and exit."),
        QStringLiteral("dir"));
    // --help and --version answer before the QApplication is made, so that they work without a
    // display. A command line this parser refuses (Qt's own options such as -platform, or a
    // mistake) is left to the QApplication's parser below.
    {
        QCommandLineParser early;
        describe(early, screenshots);
        QStringList arguments;
        for (int i = 0; i < argc; ++i)
            arguments << QString::fromLocal8Bit(argv[i]);
        if (early.parse(arguments)) {
            if (early.isSet(QStringLiteral("version"))) {
                std::printf("dctwin %s\n", DCT_VERSION);
                return 0;
            }
            if (early.isSet(QStringLiteral("help")) || early.isSet(QStringLiteral("help-all"))) {
                QString help = early.helpText();
                help.replace(QStringLiteral("<executable_name>"), QStringLiteral("dctwin"));
                std::printf("%s", qPrintable(help));
                return 0;
            }
        }
    }

    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("DC Twin"));
    QApplication::setApplicationName(QStringLiteral("dctwin"));
    QApplication::setApplicationVersion(QStringLiteral(DCT_VERSION));

    QCommandLineParser parser;
    describe(parser, screenshots);
    parser.process(app);

    // Screenshots show a fresh library seeded with the bundled examples, never the user's own.
    QTemporaryDir screenshotStore;
    if (parser.isSet(screenshots))
        qputenv("DCT_STORE",
                screenshotStore.filePath(QStringLiteral("scenarios.sqlite")).toLocal8Bit());
    dct::ui::MainWindow window;
    if (parser.isSet(screenshots)) {
        QString error;
        const QStringList files =
            dct::ui::ScreenshotWriter::write(window, parser.value(screenshots), &error);
        for (const QString& f : files)
            std::printf("%s\n", qPrintable(f));
        if (!error.isEmpty())
            std::fprintf(stderr, "dctwin: %s\n", qPrintable(error));
        return files.size() >= 3 && error.isEmpty() ? 0 : 1;
    }
    for (const QString& file : parser.positionalArguments())
        window.openFile(file);
    window.show();
    return app.exec();
}
