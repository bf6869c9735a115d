// SPDX-License-Identifier: Apache-2.0
#pragma once
// The heatmap panel: the domains-by-resource matrix of a chosen level beside the histogram
// of all nodes' utilization.

// fleetmapview.h declares NodeId as a metatype; every moc that uses NodeId must see it first.
#include "model/topology.h"
#include "views/map/fleetmapview.h"

#include <QWidget>

#include <memory>

class QComboBox;
class QScrollArea;

namespace fleet::views {

class DomainHeatmap;
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
    [[nodiscard]] DomainHeatmap* heatmap() const noexcept { return m_heatmap; }
    [[nodiscard]] UtilizationHistogram* histogram() const noexcept { return m_histogram; }
    [[nodiscard]] QComboBox* levelBox() const noexcept { return m_level; }

signals:
    void domainActivated(fleet::model::DomainId domain);

private:
    std::shared_ptr<const model::ClusterStore> m_store;
    std::shared_ptr<const model::Topology> m_topology;
    QComboBox* m_level = nullptr;
    QScrollArea* m_scroll = nullptr;
    DomainHeatmap* m_heatmap = nullptr;
    UtilizationHistogram* m_histogram = nullptr;
};

} // namespace fleet::views
