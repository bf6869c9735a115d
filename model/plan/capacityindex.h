#pragma once
// An index of the present nodes of a plan by free capacity, so that the default placement
// policy (best fit, PlanEngine::chooseNode) visits candidates from the tightest fit upward
// instead of scanning every node (issue 6: a drain of ~30 pods in <= 20 ms at 100k nodes).
//
// Design: one ordered set per axis (cpu millicores, memory bytes, milli-GPU; GPU nodes only on
// the GPU axis) keyed by (free amount, node name; added nodes after store nodes of the same
// free amount). Free = the node's allocatable (its template's
// for an added node) minus what the plan has placed on it. update(n) after every change to n
// keeps it exact in O(log nodes). Built in O(nodes log nodes).
//
// Pools: the same order kept again per value of a few node labels that pods pin themselves to
// with a nodeSelector (kPoolKeys: node group, node pool, instance type, GPU product), so that a
// pinned pod visits only the nodes of its pool (bench_consolidate: the fleet-wide walk past
// nodes of other pools took most of a drain's time). Every node outside the pool fails the
// pod's nodeSelector (NodeAffinity), so the first acceptable node is the same either way.
//
// Thread: one thread (the PlanEngine's).

#include "model/scheduling/placementstate.h"

#include <array>
#include <cstdint>
#include <set>
#include <span>
#include <unordered_map>
#include <vector>

namespace fleet::model {

class CapacityIndex {
public:
    enum Axis : std::uint8_t { Cpu = 0, Memory = 1, Gpu = 2 };

    explicit CapacityIndex(const PlacementState& state);

    /// Re-keys node n (present or not, store or added) from the state. O(log nodes).
    void update(NodeId n);
    /// Drops node n from every axis (before the ledger removes an added node).
    void erase(NodeId n);
    /// The node's free amount on an axis under the plan.
    [[nodiscard]] std::int64_t freeOf(NodeId n, Axis axis) const noexcept;

    /// Calls visit(node) for present nodes in increasing free amount on `axis` (ties by node
    /// name), starting at the first with free >= minFree, until visit returns true.
    template <class Visit>
    void visitFrom(Axis axis, std::int64_t minFree, Visit&& visit) const
    {
        const auto& set = m_sets[axis];
        for (auto it = set.lower_bound(Key { minFree, NodeId {} }); it != set.end(); ++it)
            if (visit(it->node))
                return;
    }

    /// The pool a nodeSelector pins a pod to (the first of kPoolKeys it names), or 0 for none.
    [[nodiscard]] std::uint64_t poolOf(std::span<const Label> nodeSelector) const noexcept;
    /// visitFrom() over the nodes of one pool (poolOf() != 0); none when no node is in it.
    template <class Visit>
    void visitPoolFrom(std::uint64_t pool, Axis axis, std::int64_t minFree, Visit&& visit) const
    {
        const auto it = m_pools.find(pool);
        if (it == m_pools.end())
            return;
        const auto& set = it->second[axis];
        for (auto k = set.lower_bound(Key { minFree, NodeId {} }); k != set.end(); ++k)
            if (visit(k->node))
                return;
    }

private:
    struct Key {
        std::int64_t free;
        NodeId node;
    };
    struct Less {
        const std::vector<std::uint32_t>* rank;
        bool operator()(const Key& a, const Key& b) const noexcept;
    };
    void poolsOfNode(NodeId n, std::vector<std::uint64_t>& out) const;
    const PlacementState& m_state;
    std::vector<StringId> m_poolKeys; // kPoolKeys as the store interns them (invalid: absent)
    std::unordered_map<std::uint64_t, std::array<std::set<Key, Less>, 3>> m_pools;
    std::vector<std::vector<std::uint64_t>> m_nodePools; // the pools each node was put in
    // Ties are broken by node name: each store node's rank in name order (computed once);
    // added nodes rank after every store node, in the order they were added.
    std::vector<std::uint32_t> m_rank;
    std::array<std::set<Key, Less>, 3> m_sets;
    std::array<std::vector<std::int64_t>, 3> m_key;
    std::array<std::vector<std::uint8_t>, 3> m_in;
};

} // namespace fleet::model
