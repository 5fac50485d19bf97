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
    /** Marks the figure as breaking a limit (red), with \a why as its tooltip. */
    void setProblem(const QString& why);
    /** Returns true when the figure is marked as breaking a limit. */
    bool hasProblem() const { return m_problem; }
    /** Returns the value shown. */
    QString value() const;

    /** Returns the detail line as shown: elided ("...") when the card is too narrow for it. */
    QString detailShown() const;

    /** Returns the whole detail line (also the card's tooltip). */
    QString detail() const { return m_detailText; }

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    /** Shows m_detailText, elided to the width of the card. */
    void elideDetail();
    void setValueColor(const char* color);

    bool m_problem = false;
    QLabel* m_title;
    QLabel* m_value;
    QLabel* m_detail;
    QString m_detailText;
};

} // namespace dct::ui
