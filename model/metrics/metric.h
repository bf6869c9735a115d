// SPDX-License-Identifier: Apache-2.0
#pragma once
// A metric: what the fleet map, its legend, the heatmaps and `screenshot --metric` colour
// nodes by. One interface, one small file per metric (builtinmetrics.h lists them), found
// by id in the MetricRegistry (metricregistry.h).
//
// A metric gives, per node, a value in its unit or "not applicable" (NaN: the node has
// none of what the metric measures, e.g. a CPU-only node under "gpu", or an instance type
// without a price under "cost"); a categorical metric gives a category code per node
// (an integer, named by categoryName()). The plan's metrics (planmetrics.h: after, or after
// minus before with ScaleKind::Diverging) use the same interface over a PlanLedger.
//
// Pure C++ over the model. Thread: a Metric is immutable and safe from any thread; a
// MetricContext is built on one thread and then read from any.

#include "model/clusterstore.h"
#include "model/metrics/accelerators.h"
#include "model/pricing/pricetable.h"

#include <cstdint>
#include <limits>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace fleet::model {

struct TypicalPod;

/// How a metric's values map to colour.
enum class ScaleKind : std::uint8_t {
    Share, ///< a share, 0..1 (over 1 clamps): a sequential map, viridis
    Amount, ///< an amount, 0..the fleet's maximum: a sequential map
    Diverging, ///< a signed difference around 0 (after minus before): a diverging map
    Categorical ///< a category per node: a categorical palette
};

/// Everything a metric reads besides the node: the store, the accelerator keys, whether the
/// fleet has accelerators, and each node's price (when a price table is given).
/// O(nodes) to build (one pass for fleetHasAccelerators, one for prices when given).
/// The store and the price table must outlive the context and not be mutated meanwhile.
class MetricContext {
public:
    /// Throws std::bad_alloc only.
    explicit MetricContext(const ClusterStore& store, const PriceTable* prices = nullptr);

    [[nodiscard]] const ClusterStore& store() const noexcept { return *m_store; }
    [[nodiscard]] const MetricKeys& keys() const noexcept { return m_keys; }
    /// model::fleetHasAccelerators() of the store.
    [[nodiscard]] bool fleetHasAccelerators() const noexcept { return m_fleetHasAccelerators; }
    /// Whether a price table was given.
    [[nodiscard]] bool hasPrices() const noexcept { return m_prices != nullptr; }
    /// Node n's price in $/h: the table's row for (nodeRegion(), instance type,
    /// nodeCapacityType()); NaN when no table was given or it has no row.
    [[nodiscard]] double nodeDollarsPerHour(NodeId n) const noexcept
    {
        return n.index() < m_nodePrice.size() ? m_nodePrice[n.index()] : std::numeric_limits<double>::quiet_NaN();
    }
    /// Node n's capacity type (nodeCapacityType(), cached; OnDemand without a price table).
    [[nodiscard]] CapacityType nodeCapacity(NodeId n) const noexcept
    {
        return n.index() < m_nodeCapacity.size() ? m_nodeCapacity[n.index()] : CapacityType::OnDemand;
    }

    /// FGD's target workload for the "gpu-fragmentation" metric: typicalPods()
    /// (placement/typicalpods.h) of the store's pods that are running or pending and ask for
    /// GPUs, DaemonSet and mirror pods left out (with CPU-only pods in, every idle GPU would
    /// count as a fragment), the most common shapes up to 95% of those pods, as FGD cuts them.
    /// Empty when no such pod exists. Computed on first use, O(pods log shapes), once per
    /// context; thread-safe.
    [[nodiscard]] const std::vector<TypicalPod>& gpuTypicalPods() const;

private:
    const ClusterStore* m_store;
    const PriceTable* m_prices;
    mutable std::once_flag m_typicalOnce;
    mutable std::shared_ptr<const std::vector<TypicalPod>> m_typical;
    MetricKeys m_keys;
    bool m_fleetHasAccelerators = false;
    std::vector<double> m_nodePrice;
    std::vector<CapacityType> m_nodeCapacity;
};

