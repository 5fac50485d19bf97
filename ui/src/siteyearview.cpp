#include "dct/ui/siteyearview.h"

#include "dct/report/siteyearsvg.h"

#include <QPainter>
#include <algorithm>
#include <cmath>

namespace dct::ui {

namespace {

/** Returns \a values (8,760 hours) as a 365 x 24 image coloured between their extremes. */
QImage heatMap(const Eigen::ArrayXd& values, double range[2])
{
    const int days = static_cast<int>(values.size() / 24);
    QImage image(days, 24, QImage::Format_RGB32);
    range[0] = values.size() > 0 ? values.minCoeff() : 0.0;
    range[1] = values.size() > 0 ? values.maxCoeff() : 0.0;
    const double span = range[1] - range[0];
    for (int d = 0; d < days; ++d)
        for (int h = 0; h < 24; ++h) {
            const double t = span > 1e-12 ? (values(d * 24 + h) - range[0]) / span : 0.5;
            const auto c = report::heatColor(t);
            image.setPixel(d, h, qRgb(c[0], c[1], c[2]));
        }
    return image;
}

QString number(double v)
{
    return QString::number(v, 'g', std::fabs(v) < 10.0 ? 3 : 4);
}

/** Paints one heat map with its title, month and hour ticks and its range into \a area. */
void paintMap(QPainter& p, const QRectF& area, const QImage& image, const QString& title,
              const double range[2], const QString& unit)
{
    const QFontMetricsF fm(p.font());
    p.drawText(QPointF(area.left(), area.top() + fm.ascent()), title);
    const QRectF plot(area.left() + fm.horizontalAdvance(QStringLiteral("00:00 ")),
                      area.top() + fm.height() + 4, 0, 0);
    QRectF target(plot.topLeft(), QPointF(area.right() - 4, area.bottom() - 2 * fm.height() - 4));
    p.drawImage(target, image); // nearest neighbour: each hour stays a sharp cell
    for (int h = 0; h <= 24; h += 6) {
        const double y = target.top() + target.height() * h / 24.0;
        p.drawText(
            QRectF(area.left(), y - fm.height() / 2, plot.left() - area.left() - 2, fm.height()),
            Qt::AlignRight | Qt::AlignVCenter, QStringLiteral("%1:00").arg(h));
    }
    static const char* months[] = {"J", "F", "M", "A", "M", "J", "J", "A", "S", "O", "N", "D"};
    static const int monthDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int day = 0;
    for (int m = 0; m < 12; ++m) {
        const double x0 = target.left() + target.width() * day / 365.0;
        const double x1 = target.left() + target.width() * (day + monthDays[m]) / 365.0;
        p.drawText(QRectF(x0, target.bottom() + 1, x1 - x0, fm.height()), Qt::AlignCenter,
                   QString::fromLatin1(months[m]));
        day += monthDays[m];
    }
    const QString legend = range[1] - range[0] > 1e-9
                               ? QStringLiteral("%1 (blue) to %2 (red) %3")
                                     .arg(number(range[0]), number(range[1]), unit)
                               : QStringLiteral("%1 %2 every hour").arg(number(range[0]), unit);
    p.drawText(QPointF(target.left(), area.bottom() - fm.descent()), legend);
}

} // namespace

SiteYearView::SiteYearView(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("siteYearView"));
    setMinimumHeight(180);
}

QSize SiteYearView::sizeHint() const
{
    return {900, 220};
}

void SiteYearView::setYear(std::shared_ptr<const solvers::HourlyYear> year,
                           const std::array<double, 12>& waterM3,
                           const std::array<double, 12>& carbonTonnes, bool liquid)
{
    m_year = year && year->hourly ? std::move(year) : nullptr;
    m_waterM3 = waterM3;
    m_carbonTonnes = carbonTonnes;
    m_liquid = liquid;
    if (m_year) {
        m_pueMap = heatMap(m_year->pue, m_pueRange);
        m_temperatureMap =
            heatMap(m_liquid ? m_year->coolantC : m_year->inletC, m_temperatureRange);
    } else {
        m_pueMap = QImage();
        m_temperatureMap = QImage();
    }
    update();
}

void SiteYearView::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    p.setPen(palette().text().color());
    if (!m_year) {
        p.drawText(rect(), Qt::AlignCenter,
                   tr("The site year needs a site with climate normals (an hourly year)."));
        return;
    }
    const double w = width();
    const double h = height();
    const double gap = 12.0;
    const double mapWidth = (w - 3 * gap) * 0.36;
    paintMap(p, QRectF(gap / 2, 4, mapWidth, h - 8), m_pueMap, tr("PUE by day and hour"),
             m_pueRange, QString());
    paintMap(p, QRectF(gap * 1.5 + mapWidth, 4, mapWidth, h - 8), m_temperatureMap,
             m_liquid ? tr("Coolant at the cold plates") : tr("Server inlet air"),
             m_temperatureRange, QStringLiteral("°C"));

    // Water and carbon by month: two rows of bars.
    const QRectF bars(gap * 2.5 + 2 * mapWidth, 4, w - gap * 3 - 2 * mapWidth, h - 8);
    const QFontMetricsF fm(p.font());
    auto row = [&](const std::array<double, 12>& values, double top, double height,
                   const QString& title, const QColor& color) {
        double total = 0.0;
        double peak = 1e-12;
        for (double v : values) {
            total += v;
            peak = std::max(peak, v);
        }
        p.setPen(palette().text().color());
        p.drawText(QPointF(bars.left(), top + fm.ascent()),
                   title.arg(QString::number(total, 'f', 0)));
        const double plotTop = top + fm.height() + 2;
        const double plotHeight = height - 2 * fm.height() - 4;
        const double slot = bars.width() / 12.0;
        static const char* months[] = {"J", "F", "M", "A", "M", "J", "J", "A", "S", "O", "N", "D"};
        for (int m = 0; m < 12; ++m) {
            const double bh = values[static_cast<std::size_t>(m)] / peak * plotHeight;
            p.fillRect(QRectF(bars.left() + m * slot + slot * 0.15, plotTop + plotHeight - bh,
                              slot * 0.7, bh),
                       color);
            p.drawText(QRectF(bars.left() + m * slot, plotTop + plotHeight, slot, fm.height()),
                       Qt::AlignCenter, QString::fromLatin1(months[m]));
        }
    };
    row(m_waterM3, bars.top(), bars.height() / 2, tr("Water by month (%1 m³ a year)"),
        QColor(59, 130, 196));
    row(m_carbonTonnes, bars.top() + bars.height() / 2, bars.height() / 2,
        tr("Carbon by month (%1 t CO2e a year)"), QColor(110, 110, 110));
}

} // namespace dct::ui
