#include "dct/ui/metriccard.h"

#include <QLabel>
#include <QResizeEvent>
#include <QVBoxLayout>
#include <algorithm>

namespace dct::ui {

MetricCard::MetricCard(const QString& title, QWidget* parent)
    : QFrame(parent), m_title(new QLabel(title, this)), m_value(new QLabel(this)),
      m_detail(new QLabel(this))
{
    setObjectName(QStringLiteral("metricCard"));
    setFrameShape(QFrame::StyledPanel);
    setStyleSheet(QStringLiteral(
        "#metricCard { background: #ffffff; border: 1px solid #d0d7de; border-radius: 6px; }"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(10, 6, 10, 6);
    layout->setSpacing(1);
    m_title->setStyleSheet(QStringLiteral("color: #57606a; font-size: 9pt;"));
    setValueColor("#0b3d91");
    m_detail->setStyleSheet(QStringLiteral("color: #57606a; font-size: 8pt;"));
    m_value->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // The detail line never widens the card: it is elided to the card's width, whole in the
    // tooltip.
    m_detail->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_title->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    layout->addWidget(m_title);
    layout->addWidget(m_value);
    layout->addWidget(m_detail);
    setMinimumWidth(130);
    setUnavailable({});
}

void MetricCard::setValueColor(const char* color)
{
    m_value->setStyleSheet(
        QStringLiteral("color: %1; font-size: 15pt; font-weight: 600;").arg(QLatin1String(color)));
}

void MetricCard::setProblem(const QString& why)
{
    m_problem = true;
    setValueColor("#cf222e");
    setStyleSheet(QStringLiteral(
        "#metricCard { background: #ffebe9; border: 1px solid #cf222e; border-radius: 6px; }"));
    setToolTip(why + QStringLiteral("\n") + m_detailText);
}

void MetricCard::setValue(const QString& value, const QString& detail)
{
    if (m_problem) {
        m_problem = false;
        setValueColor("#0b3d91");
        setStyleSheet(QStringLiteral(
            "#metricCard { background: #ffffff; border: 1px solid #d0d7de; border-radius: 6px; }"));
    }
    m_value->setText(value);
    m_detailText = detail;
    elideDetail();
    setToolTip(detail);
}

void MetricCard::setUnavailable(const QString& reason)
{
    setValue({}, {});
    m_value->setText(QStringLiteral("n/a"));
    m_detailText = reason;
    elideDetail();
    setToolTip(reason);
}

void MetricCard::resizeEvent(QResizeEvent* event)
{
    QFrame::resizeEvent(event);
    elideDetail();
}

void MetricCard::elideDetail()
{
    m_detail->ensurePolished(); // the style sheet's font, before the card is first shown
    const QMargins margins = layout()->contentsMargins();
    const int width = contentsRect().width() - margins.left() - margins.right();
    m_detail->setText(
        m_detail->fontMetrics().elidedText(m_detailText, Qt::ElideRight, std::max(width, 20)));
}

QString MetricCard::detailShown() const
{
    return m_detail->text();
}

QString MetricCard::value() const
{
    return m_value->text();
}

} // namespace dct::ui
