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

namespace fleet::views {

enum class NodeMarkerKind : std::uint8_t { Problem, Cordoned, NotReady };

/// Markers are collected on ClusterChanged / ProblemsChanged (one pass over the readiness
/// and unschedulable columns); a paint draws one sprite per marker on screen (drawMarker()
/// rendered once per kind and device pixel ratio), the most severe kind last (on top).
class MarkerLayer final : public MapLayer {
public:
    /// Marker diameter in logical pixels.
    static constexpr int kMarkerPx = 9;

    void sceneChanged(const MapScene& scene, unsigned changes) override;
    [[nodiscard]] unsigned paintDependsOn() const override { return ClusterChanged | ProblemsChanged; }
    [[nodiscard]] bool paintsAnything(const MapScene& scene, const MapCamera&) const override
    {
        return scene.hasMap() && !m_markers.empty();
    }
    void paint(QPainter& painter, const MapScene& scene, const MapCamera& camera) override;

    /// The marked nodes and their kinds, most severe last (for tests).
    [[nodiscard]] const std::vector<std::pair<model::NodeId, NodeMarkerKind>>& markers() const noexcept { return m_markers; }
    /// The colour a marker of `kind` is drawn in.
    [[nodiscard]] static QColor markerColor(NodeMarkerKind kind);
    /// Draws one marker of `kind` centred on `centre` (logical px) as the map draws it: the
    /// legend's key uses it, so the key cannot drift from the map. Thread: GUI thread.
    static void drawMarker(QPainter& painter, NodeMarkerKind kind, QPointF centre);
    /// What a marker of `kind` means, for the legend ("NotReady", "Cordoned", "Other problem").
    [[nodiscard]] static QString markerMeaning(NodeMarkerKind kind);

private:
    /// Side of a marker's sprite in logical px: the marker and its halo (4 px pen) with room.
    static constexpr int kSpritePx = kMarkerPx + 8;
    /// drawMarker() of `kind` centred at (kSpritePx / 2 + 0.5) in a transparent image.
    const QImage& sprite(NodeMarkerKind kind, double devicePixelRatio);

    std::vector<std::pair<model::NodeId, NodeMarkerKind>> m_markers;
    QImage m_sprites[3]; // by NodeMarkerKind
};

} // namespace fleet::views
