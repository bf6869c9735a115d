// SPDX-License-Identifier: Apache-2.0
// ClusterStore::addPodLike(): a pod appended as a copy of another's interned attributes, for a
// reader that keeps one record per workload template (the .fleet document).
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

} // namespace fleet::model
