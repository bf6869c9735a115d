// SPDX-License-Identifier: Apache-2.0
// ClusterStore: the what-if's scheduling constraints (schedulingtypes.h), kept apart from the
// core columns.
//
// Design note (memory, DESIGN.md "The model"): the pods of one workload share their
// constraint lists, so each list kind (pod affinity, anti-affinity, spread constraints, host
// ports, volumes) is interned as a set, and the five set ids of a pod are interned once more
// as a "profile". A pod then costs a 4-byte profile id, 2 bytes of flags, 2 bytes of GPU
// share and its uid (a CSR range of characters, not the string pool: uids are unique, a hash
// slot each would be waste). A set or profile seen before allocates nothing.
#include "clusterstore.h"

#include <algorithm>
#include <array>
#include <limits>
#include <stdexcept>
#include <unordered_map>
#include <unordered_set>

namespace fleet::model {

namespace {

inline void mix(std::size_t& h, std::size_t v) noexcept
{
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
}

void hashSelector(std::size_t& h, const InternedSelector& s) noexcept
{
    mix(h, s.null ? 1 : 2);
    for (const MatchRequirement& r : s.requirements) {
        mix(h, r.key.value);
        mix(h, static_cast<std::size_t>(r.op));
        for (StringId v : r.values)
            mix(h, v.value);
        mix(h, 0x5a);
    }
}

std::size_t hashOf(std::span<const PodAffinityTerm> set) noexcept
{
    std::size_t h = 1;
    for (const PodAffinityTerm& t : set) {
        hashSelector(h, t.selector);
        for (StringId n : t.namespaces)
            mix(h, n.value);
        mix(h, t.hasNamespaceSelector ? 3 : 4);
        hashSelector(h, t.namespaceSelector);
        mix(h, t.topologyKey.value);
    }
    return h;
}

std::size_t hashOf(std::span<const TopologySpreadConstraint> set) noexcept
{
    std::size_t h = 2;
    for (const TopologySpreadConstraint& c : set) {
        mix(h, static_cast<std::size_t>(c.maxSkew));
        mix(h, c.topologyKey.value);
        mix(h, static_cast<std::size_t>(c.whenUnsatisfiable));
        hashSelector(h, c.selector);
        mix(h, static_cast<std::size_t>(c.minDomains));
        mix(h, static_cast<std::size_t>(c.nodeAffinityPolicy) * 2 + static_cast<std::size_t>(c.nodeTaintsPolicy));
    }
    return h;
}

std::size_t hashOf(std::span<const HostPort> set) noexcept
{
    std::size_t h = 3;
    for (const HostPort& p : set) {
        mix(h, p.port);
        mix(h, static_cast<std::size_t>(p.protocol));
        mix(h, p.hostIP.value);
    }
    return h;
}

std::size_t hashOf(std::span<const VolumeConstraint> set) noexcept
{
    std::size_t h = 4;
    for (const VolumeConstraint& v : set) {
        mix(h, v.volume.value);
        for (const auto& [key, values] : v.zoneLabels) {
            mix(h, key.value);
            for (StringId value : values)
                mix(h, value.value);
        }
        for (const NodeSelectorTerm& t : v.nodeAffinity)
            for (const NodeSelectorRequirement& r : t.requirements) {
                mix(h, r.key.value);
                mix(h, static_cast<std::size_t>(r.op) + (r.matchField ? 16 : 0));
                for (StringId value : r.values)
                    mix(h, value.value);
            }
    }
    return h;
}

/// Interned sets of one kind: set 0 is the empty set.
template <class T> struct SetTable {
    std::vector<std::vector<T>> sets { {} };
    std::unordered_multimap<std::size_t, std::uint32_t> index;

    std::uint32_t intern(std::span<const T> set)
    {
        if (set.empty())
            return 0;
        const std::size_t h = hashOf(set);
        auto [begin, end] = index.equal_range(h);
        for (auto it = begin; it != end; ++it)
            if (std::ranges::equal(sets[it->second], set))
                return it->second;
        if (sets.size() >= std::numeric_limits<std::uint32_t>::max())
            throw std::length_error("too many distinct scheduling constraint sets");
        const auto id = static_cast<std::uint32_t>(sets.size());
        sets.emplace_back(set.begin(), set.end());
        index.emplace(h, id);
        return id;
    }
    /// Approximate heap bytes: the set vectors, their elements (not the elements' own heap
    /// parts, which are a few small vectors each) and the hash index.
    [[nodiscard]] std::size_t memoryBytes() const noexcept
    {
        std::size_t total = sets.capacity() * sizeof(std::vector<T>) + index.size() * 32;
        for (const auto& s : sets)
            total += s.capacity() * sizeof(T) * 2; // x2: the selectors' and values' own vectors, roughly
        return total;
    }
};

enum ProfileSlot : std::size_t { kAffinity, kAntiAffinity, kSpread, kPorts, kVolumes, kProfileSlots };
using Profile = std::array<std::uint32_t, kProfileSlots>;

} // namespace

struct ClusterStore::SchedulingColumns {
    // per pod
    std::vector<std::uint32_t> profile;
    std::vector<std::uint16_t> flags;
    std::vector<std::uint16_t> gpuShare;
    std::vector<std::uint32_t> uidEnd; // uid of pod p: uidChars[uidEnd[p-1] .. uidEnd[p])
    std::vector<char> uidChars;

