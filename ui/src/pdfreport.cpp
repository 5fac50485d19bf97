#include "dct/ui/pdfreport.h"

#include <QImage>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSaveFile>
#include <QSvgRenderer>
#include <QTextDocument>
#include <QUrl>
#include <algorithm>

namespace dct::ui {

std::string writeReportPdf(const report::ReportRenderer& report, const std::string& path)
{
    QTextDocument document;
    // QTextDocument does not draw inline SVG: render each chart to an image resource.
    int chartNumber = 0;
    auto chart = [&](const std::string& svg, int widthPx) {
        QSvgRenderer renderer(QByteArray::fromStdString(svg));
        const QSize size = renderer.defaultSize();
        constexpr int scale = 3; // sharp when printed
        QImage image(size * scale, QImage::Format_ARGB32);
        image.fill(Qt::white);
        QPainter painter(&image);
        renderer.render(&painter);
        painter.end();
        const QString name = QStringLiteral("chart%1.png").arg(++chartNumber);
        document.addResource(QTextDocument::ImageResource, QUrl(name), image);
        return "<p><img src=\"" + name.toStdString() + "\" width=\"" + std::to_string(widthPx) +
               "\" height=\"" +
               std::to_string(size.height() * widthPx / std::max(1, size.width())) + "\"></p>\n";
    };
    const std::string content = report.pdfBody(chart);
    document.setDefaultStyleSheet(QString::fromUtf8(report::ReportRenderer::styleSheet()));
    QFont font(QStringLiteral("DejaVu Sans"));
    font.setPointSizeF(9.0);
    document.setDefaultFont(font);
    document.setHtml(QString::fromStdString("<html><body>" + content + "</body></html>"));

    // Atomic like the HTML: the PDF goes to a temporary file renamed over the target.
    QSaveFile file(QString::fromStdString(path));
    if (!file.open(QIODevice::WriteOnly))
        return path + ": cannot write the PDF report: " + file.errorString().toStdString();
    {
        QPdfWriter writer(&file);
        writer.setPageSize(QPageSize(QPageSize::A4));
        writer.setPageMargins(QMarginsF(15, 15, 15, 15), QPageLayout::Millimeter);
        writer.setTitle(QStringLiteral("DC Twin report"));
        writer.setCreator(QStringLiteral("DC Twin"));
        document.print(&writer);
    }
    if (file.error() != QFileDevice::NoError || !file.commit())
        return path + ": writing the PDF report failed: " + file.errorString().toStdString();
    return {};
}

} // namespace dct::ui
