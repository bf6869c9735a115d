// SPDX-License-Identifier: Apache-2.0
#pragma once
// An index of the present nodes of a plan by free capacity, so that the default placement
// policy (best fit, PlanEngine::chooseNode) visits candidates from the tightest fit upward
// instead of scanning every node (a drain of ~30 pods in <= 20 ms at 100k nodes).
//
// Design: ordered sets per axis (cpu millicores, memory bytes, milli-GPU; GPU nodes only on
// the GPU axis) keyed by (free amount, node name; added nodes after store nodes of the same
// free amount). Free = the node's allocatable (its template's for an added node) minus what
// the plan has placed on it. update(n) after every change to n keeps it exact in
// O(sets of n * log nodes). Built in O(nodes log nodes).
//
// The sets are split two ways, so that a pod visits only nodes that can pass two filters:
//  - class: nodes grouped by their list of NoSchedule / NoExecute taints and the extended
//    resources they have (allocatable > 0). A pod walks only the classes whose every such taint
//    it tolerates (scheduling::toleratesTaint, the TaintToleration filter's own rule) and that
//    have every extended resource it requests; a node of another class fails TaintToleration
//    (or node readiness, for the lifecycle taints) or NodeResourcesFit, so the first acceptable
//    node is the same (on nodes whose GPUs the ledger tracks the trace's GPU count is not judged,
//    as NodeResourcesFit skips it there). The classes' sets are merged on the
//    fly in the global order (free, name). A class is split again by how much cpu, memory,
//    ephemeral storage and each extended resource (MIG slices and EFA on GPU nodes too) is free,
//    in powers of two (0, 1, 2-3, 4-7, ...): a pod asking for 16 Neuron devices skips the nodes
//    of its pool whose devices are taken, one walking free cpu skips the nodes whose memory or
//    ephemeral storage is taken (NodeResourcesFit would fail them). A node changes
//    class when a bind changes those; each class is walked on its own up to the best node found.
//  - pool: the same again per value of a few node labels that pods pin themselves to with a
//    nodeSelector (kPoolKeys: node group, node pool, instance type, GPU product); a pinned pod
//    visits the smallest of the pools its selector names. Every node outside it fails the pod's
//    nodeSelector (NodeAffinity): the same first acceptable node.
// bench_consolidate: without these the walk past GPU nodes a CPU pod does not tolerate, and past
// other pools, took most of a drain's time (consolidation.h gives the figures).
//
// Thread: one thread (the PlanEngine's); even the const firstFor() writes the index's scratch.

#include "model/scheduling/planledger.h"

#include <algorithm>
#include <array>
#include <bit>
#include <map>
#include <cstdint>
#include <memory_resource>
#include <set>
#include <span>
#include <unordered_map>
#include <vector>

namespace fleet::model {

class CapacityIndex {
public:
    enum Axis : std::uint8_t { Cpu = 0, Memory = 1, Gpu = 2 };

    explicit CapacityIndex(const PlanLedger& state);

    /// Re-keys node n (present or not, store or added) from the state.
    void update(NodeId n);
    /// Drops node n from every axis (before the ledger removes an added node).
    void erase(NodeId n);
    /// The node's free amount on an axis under the plan.
    [[nodiscard]] std::int64_t freeOf(NodeId n, Axis axis) const noexcept;

