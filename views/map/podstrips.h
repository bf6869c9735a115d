#pragma once
// Which pod a point of a zoomed-in node cell shows: the inverse of the pod strip that
// NodeDetailLayer draws (its header: kPodRows rows read as one line, each counted pod a
// length proportional to its GPU share, else CPU share, at least 2 px). Used to start a drag
// of a pod from the map (issue 6). Keep in step with NodeDetailLayer::paintNode();
// tst_planmap checks that a strip's pixel names its pod.

#include "views/map/layers/maplayer.h"

namespace fleet::views {

/// The pod drawn at `pos` (GL widget logical coordinates) inside node n's detailed cell
/// `cell` (its rectangle on screen snapped to whole pixels, as the layer draws it); an
/// invalid id when pos is on no pod or the cell is too small for pods (< kDetailMinPx).
/// O(pods of the node). Thread: GUI thread (reads the scene).
[[nodiscard]] model::PodId podStripAt(const MapScene& scene, model::NodeId n, const QRectF& cell, const QPointF& pos);

/// The rectangle of the first piece of pod p's strip in node n's cell (for tests); null
/// when the pod is not drawn there.
[[nodiscard]] QRectF podStripRect(const MapScene& scene, model::NodeId n, const QRectF& cell, model::PodId p);

} // namespace fleet::views
