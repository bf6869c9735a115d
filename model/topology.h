// SPDX-License-Identifier: Apache-2.0
#pragma once
// The topology tree: nested domains built from node label keys.
//
// Default levels (DESIGN.md): region (topology.kubernetes.io/region), zone
// (topology.kubernetes.io/zone), then the EC2 network layers
// (topology.k8s.aws/network-node-layer-1..3; see the EKS docs "Topology-aware routing"
// and the EC2 instance topology API), then the node. Levels no node carries are
// dropped; a source with none of them (a trace) falls back to GPU model, then instance type.

#include "clusterstore.h"

#include <span>
#include <string>
#include <vector>

namespace fleet::model {

/// Which label keys make the levels of the tree, outermost first. The pseudo keys
/// kGpuModelKey and kInstanceTypeKey group by the node's GPU model / instance type.
struct TopologySpec {
    static constexpr const char* kGpuModelKey = "@gpu-model";
    static constexpr const char* kInstanceTypeKey = "@instance-type";
    std::vector<std::string> levelKeys;
    /// region, zone, network-node-layer-1, -2, -3.
    [[nodiscard]] static TopologySpec defaults();
};

/// An immutable tree of domains over the nodes of one store. Domain 0 is the root
/// (the whole cluster). Every node lies in exactly one leaf domain; the nodes of every
/// domain are one contiguous range of orderedNodes(), so a subtree is a slice.
/// Thread: immutable once built; safe to share.
class Topology {
public:
    /// Builds the tree over `store` (O(N log N) in nodes). Never throws for missing labels:
    /// a node without a level's label goes into a "(no <key>)" domain at that level.
    [[nodiscard]] static Topology build(const ClusterStore& store, const TopologySpec& spec = TopologySpec::defaults());

    [[nodiscard]] DomainId root() const noexcept { return DomainId(0); }
    [[nodiscard]] std::size_t domainCount() const noexcept { return m_parent.size(); }
    /// The keys actually used, outermost first (after dropping absent ones and fallback).
    [[nodiscard]] const std::vector<std::string>& levelKeys() const noexcept { return m_levelKeys; }
    /// Depth: 0 for the root, 1 for the first level, ...
    [[nodiscard]] int domainLevel(DomainId d) const noexcept { return m_level[d.index()]; }
    /// The enclosing domain; an invalid id for the root.
    [[nodiscard]] DomainId domainParent(DomainId d) const noexcept { return m_parent[d.index()]; }
    /// The label value this domain stands for ("us-east-1a"); "cluster" for the root.
    [[nodiscard]] const std::string& domainName(DomainId d) const noexcept { return m_name[d.index()]; }
    /// The domains one level below `d`, in layout order; empty for a leaf.
    [[nodiscard]] std::span<const DomainId> domainChildren(DomainId d) const noexcept;
    /// All nodes under `d`, in layout order.
    [[nodiscard]] std::span<const NodeId> domainNodes(DomainId d) const noexcept;
    /// The leaf domain of node `n`.
    [[nodiscard]] DomainId nodeDomain(NodeId n) const noexcept { return m_nodeDomain[n.index()]; }
    /// Every node once, in layout order (depth-first over the tree).
    [[nodiscard]] std::span<const NodeId> orderedNodes() const noexcept { return m_orderedNodes; }
    [[nodiscard]] bool isLeaf(DomainId d) const noexcept { return domainChildren(d).empty(); }

private:
    std::vector<std::string> m_levelKeys;
    std::vector<DomainId> m_parent;
    std::vector<int> m_level;
    std::vector<std::string> m_name;
    std::vector<std::uint32_t> m_childBegin;
    std::vector<DomainId> m_children;
    std::vector<std::uint32_t> m_nodeBegin;
    std::vector<std::uint32_t> m_nodeEnd;
    std::vector<NodeId> m_orderedNodes;
    std::vector<DomainId> m_nodeDomain;
};

} // namespace fleet::model
