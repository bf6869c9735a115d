// SPDX-License-Identifier: Apache-2.0
#pragma once
// The domains-by-resource heatmap: one row per domain of a topology level, one column per
// resource (cpu, memory, GPU requested share), cells coloured by the share.

// fleetmapview.h declares NodeId as a metatype; every moc that uses NodeId must see it first.
#include "model/topology.h"
#include "views/map/fleetmapview.h"

#include <QWidget>

#include <array>

#include <memory>
#include <vector>

namespace fleet::views {

/// Paints the matrix with QPainter: a name column, then three cells per row filled with
/// shareColor(requested / allocatable over the domain's nodes) with the share written in
/// ("45.3%", in black or white, whichever reads on the fill), noDataColor() and "n/a" where
/// the domain has none of the resource (no GPUs). Only the rows in the exposed rectangle are
/// painted, so a level of thousands of domains scrolls smoothly inside a QScrollArea (the
/// widget is as tall as its rows). A click on a row emits domainActivated. Plain widget:
/// renders offscreen too. Thread: GUI thread.
class DomainHeatmap : public QWidget {
    Q_OBJECT
public:
    static constexpr int kColumnCount = 3; // cpu, memory, GPU

    explicit DomainHeatmap(QWidget* parent = nullptr);

    /// Shows the domains at depth `level` (1 = the outermost level key) of `topology`.
    /// O(nodes). A null store or topology, or a level without domains, shows nothing.
    void setCluster(std::shared_ptr<const model::ClusterStore> store, std::shared_ptr<const model::Topology> topology, int level);
    [[nodiscard]] int level() const noexcept { return m_level; }
    [[nodiscard]] int rowCount() const noexcept { return static_cast<int>(m_rows.size()); }
    [[nodiscard]] model::DomainId domainAt(int row) const noexcept;
    /// The share a cell shows (NaN for n/a); column 0 cpu, 1 memory, 2 GPU.
    [[nodiscard]] double cellShare(int row, int column) const noexcept;
    /// A cell's rectangle in widget coordinates; column -1 is the name column.
    [[nodiscard]] QRect cellRect(int row, int column) const;
    /// The row at a widget position, or -1.
    [[nodiscard]] int rowAt(const QPoint& pos) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void domainActivated(fleet::model::DomainId domain);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;

private:
    struct Row {
        model::DomainId domain;
        QString name;
        std::array<double, kColumnCount> shares {};
        std::size_t nodes = 0;
    };
    int rowHeight() const;
    int headerHeight() const;

    std::shared_ptr<const model::ClusterStore> m_store;
    std::shared_ptr<const model::Topology> m_topology;
    int m_level = 1;
    std::vector<Row> m_rows;
    int m_nameWidth = 120;
    int m_cellWidth = 84;
};

} // namespace fleet::views
