#pragma once

#include <QFrame>

class QLabel;

namespace dct::ui {

/** One headline figure of the dashboard: a title, a large value and a line of detail. */
class MetricCard : public QFrame
{
    Q_OBJECT

public:
    explicit MetricCard(const QString& title, QWidget* parent = nullptr);

    /** Shows \a value (already formatted) with \a detail below it. */
    void setValue(const QString& value, const QString& detail = {});
    /** Shows "n/a" with the reason in the detail line. */
    void setUnavailable(const QString& reason);
    /** Returns the value shown. */
    QString value() const;

private:
    QLabel* m_title;
    QLabel* m_value;
    QLabel* m_detail;
};

} // namespace dct::ui
