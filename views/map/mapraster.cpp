// SPDX-License-Identifier: Apache-2.0
#include "mapraster.h"

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

QRgb markColor(const model::ClusterStore& store, model::NodeId n) noexcept
{
    switch (nodeMark(store, n)) {
    case NodeMark::NotReady:
        return notReadyColor().rgb();
    case NodeMark::Cordoned:
        return cordonedColor().rgb();
    case NodeMark::None:
        break;
    }
    return 0;
}

} // namespace

QRgb MapRaster::nodeColor(
    const model::MetricContext& context, const model::Metric& metric, const model::MetricColumn& column, model::NodeId n) noexcept
{
    if (metric.marksOverride())
        if (const QRgb mark = markColor(context.store(), n))
            return mark;
    const MetricColorScale scale = MetricColorScale::forColumn(metric, column);
    const double value = n.index() < column.values.size() ? column.values[n.index()] : std::nan("");
    const int rank = n.index() < column.categoryRank.size() ? column.categoryRank[n.index()] : -1;
    return scale.color(value, rank);
}

QRgb MapRaster::nodeColor(const model::ClusterStore& store, model::NodeId n, MapMetric metric, const MetricKeys&) noexcept
{
    try {
        const model::MetricContext context(store);
        const auto m = mapMetric(metric);
        // A share scale needs no fleet-wide figure: the node's own value is enough.
        model::MetricColumn column;
        column.values.assign(store.nodeCount(), std::nan(""));
        if (n.index() < store.nodeCount())
            column.values[n.index()] = m->value(context, n);
        return nodeColor(context, *m, column, n);
    } catch (...) {
        return notApplicableColor().rgb();
    }
}

QImage MapRaster::render(const model::MetricContext& context, const MapLayout& layout, const model::Metric& metric)
{
    return render(context, layout, metric, model::computeMetricColumn(metric, context));
}

QImage MapRaster::render(const model::ClusterStore& store, const MapLayout& layout, MapMetric metric)
{
    const model::MetricContext context(store);
    return render(context, layout, *mapMetric(metric));
}

QImage MapRaster::render(
    const model::MetricContext& context, const MapLayout& layout, const model::Metric& metric, const model::MetricColumn& column)
{
    if (layout.width() <= 0 || layout.height() <= 0)
        return {};
    QImage image(layout.width(), layout.height(), QImage::Format_RGBA8888);
    if (image.isNull())
        throw std::bad_alloc();
    image.fill(mapBackgroundColor());

    const model::ClusterStore& store = context.store();
    const MetricColorScale scale = MetricColorScale::forColumn(metric, column);
    const bool marks = metric.marksOverride();
    const bool categorical = scale.kind == model::ScaleKind::Categorical;
    // Palette in the image's byte order: the scale's 256 entries, then the marks.
    std::array<std::uint32_t, kShareColorSteps> palette {};
    const ColorTable& table = colorTable(scale.kind);
    for (std::size_t i = 0; i < palette.size(); ++i)
        palette[i] = rgba8888(table[i]);
    const std::uint32_t notReady = rgba8888(notReadyColor().rgb());
    const std::uint32_t cordoned = rgba8888(cordonedColor().rgb());
    const std::uint32_t notApplicable = rgba8888(notApplicableColor().rgb());

    const std::size_t stride = static_cast<std::size_t>(image.bytesPerLine()) / sizeof(std::uint32_t);
    auto* bits = reinterpret_cast<std::uint32_t*>(image.bits());
    const std::size_t nodeCount = std::min({ layout.nodeCount(), store.nodeCount(), column.values.size() });
    const double span = scale.hi > scale.lo ? scale.hi - scale.lo : 1.0;
    for (std::uint32_t i = 0; i < nodeCount; ++i) {
        const model::NodeId n(i);
        const CellPos cell = layout.nodeCell(n);
        if (!cell.isValid())
            continue;
        std::uint32_t word;
        const NodeMark mark = marks ? nodeMark(store, n) : NodeMark::None;
        if (mark == NodeMark::NotReady) {
            word = notReady;
        } else if (mark == NodeMark::Cordoned) {
            word = cordoned;
        } else if (categorical) {
            word = rgba8888(scale.color(column.values[i], column.categoryRank.empty() ? -1 : column.categoryRank[i]));
        } else {
            const double v = column.values[i];
            word = std::isnan(v) ? notApplicable : palette[static_cast<std::size_t>(shareColorIndex((v - scale.lo) / span))];
        }
        bits[static_cast<std::size_t>(cell.y) * stride + static_cast<std::size_t>(cell.x)] = word;
    }
    return image;
}

} // namespace fleet::views
