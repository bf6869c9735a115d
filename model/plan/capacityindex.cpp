// SPDX-License-Identifier: Apache-2.0
#include "capacityindex.h"

#include "model/scheduling/gpuresourcename.h"
#include "model/scheduling/matching.h"

#include <algorithm>
#include <bit>

namespace fleet::model {

namespace {

CoreResource resourceOf(CapacityIndex::Axis axis) noexcept
{
    switch (axis) {
    case CapacityIndex::Cpu:
        return CoreResource::Cpu;
    case CapacityIndex::Memory:
        return CoreResource::Memory;
    default:
        return CoreResource::Gpu;
    }
}

// The rank of an invalid id sorts before every node of the same free amount (lower bound).
std::uint64_t tieKey(const std::vector<std::uint32_t>& rank, NodeId n) noexcept
{
    if (!n.isValid())
        return 0;
    return 1 + (n.index() < rank.size() ? rank[n.index()] : n.index());
}

constexpr std::string_view kPoolKeys[] = { "eks.amazonaws.com/nodegroup", "karpenter.sh/nodepool", "node.kubernetes.io/instance-type",
    "nvidia.com/gpu.product" };

std::uint64_t poolId(std::size_t keyIndex, StringId value) noexcept
{
    return (static_cast<std::uint64_t>(keyIndex + 1) << 32) | value.value;
}


} // namespace

CapacityIndex::Key CapacityIndex::keyOf(std::int64_t free, NodeId n) const noexcept
{
    return Key { free, tieKey(m_rank, n), n };
}

CapacityIndex::CapacityIndex(const PlanLedger& state)
    : m_state(state)
{
    const std::size_t storeNodes = state.store().nodeCount();
    std::vector<std::uint32_t> byName(storeNodes);
    for (std::uint32_t i = 0; i < storeNodes; ++i)
        byName[i] = i;
    std::sort(byName.begin(), byName.end(),
        [&](std::uint32_t a, std::uint32_t b) { return state.store().nodeName(NodeId(a)) < state.store().nodeName(NodeId(b)); });
    m_rank.resize(storeNodes);
    for (std::uint32_t r = 0; r < storeNodes; ++r)
        m_rank[byName[r]] = r;
    for (const std::string_view key : kPoolKeys)
        m_poolKeys.push_back(state.store().strings().find(key));
    if (const int key = state.store().resources().find(kTraceGpuCountResource); key >= 0)
        m_traceGpuCount = static_cast<ResourceKey>(key);
    // Built in bulk: each node's pools, class and key on each axis first, then every axis's keys
    // inserted in the sets' own order, each at its set's end (amortised O(1) per key, where a
    // node-by-node update() pays O(log nodes) per key and a cache miss per level: at 100,000
    // nodes about 1.2 million keys). The state is the one update() of every node leaves: the
    // same sets; a class's place in its pool's lists differs, and walks do not read it (their
    // runs are sorted by head).
    const std::size_t nodes = state.nodeCount();
    std::array<std::vector<Key>, 3> keys;
    for (std::size_t i = 0; i < nodes; ++i) {
        const NodeId n(static_cast<std::uint32_t>(i));
        registerNode(n);
        const std::uint32_t cls = classOf(n);
        m_nodeClass[i] = cls;
        for (const std::uint64_t pool : m_nodePools[i])
            m_nodeSets[i].push_back(&setsOf(pool, cls));
        for (std::uint8_t a = 0; a < 3; ++a) {
            const auto axis = static_cast<Axis>(a);
            m_key[a][i] = 0;
            m_in[a][i] = 0;
            if (!wantedOn(n, axis))
                continue;
            m_key[a][i] = freeOf(n, axis);
            m_in[a][i] = 1;
            keys[a].push_back(keyOf(m_key[a][i], n));
        }
    }
    const Less less;
    for (std::uint8_t a = 0; a < 3; ++a) {
        std::sort(keys[a].begin(), keys[a].end(), less);
        for (const Key& key : keys[a])
            for (ClassSets* cs : m_nodeSets[key.node.index()])
                insertKey(*cs, static_cast<Axis>(a), key, true);
    }
}

void CapacityIndex::registerNode(NodeId n)
{
    const std::size_t i = n.index();
    if (m_nodePools.size() > i)
        return;
    m_nodePools.resize(i + 1);
    m_nodeStatic.resize(i + 1, 0);
    m_nodeClass.resize(i + 1, kMixedClass);
    m_nodeSets.resize(i + 1);
    for (auto& keys : m_key)
        if (keys.size() <= i)
            keys.resize(i + 1, 0);
    for (auto& in : m_in)
        if (in.size() <= i)
            in.resize(i + 1, 0);
    poolsOfNode(n, m_nodePools[i]);
    m_nodeStatic[i] = staticClassOf(n);
    for (const std::uint64_t pool : m_nodePools[i])
        ++m_poolSize[pool];
}

bool CapacityIndex::wantedOn(NodeId n, Axis axis) const
{
    const auto& allocatable = m_state.store().nodeAllocatable(m_state.nodeTemplate(n));
    const std::int64_t podsAllowed = allocatable[CoreResource::Pods];
    // A node running as many pods as its allocatable pods allows takes no pod at all
    // (NodeResourcesFit checks the pod count first): leaving it out of the walk changes no answer.
    const bool full = podsAllowed > 0 && m_state.nodeRequested(n)[CoreResource::Pods] >= podsAllowed;
    return m_state.nodePresent(n) && !full && (axis != Gpu || allocatable[CoreResource::Gpu] > 0);
}

std::int64_t CapacityIndex::freeOf(NodeId n, Axis axis) const noexcept
{
    const CoreResource r = resourceOf(axis);
    return m_state.store().nodeAllocatable(m_state.nodeTemplate(n))[r] - m_state.nodeRequested(n)[r];
}

std::uint64_t CapacityIndex::poolOf(std::span<const Label> nodeSelector) const noexcept
{
    std::uint64_t best = 0;
    std::uint32_t bestSize = 0;
    for (std::size_t k = 0; k < m_poolKeys.size(); ++k) {
        if (!m_poolKeys[k].isValid())
            continue;
        for (const Label& l : nodeSelector) {
            if (l.key != m_poolKeys[k])
                continue;
            const std::uint64_t pool = poolId(k, l.value);
            const auto it = m_poolSize.find(pool);
            if (it == m_poolSize.end())
                return kNoNode; // no node has the label value the pod selects
            if (best == 0 || it->second < bestSize) {
                best = pool;
                bestSize = it->second;
            }
        }
    }
    return best;
}

bool CapacityIndex::mayTake(std::uint32_t cls, const PodKey& pod, std::vector<std::uint8_t>& staticOk) const
{
    if (cls == kMixedClass)
        return true;
    const std::span<const Toleration> tolerations = pod.tolerations;
    const std::span<const std::pair<ResourceKey, std::int64_t>> extended = pod.extended;
    auto mayHold = [](std::uint8_t bits, std::int64_t amount) { return bits >= 63 || amount <= (std::int64_t { 1 } << bits) - 1; };
    const NodeClass& c = m_classes[cls];
    const StaticClass& sc = m_staticClasses[c.staticClass];
    std::uint8_t& ok = staticOk[c.staticClass];
    if (ok == 2)
        ok = std::all_of(sc.taints.begin(), sc.taints.end(), [&](const Taint& t) { return scheduling::toleratesTaint(tolerations, t); })
            && std::all_of(extended.begin(), extended.end(), [&](const auto& request) {
                   return request.second <= 0 || (sc.gpusTracked && request.first == m_traceGpuCount)
                       || std::binary_search(sc.extended.begin(), sc.extended.end(), request.first);
               });
    if (!ok)
        return false;
    // Each request: the most the class's nodes can have free.
    bool fits = mayHold(c.cpuBits, pod.cpu) && mayHold(c.memoryBits, pod.memory) && mayHold(c.storageBits, pod.ephemeralStorage);
    for (std::size_t k = 0; fits && k < c.freeBits.size(); ++k)
        for (const auto& [key, amount] : extended)
            if (key == sc.extended[k] && !mayHold(c.freeBits[k], amount))
                fits = false;
    return fits;
}

void CapacityIndex::poolsOfNode(NodeId n, std::vector<std::uint64_t>& out) const
{
    out.assign(1, 0);
    for (std::size_t k = 0; k < m_poolKeys.size(); ++k)
        if (m_poolKeys[k].isValid())
            if (const StringId v = m_state.nodeLabel(n, m_poolKeys[k]); v.isValid())
                out.push_back(poolId(k, v));
}

std::uint32_t CapacityIndex::staticClassOf(NodeId n)
{
    StaticClass c;
    for (const Taint& t : m_state.nodeTaints(n))
        if (scheduling::blocksScheduling(t.effect))
            c.taints.push_back(t);
    c.gpusTracked = !m_state.nodeGpuShares(n).empty();
    for (const auto& [key, amount] : m_state.store().nodeExtendedAllocatable(m_state.nodeTemplate(n)))
        if (amount > 0 && !(c.gpusTracked && key == m_traceGpuCount))
            c.extended.push_back(key);
    std::sort(c.extended.begin(), c.extended.end());
    for (std::uint32_t i = 0; i < m_staticClasses.size(); ++i)
        if (m_staticClasses[i] == c)
            return i;
    m_staticClasses.push_back(std::move(c));
    return static_cast<std::uint32_t>(m_staticClasses.size() - 1);
}

std::uint32_t CapacityIndex::classOf(NodeId n)
{
    NodeClass c;
    c.staticClass = m_nodeStatic[n.index()];
    const StaticClass& sc = m_staticClasses[c.staticClass];
    const auto allocatable = m_state.store().nodeExtendedAllocatable(m_state.nodeTemplate(n));
    for (const ResourceKey key : sc.extended) {
        std::int64_t total = 0;
        for (const auto& [k, amount] : allocatable)
            if (k == key)
                total = amount;
        const std::int64_t free = std::max<std::int64_t>(0, total - m_state.nodeExtendedRequested(n, key));
        c.freeBits.push_back(static_cast<std::uint8_t>(std::bit_width(static_cast<std::uint64_t>(free))));
    }
    auto bits = [](std::int64_t free) { return static_cast<std::uint8_t>(std::bit_width(static_cast<std::uint64_t>(std::max<std::int64_t>(0, free)))); };
    c.cpuBits = bits(freeOf(n, Cpu));
    c.memoryBits = bits(freeOf(n, Memory));
    c.storageBits = bits(m_state.nodeAllocatable(n)[CoreResource::EphemeralStorage] - m_state.nodeRequested(n)[CoreResource::EphemeralStorage]);
    if (const auto it = m_classIds.find(c); it != m_classIds.end())
        return it->second;
    if (m_classes.size() >= kMixedClass)
        return kMixedClass;
    m_classIds.emplace(c, static_cast<std::uint32_t>(m_classes.size()));
    m_classes.push_back(std::move(c));
    return static_cast<std::uint32_t>(m_classes.size() - 1);
}

CapacityIndex::ClassSets& CapacityIndex::setsOf(std::uint64_t pool, std::uint32_t cls)
{
    const auto [it, fresh] = m_sets.try_emplace(setKey(pool, cls), &m_keyMemory);
    if (fresh) {
        it->second.cls = cls;
        it->second.pool = &m_poolClasses[pool];
        if (cls == kMixedClass)
            it->second.pool->mixed = true;
    }
    return it->second;
}

void CapacityIndex::insertKey(ClassSets& cs, Axis axis, const Key& key, bool last)
{
    auto& set = cs.sets[axis];
    if (last)
        set.emplace_hint(set.end(), key);
    else
        set.insert(key);
    if (set.size() != 1)
        return;
    PoolClasses& pc = *cs.pool;
    cs.livePos[axis] = static_cast<std::uint32_t>(pc.live[axis].size());
    pc.live[axis].push_back(&cs);
    if (axis == Gpu || cs.cls == kMixedClass)
        return;
    const std::uint8_t bits = axis == Cpu ? m_classes[cs.cls].cpuBits : m_classes[cs.cls].memoryBits;
    auto& buckets = pc.byBits[axis];
    if (buckets.size() <= bits)
        buckets.resize(bits + 1u);
    cs.bitsPos[axis] = static_cast<std::uint32_t>(buckets[bits].size());
    buckets[bits].push_back(&cs);
}

void CapacityIndex::eraseKey(ClassSets& cs, Axis axis, const Key& key)
{
    auto& set = cs.sets[axis];
    if (set.erase(key) == 0 || !set.empty())
        return;
    // Unlisted by swapping the last entry into its place.
    auto unlist = [](std::vector<ClassSets*>& list, std::uint32_t& pos, auto posOf) {
        ClassSets* last = list.back();
        list[pos] = last;
        posOf(*last) = pos;
        list.pop_back();
        pos = kNotListed;
    };
    PoolClasses& pc = *cs.pool;
    unlist(pc.live[axis], cs.livePos[axis], [axis](ClassSets& c) -> std::uint32_t& { return c.livePos[axis]; });
    if (axis == Gpu || cs.cls == kMixedClass)
        return;
    const std::uint8_t bits = axis == Cpu ? m_classes[cs.cls].cpuBits : m_classes[cs.cls].memoryBits;
    unlist(pc.byBits[axis][bits], cs.bitsPos[axis], [axis](ClassSets& c) -> std::uint32_t& { return c.bitsPos[axis]; });
}

void CapacityIndex::erase(NodeId n)
{
    for (std::uint8_t a = 0; a < 3; ++a) {
        if (n.index() < m_in[a].size() && m_in[a][n.index()]) {
            for (ClassSets* cs : m_nodeSets[n.index()])
                eraseKey(*cs, static_cast<Axis>(a), keyOf(m_key[a][n.index()], n));
            m_in[a][n.index()] = 0;
        }
    }
    // An added node is erased before the ledger removes it: a node added later under the same id
    // may copy another template (other pools, taints, resources).
    if (n.index() + 1 == m_nodePools.size() && n.index() >= m_state.store().nodeCount()) {
        for (const std::uint64_t pool : m_nodePools.back())
            --m_poolSize[pool];
        m_nodePools.pop_back();
        m_nodeStatic.pop_back();
        m_nodeClass.pop_back();
        m_nodeSets.pop_back();
    }
}

void CapacityIndex::update(NodeId n)
{
    const std::size_t i = n.index();
    registerNode(n);
    const std::uint32_t before = m_nodeClass[i];
    const std::uint32_t cls = classOf(n);
    std::vector<ClassSets*>& sets = m_nodeSets[i];
    std::vector<ClassSets*> beforeSets;
    if (cls != before || sets.empty()) {
        beforeSets = sets;
        sets.clear();
        for (const std::uint64_t pool : m_nodePools[i])
            sets.push_back(&setsOf(pool, cls));
    }
    for (std::uint8_t a = 0; a < 3; ++a) {
        auto& keys = m_key[a];
        auto& in = m_in[a];
        const Axis axis = static_cast<Axis>(a);
        const bool wanted = wantedOn(n, axis);
        const std::int64_t key = wanted ? freeOf(n, axis) : 0;
        if (in[i] && wanted && keys[i] == key && cls == before)
            continue; // unchanged on this axis
        if (in[i]) {
            for (ClassSets* cs : cls != before ? beforeSets : sets)
                eraseKey(*cs, axis, keyOf(keys[i], n));
            in[i] = 0;
        }
        if (!wanted)
            continue;
        keys[i] = key;
        for (ClassSets* cs : sets)
            insertKey(*cs, axis, keyOf(key, n));
        in[i] = 1;
    }
    m_nodeClass[i] = cls;
}

} // namespace fleet::model
