#include "storecopy.h"

#include "model/clusterchange.h"

#include <string>

namespace fleet::model {

namespace {

// A tombstone's name in the copy: never a live row's, so that one batch deletes it.
std::string tombstoneName(std::string_view name, std::uint32_t id)
{
    return std::string(name) + "\x1f" "deleted-" + std::to_string(id);
}

} // namespace

ClusterStore copyStore(const ClusterStore& source, bool finalize, const std::atomic<bool>* cancel)
{
    auto checkCancel = [cancel](std::uint32_t row) {
        if (cancel && (row & 4095U) == 0 && cancel->load(std::memory_order_relaxed))
            throw StoreCopyCancelled();
    };
    ClusterStore copy;
    for (std::size_t i = 0; i < source.strings().size(); ++i)
        (void)copy.strings().intern(source.str(StringId(static_cast<std::uint32_t>(i))));
    for (std::size_t k = copy.resources().size(); k < source.resources().size(); ++k)
        (void)copy.resources().keyFor(source.resources().name(static_cast<ResourceKey>(k)));
    copy.reserve(source.nodeCount(), source.podCount());
    for (std::uint32_t i = 0; i < source.nodeCount(); ++i) {
        checkCancel(i);
        NodeRecord r = source.nodeRecord(NodeId(i));
        if (source.nodeIsDeleted(NodeId(i)))
            r.name = tombstoneName(r.name, i);
        (void)copy.addNode(r, source);
    }
    for (std::uint32_t i = 0; i < source.podCount(); ++i) {
        checkCancel(i);
        PodRecord r = source.podRecord(PodId(i));
        if (source.podIsDeleted(PodId(i)))
            r.name = tombstoneName(r.name, i);
        (void)copy.addPod(r, source);
    }
    for (std::size_t i = 0; i < source.strings().size(); ++i) {
        const StringId ns(static_cast<std::uint32_t>(i));
        const auto labels = source.namespaceLabels(ns);
        if (labels.empty())
            continue;
        std::vector<std::pair<std::string, std::string>> out;
        for (const Label& l : labels)
            out.emplace_back(source.str(l.key), source.str(l.value));
        copy.setNamespaceLabels(source.str(ns), out);
    }
    for (const DisruptionBudget& b : source.disruptionBudgets()) {
        DisruptionBudgetRecord r;
        r.namespaceName = source.str(b.namespaceName);
        r.name = source.str(b.name);
        r.selectorNull = b.selector.null;
        for (const MatchRequirement& q : b.selector.requirements) {
            std::vector<std::string> values;
            for (StringId v : q.values)
                values.emplace_back(source.str(v));
            r.matchExpressions.emplace_back(std::string(source.str(q.key)), q.op, std::move(values));
        }
        r.minAvailable = b.minAvailable;
        r.maxUnavailable = b.maxUnavailable;
        r.disruptionsAllowed = b.disruptionsAllowed;
        copy.addDisruptionBudget(r);
    }
    if (finalize) {
        copy.finalize();
        deleteCopiedTombstones(copy, source);
    }
    return copy;
}

void deleteCopiedTombstones(ClusterStore& copy, const ClusterStore& source)
{
    if (source.deletedNodeCount() == 0 && source.deletedPodCount() == 0)
        return;
    ClusterChangeBatch batch;
    for (std::uint32_t i = 0; i < source.podCount(); ++i)
        if (source.podIsDeleted(PodId(i)))
            batch.deletedPods.emplace_back(std::string(source.podNamespace(PodId(i))), tombstoneName(source.podName(PodId(i)), i));
    for (std::uint32_t i = 0; i < source.nodeCount(); ++i)
        if (source.nodeIsDeleted(NodeId(i)))
            batch.deletedNodes.push_back(tombstoneName(source.nodeName(NodeId(i)), i));
    (void)applyChanges(copy, batch);
}

} // namespace fleet::model
