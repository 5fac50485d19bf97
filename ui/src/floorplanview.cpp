#include "dct/ui/floorplanview.h"

#include <QCheckBox>
#include <QComboBox>
#include <QGraphicsPathItem>
#include <QGraphicsRectItem>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsView>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainterPath>
#include <QPen>
#include <QSpinBox>
#include <QVBoxLayout>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

namespace dct::ui {

namespace {

using solvers::HallLinkClass;
using solvers::HallRack;
using solvers::HallRackKind;
using solvers::HallUnit;
using solvers::HallUnitKind;

// The cooling units and the MDA room, as the report's plan colours them.
const QColor cduColor(0x05, 0x70, 0xb0);
const QColor crahColor(0x1a, 0x98, 0x50);
const QColor rdhxColor(0x74, 0xa9, 0xcf);
const QColor roomFill(0xef, 0xed, 0xf5);
const QColor roomWall(0x54, 0x27, 0x8f);

QString unitTip(const HallUnit& u)
{
    QString tip =
        QObject::tr("%1: %2, %3 kW\nserves %4")
            .arg(QString::fromStdString(u.name),
                 u.kind == HallUnitKind::Cdu ? QObject::tr("coolant distribution unit (CDU)")
                                             : QObject::tr("room air unit (CRAH/CRAC)"))
            .arg(u.capacityKw, 0, 'f', 0)
            .arg(QString::fromStdString(u.serves));
    if (u.loadKw > 0.0)
        tip += QObject::tr("\ncarries %1 kW (%2% of its capacity)")
                   .arg(u.loadKw, 0, 'f', 0)
                   .arg(u.capacityKw > 0.0 ? 100.0 * u.loadKw / u.capacityKw : 0.0, 0, 'f', 0);
    return tip;
}

// Scene units per metre: a 0.6 m rack is 12 units wide at zoom 1.
constexpr double kScale = 20.0;

/** Pale yellow to dark red (ColorBrewer YlOrRd), as the report's SVG plan. */
QColor heatColor(double t)
{
    t = std::clamp(t, 0.0, 1.0);
    const double stops[3][3] = {{255, 255, 178}, {253, 141, 60}, {189, 0, 38}};
    const double u = t < 0.5 ? t * 2.0 : (t - 0.5) * 2.0;
    const double* a = stops[t < 0.5 ? 0 : 1];
    const double* b = stops[t < 0.5 ? 1 : 2];
    return QColor(static_cast<int>(std::lround(a[0] + (b[0] - a[0]) * u)),
                  static_cast<int>(std::lround(a[1] + (b[1] - a[1]) * u)),
                  static_cast<int>(std::lround(a[2] + (b[2] - a[2]) * u)));
}

QColor limitColor(double share)
{
    if (share > 1.0 + 1e-9)
        return QColor(0xd7, 0x30, 0x1f);
    if (share > 0.8)
        return QColor(0xfd, 0xae, 0x61);
    return QColor(0x66, 0xbd, 0x63);
}

QColor classColor(HallLinkClass c)
{
    switch (c) {
    case HallLinkClass::NodeLeaf:
        return QColor(0x1b, 0x9e, 0x77, 90);
    case HallLinkClass::LeafSpine:
        return QColor(0xd9, 0x5f, 0x02, 90);
    case HallLinkClass::SpineCore:
        return QColor(0x75, 0x70, 0xb3, 90);
    }
    return QColor(0x1b, 0x9e, 0x77, 90);
}

QString rackTip(const HallRack& r)
{
    QString tip = QString::fromStdString(r.name);
    if (r.nodes > 0)
        tip += QObject::tr("\n%1 nodes (%2 to %3)")
                   .arg(r.nodes)
                   .arg(r.firstNode)
                   .arg(r.firstNode + r.nodes - 1);
    if (r.leaves + r.spines + r.cores > 0)
        tip += QObject::tr("\n%1 leaf, %2 spine, %3 core switches")
                   .arg(r.leaves)
                   .arg(r.spines)
                   .arg(r.cores);
    if (r.managerPorts > 0)
        tip += QObject::tr("\nfabric manager, %1 ports").arg(r.managerPorts);
    tip += QObject::tr("\n%1 kW nameplate (feeds %2 kW)\n%3 kW heat (cooling %4 kW)")
               .arg(r.nameplateKw, 0, 'f', 1)
               .arg(r.powerLimitKw, 0, 'f', 0)
               .arg(r.designKw, 0, 'f', 1)
               .arg(r.coolingLimitKw, 0, 'f', 0);
    return tip;
}

} // namespace

FloorPlanView::FloorPlanView(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("floorPlanView"));
    m_coloring = new QComboBox(this);
    m_coloring->addItem(tr("Colour by kW against the rack's cooling"));
    m_coloring->addItem(tr("Colour by kW against the row's busway"));
    // One overlay per tier; the node-leaf runs (thousands, inside the rows) start hidden.
    const char* runLabels[3] = {QT_TR_NOOP("Node-leaf runs"), QT_TR_NOOP("Leaf-spine runs"),
                                QT_TR_NOOP("Spine-core runs")};
    for (int c = 0; c < 3; ++c) {
        m_runs[c] = new QCheckBox(tr(runLabels[c]), this);
        m_runs[c]->setChecked(c != 0);
    }
    m_legend = new QLabel(this);
    m_legend->setObjectName(QStringLiteral("floorPlanLegend"));
    m_legend->setTextFormat(Qt::RichText);
    m_rows = new QSpinBox(this);
    m_rows->setRange(0, 10000);
    m_rows->setSpecialValueText(tr("auto"));
    m_rows->setToolTip(tr("Compute rows (/hall/rows); auto takes as many as the racks need"));
    m_racksPerRow = new QSpinBox(this);
    m_racksPerRow->setRange(0, 1000);
    m_racksPerRow->setSpecialValueText(tr("auto"));
    m_racksPerRow->setToolTip(tr("Racks per row (/hall/racks_per_row)"));
    m_placement = new QComboBox(this);
    m_placement->addItem(tr("End of row"), QStringLiteral("end_of_row"));
    m_placement->addItem(tr("Middle of row"), QStringLiteral("middle_of_row"));
    m_placement->addItem(tr("Central"), QStringLiteral("central"));
    m_placement->setToolTip(tr("Where the leaf switches stand (/hall/network_placement)"));
    m_mdaPosition = new QComboBox(this);
    m_mdaPosition->setObjectName(QStringLiteral("mdaPosition"));
    m_mdaPosition->addItem(tr("Center"), QStringLiteral("center"));
    m_mdaPosition->addItem(tr("Front wall"), QStringLiteral("front"));
    m_mdaPosition->addItem(tr("Back wall"), QStringLiteral("back"));
    m_mdaPosition->addItem(tr("Side"), QStringLiteral("side"));
    m_mdaPosition->setToolTip(tr("Where the MDA room stands (/hall/mda_position)"));
    m_summary = new QLabel(this);

