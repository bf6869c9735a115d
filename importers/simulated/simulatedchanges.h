// SPDX-License-Identifier: Apache-2.0
#pragma once
// The changes of a simulated live cluster ("Simulated live feed"): pods arrive and
// finish, nodes fail (NotReady) and recover, and when a node of a training gang fails the
// gang's pods go back to Pending (recreated: same names, new uids, as a Job or JobSet
// controller recreates them), all as model::ClusterChangeBatch values, the same batches a
// Kubernetes watch produces (model/clusterchange.h).
//
// The source keeps its own copy of the cluster and applies every batch it hands out to it with
// model::applyChanges(), so that it always knows what is bound where; a consumer that started
// from the same store and applies the same batches holds the same store, ids included.
//
// The mix of one batch, by event (one event = one object changed, as a watch counts them):
//   pod arrives (a copy of a running Deployment/Job pod, on a node of its workload where it fits,
//   else Pending) 30%; a running pod finishes (a Job's pod Succeeded, any other deleted) 25%;
//   a finished pod deleted 15%; a pending pod bound where it fits 10%; a pod's status updated
//   (its Ready condition flips; no load change) 10%; a node fails 5%; a failed node recovers 5%.
// Determinism: batch k of a source depends only on the store it started from, its seed and
// the event counts asked for (DeterministicRng; no hash-table order reaches the output).
// Thread: one thread at a time (the feed's).

#include "model/clusterchange.h"

#include "importers/simulated/deterministicrng.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace fleet::importers {

class SimulatedChanges {
public:
    /// Takes `state` (finalized): the cluster the changes start from. O(pods) to index it.
    SimulatedChanges(model::ClusterStore state, std::uint64_t seed);

    /// The next batch, about `events` events (a gang sent back to Pending may go past it),
    /// already applied to state(). Never empty when `events` > 0 and the cluster has pods.
    model::ClusterChangeBatch next(std::size_t events);
    /// The cluster after every batch handed out.
    [[nodiscard]] const model::ClusterStore& state() const noexcept { return m_state; }
    /// Batches handed out so far.
    [[nodiscard]] std::uint64_t batches() const noexcept { return m_batches; }

private:
    struct Batch;
    void podArrives(Batch& b);
    void podFinishes(Batch& b);
    void finishedPodDeleted(Batch& b);
    void pendingPodBound(Batch& b);
    void podStatusUpdated(Batch& b);
    void nodeFails(Batch& b);
    void nodeRecovers(Batch& b);
    [[nodiscard]] model::PodId randomLivePod(bool counted);
    [[nodiscard]] model::NodeId nodeFor(model::PodId templatePod, const Batch& b);
    [[nodiscard]] bool fits(model::PodId pod, model::NodeId node) const;
    [[nodiscard]] bool isGangPod(model::PodId pod) const;
    void indexPod(model::PodId p);

    model::ClusterStore m_state;
    DeterministicRng m_rng;
    std::uint64_t m_batches = 0;
    std::uint64_t m_serial = 0; // names and uids of the pods this source creates
    std::vector<std::vector<model::PodId>> m_workloadPods; // by WorkloadId, with stale (deleted) ids
    std::vector<model::PodId> m_terminal, m_pending; // candidates, checked when drawn
    std::vector<model::NodeId> m_failed;               // nodes this source made NotReady
};

} // namespace fleet::importers
