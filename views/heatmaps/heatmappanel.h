// SPDX-License-Identifier: Apache-2.0
#pragma once
// The heatmap panel: the domains-by-resource matrix of a chosen level beside the histogram
// of all nodes' utilization.

// fleetmapview.h declares NodeId as a metatype; every moc that uses NodeId must see it first.
#include "model/topology.h"
#include "views/map/fleetmapview.h"

#include <QPointer>
#include <QWidget>

#include <memory>

class QComboBox;
class QLabel;
class QScrollArea;
class QTimer;

namespace fleet::views {

class DomainHeatmap;
class MapLegend;
class UtilizationHistogram;

/// A level chooser (the topology's level keys; the first one with more than one domain by
/// default), a scrolling DomainHeatmap, and a UtilizationHistogram over every node of the
/// cluster (the map's GPU metric). A click on a heatmap row emits domainActivated.
/// Thread: GUI thread.
class HeatmapPanel : public QWidget {
    Q_OBJECT
public:
    explicit HeatmapPanel(QWidget* parent = nullptr);

    void setCluster(std::shared_ptr<const model::ClusterStore> store, std::shared_ptr<const model::Topology> topology);
    /// Shows the domains at depth `level` (1 = outermost).
    void setLevel(int level);
    /// Follows the map's legend: its metric becomes the heatmap's chosen column (rows sorted
    /// by it) and its fleet context gives the amount columns (unallocated and fragmented
    /// GPUs, cost), on every MapLegend::columnChanged. When the legend's context is set again
    /// over a changed store (live batches), the amount columns and the histogram are computed
    /// again at most once per kLiveRefreshMs, and only while the panel is shown (else when it
    /// is next shown): O(nodes) each time. Null stops following.
    void followLegend(MapLegend* legend);
    /// The label filter's node mask (null: none): the heatmap's rows and figures are over the
    /// nodes it keeps, and a line above them says so (scopeText()); the histogram stays over
    /// every node and says so too.
    void setNodeMask(std::shared_ptr<const std::vector<std::uint8_t>> mask);
    /// That line ("" while no filter is set).
    [[nodiscard]] QString scopeText() const;
    [[nodiscard]] DomainHeatmap* heatmap() const noexcept { return m_heatmap; }
    [[nodiscard]] UtilizationHistogram* histogram() const noexcept { return m_histogram; }
    [[nodiscard]] QComboBox* levelBox() const noexcept { return m_level; }

    /// The longest the amount columns and histogram lag a live store's changes (ms).
    static constexpr int kLiveRefreshMs = 1000;

signals:
    void domainActivated(fleet::model::DomainId domain);

protected:
    void showEvent(QShowEvent* event) override;

private:
    /// The histogram of the GPU metric over every node of the store.
    void updateHistogram();
    /// Amount columns and histogram over the store as it is now.
    void refreshFigures();

    std::shared_ptr<const model::ClusterStore> m_store;
    std::shared_ptr<const model::Topology> m_topology;
    QComboBox* m_level = nullptr;
    QLabel* m_scope = nullptr;
    QScrollArea* m_scroll = nullptr;
    DomainHeatmap* m_heatmap = nullptr;
    UtilizationHistogram* m_histogram = nullptr;
    QPointer<MapLegend> m_legend;
    QMetaObject::Connection m_legendConnection;
    QMetaObject::Connection m_contextConnection;
    const void* m_legendContext = nullptr; // the context the heatmap's amount columns are over
    QTimer* m_liveRefresh = nullptr;
    bool m_figuresStale = false; // the store changed since the amounts and histogram were computed
    bool m_storeChanged = false; // contextChanged() of the same context since the last columnChanged()
};

} // namespace fleet::views
