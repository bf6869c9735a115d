// SPDX-License-Identifier: Apache-2.0
#pragma once
// The Kubernetes name of the store's Gpu resource on a node, as NodeResourcesFit's reasons
// (noderesources.cpp) and consolidation's (model/search/consolidation.h) spell it.

#include "model/scheduling/planledger.h"

#include <string>
#include <string_view>

namespace fleet::model {

/// alibabacloud.com/gpu-milli on the Alibaba trace's nodes (extended resource
/// alibabacloud.com/gpu-count), amd.com/gpu on nodes with amd.com/ labels, else nvidia.com/gpu.
/// Thread: any reader of the state.
[[nodiscard]] std::string gpuResourceName(const PlanLedger& state, NodeId n);

/// The Alibaba trace's GPU count (an extended resource): NodeResourcesFit does not judge it on a
/// node whose GPUs the ledger tracks (PlanLedger::nodeGpuShares() not empty), where each
/// GPU's share is judged instead (a pod sharing one GPU asks for "1" without holding a whole one).
inline constexpr std::string_view kTraceGpuCountResource = "alibabacloud.com/gpu-count";

} // namespace fleet::model
