// dctwin: the desktop program. The window and its logic live in dct::ui.
#include "dct/ui/mainwindow.h"
#include "dct/ui/screenshotwriter.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QTemporaryDir>
#include <cstdio>

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("DC Twin"));
    QApplication::setApplicationName(QStringLiteral("dctwin"));
    QApplication::setApplicationVersion(QStringLiteral("0.1.0"));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("DC Twin: digital twin and capacity planner for AI data centers"));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption screenshots(
        QStringLiteral("screenshots"),
        QStringLiteral("Write screenshots of the main views into <dir> and exit."),
        QStringLiteral("dir"));
    parser.addOption(screenshots);
    parser.addPositionalArgument(QStringLiteral("files"), QStringLiteral("Scenarios to open."),
                                 QStringLiteral("[files...]"));
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
