// SPDX-License-Identifier: Apache-2.0
#include "domainframelayer.h"

#include "views/map/colormap.h"

#include <QFontMetrics>
#include <QPainter>
#include <QStaticText>


#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace fleet::views {

using model::DomainId;

namespace {

// Font pixel size by tree level at most, the smallest drawn, and the levels that get label
// rows in the layout at the default zoom.
constexpr int kLabelFontPx[] = { 13, 13, 12, 11 }; // by level; deeper levels use the last
constexpr int kMinLabelFontPx = 8;
constexpr int kBandedLevels = 2; // region and zone: readable at the default zoom
constexpr int kMaxLabelRows = 12;

int labelFontPx(int level)
{
    constexpr int last = static_cast<int>(std::size(kLabelFontPx)) - 1;
    return kLabelFontPx[std::clamp(level, 0, last)];
}

} // namespace

struct DomainFrameLayer::Private {
    /// One outline per domain (root excluded) in world coordinates, grouped by colour.
    struct Outline {
        double x0, y0, x1, y1;
    };
    std::vector<Outline> outlines[3]; // by shade: region and above, zone, deeper
    QColor shades[3];
    std::vector<QRectF> onScreen; // reused per paint
    std::vector<std::pair<DomainId, QRectF>> drawn; // labels of the last paint
    // A domain's label as fitted to the room it last had, laid out once (QStaticText).
    struct CachedLabel {
        QSizeF room { -1, -1 };
        bool fits = false;
        LabelFit fit;
        QStaticText text;
    };
    std::unordered_map<std::uint32_t, CachedLabel> labels; // by DomainId; cleared with the cluster
};

DomainFrameLayer::DomainFrameLayer()
    : d(std::make_unique<Private>())
{
}

DomainFrameLayer::~DomainFrameLayer() = default;

void DomainFrameLayer::sceneChanged(const MapScene& scene, unsigned changes)
{
    if (!(changes & ClusterChanged))
        return;
    d->drawn.clear();
    d->labels.clear();
    for (auto& group : d->outlines)
        group.clear();
    if (!scene.hasMap())
        return;
    const MapLayout& layout = scene.layout;
    const double h = layout.height();
    const QColor base = domainOutlineColor();
    constexpr double kShade[3] = { 1.0, 0.8, 0.55 }; // brighter for the outer levels
    for (int k = 0; k < 3; ++k)
        d->shades[k] = QColor(static_cast<int>(base.red() * kShade[k]), static_cast<int>(base.green() * kShade[k]),
            static_cast<int>(base.blue() * kShade[k]));
    for (std::uint32_t i = 1; i < scene.topology->domainCount(); ++i) {
        const DomainId dom(i);
        const CellRect r = layout.domainRect(dom);
        // Outlines sit in the gutters, a quarter cell further out per tree level, so
        // nested outlines never coincide and siblings' never touch (gutter = height).
        const double e = 0.25 * (layout.domainHeight(dom) + 1);
        const int level = scene.topology->domainLevel(dom);
        d->outlines[level <= 1 ? 0 : level == 2 ? 1 : 2].push_back(
            { r.x - e, h - (r.y + r.height) - e, r.x + r.width + e, h - r.y + e });
    }
}

void DomainFrameLayer::paintOutlines(QPainter& painter, const MapCamera& camera)
{
    // One logical pixel wide at any zoom, on whole pixels, without antialiasing; outlines
    // off screen or smaller than a pixel are skipped.
    const QRectF view(-2, -2, camera.viewport.width() + 4, camera.viewport.height() + 4);
    painter.setBrush(Qt::NoBrush);
    for (int k = 0; k < 3; ++k) {
        d->onScreen.clear();
        for (const Private::Outline& o : d->outlines[k]) {
            const QPointF a = camera.toWidget(QPointF(o.x0, o.y1));
            const QPointF b = camera.toWidget(QPointF(o.x1, o.y0));
            const QRectF r(QPointF(std::floor(a.x()) + 0.5, std::floor(a.y()) + 0.5),
                QPointF(std::floor(b.x()) + 0.5, std::floor(b.y()) + 0.5));
            if (r.width() < 1 || r.height() < 1 || !r.intersects(view) || r.contains(view))
                continue;
            d->onScreen.push_back(r);
        }
        if (d->onScreen.empty())
            continue;
        painter.setPen(QPen(d->shades[k], 1.0));
        painter.drawRects(d->onScreen.data(), static_cast<int>(d->onScreen.size()));
    }
}

