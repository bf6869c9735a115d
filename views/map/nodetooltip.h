#pragma once
// The text the fleet map shows for one node (hover tooltip).

#include "views/map/mapmetric.h"

#include <QString>

namespace fleet::views {

/// Rich text (a small HTML table) naming node n and its figures: name, instance type and
/// GPU model, requested / allocatable CPU (cores), memory (GiB), GPU (whole GPUs, from
/// milli-GPU), Neuron devices where present, pods (counted / allocatable), Ready, cordoned,
/// and the share the map colours it by. Thread: any (reads the store only).
[[nodiscard]] QString nodeToolTip(const model::ClusterStore& store, model::NodeId n, MapMetric metric);

} // namespace fleet::views
