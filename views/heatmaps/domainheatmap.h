// SPDX-License-Identifier: Apache-2.0
#pragma once
// The domains-by-figure heatmap: one row per domain of a topology level (named with its
// parent path), one column per figure (cpu, memory, GPU requested share; unallocated GPUs,
// fragmented GPUs, cost; the map's chosen metric), cells coloured by the value, sortable by
// any column, so that domains can be ranked by what the operator looks at.

// fleetmapview.h declares NodeId as a metatype; every moc that uses NodeId must see it first.
#include "model/topology.h"
#include "views/map/fleetmapview.h"

#include <QStringList>
#include <QWidget>

#include <array>
#include <memory>
#include <vector>

namespace fleet::model {
class Metric;
class MetricContext;
struct MetricColumn;
} // namespace fleet::model

namespace fleet::views {

/// Paints the matrix with QPainter: a name column (the domain's parent path then its name,
/// "us-west-2 / us-west-2a / nn-12", elided in the middle; the tooltip gives the full
/// label=value path), then one cell per column. The first kColumnCount columns are the
/// requested share of cpu, memory and GPU (requested / allocatable over the domain's nodes);
/// with a metric context (setMetricContext) three amount columns follow, each the sum over
/// the domain's nodes of a built-in metric: "gpu-unallocated" (GPUs), "gpu-fragmentation"
/// (GPUs, FGD) and "cost" ($/h); with a chosen metric (setChosenMetric, the map's), its
/// column is marked, added when it is none of those (e.g. "gpu-idle", "cost-unallocated"),
/// and the rows are sorted by it, highest first. Share columns are coloured by
/// shareColor(value), amount columns by shareColor(value / the column's largest value), and
/// noDataColor() with "n/a" where the domain has none of it. A click on a header cell sorts
/// by that column (again: the other way); a click on a row emits domainActivated. Only the
/// exposed rows are painted, so thousands of domains scroll smoothly inside a QScrollArea.
/// Plain widget: renders offscreen too. Thread: GUI thread.
class DomainHeatmap : public QWidget {
    Q_OBJECT
public:
    static constexpr int kColumnCount = 3; // the requested shares: cpu, memory, GPU

    explicit DomainHeatmap(QWidget* parent = nullptr);

    /// Shows the domains at depth `level` (1 = the outermost level key) of `topology`, in
    /// layout order until sorted. O(nodes). A null store or topology, or a level without
    /// domains, shows nothing. Keeps the metric context and chosen metric (recomputed).
    void setCluster(std::shared_ptr<const model::ClusterStore> store, std::shared_ptr<const model::Topology> topology, int level);
    /// The context the amount columns are computed over (its store must be the cluster's;
    /// null drops them). O(nodes), and the fragmentation metric's per-node cost.
    void setMetricContext(std::shared_ptr<const model::MetricContext> context);
    /// The map's metric and its per-node column (MapLegend::column()): its column is marked
    /// and the rows sorted by it. Categorical metrics add no column (nothing to rank by).
    /// The values are copied per domain (summed for amounts, averaged for shares). O(nodes).
    void setChosenMetric(const model::Metric& metric, const model::MetricColumn& column);
    /// The chosen metric's new values over the same fleet, its store unchanged (a plan-aware
    /// metric whose plan changed): only the chosen metric's own column is summed again and the
    /// rows sorted as before, which is what setChosenMetric() would show, without the requested
    /// shares of every domain computed again from the store. Another metric: setChosenMetric().
    /// O(nodes of the rows' domains) when it has a column of its own, else O(1).
    void setChosenValues(const model::Metric& metric, const model::MetricColumn& column);