std::vector<int> DomainFrameLayer::labelRowsForView(const model::Topology& topology, double pxPerCell)
{
    // Rows so that the region and zone labels fit at the default zoom, `pxPerCell` pixels
    // a cell. The room a label gets is its gap minus the outlines drawn in it (see
    // placeLabel()).
    std::vector<int> rows;
    if (topology.orderedNodes().empty())
        return rows;
    const int depth = static_cast<int>(topology.levelKeys().size());
    rows.assign(static_cast<std::size_t>(std::min(depth, kBandedLevels) + 1), 0);
    for (int level = 1; level < static_cast<int>(rows.size()); ++level) {
        const int parentHeight = depth - level + 1;
        // The block's own outline, (its height + 1) / 4 = parentHeight / 4 cells out, and
        // those of the siblings above, at most parentHeight / 4 cells below them.
        const double outlinesCells = 0.5 * parentHeight;
        const double needCells = (labelFontPx(level) * 1.25 + 2) / pxPerCell + outlinesCells;
        rows[static_cast<std::size_t>(level)]
            = std::clamp(static_cast<int>(std::ceil(needCells)) - MapLayout::gutterForHeight(parentHeight), 0, kMaxLabelRows);
    }
    return rows;
}

bool DomainFrameLayer::labelRoom(const MapScene& scene, const MapCamera& camera, DomainId dom, QRectF& room)
{
    // The label's box: in the gap above the block, below the block's own outline (a quarter
    // cell per tree level out) and across it, at the bottom of the gap. MapLayout keeps
    // these rows and columns free of cells, so the label never covers a cell. Every row of
    // blocks gets the whole gap, as the first row does (there the gap is the parent's band,
    // whose outline lies above it): further down, the bottom outlines of the siblings above
    // reach a little into the gap (at most a quarter of the parent's height), and a label
    // as tall as the whole gap covers that stretch of their line. Keeping clear of those
    // lines left the blocks below the first row unlabelled at zooms where the first row was
    // labelled, so they looked as if they belonged to the label above (user trial).
    const MapLayout& layout = scene.layout;
    const CellRect r = layout.domainRect(dom);
    const int gap = layout.labelGapRows(dom);
    if (gap <= 0 || r.width <= 0)
        return false;
    const double e = 0.25 * (layout.domainHeight(dom) + 1);
    const double h = layout.height();
    const QPointF bottomLeft = camera.toWidget(QPointF(r.x - e, h - (r.y - e)));
    const QPointF topRight = camera.toWidget(QPointF(r.x + r.width + e, h - (r.y - gap)));
    // One pixel off the outlines.
    room = QRectF(QPointF(bottomLeft.x() + 1, topRight.y() + 1), QPointF(topRight.x() - 1, bottomLeft.y() - 1));
    if (room.height() < kMinLabelFontPx || room.width() < 3 * kMinLabelFontPx)
        return false;
    return !(room.right() < 0 || room.left() > camera.viewport.width() || room.bottom() < 0
        || room.top() > camera.viewport.height());
}

bool DomainFrameLayer::fitLabel(const QSizeF& room, int level, const QString& name, const QFont& baseFont, LabelFit& out)
{
    QFont font = baseFont;
    font.setBold(level == 1);
    int px = std::min(labelFontPx(level), static_cast<int>(room.height() / 1.25));
    font.setPixelSize(std::max(1, px));
    QFontMetrics fm(font);
    while (fm.height() > room.height() && px > kMinLabelFontPx) {
        font.setPixelSize(--px);
        fm = QFontMetrics(font);
    }
    if (fm.height() > room.height() || px < kMinLabelFontPx)
        return false;
    const int pad = 2;
    QString text = name;
    // A narrow block: a smaller font first, then the name elided.
    while (fm.horizontalAdvance(text) + 2 * pad > room.width() && px > kMinLabelFontPx) {
        font.setPixelSize(--px);
        fm = QFontMetrics(font);
    }
    if (fm.horizontalAdvance(text) + 2 * pad > room.width()) {
        text = fm.elidedText(name, Qt::ElideRight, static_cast<int>(room.width()) - 2 * pad);
        if (text.size() < 5) // fewer than 4 characters of the name left: the tooltip names it
            return false;
    }
    out.width = std::min<double>(fm.horizontalAdvance(text) + 2 * pad, room.width());
    out.height = fm.height();
    out.font = font;
    out.text = text;
    return true;
}

