#pragma once
// The text the fleet map shows for one node (hover tooltip).

#include "views/map/mapmetric.h"

#include <QString>

namespace fleet::model {
class Topology;
}

namespace fleet::views {

/// Rich text (a small HTML table) naming node n and its figures: name, its whole topology
/// domain path when `topology` is given ("us-east-1 / us-east-1a / nn-1 / nn-2 / nn-3",
/// outermost first, the names of its leaf domain and every ancestor but the root, so that a
/// domain too small on screen for its label is still named), instance type and GPU model,
/// requested / allocatable CPU (cores), memory (GiB), GPU (whole GPUs, from milli-GPU), MIG
/// slices per nvidia.com/mig-* resource where present, Neuron devices where present, pods
/// (counted / allocatable), Ready, cordoned, and the share the map colours it by.
/// `topology`, when not null, must have been built over `store`.
/// Thread: any (reads the store and topology only).
[[nodiscard]] QString nodeToolTip(
    const model::ClusterStore& store, model::NodeId n, MapMetric metric, const model::Topology* topology = nullptr);

} // namespace fleet::views
