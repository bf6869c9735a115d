// SPDX-License-Identifier: Apache-2.0
#pragma once
// The pod strips of a zoomed-in node cell, laid out once for both drawing and picking: three
// rows read as one line, each counted pod a length proportional to its GPU share, else CPU
// share, at least 2 px. NodeDetailLayer draws the pieces; podStripAt() finds the pod under a
// point to start a drag from the map; tst_planmap checks that a strip's pixel names
// its pod.

#include "views/map/layers/maplayer.h"

#include <functional>

namespace fleet::views {

/// Calls visit(pod, piece) for every piece of every pod strip of node n's detailed cell `cell`
/// (a piece includes the one-pixel gap after it, which drawing leaves empty), in drawing
/// order, until visit returns true; returns that pod, else an invalid id. Nothing when the
/// cell is narrower than NodeDetailLayer::kDetailMinPx or too low for pods. O(pods of the node).
model::PodId forEachPodStripPiece(const MapScene& scene, model::NodeId n, const QRectF& cell,
    const std::function<bool(model::PodId, const QRectF&)>& visit);

/// The pod drawn at `pos` (GL widget logical coordinates) inside node n's detailed cell
/// `cell` (its rectangle on screen snapped to whole pixels, as the layer draws it); an
/// invalid id when pos is on no pod or the cell is too small for pods (< kDetailMinPx).
/// O(pods of the node). Thread: GUI thread (reads the scene).
[[nodiscard]] model::PodId podStripAt(const MapScene& scene, model::NodeId n, const QRectF& cell, const QPointF& pos);

/// The rectangle of the first piece of pod p's strip in node n's cell (for tests); null
/// when the pod is not drawn there.
[[nodiscard]] QRectF podStripRect(const MapScene& scene, model::NodeId n, const QRectF& cell, model::PodId p);

} // namespace fleet::views
