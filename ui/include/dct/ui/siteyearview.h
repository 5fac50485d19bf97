#pragma once

#include "dct/solvers/hourlyyear.h"

#include <QImage>
#include <QWidget>
#include <array>
#include <memory>

namespace dct::ui {

/**
 * The site year as pictures: heat maps (day of the year across, hour of the day down) of the PUE
 * and of the temperature at the GPUs (coolant at the cold plates, else the server inlet air),
 * and the water and carbon of each month as bars. Painted from QImages, one pixel per hour.
 */
class SiteYearView : public QWidget
{
    Q_OBJECT

public:
    explicit SiteYearView(QWidget* parent = nullptr);

    /** Shows \a year (nullptr or a year without hours clears the pictures). */
    void setYear(std::shared_ptr<const solvers::HourlyYear> year,
                 const std::array<double, 12>& waterM3, const std::array<double, 12>& carbonTonnes,
                 bool liquid);
    /** Returns true when an hourly year is shown. */
    bool hasYear() const { return m_year != nullptr; }
    /** Returns the PUE heat map (365 x 24 pixels), null when there is no year. */
    const QImage& pueMap() const { return m_pueMap; }
    /** Returns the temperature heat map (365 x 24 pixels), null when there is no year. */
    const QImage& temperatureMap() const { return m_temperatureMap; }
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    std::shared_ptr<const solvers::HourlyYear> m_year;
    std::array<double, 12> m_waterM3{};
    std::array<double, 12> m_carbonTonnes{};
    bool m_liquid = false;
    QImage m_pueMap;
    QImage m_temperatureMap;
    double m_pueRange[2] = {0.0, 0.0};
    double m_temperatureRange[2] = {0.0, 0.0};
};

} // namespace dct::ui
