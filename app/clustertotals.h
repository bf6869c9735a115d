#pragma once
// The totals the main window's status bar shows for one cluster.

#include "importers/importreport.h"
#include "model/clusterstore.h"

#include <QString>

#include <cstdint>

namespace fleet::app {

/// Whole-cluster figures, computed once per import on the worker (one pass over the
/// node and pod columns: O(nodes + pods), ~10 ms for 100k nodes and 2M pods).
/// Units: cpu millicores, memory bytes, gpu milli-GPU (as in model/resources.h).
struct ClusterTotals {
    std::size_t nodes = 0;
    std::size_t nodesReady = 0; // Ready condition True
    std::size_t nodesNotReady = 0; // Ready False or Unknown (kubectl prints both as NotReady)
    std::size_t nodesCordoned = 0; // spec.unschedulable
    std::size_t pods = 0;
    std::size_t podsCounted = 0; // bound to a known node and not Succeeded/Failed (ClusterStore::podIsCounted)
    std::size_t podsPending = 0; // no spec.nodeName, not terminal (ClusterStore::podIsPending)
    std::int64_t gpuAllocatableMilli = 0;
    std::int64_t gpuRequestedMilli = 0;
    std::int64_t cpuAllocatableMillicores = 0;
    std::int64_t cpuRequestedMillicores = 0;
    std::int64_t memoryAllocatableBytes = 0;
    std::int64_t memoryRequestedBytes = 0;
    std::size_t warnings = 0;
};

/// Computes the totals of a finalized store. Thread: any (reads only).
[[nodiscard]] ClusterTotals computeTotals(const model::ClusterStore& store, const importers::ImportReport& report);

/// "1 warning", "12 warnings".
[[nodiscard]] QString formatWarningCount(std::size_t warnings);

/// One line for the status bar, e.g. "Nodes 2 (2 ready, 0 NotReady, 0 cordoned) | Pods 11 (11 counted,
/// 0 pending) | GPUs 0 of 0 requested | CPU 1.35 of 15.82 cores | Memory 0.6 of 59.4 GiB | 0 warnings".
[[nodiscard]] QString formatTotals(const ClusterTotals& totals);
/// formatTotals() without the warning count ("Nodes ... | Memory 0.6 of 59.4 GiB").
[[nodiscard]] QString formatClusterTotals(const ClusterTotals& totals);

} // namespace fleet::app
