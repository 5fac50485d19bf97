#pragma once

#include "dct/solvers/hallresult.h"

#include <QRectF>
#include <QWidget>
#include <nlohmann/json.hpp>
#include <string>

class QCheckBox;
class QComboBox;
class QGraphicsScene;
class QGraphicsView;
class QLabel;
class QSpinBox;

namespace dct::ui {

/**
 * The floor plan of the hall: aisles, racks coloured by kW (on a scale up to their cooling limit)
 * or by kW against their row's busway, with a legend, network and MDA racks, the walled MDA
 * room, the cooling units (CDUs, CRAH/CRAC units, rear doors; hover for kind, capacity and what
 * they serve), and the cable runs of each link class through the overhead trays. A
 * rack's tooltip shows its contents. The controls above it edit the layout (rows, racks per row,
 * network placement) through editRequested(), which the main window turns into undoable edits;
 * the wheel zooms and dragging pans.
 */
class FloorPlanView : public QWidget
{
    Q_OBJECT

public:
    explicit FloorPlanView(QWidget* parent = nullptr);

    /** Draws \a hall; \a rows, \a racksPerRow and \a placement are the document's own values. */
    void setHall(const solvers::HallResult& hall, int rows = 0, int racksPerRow = 0,
                 const QString& placement = QStringLiteral("end_of_row"));
    const solvers::HallResult& hall() const { return m_hall; }
    /** Returns the graphics view (for tests and frame timing). */
    QGraphicsView* view() const { return m_view; }
    /** Returns the number of rack items drawn. */
    int rackItemCount() const { return m_rackItems; }
    /** Returns the tooltip of rack or unit \a name ("R01-03", "CDU02", "MDA room"), or "". */
    QString rackToolTip(const QString& name) const;
    /** Returns the scene rectangle of item \a name (a rack or unit, "label:R03" for a row's
     *  name), or an empty rectangle. */
    QRectF itemSceneRect(const QString& name) const;
    /** Returns the legend's text (rich text: colours, the kW scale, the runs drawn). */
    QString legendText() const;
    /** Returns the summary line above the plan (size, racks, rows, cables, cooling units). */
    QString summaryText() const;
    /** Returns the toggle of the cable-run overlay of \a linkClass. */
    QCheckBox* runToggle(solvers::HallLinkClass linkClass) const;
    /** Returns whether the runs of \a linkClass are drawn. */
    bool runsDrawn(solvers::HallLinkClass linkClass) const;
    /** Colours the racks against their row's busway (true) or by kW (false). */
    void setLimitColoring(bool limit);

signals:
    /** Asks for the scenario field at \a pointer to be set to \a value (an undoable edit). */
    void editRequested(const std::string& pointer, const nlohmann::json& value);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void rebuild();
    void updateLegend(bool limit, double maxKw);

    solvers::HallResult m_hall;
    QGraphicsView* m_view = nullptr;
    QGraphicsScene* m_scene = nullptr;
    QComboBox* m_coloring = nullptr;
    QCheckBox* m_runs[3] = {nullptr, nullptr, nullptr}; ///< By HallLinkClass.
    bool m_runsDrawn[3] = {false, false, false};
    QLabel* m_legend = nullptr;
    QSpinBox* m_rows = nullptr;
    QSpinBox* m_racksPerRow = nullptr;
    QComboBox* m_placement = nullptr;
    QComboBox* m_mdaPosition = nullptr;
    QLabel* m_summary = nullptr;
    int m_rackItems = 0;
    bool m_updating = false;
    bool m_fitWhole = true; ///< Fit the whole hall to the view until the planner zooms.
};

} // namespace dct::ui
