#include "mapraster.h"

#include "views/map/colormap.h"

#include <array>
#include <cmath>
#include <cstring>

namespace fleet::views {

namespace {

// A QRgb as the 32-bit word QImage::Format_RGBA8888 stores (bytes R, G, B, A in memory).
std::uint32_t rgba8888(QRgb c) noexcept
{
    const unsigned char bytes[4] = { static_cast<unsigned char>(qRed(c)), static_cast<unsigned char>(qGreen(c)),
        static_cast<unsigned char>(qBlue(c)), static_cast<unsigned char>(qAlpha(c)) };
    std::uint32_t word = 0;
    std::memcpy(&word, bytes, sizeof word);
    return word;
}

} // namespace

QRgb MapRaster::nodeColor(const model::ClusterStore& store, model::NodeId n, MapMetric metric, const MetricKeys& keys) noexcept
{
    switch (nodeMark(store, n)) {
    case NodeMark::NotReady:
        return notReadyColor().rgb();
    case NodeMark::Cordoned:
        return cordonedColor().rgb();
    case NodeMark::None:
        break;
    }
    const double share = nodeShare(store, n, metric, keys);
    if (std::isnan(share))
        return noDataColor().rgb();
    return shareRgb(share);
}

QImage MapRaster::render(const model::ClusterStore& store, const MapLayout& layout, MapMetric metric)
{
    if (layout.width() <= 0 || layout.height() <= 0)
        return {};
    QImage image(layout.width(), layout.height(), QImage::Format_RGBA8888);
    if (image.isNull())
        throw std::bad_alloc();
    image.fill(mapBackgroundColor());

    // Palette in the image's byte order: 256 shares, then the marks.
    std::array<std::uint32_t, kShareColorSteps> palette {};
    const auto& table = shareColorTable();
    for (std::size_t i = 0; i < palette.size(); ++i)
        palette[i] = rgba8888(table[i]);
    const std::uint32_t notReady = rgba8888(notReadyColor().rgb());
    const std::uint32_t cordoned = rgba8888(cordonedColor().rgb());
    const std::uint32_t noData = rgba8888(noDataColor().rgb());

    const MetricKeys keys = MetricKeys::find(store);
    const std::size_t stride = static_cast<std::size_t>(image.bytesPerLine()) / sizeof(std::uint32_t);
    auto* bits = reinterpret_cast<std::uint32_t*>(image.bits());
    const std::size_t nodeCount = std::min(layout.nodeCount(), store.nodeCount());
    for (std::uint32_t i = 0; i < nodeCount; ++i) {
        const model::NodeId n(i);
        const CellPos cell = layout.nodeCell(n);
        if (!cell.isValid())
            continue;
        std::uint32_t word;
        switch (nodeMark(store, n)) {
        case NodeMark::NotReady:
            word = notReady;
            break;
        case NodeMark::Cordoned:
            word = cordoned;
            break;
        default: {
            const double share = nodeShare(store, n, metric, keys);
            word = std::isnan(share) ? noData : palette[static_cast<std::size_t>(shareColorIndex(share))];
        }
        }
        bits[static_cast<std::size_t>(cell.y) * stride + static_cast<std::size_t>(cell.x)] = word;
    }
    return image;
}

} // namespace fleet::views
