// SPDX-License-Identifier: Apache-2.0
#pragma once
// Layer: problem markers. NotReady nodes (red rings), cordoned nodes (pink diamonds) and
// the nodes of setProblemNodes() (amber triangles: node conditions, unhealthy GPUs,
// over-committed requests; model::findNodeProblems()) get a marker of a fixed on-screen size
// (kMarkerPx) centred on their cell at every zoom, so that one NotReady node among
// 100,000 (a cell under a pixel wide at the fitted zoom) is findable. Once a cell is large
// on screen the marker moves to the cell's top-right corner, clear of its detail.

#include "views/map/layers/maplayer.h"

#include <QColor>
#include <QImage>
#include <QPointF>
#include <QString>

#include <array>
#include <span>

namespace fleet::views {

/// Problem, Cordoned and NotReady are this layer's; Feasible (a green square) is the plan
/// layer's, for the few nodes that could take a dragged pod (PlanLayer).
enum class NodeMarkerKind : std::uint8_t { Problem, Cordoned, NotReady, Feasible };
inline constexpr int kNodeMarkerKinds = 4;

/// Markers are collected on ClusterChanged / ProblemsChanged (one pass over the readiness
/// and unschedulable columns); a paint draws one sprite per marker on screen (drawMarker()
/// rendered once per kind and device pixel ratio), the most severe kind last (on top). Only the
/// kinds of MapScene::shownMarkerKinds are collected; the markers of dimmed nodes are drawn
/// first, faded (kDimmedMarkerOpacity), so a filter's nodes keep their markers on top.
class MarkerLayer final : public MapLayer {
public:
    /// Marker diameter in logical pixels.
    static constexpr int kMarkerPx = 9;
    /// The share of the view that the markers in view may cover together before they are drawn
    /// smaller, and the smallest scale they are drawn at (at up to two device pixels per logical
    /// pixel; at a print resolution's ratio r, kMinMarkerScale x 2 / r: as many device pixels).
    static constexpr double kMaxMarkerCover = 0.12;
    static constexpr double kMinMarkerScale = 0.5;

    void sceneChanged(const MapScene& scene, unsigned changes) override;
    /// Opacity of the marker of a node the filter dims (MapScene::mask): it fades with its cell.
    static constexpr double kDimmedMarkerOpacity = 0.3;

    [[nodiscard]] unsigned paintDependsOn() const override { return ClusterChanged | ProblemsChanged | MaskChanged; }
    [[nodiscard]] bool paintsAnything(const MapScene& scene, const MapCamera&) const override
    {
        return scene.hasMap() && !m_markers.empty();
    }
    void paint(QPainter& painter, const MapScene& scene, const MapCamera& camera) override;

    /// The marked nodes and their kinds, most severe last (for tests).
    [[nodiscard]] const std::vector<std::pair<model::NodeId, NodeMarkerKind>>& markers() const noexcept { return m_markers; }
    /// The nodes marked by kind (Problem, Cordoned, NotReady), those of hidden kinds
    /// (MapScene::shownMarkerKinds) included: the legend's key gives a hidden kind's real count.
    [[nodiscard]] const std::array<std::size_t, 3>& counts() const noexcept { return m_counts; }
    /// The colour a marker of `kind` is drawn in.
    [[nodiscard]] static QColor markerColor(NodeMarkerKind kind);
    /// Draws one marker of `kind` centred on `centre` (logical px) as the map draws it: the
    /// legend's key uses it, so the key cannot drift from the map. Thread: GUI thread.
    static void drawMarker(QPainter& painter, NodeMarkerKind kind, QPointF centre);
    /// What a marker of `kind` means, for the legend ("NotReady", "Cordoned", "Other problem",
    /// "Could take the pod").
    [[nodiscard]] static QString markerMeaning(NodeMarkerKind kind);
    /// Draws `markers` as this layer draws its own (kMarkerPx at every zoom, centred on the
    /// cell, in its top-right corner once cells are large; one sprite each, in the order
    /// given, so the later are on top; smaller, down to kMinMarkerScale, where those in view
    /// would cover more than kMaxMarkerCover of it), skipping those off screen. O(markers).
    /// Thread: GUI.
    static void paintMarkers(QPainter& painter, const MapScene& scene, const MapCamera& camera,
        std::span<const std::pair<model::NodeId, NodeMarkerKind>> markers);

private:
    /// Side of a marker's sprite in logical px: the marker and its halo (4 px pen) with room.
    static constexpr int kSpritePx = kMarkerPx + 8;
    /// drawMarker() of `kind` centred at (kSpritePx / 2 + 0.5) in a transparent image, made
    /// once per kind and device pixel ratio (a cache shared by every caller; GUI thread).
    static const QImage& sprite(NodeMarkerKind kind, double devicePixelRatio);

    std::vector<std::pair<model::NodeId, NodeMarkerKind>> m_markers;
    std::array<std::size_t, 3> m_counts {};
};

} // namespace fleet::views