    /// What the index knows of a pod: its tolerations, cpu and memory request, extended
    /// requests and nodeSelector (the store's, of the pod's template).
    struct PodKey {
        std::span<const Toleration> tolerations;
        std::int64_t cpu = 0, memory = 0;
        std::span<const std::pair<ResourceKey, std::int64_t>> extended;
        std::span<const Label> nodeSelector;
        std::int64_t ephemeralStorage = 0; // bytes requested
    };
    /// The first node, in increasing free amount on `axis` (ties by node name) from free >=
    /// minFree, for which accept(node) is true, among the present nodes the pod can pass
    /// TaintToleration, NodeResourcesFit (cpu, memory, extended resources, by class) and the
    /// selector's pool key on; invalid when none. Every node left out fails one of those filters
    /// for the pod, so the answer is the first accepted node of the whole fleet's order. Each
    /// class's run is walked only while its nodes come before the best found so far.
    /// Not reentrant: it works in the index's mutable scratch (m_runs, m_staticOk), so one index
    /// must not run firstFor() from two threads at once (nor from inside `accept`), although
    /// the method is const.
    template <class Accept>
    [[nodiscard]] NodeId firstFor(const PodKey& pod, Axis axis, std::int64_t minFree, Accept&& accept) const
    {
        const std::uint64_t pool = poolOf(pod.nodeSelector);
        if (pool == kNoNode)
            return {};
        // Design note (speed): a class's nodes have their free cpu and memory inside one
        // power-of-two bucket (NodeClass::cpuBits, memoryBits), and each pool lists its classes
        // that hold a node on the axis by bucket (PoolClasses::byBits), so on those axes the
        // classes are judged and searched bucket by bucket upward from the one minFree falls in:
        // once a bucket yields a node, every node of a later bucket has more free, and its
        // classes are not looked at. The GPU axis, and a pool with the mixed class, judge every
        // class of the pool that holds a node on the axis (PoolClasses::live) as one group.
        // Only classes with nodes are listed: most classes are empty at any time (bench_consolidate
        // at 20,000 nodes: 3% of the classes a walk judged had a node), and a pool has hundreds.
        using It = KeySet::const_iterator;
        std::vector<std::pair<It, It>>& runs = m_runs; // [it, end) per class of the group
        runs.clear();
        const Less less;
        const Key* best = nullptr;
        const Key from { minFree, 0, NodeId {} };
        auto addRun = [&](const ClassSets& cs) {
            const auto& set = cs.sets[axis];
            const It head = set.lower_bound(from);
            if (head != set.end())
                runs.emplace_back(head, set.end());
        };
        auto walkRuns = [&] {
            std::sort(runs.begin(), runs.end(), [&](const auto& x, const auto& y) { return less(*x.first, *y.first); });
            for (auto& [it, end] : runs) {
                if (best && !less(*it, *best))
                    break; // every later run starts after the best
                for (; it != end && (!best || less(*it, *best)); ++it)
                    if (accept(it->node)) {
                        best = &*it;
                        break;
                    }
            }
            runs.clear();
        };
        const auto pc = m_poolClasses.find(pool);
        if (pc == m_poolClasses.end())
            return {};
        std::vector<std::uint8_t>& staticOk = m_staticOk; // 2: not judged yet
        staticOk.assign(m_staticClasses.size(), 2);
        if (axis != Gpu && !pc->second.mixed) {
            const auto& buckets = pc->second.byBits[axis];
            for (std::size_t b = static_cast<std::size_t>(std::bit_width(static_cast<std::uint64_t>(std::max<std::int64_t>(0, minFree))));
                 b < buckets.size() && !best; ++b) {
                for (const ClassSets* cs : buckets[b])
                    if (mayTake(cs->cls, pod, staticOk))
                        addRun(*cs);
                walkRuns();
            }
        } else {
            for (const ClassSets* cs : pc->second.live[axis])
                if (mayTake(cs->cls, pod, staticOk))
                    addRun(*cs);
            walkRuns();
        }
        return best ? best->node : NodeId {};
    }

private:
    static constexpr std::uint64_t kNoNode = ~std::uint64_t { 0 }; // a pool no node is in
    // Classes past this share one class whose taints are not judged (always walked): setKey()
    // keeps 16 bits for the class.
    static constexpr std::uint32_t kMixedClass = 0xffff;
    struct Key {
        std::int64_t free;
        std::uint64_t tie; // keyOf(): 1 + the node's rank by name (0: before every node of that free amount)
        NodeId node;
    };
    struct Less {
        bool operator()(const Key& a, const Key& b) const noexcept { return a.free != b.free ? a.free < b.free : a.tie < b.tie; }
    };
    [[nodiscard]] Key keyOf(std::int64_t free, NodeId n) const noexcept;
    static constexpr std::uint32_t kNotListed = ~std::uint32_t { 0 };
    struct PoolClasses;
    /// The nodes of one class in one pool, per axis, and where the class is listed in its
    /// pool's PoolClasses (kNotListed: its set on that axis is empty).
    /// A set of keys, its tree nodes from the index's pool (m_keyMemory).
    using KeySet = std::pmr::set<Key, Less>;
    struct ClassSets {
        explicit ClassSets(std::pmr::memory_resource* memory)
            : sets { KeySet(memory), KeySet(memory), KeySet(memory) }
        {
        }
        std::uint32_t cls = 0;
        PoolClasses* pool = nullptr;
        std::array<KeySet, 3> sets;
        std::array<std::uint32_t, 3> livePos { kNotListed, kNotListed, kNotListed }; // in pool->live[axis]
        std::array<std::uint32_t, 2> bitsPos { kNotListed, kNotListed };             // in pool->byBits[axis][bits]
    };
    /// The classes of one pool that hold a node, per axis (a class is listed while its set on
    /// that axis is not empty; the order is not meaningful: walks sort runs by their head).
    struct PoolClasses {
        std::array<std::vector<ClassSets*>, 3> live;
        std::array<std::vector<std::vector<ClassSets*>>, 2> byBits; // [Cpu, Memory][bits]: live classes by NodeClass::cpuBits / memoryBits
        bool mixed = false;                                         // kMixedClass is among the pool's classes
    };
    /// `last`: the key sorts after every key of the set (a bulk build's order), put at its end.
    void insertKey(ClassSets& cs, Axis axis, const Key& key, bool last = false);
    void eraseKey(ClassSets& cs, Axis axis, const Key& key);
    /// The smallest pool a nodeSelector pins a pod to (of kPoolKeys), 0 for none (the whole
    /// fleet), kNoNode when it names a pool no node is in.
    [[nodiscard]] std::uint64_t poolOf(std::span<const Label> nodeSelector) const noexcept;
    /// Whether node class `cls` may hold the pod: every taint of its static class tolerated
    /// (scheduling::toleratesTaint), every extended resource the pod requests offered, and each
    /// request within the most any node of the class can have free (its free-amount bits);
    /// kMixedClass always may. False means every node of the class fails TaintToleration or
    /// NodeResourcesFit for the pod. `staticOk` caches the taint and resource-name judgement per
    /// static class (0 no, 1 yes, 2 not judged yet) for one firstFor() call.
    [[nodiscard]] bool mayTake(std::uint32_t cls, const PodKey& pod, std::vector<std::uint8_t>& staticOk) const;
    static std::uint64_t setKey(std::uint64_t pool, std::uint32_t cls) noexcept { return (pool << 16) ^ cls; }
    void poolsOfNode(NodeId n, std::vector<std::uint64_t>& out) const;
    /// Sizes the per-node tables for node n and records its pools and static class, once.
    void registerNode(NodeId n);
    /// Whether node n is keyed on `axis`: present, not running all the pods its allocatable
    /// allows, and on the GPU axis a GPU node.
    [[nodiscard]] bool wantedOn(NodeId n, Axis axis) const;
    std::uint32_t classOf(NodeId n);
    ClassSets& setsOf(std::uint64_t pool, std::uint32_t cls);

