// SPDX-License-Identifier: Apache-2.0
#include "mapmetric.h"

#include "model/metrics/metricregistry.h"

#include <limits>

namespace fleet::views {

using model::CoreResource;
using model::NodeId;

std::string_view mapMetricId(MapMetric metric) noexcept
{
    switch (metric) {
    case MapMetric::GpuRequested:
        return "gpu";
    case MapMetric::CpuRequested:
        return "cpu";
    case MapMetric::MemoryRequested:
        return "memory";
    }
    return "gpu";
}

std::shared_ptr<const model::Metric> mapMetric(MapMetric metric)
{
    return model::MetricRegistry::builtin().find(mapMetricId(metric));
}

std::string_view mapMetricLabel(MapMetric metric) noexcept
{
    switch (metric) {
    case MapMetric::GpuRequested:
        return "GPU requested";
    case MapMetric::CpuRequested:
        return "CPU requested";
    case MapMetric::MemoryRequested:
        return "Memory requested";
    }
    return "?";
}

std::string_view mapMetricTitle(MapMetric metric, bool fleetHasAccelerators) noexcept
{
    if (metric == MapMetric::GpuRequested)
        return model::gpuMetricTitle(fleetHasAccelerators);
    return mapMetricLabel(metric);
}

NodeMark nodeMark(const model::ClusterStore& store, NodeId n) noexcept
{
    switch (model::nodeState(store, n)) {
    case model::NodeState::NotReady:
        return NodeMark::NotReady;
    case model::NodeState::Cordoned:
        return NodeMark::Cordoned;
    case model::NodeState::Ready:
        break;
    }
    return NodeMark::None;
}

double nodeShare(const model::ClusterStore& store, NodeId n, MapMetric metric, const MetricKeys& keys) noexcept
{
    switch (metric) {
    case MapMetric::CpuRequested:
        return model::nodeCoreShare(store, n, CoreResource::Cpu);
    case MapMetric::MemoryRequested:
        return model::nodeCoreShare(store, n, CoreResource::Memory);
    case MapMetric::GpuRequested:
        return model::nodeAcceleratorShare(store, n, keys);
    }
    return std::numeric_limits<double>::quiet_NaN();
}

std::string_view nodeShareResource(const model::ClusterStore& store, NodeId n, MapMetric metric, const MetricKeys& keys) noexcept
{
    switch (metric) {
    case MapMetric::CpuRequested:
        return "CPU";
    case MapMetric::MemoryRequested:
        return "memory";
    case MapMetric::GpuRequested:
        break;
    }
    switch (model::nodeAcceleratorKind(store, n, keys)) {
    case model::AcceleratorKind::Gpu:
        return "GPU";
    case model::AcceleratorKind::Mig:
        return "MIG slices";
    case model::AcceleratorKind::Neuron:
        return "aws.amazon.com/neuron";
    case model::AcceleratorKind::None:
        break;
    }
    return "";
}

} // namespace fleet::views
