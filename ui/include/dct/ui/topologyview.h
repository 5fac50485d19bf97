#pragma once

#include "dct/ui/fabricpicture.h"

#include <QGraphicsView>

namespace dct::ui {

/**
 * Draws the fabric of a network result: planes, tiers with their switch counts, the links
 * between tiers and the node groups. Large tiers are drawn as a few switches and a count, so a
 * 16k-GPU fabric takes a few dozen items, not twenty thousand.
 */
class TopologyView : public QGraphicsView
{
    Q_OBJECT

public:
    /** Most switches drawn one by one in a tier; above that, a sample and the count. */
    static constexpr int kMaxDrawn = 8;

    explicit TopologyView(QWidget* parent = nullptr);

    /** Draws \a picture. */
    void setPicture(const FabricPicture& picture);
    const FabricPicture& picture() const { return m_picture; }
    /** Returns the number of items in the scene (for tests of the grouping). */
    int itemCount() const;
    /** Returns the number of links drawn (for tests of the wiring). */
    int linkCount() const;

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void rebuild();

    FabricPicture m_picture;
};

} // namespace dct::ui