/// Per-node flags a metric may raise beside its value (bit mask).
enum MetricFlag : std::uint8_t {
    kMetricFlagNone = 0,
    /// The value is a cost already paid (a prepaid capacity type): shown, but summed apart.
    kMetricFlagPrepaid = 1,
};

/// The metric interface. Implementations are stateless.
class Metric {
public:
    virtual ~Metric() = default;
    /// Stable id: "gpu", "cpu", "memory", "gpu-unallocated", "gpu-fragmentation", "cost",
    /// "cost-unallocated", "state", "label:KEY".
    [[nodiscard]] virtual std::string id() const = 0;
    /// Title for a legend or menu ("GPU requested", "Cost").
    [[nodiscard]] virtual std::string title() const = 0;
    /// Unit of value(): "% of allocatable" (a share, shown as percent), "GPUs", "$/h"; ""
    /// for categorical metrics.
    [[nodiscard]] virtual std::string unit() const = 0;
    /// One sentence on what the value is, for the legend's caption.
    [[nodiscard]] virtual std::string description() const = 0;
    [[nodiscard]] virtual ScaleKind scale() const = 0;
    /// Node n's value in unit(), or NaN when the metric does not apply to it. For
    /// categorical metrics a category code (a non-negative integer) or NaN.
    /// Hot: called once per node per raster. Thread: any.
    [[nodiscard]] virtual double value(const MetricContext& context, NodeId n) const noexcept = 0;
    /// Flags of node n's value (MetricFlag bits); none by default.
    [[nodiscard]] virtual std::uint8_t flags(const MetricContext& context, NodeId n) const noexcept;
    /// Categorical metrics: the name of category `code` ("Ready", "p5.48xlarge"). "" otherwise.
    [[nodiscard]] virtual std::string categoryName(const MetricContext& context, std::int64_t code) const;
    /// Categorical metrics whose categories have a fixed order and count (node state): the
    /// number of codes, 0..count-1, listed in that order. 0 (the default) means "order by
    /// node count", as for labels.
    [[nodiscard]] virtual int fixedCategoryCount() const noexcept { return 0; }
    /// Why a node can have no value, for "not applicable" in a legend or tooltip: "no GPUs",
    /// "unknown price", "no such label"; "" when there is nothing more to say.
    [[nodiscard]] virtual std::string notApplicableReason() const { return {}; }
    /// Whether the NotReady and cordoned marks override this metric's colour on the map:
    /// true except for categorical metrics, whose colour is the category (the state metric
    /// shows the marks as its categories).
    [[nodiscard]] virtual bool marksOverride() const noexcept { return scale() != ScaleKind::Categorical; }
};

/// One category of a computed categorical column.
struct MetricCategory {
    std::int64_t code = 0;
    std::string name;
    std::size_t nodes = 0;
};

/// A metric evaluated over every node, with what a legend needs.
struct MetricColumn {
    /// Per node (index = NodeId): value() of the metric.
    std::vector<double> values;
    /// Nodes whose value is NaN.
    std::size_t notApplicable = 0;
    /// Minimum, maximum and sum of the finite values (0 when there are none).
    double minValue = 0;
    double maxValue = 0;
    double total = 0;
    /// Sum of the finite values flagged kMetricFlagPrepaid (included in `total`).
    double prepaidTotal = 0;
    /// Categorical only: the categories, in fixed order or by node count (most first,
    /// then by name); and per node its rank in `categories` (-1 when not applicable).
    std::vector<MetricCategory> categories;
    std::vector<std::int32_t> categoryRank;
};

/// Evaluates `metric` on every node of context.store(). O(nodes) plus, for categorical
/// metrics, O(categories log categories). Throws std::bad_alloc only. Thread: any.
[[nodiscard]] MetricColumn computeMetricColumn(const Metric& metric, const MetricContext& context);

} // namespace fleet::model
