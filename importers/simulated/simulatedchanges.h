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
//   finished pod deleted 16% (only while more pods are finished than at the start); a pending pod bound where it fits 10%; a pod's status updated (its
//   Ready condition flips; no load change) 10%; a node fails 1%; a failed node recovers 2% (when
//   there is one).
// Balance: the cluster churns around the state it started from, as a steady cluster does. A
//   pod that finishes is replaced (its controller creates a new pod of the same shape, placed on
//   a node of its workload or the node it left, where it fits, else Pending); an arrival with no
//   replacement due copies a running Deployment/Job pod only while fewer pods run than at the
//   start; while more pods are pending than at the start, a finish takes a pending pod (a job
//   cancelled) half the time and binds are drawn twice as often. A gang sent back to Pending is
//   bound again on the nodes it left once they are Ready (a training job restarts where it ran).
// Binding: a pod is bound (an arrival, a replacement, a pending pod, a gang back on its nodes)
//   only to a node that the engine's filters pass (model::PodFeasibility, model/scheduling/
//   filters.h: resources and per-GPU fit, taints, node affinity, ports, spread, inter-pod
//   affinity, readiness), as the kube-scheduler would, judged on the cluster as this source has
//   it plus the binds made earlier in the same batch. The source keeps a PlanLedger over a copy
//   of the store it started from and mirrors every change it makes into it (a bind moves the
//   ledger's pod, a finish or delete evicts it, an arrival or a recreated pod is added from the
//   pod it copies, a node it fails is taken out and put back when it recovers), so that asking
//   costs O(the pod's rules), not a rebuild. Within a batch a pod goes only to a node no other
//   change of the batch touches (one change per object, and room freed by a finish counts from
//   the next batch on).
// Memory: the starting store twice (the state and the ledger's base) plus the ledger's indexes;
//   like the state, the ledger grows by a row per pod the source creates.
// Determinism: batch k of a source depends only on the store it started from, its seed and
// the event counts asked for (DeterministicRng; no hash-table order reaches the output).
// Thread: one thread at a time (the feed's).

#include "model/clusterchange.h"

#include "importers/simulated/deterministicrng.h"

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace fleet::model {
class PlanLedger;
}

namespace fleet::importers {

class SimulatedChanges {
public:
    /// Takes `state` (finalized): the cluster the changes start from. O(nodes + pods) to index
    /// it, copy it and build the ledger the binds are judged on (about 1 s at 100,000 nodes).
    SimulatedChanges(model::ClusterStore state, std::uint64_t seed);
    ~SimulatedChanges();
    SimulatedChanges(const SimulatedChanges&) = delete;
    SimulatedChanges& operator=(const SimulatedChanges&) = delete;

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
    // A node for `scheduled` (a pod of the ledger) that the filters pass, tried as the
    // kube-scheduler's candidates would be: `left`, then nodes of `templatePod`'s workload
    // (a state pod), then its own node. Invalid when none of the tries passes.
    [[nodiscard]] model::NodeId nodeFor(model::PodId templatePod, model::PodId scheduled, const Batch& b, model::NodeId left = {});
    void addArrival(Batch& b, model::PodRecord r, model::PodId shape, model::NodeId left);
    void cancelPendingPod(Batch& b);
    // The ledger's pod that stands for state pod p (invalid when it has none).
    [[nodiscard]] model::PodId ledgerPod(model::PodId p) const noexcept;
    // A new ledger pod with the spec of state pod `like`, pending, remembered in `b` under
    // namespace/name until the applied batch gives its state id (mirrorIntoLedger()).
    model::PodId addLedgerPod(Batch& b, model::PodId like, const std::string& ns, const std::string& name);
    // After a batch is applied to m_state: the ledger takes its changes (nodes failed and
    // recovered, pods bound, finished, deleted, recreated), so that it holds what m_state does.
    void mirrorIntoLedger(Batch& b, const model::ClusterDiff& diff);
    [[nodiscard]] bool isGangPod(model::PodId pod) const;
    [[nodiscard]] std::int64_t gpuRequest(model::PodId pod) const; // milli-GPUs
    void indexPod(model::PodId p);

    model::ClusterStore m_state;
    // The scheduler's view of m_state (see "Binding" above): a ledger over m_base, a copy of the
    // starting state that never changes, and the ledger pod of each state pod (by PodId).
    std::unique_ptr<const model::ClusterStore> m_base;
    std::unique_ptr<model::PlanLedger> m_ledger;
    std::vector<model::PodId> m_ledgerPod;
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
    std::int64_t m_finishedDrift = 0; // finished (Succeeded, Failed) pods now minus at the start
};

} // namespace fleet::importers