    auto* controls = new QHBoxLayout;
    controls->addWidget(m_coloring);
    for (QCheckBox* box : m_runs)
        controls->addWidget(box);
    controls->addSpacing(16);
    controls->addWidget(new QLabel(tr("Rows"), this));
    controls->addWidget(m_rows);
    controls->addWidget(new QLabel(tr("Racks per row"), this));
    controls->addWidget(m_racksPerRow);
    controls->addWidget(new QLabel(tr("Network racks"), this));
    controls->addWidget(m_placement);
    controls->addWidget(new QLabel(tr("MDA room"), this));
    controls->addWidget(m_mdaPosition);
    controls->addStretch(1);

    m_scene = new QGraphicsScene(this);
    m_view = new QGraphicsView(m_scene, this);
    m_view->setDragMode(QGraphicsView::ScrollHandDrag);
    m_view->setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
    // Hundreds of plain rectangles: no antialiasing, and the scene indexes them for hover.
    m_view->setViewportUpdateMode(QGraphicsView::SmartViewportUpdate);
    m_view->setOptimizationFlag(QGraphicsView::DontSavePainterState);
    m_view->viewport()->installEventFilter(this);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addWidget(m_summary);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_legend);

    connect(m_coloring, &QComboBox::currentIndexChanged, this, [this] { rebuild(); });
    for (QCheckBox* box : m_runs)
        connect(box, &QCheckBox::toggled, this, [this] { rebuild(); });
    connect(m_rows, &QSpinBox::editingFinished, this, [this] {
        if (!m_updating)
            emit editRequested("/hall/rows", m_rows->value());
    });
    connect(m_racksPerRow, &QSpinBox::editingFinished, this, [this] {
        if (!m_updating)
            emit editRequested("/hall/racks_per_row", m_racksPerRow->value());
    });
    connect(m_mdaPosition, &QComboBox::activated, this, [this] {
        if (!m_updating)
            emit editRequested("/hall/mda_position",
                               m_mdaPosition->currentData().toString().toStdString());
    });
    connect(m_placement, &QComboBox::activated, this, [this] {
        if (!m_updating)
            emit editRequested("/hall/network_placement",
                               m_placement->currentData().toString().toStdString());
    });
}

