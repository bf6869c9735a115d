// SPDX-License-Identifier: Apache-2.0
#pragma once
// The fleet map's legend, for every metric: title, unit and caption; a colour bar with
// ticks in the metric's units (continuous scales) or swatches with node counts, the most
// common first, then "other" (categorical); the not-applicable swatch with its count; the
// NotReady and cordoned marks with their counts; and totals where they mean something
// (cost: the fleet's total per hour and the prepaid part; unallocated GPUs: their sum).
// Figures through model/figures.h.

#include "views/map/colormap.h"
#include "views/map/mapmetric.h"
#include "views/map/mapmetricmodel.h"

#include <QStringList>
#include <QWidget>

#include <array>
#include <memory>
#include <utility>
#include <vector>

namespace fleet::views {

/// A plain Qt widget painted with QPainter, placed beside the map's GL widget.
/// Thread: GUI thread.
class MapLegend : public QWidget {
    Q_OBJECT
public:
    /// A legend over its own MapMetricModel (setMetric() and setContext() fill it).
    explicit MapLegend(QWidget* parent = nullptr);
    /// A legend that draws `metrics` (not owned; it must outlive the legend), as the fleet map's
    /// legend draws the map's. setMetric() and setContext() set that model.
    MapLegend(MapMetricModel* metrics, QWidget* parent);
    /// Shows `metric` (never null); recomputes its column over the context; repaints.
    void setMetric(std::shared_ptr<const model::Metric> metric);
    /// Shows the built-in metric of a MapMetric.
    void setMetric(MapMetric metric);
    /// The MapMetric of the metric shown when it is gpu, cpu or memory; GpuRequested otherwise.
    [[nodiscard]] MapMetric metric() const noexcept;
    /// The metric shown.
    [[nodiscard]] const model::Metric& currentMetric() const noexcept { return *m_model->metric(); }
    /// The fleet the counts and totals are over (shared: the legend keeps it); null clears.
    /// Recomputes the column (O(nodes)).
    void setContext(std::shared_ptr<const model::MetricContext> context);
    /// Whether the fleet has accelerators, for the "gpu" title without a context (with one,
    /// the context says). Default true.
    void setFleetHasAccelerators(bool has);
    [[nodiscard]] bool fleetHasAccelerators() const noexcept;
    /// The map's problem markers by kind (MarkerLayer::markers()): the legend's marker key
    /// shows each kind's shape with its count. Unset: the key shows the shapes without counts.
    void setMarkerCounts(std::size_t notReady, std::size_t cordoned, std::size_t otherProblems);
    /// The marker kinds the map does not draw (View > Markers off; bit 1 << NodeMarkerKind):
    /// their key rows keep the real count, greyed, and say so ("NotReady: 501 (hidden)"), since
    /// a 0 would read as a healthy fleet. Default none.
    void setHiddenMarkerKinds(unsigned kinds);
    /// Whether the key lists the drag's mark ("Fits dragged pod"): only while a pod is dragged
    /// (FleetMapView::setDragShading() sets it), the one time the map draws it; a key row for a
    /// mark that cannot appear (a screenshot, a report's maps, the window at rest) misleads.
    /// Default false.
    void setDragKeyShown(bool shown);
    /// Whether the key lists the boxes a detailed cell draws, one per GPU (or MIG slice, or
    /// Neuron device) filled as it is allocated ("Box: one GPU, filled as allocated", drawn by
    /// NodeDetailLayer::drawDeviceTile()): only while the map's cells are large enough for them
    /// (NodeDetailLayer::kDetailMinPx; FleetMapView sets it as the camera moves) and the fleet
    /// has accelerators. Default false.
    void setDetailKeyShown(bool shown);
    /// The plan's marks by kind, in PlanMarkKind order (changed, override, emptied, drained or
    /// failed; PlanLayer draws them): below the marker key, the key "Plan" shows each kind that
    /// marks a node with the mark drawn over a cell and its count. All zero (the default, and
    /// without a plan): no plan key.
    void setPlanMarkCounts(const std::array<std::size_t, 4>& counts);
    /// The nodes the swatches' counts (not applicable, NotReady, cordoned) are over, by NodeId
    /// index (non-zero: counted): a map zoomed to a domain counts the domain, not the fleet (a
    /// report's zoomed maps). Null (the default): every node of the context's store. The
    /// marker and plan keys' counts are given by their setters. O(nodes) per paint while set.
    void setCountedNodes(std::shared_ptr<const std::vector<std::uint8_t>> nodes);
    /// The title the legend shows now ("GPU requested", "Cost", ...).
    [[nodiscard]] QString title() const;
    /// The unit line ("% of allocatable", "$/h", "" for categories).
    [[nodiscard]] QString unit() const;
    /// Every text line below the title, top to bottom: tick labels (highest first), swatch
    /// entries ("p5.48xlarge: 1,234"), the not-applicable and mark entries, the totals,
    /// then the marker key ("Markers", "NotReady: 501", "Cordoned: 701", "Other problem: 12",
    /// during a drag only, "Fits dragged pod": the plan layer's feasible-node square, and on
    /// detailed cells "Box: one GPU, filled as allocated"),
    /// then under a plan the plan key ("Plan", "Removed: 22,944", ...).
    /// For tests and accessibility.
    [[nodiscard]] QStringList entries() const;
    /// The column of the metric over the context (empty without a context).
    [[nodiscard]] const model::MetricColumn& column() const noexcept { return m_model->column(); }
    /// The fleet the column is over (null without one).
    [[nodiscard]] const std::shared_ptr<const model::MetricContext>& context() const noexcept { return m_model->context(); }
    [[nodiscard]] QSize sizeHint() const override;
    [[nodiscard]] QSize minimumSizeHint() const override;
    /// The whole text of the swatch or marker-key row painted at `pos` (widget coordinates,
    /// as of the last paint), "" when none: a marker-key row too long for the legend's width is
    /// elided in the middle and its tooltip gives it whole; a swatch's label wraps under itself
    /// instead (a printed legend has no tooltip).
    [[nodiscard]] QString rowTextAt(const QPoint& pos) const;
    /// Whether the row at `pos` was painted shortened.
    [[nodiscard]] bool rowElidedAt(const QPoint& pos) const;

signals:
    /// The column was computed again: another metric, another fleet, or the same metric's
    /// new values (a plan-aware metric whose plan changed).
    void columnChanged();
    /// The fleet context was set again (MapMetricModel::contextChanged): another fleet, or the
    /// same store after live changes (the same context object, its figures new).
    void contextChanged();

protected:
    void paintEvent(QPaintEvent* event) override;
    bool event(QEvent* event) override;

private:
    struct PaintedRow {
        QRect rect;
        QString text; // whole
        bool elided = false;
    };
    std::vector<PaintedRow> m_rows; // swatch and marker-key rows of the last paint
    struct Swatch {
        QColor colour;
        QString text;
    };
    /// What is drawn at a size: on a short map the colour bar's height, then the marker key,
    /// the plan rows' wrapping, the caption and the totals give way, in that order, so that the
    /// plan key is whole; minimumHeight is the least height that holds it so (the window hides
    /// the legend on a shorter map, MainWindow::updateLegendVisibility()).
    struct Layout {
        int bar = 0; // the colour bar's least height
        bool markers = true, wrapPlan = true, caption = true, totals = true;
        int belowBar = 0; // the height under the colour bar (swatches, totals, keys)
        int minimumHeight = 0;
    };
    [[nodiscard]] Layout layoutFor(int widthPx, int heightPx) const;
    /// minimumSizeHint()'s height; a change is told to the layout (and the window).
    void setMinimumHeightPx(int heightPx);
    [[nodiscard]] QFont boldFont() const;
    [[nodiscard]] QFont captionFont() const;
    [[nodiscard]] QString captionText() const;
    /// The NotReady and cordoned counts of the context's store (on each new context).
    void countMarks();
    [[nodiscard]] QStringList tickLabels() const;
    [[nodiscard]] std::vector<Swatch> swatches() const;
    [[nodiscard]] QStringList totals() const;
    [[nodiscard]] QStringList markerKeyTexts() const; // NotReady, Cordoned, Other problem (MarkerLayer order reversed), Feasible
    /// The plan key's rows and the kind of each (PlanMarkKind as an int), kinds with a count only.
    [[nodiscard]] std::vector<std::pair<int, QString>> planKeyRows() const;
    /// Whether the marker key ends with the detailed cells' device box (setDetailKeyShown()).
    [[nodiscard]] bool detailKeyShown() const;

