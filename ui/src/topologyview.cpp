#include "dct/ui/topologyview.h"

#include "dct/ui/format.h"

#include <QBrush>
#include <QFont>
#include <QGraphicsLineItem>
#include <QGraphicsRectItem>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QPen>
#include <QResizeEvent>
#include <algorithm>

namespace dct::ui {

namespace {

constexpr double kBoxWidth = 70.0;
constexpr double kBoxHeight = 30.0;
constexpr double kSlot = 96.0;    // Horizontal room of one drawn switch.
constexpr double kRowGap = 120.0; // Vertical distance of two tiers.
constexpr double kLeft = 330.0;   // Room for the tier labels on the left.

QColor tierColor(solvers::FabricTier tier)
{
    switch (tier) {
    case solvers::FabricTier::Leaf:
        return QColor(0x42, 0x85, 0xf4);
    case solvers::FabricTier::Spine:
        return QColor(0x0f, 0x9d, 0x58);
    case solvers::FabricTier::Core:
        return QColor(0xdb, 0x44, 0x37);
    }
    return QColor(0x75, 0x75, 0x75);
}

QString count(long long n)
{
    return formatNumber(static_cast<double>(n));
}

/** Returns the x centres of the boxes of a row of \a n items (at most kMaxDrawn, plus a gap). */
std::vector<double> centres(long long n, double width)
{
    const int drawn = static_cast<int>(std::min<long long>(n, TopologyView::kMaxDrawn));
    std::vector<double> xs;
    const double span = drawn * kSlot;
    const double start = kLeft + (width - span) / 2.0 + kSlot / 2.0;
    for (int i = 0; i < drawn; ++i)
        xs.push_back(start + i * kSlot);
    return xs;
}

} // namespace

TopologyView::TopologyView(QWidget* parent) : QGraphicsView(parent)
{
    setScene(new QGraphicsScene(this));
    setRenderHint(QPainter::Antialiasing);
    setBackgroundBrush(QColor(0xfa, 0xfb, 0xfc));
    rebuild();
}

int TopologyView::itemCount() const
{
    return static_cast<int>(scene()->items().size());
}

int TopologyView::linkCount() const
{
    int links = 0;
    for (const QGraphicsItem* item : scene()->items())
        links += item->type() == QGraphicsLineItem::Type ? 1 : 0;
    return links;
}

void TopologyView::setPicture(const FabricPicture& picture)
{
    m_picture = picture;
    rebuild();
}

void TopologyView::resizeEvent(QResizeEvent* event)
{
    QGraphicsView::resizeEvent(event);
    fitInView(scene()->itemsBoundingRect().adjusted(-20, -20, 20, 20), Qt::KeepAspectRatio);
}

void TopologyView::rebuild()
{
    QGraphicsScene* s = scene();
    s->clear();
    QFont titleFont = font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.4);
    titleFont.setBold(true);
    if (!m_picture.available) {
        auto* text = s->addSimpleText(
            tr("No fabric to draw yet.\nThe network solver reports the topology once it has "
               "run:\nfix the errors in the diagnostics panel, or wait for the network solver."),
            titleFont);
        text->setBrush(QColor(0x57, 0x60, 0x6a));
        s->setSceneRect(s->itemsBoundingRect().adjusted(-40, -40, 40, 40));
        fitInView(s->sceneRect(), Qt::KeepAspectRatio);
        return;
    }

    const double rowWidth = kMaxDrawn * kSlot;
    const int tiers = static_cast<int>(m_picture.tiers.size());
    const double nodesY = (tiers + 0.2) * kRowGap + 50.0;
    auto rowY = [&](int tierIndex) { return (tiers - tierIndex - 1) * kRowGap + 50.0; };

