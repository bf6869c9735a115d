// SPDX-License-Identifier: Apache-2.0
#include "evictionrules.h"

#include "model/schedulingtypes.h"
#include "model/nodeboundpods.h"

#include <string>

namespace fleet::model {

bool isGangPod(const ClusterStore& store, PodId p) noexcept
{
    switch (store.podOwnerKind(p)) {
    case OwnerKind::JobSet:
    case OwnerKind::LeaderWorkerSet:
    case OwnerKind::TrainingJob:
    case OwnerKind::VolcanoJob:
        return true;
    default:
        return (store.podFlags(p) & PodFlagPodGroup) != 0 && store.podWorkload(p).isValid();
    }
}

bool staysOnDrainedNode(const ClusterStore& store, PodId p) noexcept
{
    return isNodeBoundPod(store, p);
}

bool podIsLeaving(const ClusterStore& store, PodId p) noexcept
{
    return store.podIsTerminal(p) || (store.podFlags(p) & PodFlagTerminating);
}

bool movesWithDrain(const ClusterStore& store, PodId p) noexcept
{
    return !podIsLeaving(store, p) && !staysOnDrainedNode(store, p);
}

std::string podKey(const ClusterStore& store, PodId p)
{
    std::string key(store.podNamespace(p));
    key += '/';
    key += store.podName(p);
    return key;
}

EvictionCheck checkEviction(const ClusterStore& store, PodId p)
{
    EvictionCheck c;
    if (staysOnDrainedNode(store, p) || store.podIsTerminal(p))
        return c;
    const std::string name = podKey(store, p);
    const std::uint16_t flags = store.podFlags(p);
    if (!store.podWorkload(p).isValid())
        c.blockers.push_back(makeReason(ReasonKind::NoController, {},
            name + " has no controller: evicted, it would not be recreated (kubectl drain refuses it without --force)"));
    if (flags & PodFlagDoNotDisrupt)
        c.blockers.push_back(makeReason(ReasonKind::DoNotDisrupt, {},
            name + " asks not to be disrupted (karpenter.sh/do-not-disrupt or cluster-autoscaler.kubernetes.io/safe-to-evict: \"false\")"));
    if (isGangPod(store, p))
        c.blockers.push_back(makeReason(ReasonKind::GangMember, {},
            name + " is one member of the gang " + std::string(ownerKindName(store.podOwnerKind(p))) + " "
                + std::string(store.workloadNamespace(store.podWorkload(p))) + "/"
                + std::string(store.workloadName(store.podWorkload(p))) + ", which moves as a whole or not at all"));
    if (flags & PodFlagLocalStorage)
        c.notes.push_back(makeReason(ReasonKind::LocalStorage, {},
            name + " uses an emptyDir volume whose data is deleted on eviction (kubectl drain --delete-emptydir-data)"));
    return c;
}

} // namespace fleet::model
