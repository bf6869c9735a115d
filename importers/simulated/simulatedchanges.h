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
//   pod arrives 31%; a running pod finishes (a Job's pod Succeeded, any other deleted) 26%; a
//   finished pod deleted 16%; a pending pod bound where it fits 10%; a pod's status updated (its
//   Ready condition flips; no load change) 10%; a node fails 1%; a failed node recovers 2% (when
//   there is one).
// Balance: the cluster churns around the state it started from, as a steady cluster does. A
//   pod that finishes is replaced (its controller creates a new pod of the same shape, placed on
//   a node of its workload or the node it left, where it fits, else Pending); an arrival with no
//   replacement due copies a running Deployment/Job pod only while fewer pods run than at the
//   start; while more pods are pending than at the start, a finish takes a pending pod (a job
//   cancelled) half the time and binds are drawn twice as often. A gang sent back to Pending is
//   bound again on the nodes it left once they are Ready (a training job restarts where it ran).
// Determinism: batch k of a source depends only on the store it started from, its seed and
// the event counts asked for (DeterministicRng; no hash-table order reaches the output).
// Thread: one thread at a time (the feed's).

#include "model/clusterchange.h"

#include "importers/simulated/deterministicrng.h"

#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <unordered_map>
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
    [[nodiscard]] model::NodeId nodeFor(model::PodId templatePod, const Batch& b, model::NodeId left = {});
    void addArrival(Batch& b, model::PodRecord r, model::PodId shape, model::NodeId left);
    void cancelPendingPod(Batch& b);
    [[nodiscard]] bool fits(model::PodId pod, model::NodeId node) const;
    [[nodiscard]] bool isGangPod(model::PodId pod) const;
    [[nodiscard]] std::int64_t gpuRequest(model::PodId pod) const; // milli-GPUs
    void indexPod(model::PodId p);

    model::ClusterStore m_state;
    DeterministicRng m_rng;
    std::uint64_t m_batches = 0;
    std::uint64_t m_serial = 0; // names and uids of the pods this source creates
    std::vector<std::vector<model::PodId>> m_workloadPods; // by WorkloadId, with stale (deleted) ids
    std::vector<model::PodId> m_terminal, m_pending; // candidates, checked when drawn
    std::vector<model::NodeId> m_failed;               // nodes this source made NotReady
    // Pods that finished, whose controllers owe a replacement (oldest first, at most
    // kReplacementsOwed), with the node each left.
    struct Replacement {
        model::PodRecord record;
        model::PodId shape; // the finished pod's row (rows stay after a delete)
        model::NodeId left;
    };
    std::deque<Replacement> m_replacements;
    // The node each pod of a gang sent back to Pending left ("namespace/name"): the gang
    // returns there once the node is Ready again and the room is still free.
    std::unordered_map<std::string, model::NodeId> m_gangLeft;
    // m_gangLeft's key of pod `p` in a buffer reused by every call (a lookup per bind attempt
    // allocates nothing); valid until the next call.
    const std::string& gangKey(model::PodId p);
    std::string m_gangKey;
    std::vector<model::PodId> m_gangWaiting; // those pods, pending (checked when drawn)
    // Running (bound, not finished) and pending pods now minus at the start: every change is
    // this source's own, so it counts them as it makes them.
    std::int64_t m_runningDrift = 0, m_pendingDrift = 0;
    std::int64_t m_gpuDrift = 0; // GPUs requested by bound pods now minus at the start, milli-GPUs
};

} // namespace fleet::importers
