// SPDX-License-Identifier: Apache-2.0
// ClusterStore::addPodLike(), addPodsLike() and addNodeInterned(): pods appended as copies of
// another's interned attributes, and a node from ids of the store's strings, for a reader that
// keeps the store's string ids and one record per workload template (the .fleet document).
#include "clusterstore.h"

#include <stdexcept>

namespace fleet::model {

PodId ClusterStore::addPodLike(PodId like, StringId name, StringId nodeName, PodPhase phase, std::uint16_t flags, std::string_view uid)
{
    if (!like.isValid() || like.index() >= m_podName.size())
        throw std::out_of_range("addPodLike: no pod " + std::to_string(like.value) + " to copy");
    if (!name.isValid() || name.index() >= m_strings.size() || !nodeName.isValid() || nodeName.index() >= m_strings.size())
        throw std::out_of_range("addPodLike: a name that is not one of the store's strings");
    if (name.value == 0)
        throw std::invalid_argument("pod without a namespace or name");
    if (static_cast<std::uint8_t>(phase) > static_cast<std::uint8_t>(PodPhase::Unknown))
        throw std::invalid_argument("addPodLike: an unknown pod phase");
    // First, as addPod(): the only check that can throw there comes before any column holds the pod.
    addPodSchedulingLike(like, flags, uid);
    const std::size_t l = like.index();
    const PodId id(static_cast<std::uint32_t>(m_podName.size()));
    m_podNamespace.push_back(m_podNamespace[l]);
    m_podName.push_back(name);
    m_podNodeName.push_back(nodeName);
    m_podNode.emplace_back(); // bound by finalize()
    m_podPhase.push_back(phase);
    m_podMirror.push_back(m_podMirror[l]);
    m_podPriority.push_back(m_podPriority[l]);
    m_podRequest.push_back(m_podRequest[l]);
    const std::uint32_t extBegin = m_podExtBegin[l], extEnd = m_podExtBegin[l + 1];
    for (std::uint32_t i = extBegin; i < extEnd; ++i)
        m_podExt.push_back(m_podExt[i]);
    m_podExtBegin.push_back(static_cast<std::uint32_t>(m_podExt.size()));
    m_podWorkload.push_back(m_podWorkload[l]);
    m_podTolerationSet.push_back(m_podTolerationSet[l]);
    m_podSelectorSet.push_back(m_podSelectorSet[l]);
    m_podAffinitySet.push_back(m_podAffinitySet[l]);
    m_podLabelSet.push_back(m_podLabelSet[l]);
    m_podSchedulingMessage.push_back(m_podSchedulingMessage[l]);
    m_podGateSet.push_back(m_podGateSet[l]);
    m_podDeleted.push_back(0);
    return id;
}

NodeId ClusterStore::addNodeInterned(const InternedNodeRecord& r)
{
    // Every id first, so that a refused record leaves no row behind.
    const std::size_t strings = m_strings.size();
    bool inPool = r.name.isValid() && r.name.index() < strings && r.gpuModel.isValid() && r.gpuModel.index() < strings
        && r.instanceType.isValid() && r.instanceType.index() < strings;
    for (const Label& l : r.labels)
        inPool = inPool && l.key.isValid() && l.key.index() < strings && l.value.isValid() && l.value.index() < strings;
    for (const Taint& t : r.taints)
        inPool = inPool && t.key.isValid() && t.key.index() < strings && t.value.isValid() && t.value.index() < strings;
    for (const NodeCondition& c : r.conditions)
        inPool = inPool && c.type.isValid() && c.type.index() < strings && c.reason.isValid() && c.reason.index() < strings
            && c.message.isValid() && c.message.index() < strings;
    if (!inPool)
        throw std::out_of_range("addNodeInterned: a string that is not one of the store's strings");
    if (r.name.value == 0)
        throw std::invalid_argument("node without a name");
    const NodeId id = appendNodeRow(r.name, m_strings.view(r.name));
    const std::size_t n = id.index();
    m_nodeLabels.assign(n, std::span<const Label>(r.labels));
    m_nodeTaints.assign(n, std::span<const Taint>(r.taints));
    writeNodeResources(n, r.allocatable, r.capacity);
    m_nodeReady[n] = r.ready;
    m_nodeUnschedulable[n] = r.unschedulable ? 1 : 0;
    m_nodeGpuModel[n] = r.gpuModel;
    m_nodeGpuCount[n] = r.gpuCount;
    m_nodeInstanceType[n] = r.instanceType;
    m_nodeConditions.assign(n, std::span<const NodeCondition>(r.conditions));
    return id;
}

void ClusterStore::addPodsLike(const PodsLike& p)
{
    const std::size_t n = p.like.size();
    if (p.names.size() != n || p.nodeNames.size() != n || p.phases.size() != n || p.flags.size() != n || p.uidEnds.size() != n)
        throw std::invalid_argument("addPodsLike: columns of different lengths");
    // Every pod first, as addPodLike() checks it: nothing is added when one is refused.
    const std::size_t pods = m_podName.size();
    const std::size_t strings = m_strings.size();
    std::uint32_t uidBegin = 0;
    for (std::size_t i = 0; i < n; ++i) {
        if (!p.like[i].isValid() || p.like[i].index() >= pods)
            throw std::out_of_range("addPodsLike: no pod " + std::to_string(p.like[i].value) + " to copy");
        if (!p.names[i].isValid() || p.names[i].index() >= strings || !p.nodeNames[i].isValid() || p.nodeNames[i].index() >= strings)
            throw std::out_of_range("addPodsLike: a name that is not one of the store's strings");
        if (p.names[i].value == 0)
            throw std::invalid_argument("pod without a namespace or name");
        if (static_cast<std::uint8_t>(p.phases[i]) > static_cast<std::uint8_t>(PodPhase::Unknown))
            throw std::invalid_argument("addPodsLike: an unknown pod phase");
        if (p.uidEnds[i] < uidBegin || p.uidEnds[i] > p.uidChars.size())
            throw std::invalid_argument("addPodsLike: uid ends out of order");
        uidBegin = p.uidEnds[i];
    }
    if (n == 0)
        return;
    addPodsSchedulingLike(p);
    // Column by column: pod i's row of a copied column is its template pod's.
    const auto copied = [&p, n](auto& column) {
        const std::size_t base = column.size();
        column.resize(base + n);
        for (std::size_t i = 0; i < n; ++i)
            column[base + i] = column[p.like[i].index()];
    };
    copied(m_podNamespace);
    m_podName.insert(m_podName.end(), p.names.begin(), p.names.end());
    m_podNodeName.insert(m_podNodeName.end(), p.nodeNames.begin(), p.nodeNames.end());
    m_podNode.resize(m_podNode.size() + n); // bound by finalize()
    m_podPhase.insert(m_podPhase.end(), p.phases.begin(), p.phases.end());
    copied(m_podMirror);
    copied(m_podPriority);
    copied(m_podRequest);
    for (std::size_t i = 0; i < n; ++i) {
        const std::size_t l = p.like[i].index();
        const std::uint32_t extBegin = m_podExtBegin[l], extEnd = m_podExtBegin[l + 1];
        for (std::uint32_t e = extBegin; e < extEnd; ++e)
            m_podExt.push_back(m_podExt[e]);
        m_podExtBegin.push_back(static_cast<std::uint32_t>(m_podExt.size()));
    }
    copied(m_podWorkload);
    copied(m_podTolerationSet);
    copied(m_podSelectorSet);
    copied(m_podAffinitySet);
    copied(m_podLabelSet);
    copied(m_podSchedulingMessage);
    copied(m_podGateSet);
    m_podDeleted.resize(m_podDeleted.size() + n, 0);
}

} // namespace fleet::model