    MapMetricModel* m_model; // the metric, its fleet and column (mapmetricmodel.h)
    std::size_t m_notReady = 0;
    std::size_t m_cordoned = 0;
    bool m_markerCountsKnown = false;
    bool m_dragKeyShown = false;
    bool m_detailKeyShown = false;
    unsigned m_hiddenMarkerKinds = 0; // bit 1 << NodeMarkerKind
    std::size_t m_markerCounts[3] = { 0, 0, 0 }; // by NodeMarkerKind
    std::array<std::size_t, 4> m_planMarkCounts {}; // by PlanMarkKind
    bool m_fleetHasAccelerators = true;
    int m_minimumHeight = 260; // minimumSizeHint(): more while the plan key needs it (paintEvent())
    std::shared_ptr<const std::vector<std::uint8_t>> m_counted; // setCountedNodes(); null: every node
};

/// A difference of shares as a signed percentage with the decimals it needs: 0.25 -> "+25%",
/// -0.075 -> "-7.5%", 0 -> "0%". Thread: any.
[[nodiscard]] QString legendSignedPercent(double share);
/// What a diverging scale spans, for its legend and captions: "Changed: N nodes" and
/// "Scale ±E: M beyond, at the ends" (MetricColorScale::changed, beyond; E in the metric's
/// unit); empty for other scales. Thread: any.
[[nodiscard]] QStringList legendScaleRange(const model::Metric& metric, const MetricColorScale& scale);

/// Tick labels of a continuous scale from its lowest to its highest value: 5 ticks, in the
/// metric's unit ("0%".."100%", "$0/h".."$100/h", "0".."10 GPUs"). Thread: any.
[[nodiscard]] QStringList legendTickLabels(const model::Metric& metric, const MetricColorScale& scale);

} // namespace fleet::views