    QString title = tr("%1 fabric: %2 nodes, %3 NICs")
                        .arg(m_picture.topology.isEmpty() ? tr("Scale-out") : m_picture.topology,
                             count(m_picture.nodes), count(m_picture.nics));
    if (m_picture.planes > 1)
        title += tr(", %1 identical planes (one drawn)").arg(m_picture.planes);
    if (m_picture.switchPorts > 0)
        title += tr(", %1-port switches").arg(m_picture.switchPorts);
    auto* heading = s->addSimpleText(title, titleFont);
    heading->setPos(0, -40);
    long long perPlane = 0;
    for (const auto& tier : m_picture.tiers)
        perPlane += tier.switches;
    auto* totals = s->addSimpleText(
        m_picture.planes > 1 ? tr("%1 switches per plane, %2 in all")
                                   .arg(count(perPlane), count(perPlane * m_picture.planes))
                             : tr("%1 switches").arg(count(perPlane)));
    totals->setBrush(QColor(0x57, 0x60, 0x6a));
    totals->setPos(0, -12);

    // Planes beyond the first: offset shadows behind the drawn one.
    const int shadows = std::min(m_picture.planes - 1, 3);
    for (int i = shadows; i >= 1; --i) {
        auto* back =
            s->addRect(kLeft - 20 + 10 * i, 20 - 10 * i, rowWidth + 40, nodesY + kBoxHeight + 30,
                       QPen(QColor(0xb0, 0xb8, 0xc0)), QBrush(QColor(0xee, 0xf1, 0xf4)));
        back->setZValue(-10 - i);
    }
    auto* frame = s->addRect(kLeft - 20, 20, rowWidth + 40, nodesY + kBoxHeight + 30 - 20 + 20,
                             QPen(QColor(0x90, 0x98, 0xa0)), QBrush(Qt::white));
    frame->setZValue(-5);
    if (m_picture.planes > 1) {
        auto* planes = s->addSimpleText(tr("plane 1 of %1").arg(m_picture.planes));
        planes->setPos(kLeft - 14, 24);
    }

    // Links between neighbouring tiers: every drawn switch of one to every drawn one above.
    QPen linkPen(QColor(0x60, 0x70, 0x80, 110));
    linkPen.setWidthF(1.2);
    // Node groups: the scalable units, else up to kMaxDrawn equal groups of nodes.
    const long long groups = m_picture.scalableUnits > 0
                                 ? m_picture.scalableUnits
                                 : std::min<long long>(m_picture.nodes, kMaxDrawn);
    const auto groupXs =
        centres(std::max<long long>(1, std::min<long long>(groups, kMaxDrawn)), rowWidth);
    std::vector<double> below = groupXs;
    double belowY = nodesY;
    // The item a drawn box stands for (1-based): boxes run 1, 2, ... and, when the row is
    // elided, the last box stands for the last item.
    auto drawnItem = [](long long items, std::size_t box, std::size_t boxes) {
        return (items > kMaxDrawn && box + 1 == boxes) ? items : static_cast<long long>(box + 1);
    };
    for (int t = 0; t < tiers; ++t) {
        const auto& tier = m_picture.tiers[static_cast<std::size_t>(t)];
        const auto xs = centres(tier.switches, rowWidth);
        const double y = rowY(t);
        // Rail-optimized: the nodes of a scalable unit reach only their unit's leaves (one per
        // rail), as the DOT export wires them; other fabrics draw every pair.
        const long long leavesPerUnit =
            t == 0 && m_picture.scalableUnits > 0
                ? std::max<long long>(1, tier.switches / m_picture.scalableUnits)
                : 0;
        for (std::size_t j = 0; j < xs.size(); ++j)
            for (std::size_t i = 0; i < below.size(); ++i) {
                if (leavesPerUnit > 0) {
                    const long long unit = drawnItem(groups, i, below.size());
                    long long first = drawnItem(tier.switches, j, xs.size());
                    long long last = first;
                    // The "..." box stands for every leaf between its neighbours: it links to
                    // each unit one of those leaves serves.
                    if (tier.switches > kMaxDrawn && j + 2 == xs.size()) {
                        first = static_cast<long long>(j) + 1;
                        last = tier.switches - 1;
                    }
                    if (unit - 1 < (first - 1) / leavesPerUnit ||
                        unit - 1 > (last - 1) / leavesPerUnit)
                        continue;
                }
                auto* line = s->addLine(below[i], belowY, xs[j], y + kBoxHeight, linkPen);
                line->setZValue(-1);
            }
        auto* linkLabel = s->addSimpleText(
            tr("\u2195 %1 links %2 \u2013 %3")
                .arg(count(tier.linksDown),
                     t == 0 ? tr("node") : m_picture.tiers[static_cast<std::size_t>(t - 1)].name(),
                     tier.name()));
        linkLabel->setBrush(QColor(0x57, 0x60, 0x6a));
        linkLabel->setPos(0, (belowY + y + kBoxHeight) / 2 - 8);
        below = xs;
        belowY = y;
    }

