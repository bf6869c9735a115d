// SPDX-License-Identifier: Apache-2.0
#pragma once
// FGD's target workload: the typical pods of a pod list and their probabilities, and a node's
// fragmentation against them (Weng et al., "Beware of Fragmentation: Scheduling GPU-Sharing
// Workloads with Fragmentation Gradient Descent", USENIX ATC '23, section 4; PROTOCOL.md
// section 4.1 and simulator pkg/utils/frag.go, GetTypicalPods).
//
// Thread: pure functions; any thread.

#include "model/placement/placementpolicy.h"

#include <string>
#include <vector>

namespace fleet::model {

/// One typical pod: a pod shape, the GPU models it accepts (empty: any) and its probability.
struct TypicalPod {
    PodShape shape;           // cpu, m, k (memory not part of the key: 0)
    std::string spec;         // the accepted models joined by '|' as the key compares them
    std::vector<std::string> models;
    double probability = 0;
    std::size_t count = 0;    // pods of the list with this key
};

struct TypicalPodOptions {
    bool includeCpuOnly = true;     // the FGD reproduction counts CPU-only pods (PROTOCOL.md 1.3)
    bool includeDaemonSets = true;  // the map metric leaves DaemonSet pods out
    double coverage = 0.95;         // keep the most common keys until this share of the pods
};

/// The GPU models pod `p` accepts: the values of its required node affinity terms on
/// alibabacloud.com/gpu-card-model (the trace importer's gpu_spec), in their order; empty when
/// it accepts any.
[[nodiscard]] std::vector<std::string> podGpuModels(const ClusterStore& store, PodId p);

/// The typical pods of `pods` (store pods; a pod may be listed once): pods grouped by
/// (cpu, m, k, accepted models), groups by count descending (ties: cpu, m, k, spec, each
/// descending), kept until their count reaches `coverage` of the pods, probabilities
/// count / kept count. Empty when no pod is left.
/// The FGD reproduction passes the whole distribution (coverage 1) to the policies, which
/// cut it themselves (FGD at 95%, limitCoverage()).
[[nodiscard]] std::vector<TypicalPod> typicalPods(
    const ClusterStore& store, std::span<const PodId> pods, const TypicalPodOptions& options = {});

/// The first typical pods of `sorted` (typicalPods()'s order) whose counts reach `coverage`
/// of all their counts, probabilities renormalised over those kept; `sorted` itself when the
/// counts are all 0 (a hand-made distribution) or coverage >= 1.
[[nodiscard]] std::vector<TypicalPod> limitCoverage(std::vector<TypicalPod> sorted, double coverage);

/// For one node: which typical pods its GPU model allows (byte per typical pod).
[[nodiscard]] std::vector<std::uint8_t> typicalModelsAllowed(std::string_view nodeModel, const std::vector<TypicalPod>& typical);

/// FGD's fragmentation of a node in milli-GPU (PROTOCOL.md 4.1): for each typical pod t,
/// with Σ the node's free milli-GPU: Σ when t is CPU-only, its model is not allowed, or it
/// does not fit (fewer than k GPUs with m free, or less cpu than it asks); else the free
/// milli-GPU of the GPUs with less than m free; weighted by p_t and summed.
/// `gpuFree` holds the free milli-GPU of each GPU, `allowed` typicalModelsAllowed().
[[nodiscard]] double nodeFragmentation(std::int64_t cpuFree, std::span<const std::int32_t> gpuFree,
    const std::vector<TypicalPod>& typical, std::span<const std::uint8_t> allowed) noexcept;

} // namespace fleet::model
