#include "planstaleness.h"

#include <unordered_map>
#include <unordered_set>

namespace fleet::model {

namespace {

std::string podKey(std::string_view ns, std::string_view name)
{
    std::string k(ns);
    k += '/';
    k += name;
    return k;
}

/// What the batch does to pods and nodes, by name: the reason each becomes stale.
struct BatchIndex {
    std::unordered_map<std::string, std::string> pods, nodes; // key -> why
    const ClusterChangeBatch* batch = nullptr;
    std::unordered_set<std::string> heldPods, heldNodes; // a relist: what it still holds
};

std::string podChange(const ClusterStore& store, PodId p, const ClusterStore& in, PodId q)
{
    const std::string name = podKey(in.podNamespace(q), in.podName(q));
    if (!p.isValid())
        return "pod " + name + " was created again";
    if (!store.podUid(p).empty() && !in.podUid(q).empty() && store.podUid(p) != in.podUid(q))
        return "pod " + name + " was recreated (another uid)";
    if (store.podPhase(p) != in.podPhase(q))
        return "pod " + name + " is now " + std::string(podPhaseName(in.podPhase(q)));
    if (store.podNodeName(p) != in.podNodeName(q))
        return in.podNodeName(q).empty() ? "pod " + name + " is now Pending"
                                         : "pod " + name + " is now on node " + std::string(in.podNodeName(q));
    if (!(store.podRequest(p) == in.podRequest(q)))
        return "pod " + name + " changed its requests";
    return "pod " + name + " changed";
}

std::string nodeChange(const ClusterStore& store, NodeId n, const ClusterStore& in, NodeId m)
{
    const std::string name(in.nodeName(m));
    if (!n.isValid())
        return "node " + name + " was added";
    if (in.nodeReadiness(m) != Readiness::True && store.nodeReadiness(n) == Readiness::True)
        return "node " + name + " is now NotReady";
    if (in.nodeReadiness(m) == Readiness::True && store.nodeReadiness(n) != Readiness::True)
        return "node " + name + " is Ready again";
    if (in.nodeUnschedulable(m) != store.nodeUnschedulable(n))
        return "node " + name + (in.nodeUnschedulable(m) ? " was cordoned" : " was uncordoned");
    if (!(in.nodeAllocatable(m) == store.nodeAllocatable(n)))
        return "node " + name + " changed its allocatable";
    return "node " + name + " changed";
}

} // namespace

std::vector<StaleAction> findStaleActions(const std::vector<AppliedAction>& applied, const ClusterStore& store, const ClusterChangeBatch& batch)
{
    BatchIndex b;
    const ClusterStore& in = batch.upserted;
    for (const auto& [ns, name] : batch.deletedPods)
        b.pods.emplace(podKey(ns, name), "pod " + podKey(ns, name) + " was deleted");
    for (const std::string& name : batch.deletedNodes)
        b.nodes.emplace(name, "node " + name + " was deleted");
    for (std::uint32_t i = 0; i < in.podCount(); ++i) {
        const PodId q(i);
        b.pods.emplace(podKey(in.podNamespace(q), in.podName(q)), podChange(store, store.findPod(in.podNamespace(q), in.podName(q)), in, q));
        if (batch.replacesAll)
            b.heldPods.insert(podKey(in.podNamespace(q), in.podName(q)));
    }
    for (std::uint32_t i = 0; i < in.nodeCount(); ++i) {
        const NodeId m(i);
        b.nodes.emplace(std::string(in.nodeName(m)), nodeChange(store, store.findNode(in.nodeName(m)), in, m));
        if (batch.replacesAll)
            b.heldNodes.insert(std::string(in.nodeName(m)));
    }
    auto podWhy = [&](const std::string& key) -> std::string {
        if (const auto it = b.pods.find(key); it != b.pods.end()) {
            // A relist re-sends every pod: only a real change counts.
            if (!batch.replacesAll || it->second.ends_with("was deleted") || !it->second.ends_with(" changed"))
                return it->second;
            return {};
        }
        if (batch.replacesAll && !b.heldPods.contains(key))
            return "pod " + key + " is gone (relist)";
        return {};
    };
    auto nodeWhy = [&](const std::string& name) -> std::string {
        if (name.empty())
            return {};
        if (const auto it = b.nodes.find(name); it != b.nodes.end()) {
            if (!batch.replacesAll || !it->second.ends_with(" changed"))
                return it->second;
            return {};
        }
        if (batch.replacesAll && !b.heldNodes.contains(name))
            return "node " + name + " is gone (relist)";
        return {};
    };
    auto storePod = [&](PodId p) { return p.isValid() && p.index() < store.podCount() ? podKey(store.podNamespace(p), store.podName(p)) : std::string(); };
    auto storeNode = [&](NodeId n) { return n.isValid() && n.index() < store.nodeCount() ? std::string(store.nodeName(n)) : std::string(); };

    std::vector<StaleAction> out;
    for (std::size_t i = 0; i < applied.size(); ++i) {
        const AppliedAction& a = applied[i];
        std::string why;
        if (!a.action.pod.name.empty())
            why = podWhy(podKey(a.action.pod.namespaceName, a.action.pod.name));
        if (why.empty())
            why = nodeWhy(a.action.node);
        for (std::size_t k = 0; why.empty() && k < a.changes.size(); ++k) {
            if (const std::string key = storePod(a.changes[k].pod); !key.empty())
                why = podWhy(key);
            if (why.empty())
                why = nodeWhy(storeNode(a.changes[k].from));
            if (why.empty())
                why = nodeWhy(storeNode(a.changes[k].to));
        }
        for (std::size_t k = 0; why.empty() && k < a.nodesRemoved.size(); ++k)
            why = nodeWhy(storeNode(a.nodesRemoved[k]));
        for (std::size_t k = 0; why.empty() && k < a.unplaced.size(); ++k)
            if (const std::string key = storePod(a.unplaced[k].first); !key.empty())
                why = podWhy(key);
        if (!why.empty())
            out.push_back({i, std::move(why)});
    }
    return out;
}

} // namespace fleet::model