void FloorPlanView::setHall(const solvers::HallResult& hall, int rows, int racksPerRow,
                            const QString& placement)
{
    m_hall = hall;
    m_updating = true;
    m_rows->setValue(rows);
    m_racksPerRow->setValue(racksPerRow);
    const int index = m_placement->findData(placement);
    m_placement->setCurrentIndex(std::max(0, index));
    if (m_hall.mdaRoom.present)
        m_mdaPosition->setCurrentIndex(
            std::max(0, m_mdaPosition->findData(QString::fromStdString(m_hall.mdaRoom.position))));
    m_mdaPosition->setEnabled(m_hall.mdaRoom.present);
    m_updating = false;
    rebuild();
    // A hall much deeper than wide is shown turned a quarter, as the report's plan, and whole.
    m_view->resetTransform();
    if (m_hall.valid && m_hall.depthM > 1.5 * m_hall.widthM)
        m_view->rotate(-90.0);
    m_fitWhole = true;
    if (m_hall.valid)
        m_view->fitInView(m_scene->sceneRect(), Qt::KeepAspectRatio);
}

void FloorPlanView::setLimitColoring(bool limit)
{
    m_coloring->setCurrentIndex(limit ? 1 : 0);
}

QString FloorPlanView::rackToolTip(const QString& name) const
{
    for (QGraphicsItem* item : m_scene->items())
        if (item->data(0).toString() == name)
            return item->toolTip();
    return {};
}

QRectF FloorPlanView::itemSceneRect(const QString& name) const
{
    for (QGraphicsItem* item : m_scene->items())
        if (item->data(0).toString() == name)
            return item->sceneBoundingRect();
    return {};
}

bool FloorPlanView::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_view->viewport() && event->type() == QEvent::Wheel) {
        const auto* wheel = static_cast<QWheelEvent*>(event);
        const double factor = std::pow(1.0015, wheel->angleDelta().y());
        m_view->scale(factor, factor);
        m_fitWhole = false;
        return true;
    }
    // Until the planner zooms, the whole hall fits the view at whatever size it is shown (a
    // plan set while its tab was hidden was fitted to a viewport of no size).
    if (watched == m_view->viewport() && event->type() == QEvent::Resize && m_fitWhole &&
        m_hall.valid)
        m_view->fitInView(m_scene->sceneRect(), Qt::KeepAspectRatio);
    return QWidget::eventFilter(watched, event);
}

