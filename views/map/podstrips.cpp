// SPDX-License-Identifier: Apache-2.0
#include "podstrips.h"

#include "views/map/layers/nodedetaillayer.h"

#include <algorithm>

namespace fleet::views {

using model::CoreResource;

constexpr int kPodRows = 3;

model::PodId forEachPodStripPiece(const MapScene& scene, model::NodeId n, const QRectF& cell,
    const std::function<bool(model::PodId, const QRectF&)>& visit)
{
    if (!scene.hasMap() || cell.width() < NodeDetailLayer::kDetailMinPx)
        return {};
    const model::ClusterStore& store = *scene.store;
    const QRectF pods = NodeDetailLayer::cellGeometry(cell).pods.adjusted(0, 1, 0, 0);
    if (pods.height() < 3 || pods.width() < 3)
        return {};
    const int rows = std::max(1, std::min(kPodRows, static_cast<int>(pods.height() / 3)));
    const double rowH = pods.height() / rows;
    const double lineLength = pods.width() * rows;
    const double cpuAlloc = static_cast<double>(std::max<std::int64_t>(1, store.nodeAllocatable(n)[CoreResource::Cpu]));
    const double gpuAlloc = static_cast<double>(store.nodeAllocatable(n)[CoreResource::Gpu]);
    double at = 0;
    for (const model::PodId p : scene.nodeView().nodePods(n)) {
        if (!store.podIsCounted(p))
            continue;
        const model::ResourceVector& req = store.podRequest(p);
        const double share = req[CoreResource::Gpu] > 0 && gpuAlloc > 0 ? req[CoreResource::Gpu] / gpuAlloc
                                                                         : req[CoreResource::Cpu] / cpuAlloc;
        double len = std::clamp(share, 0.0, 1.0) * lineLength;
        if (len <= 0)
            continue;
        len = std::max(len, 2.0);
        double start = at;
        const double end = std::min(lineLength, at + len);
        while (start < end - 0.01) {
            const int row = static_cast<int>(start / pods.width());
            if (row >= rows)
                break;
            const double x0 = start - row * pods.width();
            const double x1 = std::min(pods.width(), x0 + (end - start));
            // The piece with the pixel of gap after it (which still belongs to the pod for picking).
            if (visit(p, QRectF(pods.left() + x0, pods.top() + row * rowH, std::max(1.0, x1 - x0), rowH)))
                return p;
            start += x1 - x0;
        }
        at = end;
        if (at >= lineLength)
            break;
    }
    return {};
}


model::PodId podStripAt(const MapScene& scene, model::NodeId n, const QRectF& cell, const QPointF& pos)
{
    if (!cell.contains(pos))
        return {};
    return forEachPodStripPiece(scene, n, cell, [&](model::PodId, const QRectF& piece) { return piece.contains(pos); });
}

QRectF podStripRect(const MapScene& scene, model::NodeId n, const QRectF& cell, model::PodId p)
{
    QRectF found;
    forEachPodStripPiece(scene, n, cell, [&](model::PodId q, const QRectF& piece) {
        if (q != p)
            return false;
        found = piece.adjusted(0, 0, -1, -1); // without the gap pixel
        return true;
    });
    return found;
}

} // namespace fleet::views
