// SPDX-License-Identifier: Apache-2.0
// Karpenter's emptiness and multi-node consolidation, deletion only (karpenterbaseline.h).
#include "karpenterbaseline.h"

#include "consolidation_p.h"

#include <algorithm>
#include <iterator>

namespace fleet::model {

ConsolidationResult karpenterMultiNodeConsolidation(const ClusterStore& store, const Topology& topology, const ConsolidationInput& input,
    const ConsolidationOptions& options)
{
    consolidation_detail::DrainRunner runner(store, topology, input, options);
    std::vector<NodeId> candidates = runner.candidates();
    std::stable_sort(candidates.begin(), candidates.end(), [&](NodeId a, NodeId b) {
        if (runner.disruptionCost(a) != runner.disruptionCost(b))
            return runner.disruptionCost(a) < runner.disruptionCost(b);
        return store.nodeName(a) < store.nodeName(b);
    });
    const std::size_t total = candidates.size();
    // Emptiness (emptiness.go): every candidate without a reschedulable pod goes in one
    // command, before consolidation looks at the rest. DaemonSet and mirror pods are not
    // reschedulable (they go with their node), so a node holding only those is empty. A node
    // the all-at-once command cannot take (a node-group minimum) is tried alone.
    {
        std::vector<NodeId> empty;
        std::copy_if(candidates.begin(), candidates.end(), std::back_inserter(empty), [&](NodeId n) { return runner.movableCount(n) == 0; });
        if (!empty.empty() && !runner.cancelled()) {
            std::vector<NodeId> deleted;
            if (runner.tryDrainBatch(empty)) {
                deleted = empty;
            } else {
                for (NodeId n : empty)
                    if (!runner.cancelled() && runner.tryDrainBatch({ n }))
                        deleted.push_back(n);
            }
            std::sort(deleted.begin(), deleted.end());
            std::erase_if(candidates, [&](NodeId n) { return std::binary_search(deleted.begin(), deleted.end(), n); });
        }
    }
    constexpr std::size_t kMaxBatch = 100;
    while (candidates.size() >= 2 && !runner.cancelled()) {
        runner.progress(1.0 - static_cast<double>(candidates.size()) / static_cast<double>(std::max<std::size_t>(1, total)));
        // firstNConsolidationOption: prefixes [0, mid] for mid in [1, max], binary search for the
        // longest that can be deleted. A prefix that holds is kept applied while longer ones are
        // tried (the drains of a longer prefix start with the same drains), undone when it fails.
        const std::size_t batch = std::min(kMaxBatch, candidates.size());
        std::size_t lo = 1, hi = batch - 1, best = 0;
        std::vector<NodeId> applied;
        while (lo <= hi && !runner.cancelled()) {
            const std::size_t mid = (lo + hi) / 2;
            const std::vector<NodeId> more(candidates.begin() + static_cast<std::ptrdiff_t>(applied.size()),
                candidates.begin() + static_cast<std::ptrdiff_t>(mid + 1));
            if (mid + 1 > applied.size() && runner.tryDrainBatch(more)) {
                applied.insert(applied.end(), more.begin(), more.end());
                best = mid + 1;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        if (best < 2)
            break;
        candidates.erase(candidates.begin(), candidates.begin() + static_cast<std::ptrdiff_t>(best));
    }
    runner.progress(1.0);
    return runner.finish("karpenter-multi-node");
}

} // namespace fleet::model