void FloorPlanView::rebuild()
{
    m_scene->clear();
    m_rackItems = 0;
    const solvers::HallResult& h = m_hall;
    if (!h.valid) {
        m_summary->setText(tr("No floor plan: the scenario has errors."));
        return;
    }
    m_summary->setText(tr("%1 x %2 m (%3 m²): %4 compute racks in %5 rows, %6 network racks, "
                          "%7 MDA racks; %8 cables, %9 transceivers")
                           .arg(h.widthM, 0, 'f', 1)
                           .arg(h.depthM, 0, 'f', 1)
                           .arg(h.areaM2, 0, 'f', 0)
                           .arg(h.computeRacks)
                           .arg(h.computeRows)
                           .arg(h.networkRacks)
                           .arg(h.mdaRacks)
                           .arg(h.cables)
                           .arg(h.transceivers) +
                       (h.cdus == 1  ? tr("; 1 CDU")
                        : h.cdus > 1 ? tr("; %1 CDUs").arg(h.cdus)
                                     : QString()) +
                       (h.crahs == 1  ? tr("; 1 CRAH/CRAC unit")
                        : h.crahs > 1 ? tr("; %1 CRAH/CRAC units").arg(h.crahs)
                                      : QString()));
    auto X = [](double m) { return m * kScale; };
    // The front of the hall (y = 0) at the bottom, as in the report's plan.
    auto Y = [&h](double m) { return (h.depthM - m) * kScale; };
    m_scene->addRect(QRectF(0, 0, X(h.widthM), X(h.depthM)), QPen(Qt::gray),
                     QBrush(QColor(0xf4, 0xf4, 0xf4)));
    if (h.mdaRoom.present) {
        const auto& m = h.mdaRoom;
        QPen wallPen(roomWall);
        wallPen.setWidthF(X(m.wallM));
        auto* item = m_scene->addRect(QRectF(X(m.xM), Y(m.yM + m.depthM), X(m.widthM), X(m.depthM)),
                                      wallPen, QBrush(roomFill));
        item->setToolTip(tr("MDA room (%1): %2 x %3 m, %4 racks")
                             .arg(QString::fromStdString(m.position))
                             .arg(m.widthM, 0, 'f', 1)
                             .arg(m.depthM, 0, 'f', 1)
                             .arg(h.mdaRacks));
        item->setData(0, QStringLiteral("MDA room"));
    }
    for (std::size_t i = 1; i + 1 < h.aisles.size(); ++i) {
        const auto& a = h.aisles[i];
        QPen pen(a.contained ? QColor(0x55, 0x55, 0x55) : Qt::transparent);
        pen.setStyle(Qt::DashLine);
        auto* item =
            m_scene->addRect(QRectF(X(a.xM), Y(a.yM + a.widthM), X(a.lengthM), X(a.widthM)), pen,
                             QBrush(a.hot ? QColor(0xfd, 0xe0, 0xdd) : QColor(0xde, 0xeb, 0xf7)));
        item->setToolTip(a.hot ? tr("Hot aisle") : tr("Cold aisle"));
    }
    // One scale from 0 to the compute racks' cooling limit (or a hotter rack), as the report's
    // plan: a rack's colour says how near it runs to what its cooling removes.
    double maxKw = 0.0;
    for (const HallRack& r : h.racks)
        maxKw =
            std::max({maxKw, r.designKw, r.kind == HallRackKind::Compute ? r.coolingLimitKw : 0.0});
    const bool limit = m_coloring->currentIndex() == 1;
    QPen rackPen(QColor(0x33, 0x33, 0x33));
    rackPen.setWidthF(0.0); // cosmetic: one pixel at every zoom
    for (const HallRack& r : h.racks) {
        const auto& row = h.rows[static_cast<std::size_t>(r.row)];
        QColor fill;
        if (r.kind == HallRackKind::Mda)
            fill = QColor(0x54, 0x27, 0x8f);
        else if (r.kind == HallRackKind::Network)
            fill = QColor(0x9e, 0x9a, 0xc8);
        else if (limit)
            fill = limitColor(row.racks > 0 && row.buswayKw > 0.0
                                  ? r.nameplateKw / (row.buswayKw / row.racks)
                                  : 0.0);
        else
            fill = heatColor(maxKw > 0.0 ? r.designKw / maxKw : 0.0);
        auto* item = m_scene->addRect(
            QRectF(X(r.xM), Y(r.yM + h.rackDepthM), X(h.rackWidthM), X(h.rackDepthM)), rackPen,
            QBrush(fill));
        item->setToolTip(rackTip(r));
        item->setData(0, QString::fromStdString(r.name));
        ++m_rackItems;
    }
    // Rear doors: one path of strips on the racks' backs (the side away from the cold aisle).
    if (h.rdhxDepthM > 0.0) {
        QPainterPath doors;
        for (const HallRack& r : h.racks) {
            const auto& row = h.rows[static_cast<std::size_t>(r.row)];
            const double y = row.facesUp ? r.yM : r.yM + h.rackDepthM - h.rdhxDepthM;
            doors.addRect(QRectF(X(r.xM), Y(y + h.rdhxDepthM), X(h.rackWidthM), X(h.rdhxDepthM)));
        }
        auto* item = m_scene->addPath(doors, Qt::NoPen, QBrush(rdhxColor));
        item->setAcceptedMouseButtons(Qt::NoButton);
    }
    for (const HallUnit& u : h.units) {
        auto* item =
            m_scene->addRect(QRectF(X(u.xM), Y(u.yM + u.depthM), X(u.widthM), X(u.depthM)), rackPen,
                             QBrush(u.kind == HallUnitKind::Cdu ? cduColor : crahColor));
        item->setToolTip(unitTip(u));
        item->setData(0, QString::fromStdString(u.name));
    }
    // Row names after the row's end, past any CDU standing there (the name over a unit hid it).
    std::vector<double> labelX(h.rows.size());
    for (std::size_t i = 0; i < h.rows.size(); ++i)
        labelX[i] = h.rows[i].xEndM;
    for (const HallUnit& u : h.units)
        if (u.row >= 0 && static_cast<std::size_t>(u.row) < h.rows.size())
            labelX[static_cast<std::size_t>(u.row)] =
                std::max(labelX[static_cast<std::size_t>(u.row)], u.xM + u.widthM);
    for (std::size_t i = 0; i < h.rows.size(); ++i) {
        const auto& row = h.rows[i];
        auto* label = m_scene->addSimpleText(QString::fromStdString(row.name));
        label->setData(0, QStringLiteral("label:") + QString::fromStdString(row.name));
        label->setPos(X(labelX[i]) + 4, Y(row.yM + h.rackDepthM));
    }
    // One path per link class: every bundle through its cross tray, a single item to paint.
    for (const HallLinkClass c :
         {HallLinkClass::NodeLeaf, HallLinkClass::LeafSpine, HallLinkClass::SpineCore}) {
        QCheckBox* box = m_runs[static_cast<int>(c)];
        // A fabric without the tier (a 2-tier fabric has no spine-core links) has no toggle.
        box->setVisible(h.summary(c) != nullptr);
        m_runsDrawn[static_cast<int>(c)] = false;
        if (!box->isChecked() || h.summary(c) == nullptr)
            continue;
        m_runsDrawn[static_cast<int>(c)] = true;
        QPainterPath path;
        for (const auto& b : h.bundles) {
            if (b.linkClass != c || b.rackA == b.rackB)
                continue;
            const auto points = h.route(b.rackA, b.rackB);
            path.moveTo(X(points.front().first), Y(points.front().second));
            for (std::size_t i = 1; i < points.size(); ++i)
                path.lineTo(X(points[i].first), Y(points[i].second));
        }
        QPen pen(classColor(c));
        pen.setWidthF(1.5);
        pen.setCosmetic(true);
        // No tooltip: the racks under the runs keep theirs.
        auto* item = m_scene->addPath(path, pen);
        item->setAcceptedMouseButtons(Qt::NoButton);
    }
    m_scene->setSceneRect(m_scene->itemsBoundingRect().adjusted(-20, -20, 20, 20));
    updateLegend(limit, maxKw);
}