bool DomainFrameLayer::placeLabel(
    const MapScene& scene, const MapCamera& camera, const QFont& baseFont, DomainId dom, LabelPlacement& out)
{
    QRectF room;
    if (!labelRoom(scene, camera, dom, room))
        return false;
    LabelFit fit;
    if (!fitLabel(room.size(), scene.topology->domainLevel(dom), QString::fromStdString(scene.topology->domainName(dom)),
            baseFont, fit))
        return false;
    out.box = QRectF(room.left(), room.bottom() - fit.height, fit.width, fit.height);
    out.font = fit.font;
    out.text = fit.text;
    return true;
}

void DomainFrameLayer::paint(QPainter& painter, const MapScene& scene, const MapCamera& camera)
{
    d->drawn.clear();
    if (!scene.hasMap())
        return;
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, false);
    paintOutlines(painter, camera);
    painter.setRenderHint(QPainter::TextAntialiasing);
    const MapLayout& layout = scene.layout;
    const CellRect visible = camera.visibleCells(layout.width(), layout.height());
    const double minLabelCells = kMinLabelFontPx * camera.unitsPerPixel;
    for (std::uint32_t i = 1; i < scene.topology->domainCount() && static_cast<int>(d->drawn.size()) < kMaxLabels; ++i) {
        const DomainId dom(i);
        // Cheap rejections before the font work: a gap too low for the smallest font, or a
        // block off screen (its label sits within a few rows above it).
        if (layout.labelGapRows(dom) < minLabelCells)
            continue;
        const CellRect r = layout.domainRect(dom);
        const int gap = layout.labelGapRows(dom);
        if (!CellRect { r.x - 2, r.y - gap - 2, r.width + 4, gap + 4 }.intersects(visible))
            continue;
        QRectF room;
        if (!labelRoom(scene, camera, dom, room))
            continue;
        // The font fitting and the text layout depend on the room's size only, which a pan
        // keeps: they are kept per domain (bench_map's zoomed pan spent most of this layer's
        // ~12 ms a frame in QFontMetrics and drawText's layout).
        Private::CachedLabel& c = d->labels[dom.index()];
        if (std::abs(c.room.width() - room.width()) > 1e-3 || std::abs(c.room.height() - room.height()) > 1e-3) {
            c.room = room.size();
            c.fits = fitLabel(c.room, scene.topology->domainLevel(dom), QString::fromStdString(scene.topology->domainName(dom)),
                m_font, c.fit);
            if (c.fits) {
                c.text = QStaticText(c.fit.text);
                c.text.setTextFormat(Qt::PlainText);
                c.text.setPerformanceHint(QStaticText::AggressiveCaching);
                c.text.prepare(QTransform(), c.fit.font);
            }
        }
        if (!c.fits)
            continue;
        const QRectF box(room.left(), room.bottom() - c.fit.height, c.fit.width, c.fit.height);
        painter.fillRect(box, QColor(18, 20, 26, 200));
        painter.setFont(c.fit.font);
        painter.setPen(QColor(242, 242, 247));
        // Centred in the box as drawText(box, Qt::AlignCenter) would.
        painter.drawStaticText(QPointF(box.center().x() - c.text.size().width() / 2.0, box.top()), c.text);
        d->drawn.emplace_back(dom, box);
    }
    painter.restore();
}

void DomainFrameLayer::clearLabelCache()
{
    d->labels.clear();
}

DomainId DomainFrameLayer::labelAt(const QPointF& pos) const
{
    for (const auto& [dom, box] : d->drawn)
        if (box.contains(pos))
            return dom;
    return {};
}

} // namespace fleet::views
