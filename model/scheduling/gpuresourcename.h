#pragma once
// The Kubernetes name of the store's Gpu resource on a node, as NodeResourcesFit's reasons
// (noderesources.cpp) and consolidation's (model/placement/consolidation.h) spell it.

#include "model/scheduling/placementstate.h"

#include <string>

namespace fleet::model {

/// alibabacloud.com/gpu-milli on the Alibaba trace's nodes (extended resource
/// alibabacloud.com/gpu-count), amd.com/gpu on nodes with amd.com/ labels, else nvidia.com/gpu.
/// Thread: any reader of the state.
[[nodiscard]] std::string gpuResourceName(const PlacementState& state, NodeId n);

} // namespace fleet::model
