#include "dct/ui/metriccard.h"

#include <QLabel>
#include <QVBoxLayout>

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
    setToolTip(why);
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
    m_detail->setText(detail);
    setToolTip(detail);
}

void MetricCard::setUnavailable(const QString& reason)
{
    setValue({}, {});
    m_value->setText(QStringLiteral("n/a"));
    m_detail->setText(reason);
    setToolTip(reason);
}

QString MetricCard::value() const
{
    return m_value->text();
}

} // namespace dct::ui
