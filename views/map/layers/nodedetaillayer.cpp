// SPDX-License-Identifier: Apache-2.0
#include "nodedetaillayer.h"

#include "model/gpudevices.h"
#include "model/scheduling/planledger.h"
#include "views/map/colormap.h"
#include "views/map/podstrips.h"

#include <QFontMetrics>
#include <QPaintEngine>
#include <QPainter>
#include <QStaticText>

#include <algorithm>
#include <array>
#include <cmath>

namespace fleet::views {

using model::CoreResource;
using model::NodeId;

namespace {


// Categorical palette for workloads: twelve hues at mixed lightness, chosen to stay apart
// from one another, from the viridis share colours' purple and from the marker reds.
constexpr std::array<QRgb, 12> kWorkloadPalette = { 0xff4e9ae6, 0xfff28e2b, 0xff59b36b, 0xffb07aa1, 0xffedc948,
    0xff76b7b2, 0xffff9da7, 0xff9c755f, 0xffbab0ac, 0xff86bcff, 0xffd4a6c8, 0xffa0cbe8 };

} // namespace

QColor NodeDetailLayer::workloadColor(model::WorkloadId w) noexcept
{
    if (!w.isValid())
        return QColor(150, 150, 160);
    return QColor::fromRgb(kWorkloadPalette[w.index() % kWorkloadPalette.size()]);
}

NodeDetailLayer::DeviceTiles NodeDetailLayer::deviceTiles(const MapScene& scene, NodeId n) noexcept
{
    const model::ClusterStore& store = *scene.store;
    DeviceTiles t;
    const std::int64_t gpuAlloc = store.nodeAllocatable(n)[CoreResource::Gpu];
    const std::int64_t gpuCap = store.nodeCapacity(n)[CoreResource::Gpu];
    if (gpuAlloc > 0 || gpuCap > 0) {
        t.kind = DeviceTiles::Gpu;
        t.allocatable = static_cast<int>(gpuAlloc / 1000);
        t.capacity = static_cast<int>(std::max(gpuAlloc, gpuCap) / 1000);
        t.requested = static_cast<double>(scene.nodeView().nodeRequested(n)[CoreResource::Gpu]) / 1000.0;
        if (scene.planState) {
            const auto shares = scene.planState->nodeGpuShares(n);
            t.devicesKnown = static_cast<int>(std::min(shares.size(), t.deviceMilli.size()));
            std::copy_n(shares.begin(), t.devicesKnown, t.deviceMilli.begin());
        } else {
            t.devicesKnown = model::loadedGpuDeviceUse(store, n, std::span<std::int32_t, model::kMaxTrackedGpus>(t.deviceMilli));
        }
        if (t.capacity > 0)
            return t;
    }
    t = {};
    const MigSlices mig = nodeMigSlices(store, n, scene.keys);
    if (mig.allocatable > 0) {
        t.kind = DeviceTiles::Mig;
        t.allocatable = t.capacity = static_cast<int>(mig.allocatable);
        t.requested = static_cast<double>(mig.requested);
        return t;
    }
    if (scene.keys.neuron >= 0) {
        const auto key = static_cast<model::ResourceKey>(scene.keys.neuron);
        std::int64_t alloc = 0, cap = 0;
        for (const auto& [k, v] : store.nodeExtendedAllocatable(n))
            if (k == key)
                alloc = v;
        for (const auto& [k, v] : store.nodeExtendedCapacity(n))
            if (k == key)
                cap = v;
        if (alloc > 0 || cap > 0) {
            t.kind = DeviceTiles::Neuron;
            t.allocatable = static_cast<int>(alloc);
            t.capacity = static_cast<int>(std::max(alloc, cap));
            t.requested = static_cast<double>(scene.nodeView().nodeExtendedRequested(n, key));
        }
    }
    return t;
}

NodeDetailLayer::CellGeometry NodeDetailLayer::cellGeometry(const QRectF& cell) noexcept
{
    // A card: the metric colour shows as a frame and as a band across the middle (so the
    // cell's centre keeps the metric colour too); above the band the name and the device
    // tiles, below it the pods.
    CellGeometry g;
    const double f = frameWidth(cell.width());
    const QRectF panel = cell.adjusted(f + 1, f + 1, -f, -f);
    const double cy = std::floor(cell.center().y());
    // Small cells (kDetailMinPx to kBandMinPx) have no room for the band: one pixel.
    const double band = cell.width() < kBandMinPx ? 1.0 : std::max(3.0, std::floor(f / 2.0) * 2 + 1);
    const double bandTop = cy - std::floor(band / 2.0);
    const double bandBottom = bandTop + band;
    g.name = cell.width() >= kNameMinPx ? QRectF(panel.left(), panel.top(), panel.width(), std::min(14.0, (bandTop - panel.top()) * 0.4))
                                        : QRectF(panel.left(), panel.top(), panel.width(), 0);
    g.upper = QRectF(QPointF(panel.left(), panel.top()), QPointF(panel.right(), bandTop));
    g.devices = QRectF(QPointF(panel.left(), g.name.bottom()), QPointF(panel.right(), bandTop));
    g.pods = QRectF(QPointF(panel.left(), bandBottom), QPointF(panel.right(), panel.bottom()));
    return g;
}

QRectF NodeDetailLayer::tileRect(const QRectF& cell, const DeviceTiles& tiles, int i) noexcept
{
    // A grid of near-square tiles in the device area, at most 8 a row.
    const QRectF area = cellGeometry(cell).devices;
    const int n = std::max(1, tiles.capacity);
    const int cols = std::min(n, n <= 8 ? (n > 4 ? (n + 1) / 2 : n) : 8);
    const int rows = (n + cols - 1) / cols;
    const double w = area.width() / cols, h = area.height() / rows;
    return QRectF(area.left() + (i % cols) * w, area.top() + (i / cols) * h, w, h);
}

void NodeDetailLayer::drawDeviceTile(QPainter& painter, const QRectF& tile, double share)
{
    painter.fillRect(tile, QColor(48, 52, 66)); // a free device
    if (share > 0) {
        // Filled from the bottom by its allocation, in the share colour of a full device.
        const double h = tile.height() * std::min(share, 1.0);
        painter.fillRect(QRectF(tile.left(), tile.bottom() - h, tile.width(), h), QColor::fromRgb(shareRgb(1.0)));
    }
}

void NodeDetailLayer::paintNode(QPainter& painter, const MapScene& scene, NodeId n, const QRectF& cell, bool name)
{
    const model::ClusterStore& store = *scene.store;
    const CellGeometry g = cellGeometry(cell);
    // Small cells keep their metric colour behind the tiles and pods (user trial on the
    // Alibaba trace: dark panels at 20 px a cell hid the colour the map is read by).
    if (cell.width() >= kBandMinPx) {
        painter.fillRect(g.upper, QColor(20, 22, 30));
        painter.fillRect(g.pods, QColor(20, 22, 30));
    }
    const DeviceTiles tiles = deviceTiles(scene, n);
    if (name && g.name.height() >= 6) {
        const int room = static_cast<int>(g.name.width()) - 3;
        ElidedName& e = m_names[n.index()];
        if (e.width != room || e.fontPx != m_font.pixelSize()) {
            const std::string_view nm = store.nodeName(n);
            const QFontMetrics fm(m_font);
            e.text = QStaticText(fitNodeName(QString::fromUtf8(nm.data(), static_cast<qsizetype>(nm.size())), fm, room));
            e.text.setTextFormat(Qt::PlainText);
            e.text.prepare(QTransform(), m_font);
            e.lineHeight = fm.height();
            e.width = room;
            e.fontPx = m_font.pixelSize();
        }
        painter.setPen(QColor(230, 232, 240));
        // Left-aligned and centred on the name line, as drawText(Qt::AlignLeft | Qt::AlignVCenter).
        painter.drawStaticText(QPointF(g.name.left() + 2, g.name.top() + (g.name.height() - e.lineHeight) / 2.0), e.text);
    }
    // Device tiles.
    if (tiles.capacity > 0) {
        const int count = std::min(tiles.capacity, 64);
        for (int i = 0; i < count; ++i) {
            const QRectF t = tileRect(cell, tiles, i).adjusted(1, 1, -1, -1);
            if (t.width() < 1 || t.height() < 1)
                continue;
            if (i >= tiles.allocatable) { // in capacity, not allocatable: an unhealthy device
                painter.fillRect(t, QColor(90, 20, 24));
                painter.setPen(QColor(255, 90, 90));
                painter.drawLine(t.topLeft(), t.bottomRight());
                continue;
            }
            drawDeviceTile(painter, t, tiles.tileShare(i));
        }
    }
    // Pods: the strips laid out by forEachPodStripPiece (podstrips.h), which picking reads too;
    // one pixel of gap after each piece, so neighbours of the same workload separate.
    forEachPodStripPiece(scene, n, cell, [&](model::PodId p, const QRectF& piece) {
        painter.fillRect(QRectF(piece.left(), piece.top(), std::max(1.0, piece.width() - 1), piece.height() - 1),
            workloadColor(store.podWorkload(p)));
        return false;
    });
}

void NodeDetailLayer::sceneChanged(const MapScene&, unsigned changes)
{
    if (changes & ClusterChanged)
        m_names.clear();
}

void NodeDetailLayer::paint(QPainter& target, const MapScene& scene, const MapCamera& camera)
{
    const double px = camera.pxPerCell();
    if (!scene.hasMap() || px < kGapMinPx)
        return;
    // On the OpenGL paint engine every small fillRect is a draw call (about 100 ms a frame for
    // 930 detailed nodes on llvmpipe): paint with the raster engine into an image the size of
    // the view, then draw that image once.
    const bool offscreen = target.paintEngine() && target.paintEngine()->type() == QPaintEngine::OpenGL2;
    QPainter canvasPainter;
    if (offscreen) {
        const QSize device = (QSizeF(camera.viewport) * camera.devicePixelRatio).toSize();
        if (m_canvas.size() != device) {
            m_canvas = QImage(device, QImage::Format_ARGB32_Premultiplied);
            m_canvas.setDevicePixelRatio(camera.devicePixelRatio);
        }
        m_canvas.fill(Qt::transparent);
        canvasPainter.begin(&m_canvas);
        canvasPainter.setFont(target.font());
    }
    QPainter& painter = offscreen ? canvasPainter : target;
    paintDetail(painter, scene, camera);
    if (offscreen) {
        canvasPainter.end();
        target.drawImage(QPointF(0, 0), m_canvas);
    }
}

void NodeDetailLayer::paintDetail(QPainter& painter, const MapScene& scene, const MapCamera& camera)
{
    const double px = camera.pxPerCell();
    const MapLayout& layout = scene.layout;
    const CellRect visible = camera.visibleCells(layout.width(), layout.height());
    if (visible.width <= 0 || visible.height <= 0)
        return;
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, false);
    // Gaps: one background-coloured line on every cell boundary inside each visible leaf
    // block (its cells are contiguous), so neighbouring cells of one colour stay apart.
    const QColor bg = mapBackgroundColor();
    painter.setPen(QPen(bg, 1.0));
    const model::Topology& topology = *scene.topology;
    for (std::uint32_t i = 1; i < topology.domainCount(); ++i) {
        const model::DomainId dom(i);
        if (layout.domainHeight(dom) != 0)
            continue;
        const CellRect r = layout.domainRect(dom);
        if (!r.intersects(visible))
            continue;
        const QRectF box = camera.cellsToWidget(r.x, r.y, r.width, r.height).normalized();
        const int cx0 = std::max(r.x + 1, visible.x), cx1 = std::min(r.x + r.width - 1, visible.x + visible.width);
        for (int cx = cx0; cx <= cx1; ++cx) {
            const double x = std::floor(camera.toWidget(QPointF(cx, 0)).x());
            painter.drawLine(QPointF(x + 0.5, box.top()), QPointF(x + 0.5, box.bottom()));
        }
        const int cy0 = std::max(r.y + 1, visible.y), cy1 = std::min(r.y + r.height - 1, visible.y + visible.height);
        for (int cy = cy0; cy <= cy1; ++cy) {
            const double y = std::floor(camera.toWidget(QPointF(0, layout.height() - cy)).y());
            painter.drawLine(QPointF(box.left(), y + 0.5), QPointF(box.right(), y + 0.5));
        }
    }
    if (px >= kDetailMinPx && static_cast<long long>(visible.width) * visible.height <= 4LL * kMaxDetailNodes) {
        const bool names = px >= kNameMinPx;
        if (names) {
            m_font = painter.font();
            m_font.setPixelSize(static_cast<int>(std::clamp(px / 10.0, 9.0, 12.0)));
            painter.setFont(m_font);
        }
        int drawn = 0;
        for (int cy = visible.y; cy < visible.y + visible.height && drawn < kMaxDetailNodes; ++cy)
            for (int cx = visible.x; cx < visible.x + visible.width; ++cx) {
                const NodeId n = layout.nodeAt(cx, cy);
                if (!n.isValid())
                    continue;
                // Snap to whole pixels: the cell's left/top boundary pixel is the gap line.
                const QRectF raw = camera.cellsToWidget(cx, cy, 1, 1).normalized();
                const QRectF cell(QPointF(std::floor(raw.left()), std::floor(raw.top())),
                    QPointF(std::floor(raw.right()), std::floor(raw.bottom())));
                paintNode(painter, scene, n, cell, names);
                if (scene.isDimmed(n))
                    painter.fillRect(cell.adjusted(1, 1, 0, 0), QColor(bg.red(), bg.green(), bg.blue(), 180));
                ++drawn;
            }
    }
    painter.restore();
}

QString NodeDetailLayer::fitNodeName(const QString& name, const QFontMetrics& fm, int room)
{
    if (fm.horizontalAdvance(name) <= room)
        return name;
    const qsizetype dot = name.indexOf(QLatin1Char('.'));
    const QString host = dot > 0 ? name.left(dot) : name;
    if (fm.horizontalAdvance(host) <= room)
        return host;
    return fm.elidedText(host, Qt::ElideLeft, room);
}

} // namespace fleet::views