    /// The label filter's node mask (null: every node): each domain's figures are over the
    /// nodes it keeps, and a domain it keeps none of is left out. O(nodes).
    void setNodeMask(std::shared_ptr<const std::vector<std::uint8_t>> mask);
    [[nodiscard]] int level() const noexcept { return m_level; }
    [[nodiscard]] int rowCount() const noexcept { return static_cast<int>(m_rows.size()); }
    [[nodiscard]] int columnCount() const noexcept { return static_cast<int>(m_columns.size()); }
    /// A column's header ("CPU", "Unallocated GPUs", "Cost $/h", the chosen metric's title).
    [[nodiscard]] QString columnTitle(int column) const;
    /// The column of metric `id` ("gpu-fragmentation"), or -1.
    [[nodiscard]] int columnOf(const QString& metricId) const;
    /// The column of the chosen metric, or -1.
    [[nodiscard]] int chosenColumn() const noexcept { return m_chosen; }
    [[nodiscard]] model::DomainId domainAt(int row) const noexcept;
    /// What a row's name cell says: the parent path and the name, " / " between.
    [[nodiscard]] QString rowLabel(int row) const;
    /// The tooltip of a row: its label=value path, node count and every column's value.
    [[nodiscard]] QString rowToolTip(int row) const;
    /// The share a cell shows (NaN for n/a); column 0 cpu, 1 memory, 2 GPU.
    [[nodiscard]] double cellShare(int row, int column) const noexcept;
    /// The value of any cell in its column's unit (NaN for n/a).
    [[nodiscard]] double cellValue(int row, int column) const noexcept;
    /// Sorts the rows by `column` (-1: by name); n/a cells last either way.
    void sortByColumn(int column, Qt::SortOrder order);
    [[nodiscard]] int sortColumn() const noexcept { return m_sortColumn; }
    [[nodiscard]] Qt::SortOrder sortOrder() const noexcept { return m_sortOrder; }
    /// A cell's rectangle in widget coordinates; column -1 is the name column.
    [[nodiscard]] QRect cellRect(int row, int column) const;
    /// A header cell's rectangle; column -1 is the name column's header. Two lines high.
    [[nodiscard]] QRect headerRect(int column) const;
    /// The part of a header cell the header's text is drawn in: the cell's part in view (its
    /// scroll area's viewport), so that a column cut by the dock's edge still shows its title.
    [[nodiscard]] QRect headerTextRect(int column) const;
    /// A header's text as drawn: its title (with the sort arrow) broken at spaces into at most
    /// two lines that fit headerTextRect()'s width, the second elided at its end when even that
    /// is too narrow. The whole title is in the header's tooltip.
    [[nodiscard]] QStringList headerLines(int column) const;
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
    struct Column {
        QString title;
        QString metricId; // "" for the requested shares
        QString unit; // "GPUs", "$/h"; "" for shares
        bool share = true; // values 0..1; else amounts coloured against the column's maximum
        double maximum = 0; // largest value of an amount column
    };
    struct Row {
        model::DomainId domain;
        QString label; // parent path / name
        std::size_t nodes = 0;
        std::vector<double> values; // per column
    };
    int rowHeight() const;
    int headerHeight() const;
    void rebuildColumns();
    /// Sums `perNode` over each row's nodes; a share column is their mean, weighted by
    /// `weights` (per node) when given.
    void fillColumn(int column, const std::vector<double>& perNode, bool share, const std::vector<double>* weights = nullptr);
    /// Per node, what a share metric's node values are weighted by in a domain's mean: for a
    /// requested share under a plan of `base` ("gpu", "cpu", "memory"; model/metrics/
    /// planmetrics.h) the allocatable of that resource, so that the domain's figure is
    /// requested / allocatable; empty (a plain mean) for "". O(nodes).
    [[nodiscard]] std::vector<double> shareWeights(const QString& base) const;
    [[nodiscard]] int cellWidth(int column, const QFontMetrics& fm, const QFontMetrics& bold) const;
    void sortAsBefore(); // by the column sorted last (the chosen one, first), then the layout
    [[nodiscard]] QString valueText(int row, int column) const;

    std::shared_ptr<const model::ClusterStore> m_store;
    std::shared_ptr<const model::Topology> m_topology;
    std::shared_ptr<const model::MetricContext> m_context;
    std::shared_ptr<const std::vector<std::uint8_t>> m_mask;
    std::vector<std::vector<double>> m_amountValues; // per amount column, per node (setMetricContext)
    QStringList m_amountUnits;
    std::vector<double> m_chosenValues; // per node, the chosen metric's column
    std::vector<double> m_chosenWeights; // per node, shareWeights() of the chosen metric
    QString m_chosenWeightBase; // its plan metric's base id, "" for a plain mean
    QString m_chosenId, m_chosenTitle, m_chosenUnit;
    bool m_chosenShare = true;
    int m_level = 1;
    std::vector<Column> m_columns;
    std::vector<Row> m_rows;
    int m_chosen = -1;
    bool m_chosenAppended = false; // m_chosen is the chosen metric's own column, the last
    int m_sortColumn = -2; // -2: layout order
    Qt::SortOrder m_sortOrder = Qt::DescendingOrder;
    int m_nameWidth = 120;
    std::vector<int> m_cellWidths;
};

} // namespace fleet::views
