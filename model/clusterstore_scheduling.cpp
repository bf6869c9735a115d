// ClusterStore: the what-if's scheduling constraints (schedulingtypes.h), kept apart from the
// core columns. Each pod's constraint lists are interned sets: the pods of one workload share
// one set, so a pod costs a few 32-bit set ids.
#include "clusterstore.h"

#include <algorithm>
#include <stdexcept>
#include <unordered_map>

namespace fleet::model {

// CONTRACT STUB (issue 6): the helper that owns the store replaces this with interned sets.
struct ClusterStore::SchedulingColumns {
    std::vector<StringId> uid;
    std::vector<std::vector<PodAffinityTerm>> affinity, antiAffinity;
    std::vector<std::vector<TopologySpreadConstraint>> spread;
    std::vector<std::vector<HostPort>> ports;
    std::vector<std::vector<VolumeConstraint>> volumes;
    std::vector<std::uint16_t> flags;
    std::vector<std::int32_t> gpuShare;
    bool anyAffinity = false;
    std::unordered_map<std::uint32_t, std::vector<Label>> namespaceLabels;
    std::vector<DisruptionBudget> budgets;
};

std::shared_ptr<ClusterStore::SchedulingColumns> ClusterStore::makeSchedulingColumns()
{
    return std::make_shared<SchedulingColumns>();
}

void ClusterStore::addPodScheduling(const PodRecord& r)
{
    SchedulingColumns& c = *m_scheduling;
    c.uid.push_back(m_strings.intern(r.uid));
    c.affinity.push_back(r.podAffinity);
    c.antiAffinity.push_back(r.podAntiAffinity);
    c.spread.push_back(r.spreadConstraints);
    c.ports.push_back(r.hostPorts);
    c.volumes.push_back(r.volumes);
    c.flags.push_back(r.flags);
    c.gpuShare.push_back(r.gpuShareMilli);
    c.anyAffinity = c.anyAffinity || !r.podAffinity.empty() || !r.podAntiAffinity.empty();
}

std::string_view ClusterStore::podUid(PodId p) const noexcept { return str(m_scheduling->uid[p.index()]); }
std::span<const PodAffinityTerm> ClusterStore::podAffinity(PodId p) const noexcept { return m_scheduling->affinity[p.index()]; }
std::span<const PodAffinityTerm> ClusterStore::podAntiAffinity(PodId p) const noexcept { return m_scheduling->antiAffinity[p.index()]; }
std::span<const TopologySpreadConstraint> ClusterStore::podSpreadConstraints(PodId p) const noexcept { return m_scheduling->spread[p.index()]; }
std::span<const HostPort> ClusterStore::podHostPorts(PodId p) const noexcept { return m_scheduling->ports[p.index()]; }
std::span<const VolumeConstraint> ClusterStore::podVolumes(PodId p) const noexcept { return m_scheduling->volumes[p.index()]; }
std::uint16_t ClusterStore::podFlags(PodId p) const noexcept { return m_scheduling->flags[p.index()]; }
std::int32_t ClusterStore::podGpuShareMilli(PodId p) const noexcept { return m_scheduling->gpuShare[p.index()]; }
bool ClusterStore::hasPodAffinity() const noexcept { return m_scheduling->anyAffinity; }

InternedSelector ClusterStore::internSelector(bool null, const std::vector<std::pair<std::string, std::string>>& matchLabels,
    const std::vector<std::tuple<std::string, MatchOperator, std::vector<std::string>>>& matchExpressions)
{
    InternedSelector s;
    s.null = null;
    for (const auto& [k, v] : matchLabels)
        s.requirements.push_back({ m_strings.intern(k), MatchOperator::In, { m_strings.intern(v) } });
    for (const auto& [k, op, values] : matchExpressions) {
        MatchRequirement r { m_strings.intern(k), op, {} };
        for (const auto& v : values)
            r.values.push_back(m_strings.intern(v));
        std::sort(r.values.begin(), r.values.end());
        r.values.erase(std::unique(r.values.begin(), r.values.end()), r.values.end());
        s.requirements.push_back(std::move(r));
    }
    return s;
}

void ClusterStore::setNamespaceLabels(std::string_view namespaceName, const std::vector<std::pair<std::string, std::string>>& labels)
{
    std::vector<Label>& out = m_scheduling->namespaceLabels[m_strings.intern(namespaceName).value];
    out.clear();
    for (const auto& [k, v] : labels)
        out.push_back({ m_strings.intern(k), m_strings.intern(v) });
}

bool ClusterStore::namespacesKnown() const noexcept { return !m_scheduling->namespaceLabels.empty(); }

std::span<const Label> ClusterStore::namespaceLabels(StringId namespaceName) const noexcept
{
    const auto it = m_scheduling->namespaceLabels.find(namespaceName.value);
    return it == m_scheduling->namespaceLabels.end() ? std::span<const Label> {} : std::span<const Label>(it->second);
}

void ClusterStore::addDisruptionBudget(const DisruptionBudgetRecord& r)
{
    if (r.namespaceName.empty() || r.name.empty())
        throw std::invalid_argument("PodDisruptionBudget without a namespace or name");
    DisruptionBudget b;
    b.namespaceName = m_strings.intern(r.namespaceName);
    b.name = m_strings.intern(r.name);
    for (const DisruptionBudget& e : m_scheduling->budgets)
        if (e.namespaceName == b.namespaceName && e.name == b.name)
            throw std::invalid_argument("PodDisruptionBudget " + r.namespaceName + "/" + r.name + " given twice");
    b.selector = internSelector(r.selectorNull, r.matchLabels, r.matchExpressions);
    b.minAvailable = r.minAvailable;
    b.maxUnavailable = r.maxUnavailable;
    b.disruptionsAllowed = r.disruptionsAllowed;
    m_scheduling->budgets.push_back(std::move(b));
}

std::span<const DisruptionBudget> ClusterStore::disruptionBudgets() const noexcept { return m_scheduling->budgets; }

} // namespace fleet::model