void FloorPlanView::updateLegend(bool limit, double maxKw)
{
    auto swatch = [](const QColor& color, const QString& label) {
        return QStringLiteral("<span style=\"background-color:%1\">&nbsp;&nbsp;&nbsp;&nbsp;</span>"
                              "&nbsp;%2&nbsp;&nbsp;&nbsp;")
            .arg(color.name(), label);
    };
    QString text;
    if (limit) {
        text += swatch(limitColor(0.5), tr("under 80% of the row's busway share"));
        text += swatch(limitColor(0.9), tr("80-100%"));
        text += swatch(limitColor(1.2), tr("over"));
    } else {
        // The kW scale: five steps from 0 to the cooling limit.
        for (int i = 0; i <= 4; ++i)
            text += swatch(heatColor(i / 4.0), tr("%1 kW").arg(maxKw * i / 4.0, 0, 'f', 0));
    }
    text += swatch(QColor(0x9e, 0x9a, 0xc8), tr("network rack"));
    text += swatch(QColor(0x54, 0x27, 0x8f), tr("MDA rack"));
    if (m_hall.cdus > 0)
        text += swatch(cduColor, tr("CDU (%1 kW)").arg(m_hall.cduCapacityKw, 0, 'f', 0));
    if (m_hall.crahs > 0)
        text += swatch(crahColor, tr("CRAH/CRAC (%1 kW)").arg(m_hall.crahCapacityKw, 0, 'f', 0));
    if (m_hall.rdhxDepthM > 0.0)
        text += swatch(rdhxColor, tr("rear door (RDHx)"));
    if (m_hall.mdaRoom.present)
        text += swatch(roomFill, tr("MDA room"));
    if (m_hall.aisles.size() > 2) {
        text += swatch(QColor(0xde, 0xeb, 0xf7), tr("cold aisle"));
        text += swatch(QColor(0xfd, 0xe0, 0xdd), tr("hot aisle"));
    }
    for (const HallLinkClass c :
         {HallLinkClass::NodeLeaf, HallLinkClass::LeafSpine, HallLinkClass::SpineCore})
        if (m_runsDrawn[static_cast<int>(c)]) {
            QColor color = classColor(c);
            color.setAlpha(255);
            text += QStringLiteral("<span style=\"color:%1\"><b>&#8212;&#8212;</b></span>&nbsp;%2"
                                   "&nbsp;&nbsp;&nbsp;")
                        .arg(color.name(),
                             tr("%1 runs").arg(QString::fromLatin1(solvers::hallLinkClassName(c))));
        }
    m_legend->setText(text);
}

QString FloorPlanView::legendText() const
{
    return m_legend->text();
}

QString FloorPlanView::summaryText() const
{
    return m_summary->text();
}

QCheckBox* FloorPlanView::runToggle(solvers::HallLinkClass linkClass) const
{
    return m_runs[static_cast<int>(linkClass)];
}

bool FloorPlanView::runsDrawn(solvers::HallLinkClass linkClass) const
{
    return m_runsDrawn[static_cast<int>(linkClass)];
}

} // namespace dct::ui