    // interned
    SetTable<PodAffinityTerm> affinity, antiAffinity;
    SetTable<TopologySpreadConstraint> spread;
    SetTable<HostPort> ports;
    SetTable<VolumeConstraint> volumes;
    std::vector<Profile> profiles { Profile {} }; // profile 0: no constraints
    std::unordered_multimap<std::size_t, std::uint32_t> profileIndex;
    bool anyAffinity = false;

    // cluster-wide
    std::unordered_map<std::uint32_t, std::vector<Label>> namespaceLabels;
    std::vector<DisruptionBudget> budgets;
    std::unordered_set<std::uint64_t> budgetKeys; // namespace StringId << 32 | name StringId, of `budgets`

    std::uint32_t internProfile(const Profile& p)
    {
        if (p == Profile {})
            return 0;
        std::size_t h = 7;
        for (std::uint32_t v : p)
            mix(h, v);
        auto [begin, end] = profileIndex.equal_range(h);
        for (auto it = begin; it != end; ++it)
            if (profiles[it->second] == p)
                return it->second;
        const auto id = static_cast<std::uint32_t>(profiles.size());
        profiles.push_back(p);
        profileIndex.emplace(h, id);
        return id;
    }
    [[nodiscard]] const Profile& of(PodId p) const noexcept { return profiles[profile[p.index()]]; }
};

ClusterStore ClusterStore::clone() const
{
    ClusterStore copy(*this);
    copy.m_scheduling = std::make_shared<SchedulingColumns>(*m_scheduling);
    return copy;
}

std::shared_ptr<ClusterStore::SchedulingColumns> ClusterStore::makeSchedulingColumns()
{
    return std::make_shared<SchedulingColumns>();
}

void ClusterStore::reserveScheduling(std::size_t pods)
{
    SchedulingColumns& c = *m_scheduling;
    c.profile.reserve(pods);
    c.flags.reserve(pods);
    c.gpuShare.reserve(pods);
    c.uidEnd.reserve(pods);
}

namespace {
void checkGpuShare(const PodRecord& r)
{
    if (r.gpuShareMilli < 0 || r.gpuShareMilli > 999)
        throw std::invalid_argument("pod " + r.namespaceName + "/" + r.name + ": a GPU share of " + std::to_string(r.gpuShareMilli)
            + " milli-GPU; expected 0 (whole GPUs) or 1..999");
}

// Makes room for `more` uid characters. Grown by a quarter at a time, not doubled (uids are
// most of these columns' bytes), but at least to what the pods reserve() made room for need at
// the mean uid length so far (at most 40, a Kubernetes uid's 36 and a little): a reader of
// 1.6M pods that reserved them grows the column once instead of ~45 times, each growth a copy
// of every uid before (the .fleet reader spent ~15% of an open in those copies).
void reserveUids(std::vector<std::uint32_t>& uidEnd, std::vector<char>& uidChars, std::size_t more)
{
    const std::size_t need = uidChars.size() + more;
    if (need <= uidChars.capacity())
        return;
    std::size_t target = std::max(need, uidChars.capacity() + uidChars.capacity() / 4 + 4096);
    const std::size_t pods = uidEnd.size() + 1; // this pod included
    if (uidEnd.capacity() > pods) {
        const std::size_t mean = std::min<std::size_t>(need / pods + 1, 40);
        target = std::max(target, need + mean * (uidEnd.capacity() - pods));
    }
    uidChars.reserve(target);
}
} // namespace

void ClusterStore::addPodScheduling(const PodRecord& r)
{
    SchedulingColumns& c = *m_scheduling;
    checkGpuShare(r); // before any column holds the pod
    if (c.uidChars.size() + r.uid.size() > std::numeric_limits<std::uint32_t>::max())
        throw std::length_error("pod uids exceed 4 GiB");
    c.profile.push_back(0);
    c.flags.push_back(0);
    c.gpuShare.push_back(0);
    reserveUids(c.uidEnd, c.uidChars, r.uid.size());
    c.uidChars.insert(c.uidChars.end(), r.uid.begin(), r.uid.end());
    c.uidEnd.push_back(static_cast<std::uint32_t>(c.uidChars.size()));
    updatePodScheduling(PodId(static_cast<std::uint32_t>(c.profile.size() - 1)), r);
}

void ClusterStore::addPodsSchedulingLike(const PodsLike& p)
{
    SchedulingColumns& c = *m_scheduling;
    const std::size_t n = p.like.size();
    if (c.uidChars.size() + p.uidChars.size() > std::numeric_limits<std::uint32_t>::max())
        throw std::length_error("pod uids exceed 4 GiB");
    const auto copied = [&p, n](auto& column) {
        const std::size_t base = column.size();
        column.resize(base + n);
        for (std::size_t i = 0; i < n; ++i)
            column[base + i] = column[p.like[i].index()];
    };
    copied(c.profile);
    c.flags.insert(c.flags.end(), p.flags.begin(), p.flags.end());
    copied(c.gpuShare);
    const auto base = static_cast<std::uint32_t>(c.uidChars.size());
    const std::size_t used = n == 0 ? 0 : p.uidEnds[n - 1];
    reserveUids(c.uidEnd, c.uidChars, used);
    c.uidChars.insert(c.uidChars.end(), p.uidChars.begin(), p.uidChars.begin() + static_cast<std::ptrdiff_t>(used));
    for (const std::uint32_t end : p.uidEnds)
        c.uidEnd.push_back(base + end);
}

void ClusterStore::addPodSchedulingLike(PodId like, std::uint16_t flags, std::string_view uid)
{
    SchedulingColumns& c = *m_scheduling;
    if (c.uidChars.size() + uid.size() > std::numeric_limits<std::uint32_t>::max())
        throw std::length_error("pod uids exceed 4 GiB");
    c.profile.push_back(c.profile[like.index()]);
    c.flags.push_back(flags);
    c.gpuShare.push_back(c.gpuShare[like.index()]);
    reserveUids(c.uidEnd, c.uidChars, uid.size());
    c.uidChars.insert(c.uidChars.end(), uid.begin(), uid.end());
    c.uidEnd.push_back(static_cast<std::uint32_t>(c.uidChars.size()));
}

void ClusterStore::updatePodScheduling(PodId pod, const PodRecord& r)
{
    SchedulingColumns& c = *m_scheduling;
    checkGpuShare(r);
    Profile p {};
    p[kAffinity] = c.affinity.intern(r.podAffinity);
    p[kAntiAffinity] = c.antiAffinity.intern(r.podAntiAffinity);
    p[kSpread] = c.spread.intern(r.spreadConstraints);
    p[kPorts] = c.ports.intern(r.hostPorts);
    p[kVolumes] = c.volumes.intern(r.volumes);
    c.profile[pod.index()] = c.internProfile(p);
    c.flags[pod.index()] = r.flags;
    c.gpuShare[pod.index()] = static_cast<std::uint16_t>(r.gpuShareMilli);
    c.anyAffinity = c.anyAffinity || !r.podAffinity.empty() || !r.podAntiAffinity.empty();
}

void ClusterStore::setPodVolumes(PodId pod, std::span<const VolumeConstraint> volumes)
{
    SchedulingColumns& c = *m_scheduling;
    if (pod.index() >= c.profile.size())
        throw std::out_of_range("setPodVolumes: no such pod");
    Profile p = c.of(pod);
    p[kVolumes] = c.volumes.intern(volumes);
    c.profile[pod.index()] = c.internProfile(p);
}

std::string_view ClusterStore::podUid(PodId p) const noexcept
{
    const SchedulingColumns& c = *m_scheduling;
    const std::uint32_t begin = p.index() == 0 ? 0 : c.uidEnd[p.index() - 1];
    return { c.uidChars.data() + begin, c.uidEnd[p.index()] - begin };
}
std::span<const PodAffinityTerm> ClusterStore::podAffinity(PodId p) const noexcept
{
    return m_scheduling->affinity.sets[m_scheduling->of(p)[kAffinity]];
}
std::span<const PodAffinityTerm> ClusterStore::podAntiAffinity(PodId p) const noexcept
{
    return m_scheduling->antiAffinity.sets[m_scheduling->of(p)[kAntiAffinity]];
}
std::span<const TopologySpreadConstraint> ClusterStore::podSpreadConstraints(PodId p) const noexcept
{
    return m_scheduling->spread.sets[m_scheduling->of(p)[kSpread]];
}
std::span<const HostPort> ClusterStore::podHostPorts(PodId p) const noexcept
{
    return m_scheduling->ports.sets[m_scheduling->of(p)[kPorts]];
}
std::span<const VolumeConstraint> ClusterStore::podVolumes(PodId p) const noexcept
{
    return m_scheduling->volumes.sets[m_scheduling->of(p)[kVolumes]];
}
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
    // By key, not by a walk of the budgets before: O(budgets) in all, not O(budgets^2).
    const std::uint64_t key = std::uint64_t { b.namespaceName.value } << 32 | b.name.value;
    if (m_scheduling->budgetKeys.count(key))
        throw std::invalid_argument("PodDisruptionBudget " + r.namespaceName + "/" + r.name + " given twice");
    b.selector = internSelector(r.selectorNull, r.matchLabels, r.matchExpressions);
    b.minAvailable = r.minAvailable;
    b.maxUnavailable = r.maxUnavailable;
    b.disruptionsAllowed = r.disruptionsAllowed;
    m_scheduling->budgets.push_back(std::move(b));
    m_scheduling->budgetKeys.insert(key);
}

std::span<const DisruptionBudget> ClusterStore::disruptionBudgets() const noexcept { return m_scheduling->budgets; }

std::size_t ClusterStore::schedulingMemoryBytes() const noexcept
{
    const SchedulingColumns& c = *m_scheduling;
    auto bytes = [](const auto& v) { return v.capacity() * sizeof(typename std::decay_t<decltype(v)>::value_type); };
    std::size_t total = bytes(c.profile) + bytes(c.flags) + bytes(c.gpuShare) + bytes(c.uidEnd) + bytes(c.uidChars);
    total += c.affinity.memoryBytes() + c.antiAffinity.memoryBytes() + c.spread.memoryBytes() + c.ports.memoryBytes()
        + c.volumes.memoryBytes();
    total += bytes(c.profiles) + c.profileIndex.size() * 32;
    for (const auto& [ns, labels] : c.namespaceLabels)
        total += 48 + bytes(labels);
    total += bytes(c.budgets) + c.budgetKeys.size() * 24;
    for (const DisruptionBudget& b : c.budgets)
        total += bytes(b.selector.requirements);
    return total;
}

} // namespace fleet::model
