// SPDX-License-Identifier: Apache-2.0
#pragma once
// The pods of one node that hold allocated-but-idle GPUs ("with the pods that hold them
// in the node inspector"), as a table over a usage source's list (model::ClusterUsage::idleGpus).
// The idle rule is the usage source's (importers/prometheus/usagequery.h, the simulated
// cluster's importers/simulated/simulatedusage.h), the one the "gpu-idle" map metric counts
// (model/metrics/usagemetrics.h): this model only groups that list by pod, it judges nothing.

#include "model/clusterstore.h"
#include "model/usage.h"

#include <QAbstractTableModel>

#include <memory>
#include <vector>

namespace fleet::views {

/// One row per pod holding idle GPUs on the node. Columns: namespace, pod, the GPUs the pod
/// holds (its effective GPU request, "2", "0.5"), how many of them are idle (count; "1 (1
/// shared)" where the device is shared with other pods, each of which has its row), the
/// highest utilization of any sample of the window over those GPUs ("1.2%"), the devices
/// (dcgm-exporter's `gpu` indexes, "0, 3"; "" when the source names none) and how long they
/// have been idle: the window, "1 h or more" (the rule reads the window only, so nothing
/// longer is claimed; the tooltip gives the window's start and end, ISO 8601 UTC).
/// kSortRole: milli-GPU, the count, the ratio 0..1, the first device (-1: none), seconds; the
/// text otherwise. Rows in pod id order.
///
/// idleGpuCount() and idleGpusText() tell the node's state as the inspector's title shows it:
/// a count, or unknown (no usage source, a usage of another snapshot, no figures for the
/// node's GPUs), never 0 for unknown ("No data is unknown, never idle").
/// Thread: GUI thread.
class IdleGpusModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { NamespaceColumn, PodColumn, HeldColumn, GpusColumn, PeakColumn, DevicesColumn, IdleForColumn, ColumnCount };

    explicit IdleGpusModel(QObject* parent = nullptr);

    /// Shows node `node`'s idle GPUs from `usage` (for `store`: the same node count, else no
    /// rows). Null store or usage, an invalid node, a node without figures: no rows.
    void setNode(std::shared_ptr<const model::ClusterStore> store, std::shared_ptr<const model::ClusterUsage> usage, model::NodeId node);
    /// The node's allocated-but-idle GPU count as the map metric shows it (ClusterUsage::
    /// idleAllocatedGpus), -1 when unknown (no usage, no figures for its GPUs).
    [[nodiscard]] std::int32_t idleGpuCount() const noexcept { return m_idleCount; }
    /// The node's line: "2 allocated GPUs idle for 1 h or more (below 5%), held by 1 pod",
    /// "none of the node's 4 measured GPUs idle for 1 h (below 5%)", "unknown: no usage
    /// data for this node's GPUs" or "unknown: no usage source"; "" without a node.
    [[nodiscard]] QString idleGpusText() const;
    /// The pod of a row (invalid outside the rows).
    [[nodiscard]] model::PodId podAt(int row) const noexcept;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row {
        model::PodId pod;
        int gpus = 0;
        int sharedGpus = 0; // of gpus, devices other pods hold too (IdleGpu::sharedBy > 1)
        double peak = 0;
        std::vector<std::int32_t> devices;
    };
    std::shared_ptr<const model::ClusterStore> m_store;
    std::shared_ptr<const model::ClusterUsage> m_usage;
    std::vector<Row> m_rows;
    std::int32_t m_idleCount = -1;
    bool m_hasNode = false;
};

} // namespace fleet::views