    const PlanLedger& m_state;
    ResourceKey m_traceGpuCount = 0xffff; // kTraceGpuCountResource's key (none: 0xffff)
    std::vector<StringId> m_poolKeys; // kPoolKeys as the store interns them (invalid: absent)
    // Both maps are node-based: ClassSets and PoolClasses keep their addresses.
    // The sets' tree nodes (about 1.2 million at 100,000 nodes: each node is in up to five
    // pools' sets on up to three axes), allocated from pools of their own size and freed
    // together with the index: declared before the sets, so destroyed after them.
    std::pmr::unsynchronized_pool_resource m_keyMemory;
    std::unordered_map<std::uint64_t, ClassSets> m_sets;              // by setKey(pool, class); pool 0: every node
    std::unordered_map<std::uint64_t, PoolClasses> m_poolClasses;
    mutable std::vector<std::pair<KeySet::const_iterator, KeySet::const_iterator>> m_runs; // firstFor's scratch
    mutable std::vector<std::uint8_t> m_staticOk;                                                                    // firstFor's scratch
    std::unordered_map<std::uint64_t, std::uint32_t> m_poolSize;            // nodes ever put in each pool
    struct StaticClass {
        std::vector<Taint> taints;         // blocking ones, in the node's order
        std::vector<ResourceKey> extended; // allocatable > 0, sorted
        bool gpusTracked = false;          // PlanLedger::nodeGpuShares() not empty: the trace's
                                           // GPU count is not judged (kTraceGpuCountResource)
        bool operator==(const StaticClass&) const = default;
    };
    struct NodeClass {
        std::uint32_t staticClass = 0;
        std::uint8_t cpuBits = 0, memoryBits = 0, storageBits = 0; // bit width of the free amount (storage: ephemeral)
        std::vector<std::uint8_t> freeBits;       // per StaticClass::extended: bit width of its free amount
        auto operator<=>(const NodeClass&) const = default;
    };
    std::map<NodeClass, std::uint32_t> m_classIds;
    std::uint32_t staticClassOf(NodeId n);
    std::vector<StaticClass> m_staticClasses;
    std::vector<NodeClass> m_classes;
    std::vector<std::uint32_t> m_nodeStatic;
    std::vector<std::vector<std::uint64_t>> m_nodePools; // the pools each node was put in (0 first)
    std::vector<std::uint32_t> m_nodeClass;
    std::vector<std::vector<ClassSets*>> m_nodeSets; // per node: its class's sets, parallel to m_nodePools
    // Ties are broken by node name: each store node's rank in name order (computed once);
    // added nodes rank after every store node, in the order they were added.
    std::vector<std::uint32_t> m_rank;
    std::array<std::vector<std::int64_t>, 3> m_key;
    std::array<std::vector<std::uint8_t>, 3> m_in;
};

} // namespace fleet::model