    // Switch tiers.
    for (int t = 0; t < tiers; ++t) {
        const auto& tier = m_picture.tiers[static_cast<std::size_t>(t)];
        const QColor color = tierColor(tier.tier);
        const auto xs = centres(tier.switches, rowWidth);
        const double y = rowY(t);
        for (std::size_t i = 0; i < xs.size(); ++i) {
            const bool elided = tier.switches > kMaxDrawn && i == xs.size() - 2;
            if (elided) {
                auto* dots = s->addSimpleText(QStringLiteral("\u2026"), titleFont);
                dots->setPos(xs[i] - 8, y);
                continue;
            }
            auto* box = s->addRect(xs[i] - kBoxWidth / 2, y, kBoxWidth, kBoxHeight,
                                   QPen(color.darker(130)), QBrush(color.lighter(160)));
            box->setToolTip(tr("%1 switch").arg(tier.name()));
            const long long number = (tier.switches > kMaxDrawn && i == xs.size() - 1)
                                         ? tier.switches
                                         : static_cast<long long>(i + 1);
            auto* text = s->addSimpleText(QStringLiteral("#%1").arg(count(number)));
            text->setPos(xs[i] - text->boundingRect().width() / 2, y + 7);
        }
        QFont bold = font();
        bold.setBold(true);
        auto* name =
            s->addSimpleText(tr("%1: %2 switches").arg(tier.name(), count(tier.switches)), bold);
        name->setBrush(color.darker(150));
        name->setPos(0, y - 2);
        auto* ports = s->addSimpleText(
            tr("%1 ports used, %2 free").arg(count(tier.portsUsed), count(tier.portsFree)));
        ports->setPos(0, y + 16);
    }

    // Node groups at the bottom.
    const auto& xs = groupXs;
    const long long perGroup = groups > 0 ? (m_picture.nodes + groups - 1) / groups : 0;
    for (std::size_t i = 0; i < xs.size(); ++i) {
        auto* box = s->addRect(xs[i] - kBoxWidth / 2, nodesY, kBoxWidth, kBoxHeight,
                               QPen(QColor(0x5f, 0x63, 0x68)), QBrush(QColor(0xe8, 0xea, 0xed)));
        box->setToolTip(tr("%1 nodes").arg(count(perGroup)));
        // With more units than boxes, the last box stands for the last unit.
        const long long unit =
            (groups > kMaxDrawn && i + 1 == xs.size()) ? groups : static_cast<long long>(i + 1);
        const QString text = m_picture.scalableUnits > 0 ? tr("SU %1").arg(unit)
                                                         : tr("%1 nodes").arg(count(perGroup));
        auto* label = s->addSimpleText(text);
        label->setPos(xs[i] - label->boundingRect().width() / 2, nodesY + 7);
    }
    QFont bold = font();
    bold.setBold(true);
    const QString nodesText = m_picture.scalableUnits > 0
                                  ? tr("nodes: %1 in %2 scalable units")
                                        .arg(count(m_picture.nodes))
                                        .arg(m_picture.scalableUnits)
                                  : tr("nodes: %1").arg(count(m_picture.nodes));
    auto* nodes = s->addSimpleText(nodesText, bold);
    nodes->setPos(0, nodesY - 2);
    auto* nics = s->addSimpleText(
        m_picture.planes > 1 ? tr("%1 NICs per plane").arg(count(m_picture.nics / m_picture.planes))
                             : tr("%1 NICs").arg(count(m_picture.nics)));
    nics->setPos(0, nodesY + 16);

    s->setSceneRect(s->itemsBoundingRect().adjusted(-20, -20, 20, 20));
    fitInView(s->sceneRect(), Qt::KeepAspectRatio);
}

} // namespace dct::ui
